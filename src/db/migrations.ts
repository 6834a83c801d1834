import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { forSchemaEngine } from './engine-pool.js';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

/** The project folder (the one holding package.json), whether this runs as source or built into dist/. */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
const root = projectRoot();
export const migrationsDir = join(root, 'prisma/migrations');
export const schemaPath = join(root, 'prisma/schema.prisma');

type Engine = {
  applyMigrations(input: unknown): Promise<{ appliedMigrationNames: string[] }>;
  diff(input: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
};
type EngineModule = { SchemaEngine: { new: (o: unknown, cb: (msg: string) => void, adapter: object) => Promise<Engine> } };

let engineModule: Promise<EngineModule> | undefined;

let engineRuns = 0;
/** How many times this process has run the schema engine (tests check a start that needs none skips it). */
export const schemaEngineRuns = () => engineRuns;

/**
 * Loads Prisma's schema engine compiled to Wasm. The package's own entry imports the .wasm file
 * as an ES module, which Node cannot do, so the bytes are instantiated here against its JS glue.
 */
function loadEngine(): Promise<EngineModule> {
  engineModule ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const bytes = await readFile(join(dirname(gluePath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': glue as never });
    (glue as unknown as { __wbg_set_wasm(w: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
    return glue as unknown as EngineModule;
  })();
  return engineModule;
}

async function withEngine<T>(factory: SqlMigrationAwareDriverAdapterFactory, fn: (engine: Engine) => Promise<T>): Promise<T> {
  engineRuns++;
  const { SchemaEngine } = await loadEngine();
  // The engine never closes the connections it opens; track them and dispose them ourselves.
  const opened: { dispose(): Promise<void> }[] = [];
  const tracked = {
    adapterName: factory.adapterName,
    provider: factory.provider,
    async connect() {
      const adapter = await factory.connect();
      opened.push(adapter);
      return forSchemaEngine(adapter as never);
    },
    async connectToShadowDb() {
      const adapter = await factory.connectToShadowDb();
      opened.push(adapter);
      return forSchemaEngine(adapter as never);
    },
  } as SqlMigrationAwareDriverAdapterFactory;
  const schema = await readFile(schemaPath, 'utf8');
  const timers = new Set<NodeJS.Timeout>();
  // The engine arms a long timer that would keep short-lived CLI processes alive; unref it.
  const originalSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    const t = originalSetTimeout(...args);
    t.unref?.();
    timers.add(t);
    return t;
  }) as typeof setTimeout;
  try {
    const engine = await SchemaEngine.new(
      { datamodels: [[schemaPath, schema]] },
      () => {},
      bindMigrationAwareSqlAdapterFactory(tracked),
    );
    try {
      return await fn(engine);
    } finally {
      engine.free();
    }
  } finally {
    globalThis.setTimeout = originalSetTimeout;
    await Promise.all(opened.map((a) => a.dispose().catch(() => {})));
  }
}

async function allApplied(pool: Pick<pg.Pool, 'query'>, dirs: { path: string; migrationFile: { content: { value: string } } }[]): Promise<boolean> {
  // A new database has no table yet: asked first, so that no failed statement reaches the server's log.
  const [{ present }] = (await pool.query<{ present: boolean }>(`SELECT to_regclass('"_prisma_migrations"') IS NOT NULL AS present`)).rows as [{ present: boolean }];
  if (!present) return false;
  const { rows } = await pool.query<{ migration_name: string; checksum: string; finished: boolean; rolled_back: boolean }>(
    'SELECT migration_name, checksum, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back FROM "_prisma_migrations"',
  );
  if (rows.some((r) => !r.finished && !r.rolled_back)) return false;
  const applied = new Set(rows.filter((r) => r.finished && !r.rolled_back).map((r) => `${r.migration_name}\0${r.checksum}`));
  return dirs.every((d) => applied.has(`${d.path}\0${createHash('sha256').update(d.migrationFile.content.value).digest('hex')}`));
}

async function migrationList() {
  const dirs = existsSync(migrationsDir)
    ? (await readdir(migrationsDir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()
    : [];
  const lockPath = join(migrationsDir, 'migration_lock.toml');
  return {
    baseDir: migrationsDir,
    lockfile: { path: 'migration_lock.toml', content: existsSync(lockPath) ? await readFile(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (path) => ({
        path,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok', value: await readFile(join(migrationsDir, path, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

/**
 * Applies prisma/migrations exactly as `prisma migrate deploy` would. Given the database's
 * connections, a start whose every migration is recorded as applied, with the checksum of the
 * file as it is (sha256), and none failed, skips the schema engine: loading its Wasm cost every
 * start ~0.5 s and memory the embedded database never gives back. Anything else is the engine's.
 */
export async function applyMigrations(factory: SqlMigrationAwareDriverAdapterFactory, pool?: Pick<pg.Pool, 'query'>): Promise<string[]> {
  const migrationsList = await migrationList();
  if (pool && (await allApplied(pool, migrationsList.migrationDirectories))) return [];
  return withEngine(factory, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: { externalTables: [], externalEnums: [] } });
    return out.appliedMigrationNames;
  });
}

/** SQL that takes a database built from the migrations to schema.prisma ('' when they agree). */
export async function diffMigrationsToSchema(factory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const migrationsList = await migrationList();
  const schema = await readFile(schemaPath, 'utf8');
  return withEngine(factory, async (engine) => {
    const out = await engine.diff({
      from: { tag: 'migrations', ...migrationsList },
      to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: false,
      filters: { externalTables: [], externalEnums: [] },
    });
    return (out.stdout ?? '').trim();
  });
}
