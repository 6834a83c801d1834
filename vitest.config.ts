import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module) builds; Node gives dependencies the CJS one, so
  // our sources must get the same copy or schema objects cross realms.
  resolve: { alias: { graphql: createRequire(import.meta.url).resolve('graphql') } },
  test: {
    include: ['test/**/*.test.ts'],
    // Migrates and seeds one database the test files' apps copy (test/helpers/harness.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each API test file starts its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    env: { NODE_ENV: 'test' },
  },
});
