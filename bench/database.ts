/** The benchmarks' own database: PGlite in a temporary folder, or a database of their own on a PostgreSQL server. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface BenchDatabase {
  /** DATA_DIR, and DATABASE_URL on PostgreSQL, for the server's settings. */
  env: Record<string, string>;
  client: () => pg.Client;
  drop: () => Promise<void>;
  kind: 'pglite' | 'postgres';
}

/** `server`: a PostgreSQL server's URL, where a database named `prefix`_<random> is made (and dropped by `drop`). */
export async function benchDatabase(server: string | undefined, prefix: string): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), `${prefix.replace(/_/g, '-')}-`));
  if (!server) {
    return { env: { DATA_DIR: dataDir }, client: () => new pg.Client({ host: dataDir, port: 5432, user: 'postgres', database: 'postgres' }), drop: async () => rmSync(dataDir, { recursive: true, force: true }), kind: 'pglite' };
  }
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dataDir },
    client: () => new pg.Client({ connectionString: url.toString() }),
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      const a = new pg.Client({ connectionString: server });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
    kind: 'postgres',
  };
}

/**
 * The demo catalog cloned until it is `scale` times its size: every business with its rows,
 * under new ids and slugs, in the database directly (row triggers off: nothing is listening yet).
 */
export async function cloneCatalog(db: pg.Client, scale: number) {
  const tables = ['Business', 'WeeklyHours', 'ServiceZip', 'BusinessLink', 'Block', 'Booking', 'BookingVisit'];
  const suffixed = new Set(['id', 'businessId', 'bookingId', 'manageTokenHash', 'confirmTokenHash', 'linkCode']);
  await db.query('BEGIN');
  await db.query("SET LOCAL session_replication_role = 'replica'");
  for (const table of tables) {
    const columns = (await db.query<{ column_name: string }>('SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position', [table])).rows.map((r) => r.column_name);
    const select = columns.map((c) =>
      suffixed.has(c) ? `"${c}" || '_x' || k` : c === 'slug' ? `"slug" || '-x' || k` : c === 'ownerId' ? 'NULL' : `"${c}"`,
    );
    await db.query(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) SELECT ${select.join(', ')} FROM "${table}" CROSS JOIN generate_series(1, ${scale - 1}) AS k`);
  }
  await db.query('COMMIT');
  // A bulk load leaves no planner statistics; autovacuum would gather them in the middle of the
  // first measurement. A live database has them, so they are gathered here, before timing.
  await db.query(`VACUUM ANALYZE ${tables.map((t) => `"${t}"`).join(', ')}`);
  const count = async (table: string) => Number((await db.query(`SELECT count(*) FROM "${table}"`)).rows[0].count);
  return { businesses: await count('Business'), visits: await count('BookingVisit'), blocks: await count('Block'), zips: await count('ServiceZip') };
}
