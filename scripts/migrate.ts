// npm run db:migrate: applies prisma/migrations to DATABASE_URL, or to the embedded database.
import { openDatabase } from '../src/db/database.js';
import { applyMigrations } from '../src/db/migrations.js';
import { loadConfig } from '../src/config.js';

const config = loadConfig();
const db = await openDatabase({ url: config.databaseUrl, poolSize: config.databasePoolSize, dataDir: config.dataDir, pgliteSharedBuffers: config.pgliteSharedBuffers, shareRunning: true });
try {
  const applied = await applyMigrations(db.migrationFactory);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
} finally {
  await db.close();
}
