/**
 * A new embedded data folder is migrated and seeded by a short-lived child process, so the
 * server's own memory is what serving costs: PGlite's Wasm memory never shrinks, and seeding the
 * demo month in the server left it ~50 MB heavier at its peak for its whole life. Only the
 * compiled server (`npm start`) does this; run from TypeScript (tests, tsx scripts) the folder is
 * prepared in process as before, since a child there would need the TypeScript loader.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDatabase, StartupError } from '../db/database.js';
import { applyMigrations } from '../db/migrations.js';
import { seedDemoData } from './seed.js';

interface Preparation {
  dataDir: string;
  pgliteSharedBuffers?: string;
  seedDemo: boolean;
  now: number;
}

const self = fileURLToPath(import.meta.url);

/** Prepares a new embedded data folder in a child process; false when there is nothing to do here. */
export async function prepareApart(p: Preparation & { databaseUrl?: string }): Promise<boolean> {
  if (p.databaseUrl || !self.endsWith('.js') || existsSync(join(p.dataDir, 'pglite', 'PG_VERSION'))) return false;
  const job: Preparation = { dataDir: p.dataDir, pgliteSharedBuffers: p.pgliteSharedBuffers, seedDemo: p.seedDemo, now: p.now };
  await promisify(execFile)(process.execPath, [self, JSON.stringify(job)], { timeout: 300_000 }).catch((err: { stderr?: string }) => {
    throw new StartupError(`Preparing the new data folder ${p.dataDir} failed: ${err.stderr?.trim().split('\n')[0] || 'the process stopped'}`);
  });
  return true;
}

async function prepare(job: Preparation) {
  const db = await openDatabase({ dataDir: job.dataDir, pgliteSharedBuffers: job.pgliteSharedBuffers });
  try {
    await applyMigrations(db.migrationFactory);
    if (job.seedDemo) await seedDemoData(db.prisma, { now: job.now });
  } finally {
    await db.close();
  }
}

if (process.argv[1] === self) {
  prepare(JSON.parse(process.argv[2]!) as Preparation).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exit(1);
    },
  );
}
