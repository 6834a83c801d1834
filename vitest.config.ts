import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import { configDefaults, defineConfig } from 'vitest/config';

// Test databases are copied from the template and removed by the hundred. On CI's machine kind
// (ext4 mounted with discard) that file traffic was a fifth of the PGlite run, so where there is
// a memory file system they live there; a TMPDIR already set is kept. Workers and child
// processes inherit it (os.tmpdir() reads it).
if (!process.env.TMPDIR && writable('/dev/shm')) process.env.TMPDIR = '/dev/shm';

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

export default defineConfig({
  // graphql 16 ships CJS (main) and ESM (module) builds; Node gives dependencies the CJS one, so
  // our sources must get the same copy or schema objects cross realms.
  resolve: { alias: { graphql: createRequire(import.meta.url).resolve('graphql') } },
  test: {
    include: ['test/**/*.test.ts'],
    // The PostgreSQL pass (TEST_DATABASE_URL) runs again only what meets the database: pages in a
    // browser, pure functions, file readers and the production start (on its own embedded
    // database) behave the same on both, and running them twice would take CI past 20 minutes.
    exclude: process.env.TEST_DATABASE_URL
      ? [...configDefaults.exclude, 'test/browser/**', 'test/unit/**', 'test/api/reader-bombs.test.ts', 'test/api/production-start.test.ts']
      : configDefaults.exclude,
    // Migrates and seeds one database the test files' apps copy (test/helpers/harness.ts).
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each API test file starts its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    // Files share a worker's imported modules (the schema, the registry, Prisma's client) instead
    // of importing the app again per file; each file still starts its own app and database.
    isolate: false,
    env: { NODE_ENV: 'test' },
  },
});
