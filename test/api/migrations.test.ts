// A start on a database whose every migration is applied, unchanged, skips Prisma's schema engine
// (its Wasm costs time and memory the embedded database never gives back); anything else —
// a new database, a migration file changed since it was applied — is still the engine's.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { applyMigrations, migrationsDir, schemaEngineRuns } from '../../src/db/migrations.js';
import { freshDatabase } from '../helpers/harness.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

async function open(seeded: boolean): Promise<Database> {
  const fresh = await freshDatabase(seeded);
  const db = await openDatabase({ url: fresh.url, dataDir: fresh.dataDir });
  cleanups.push(fresh.drop, () => db.close());
  return db;
}

describe('applying migrations at start', () => {
  it('skips the schema engine when every migration is applied as it is, and uses it otherwise', async () => {
    const db = await open(true);
    const runs = schemaEngineRuns();
    expect(await applyMigrations(db.migrationFactory, db.pool)).toEqual([]);
    expect(schemaEngineRuns()).toBe(runs);

    // A migration file that no longer matches what was applied: the engine decides, as deploy does.
    await db.pool.query(`UPDATE "_prisma_migrations" SET checksum = 'changed' WHERE migration_name = (SELECT max(migration_name) FROM "_prisma_migrations")`);
    expect(await applyMigrations(db.migrationFactory, db.pool)).toEqual([]);
    expect(schemaEngineRuns()).toBe(runs + 1);
  }, 120_000);

  it('applies every migration to a new database', async () => {
    const db = await open(false);
    const all = readdirSync(migrationsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    expect(await applyMigrations(db.migrationFactory, db.pool)).toEqual(all);
    expect(await applyMigrations(db.migrationFactory, db.pool)).toEqual([]);
  }, 180_000);
});
