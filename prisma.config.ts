import { existsSync } from 'node:fs';
import { defineConfig } from 'prisma/config';

// `prisma generate` insists on finding a schema engine binary before it starts, though it never
// runs one; offline machines have none to download. Any existing file satisfies the check, and
// migrations run through the Wasm engine (scripts/migrate.ts), so point it at this file unless
// the user already has a real engine configured.
if (!process.env.PRISMA_SCHEMA_ENGINE_BINARY && existsSync('prisma.config.ts')) {
  process.env.PRISMA_SCHEMA_ENGINE_BINARY = 'prisma.config.ts';
}

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
