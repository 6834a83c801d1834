import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { engineClient } from './engine-pool.js';
import { statementName } from './sql.js';

export interface Database {
  prisma: PrismaClient;
  /**
   * Hears other processes' committed changes (PostgreSQL LISTEN; triggers NOTIFY on commit).
   * PGlite is embedded in this one process: it has no other process to hear.
   */
  listen(channels: string[], onNotify: (channel: string, payload: string) => void, onReset: () => void): Promise<() => Promise<void>>;
  /** Adapter factory for the schema engine (migrations); hands out its own connections. */
  migrationFactory: PrismaPg;
  /** The connections Prisma uses, for hot writes in plain SQL (sqlTransaction). */
  pool: pg.Pool;
  /** Whether statements may be prepared on these connections (PGlite's socket serves unnamed ones only). */
  prepared: boolean;
  kind: 'pglite' | 'postgresql';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… ; when absent the embedded PGlite under dataDir is used. */
  url?: string;
  dataDir?: string;
  /** The embedded database's buffer pool (config.pgliteSharedBuffers); default 16MB. */
  pgliteSharedBuffers?: string;
  /** Pool size for a real PostgreSQL (config.databasePoolSize); absent, pg's own (tests). */
  poolSize?: number;
  /** Called once per SQL statement Prisma sends (tests count queries with it). */
  onQuery?: () => void;
  /**
   * Embedded database only: a tool (manage-code, migrate) uses the socket of a server already
   * serving the data folder; a server refuses to start beside one (StartupError naming its pid).
   */
  shareRunning?: boolean;
}

/** A start that cannot go on, with a sentence saying what to do (printed without a stack). */
export class StartupError extends Error {}

/** A PrismaClient over an adapter; with onQuery, query events are emitted and counted. */
function prismaClient(adapter: PrismaPg, options: Pick<DatabaseOptions, 'onQuery'>): PrismaClient {
  const { onQuery } = options;
  if (!onQuery) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', () => onQuery());
  return prisma;
}

/**
 * LISTEN on a dedicated connection. When it drops, onReset (notifications may have been missed)
 * and reconnect every second until it is back, then onReset again for what changed meanwhile.
 */
async function pgListen(
  connection: pg.ClientConfig,
  channels: string[],
  onNotify: (channel: string, payload: string) => void,
  onReset: () => void,
  ownBackends: ReadonlySet<number>,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  const reconnectSoon = () => {
    if (stopped || retry) return;
    onReset();
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(onReset, reconnectSoon);
    }, 1000);
  };
  const connect = async () => {
    const c = new pg.Client(connection);
    // This process applied its own commits already (at commit, in memory); only others' are news.
    c.on('notification', (n) => {
      if (!ownBackends.has(n.processId)) onNotify(n.channel, n.payload ?? '');
    });
    c.on('error', () => {});
    c.on('end', () => {
      if (client !== c) return;
      client = undefined;
      reconnectSoon();
    });
    try {
      await c.connect();
      for (const ch of channels) await c.query(`LISTEN ${pg.escapeIdentifier(ch)}`);
    } catch (err) {
      await c.end().catch(() => {});
      throw err;
    }
    client = c;
  };
  await connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    const c = client;
    client = undefined;
    await c?.end().catch(() => {});
  };
}

const noListen: Database['listen'] = async () => async () => {};

/** PGlite's socket file lives in the data folder so that CLI tools can reach a running server. */
export const pgliteSocketDir = (dataDir: string) => resolve(dataDir);
const SOCKET_PORT = 5432;

/**
 * Opens the database. Both kinds are reached through @prisma/adapter-pg, so everything above
 * this function runs one code path; PGlite is served over its wire-protocol socket.
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.url) {
    const url = options.url;
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize });
    // An idle connection that dies (a restart, a terminated backend) is dropped and replaced by
    // the pool; without a listener its error would end the process.
    pool.on('error', () => {});
    // The backends of this process's connections: notices they cause are this process's own.
    const ownBackends = new Set<number>();
    // pg keeps each connection's backend process id (from BackendKeyData, for cancel requests).
    const pidOf = (client: pg.PoolClient) => (client as unknown as { processID: number | null }).processID;
    pool.on('connect', (client) => {
      const pid = pidOf(client);
      if (pid !== null) ownBackends.add(pid);
    });
    pool.on('remove', (client) => {
      const pid = pidOf(client);
      if (pid !== null) ownBackends.delete(pid);
    });
    const prisma = prismaClient(new PrismaPg(pool, { statementNameGenerator: (query) => statementName(query.sql, query.args.length) as string }), options);
    const migrationFactory = new PrismaPg({ connectionString: url, max: 1, Client: engineClient });
    return {
      prisma,
      migrationFactory,
      pool,
      prepared: true,
      kind: 'postgresql',
      listen: (channels, onNotify, onReset) => pgListen({ connectionString: url }, channels, onNotify, onReset, ownBackends),
      async close() {
        await prisma.$disconnect();
        await pool.end().catch(() => {});
      },
    };
  }
  const dataDir = options.dataDir ?? './data';
  const socketDir = pgliteSocketDir(dataDir);
  const socketPath = join(socketDir, `.s.PGSQL.${SOCKET_PORT}`);
  const pidFile = join(dataDir, PID_FILE);
  if (await answers(socketDir)) {
    if (options.shareRunning) return pgliteDatabase(socketDir, options);
    const pid = readPid(pidFile);
    throw new StartupError(
      `Another Porchlight${pid ? ` (pid ${pid})` : ''} already serves the data folder ${resolve(dataDir)}. Stop it first, or give this one its own folder with DATA_DIR.`,
    );
  }
  // Left by a server that crashed or was killed: nothing answers on it, and it would stop this start.
  rmSync(socketPath, { force: true });

  mkdirSync(join(dataDir, 'pglite'), { recursive: true });
  // Loaded only here: a server on PostgreSQL never needs PGlite's ~30 MB.
  const [{ PGlite }, { btree_gist }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gist'),
    import('@electric-sql/pglite-socket'),
  ]);
  const settings = pgliteSettings(options.pgliteSharedBuffers);
  let db: InstanceType<typeof PGlite>;
  try {
    await createPgliteDir(join(dataDir, 'pglite'), settings);
    db = await PGlite.create(join(dataDir, 'pglite'), {
      extensions: { btree_gist },
      startParams: [...PGlite.defaultStartParams, ...settings],
    });
  } catch (err) {
    throw new StartupError(
      `The embedded database in ${resolve(dataDir, 'pglite')} could not be opened (${firstLine(err)}). ` +
        'If it was copied from another version or damaged, move that folder away (or set DATA_DIR to a new folder) and start again: a new demo database is created.',
    );
  }
  const server = new PGLiteSocketServer({
    db,
    path: socketPath,
    // A CLI (manage-code) may connect while the server holds its pool connection; PGlite then
    // serialises whole transactions across the connections.
    maxConnections: 4,
  });
  await server.start();
  if (!options.shareRunning) writeFileSync(pidFile, `${process.pid}\n`);
  return pgliteDatabase(socketDir, options, async () => {
    await server.stop();
    await db.close();
    if (!options.shareRunning) rmSync(pidFile, { force: true });
  });
}

/**
 * PostgreSQL's defaults size a dedicated server; PGlite runs inside our process and its Wasm heap
 * never shrinks. 128 MB of shared buffers alone cost ~110 MB of resident memory at open, and the
 * demo database is ~10 MB. PGLITE_SHARED_BUFFERS (config.ts) raises it for a large embedded catalog.
 */
const pgliteSettings = (sharedBuffers = '16MB') => ['-c', `shared_buffers=${sharedBuffers}`];

/**
 * A new PGlite folder is made by initdb, which runs a second PGlite and a tarball of the result
 * in memory: ~400 MB that Wasm never gives back. A short-lived child process pays it instead, so
 * the server's own peak stays what serving costs.
 */
async function createPgliteDir(dir: string, settings: string[]) {
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const script =
    'const { PGlite } = require(process.argv[1]);' +
    'PGlite.create(process.argv[2], { startParams: [...PGlite.defaultStartParams, ...JSON.parse(process.argv[3])] })' +
    '.then((db) => db.close()).catch((e) => { console.error(String(e && e.message).split("\\n")[0]); process.exit(1); });';
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  await promisify(execFile)(process.execPath, ['-e', script, entry, dir, JSON.stringify(settings)], { timeout: 120_000 }).catch(
    (err: { stderr?: string }) => {
      throw new Error(`creating it failed: ${err.stderr?.trim() || 'the process stopped'}`);
    },
  );
}

/** The server serving a data folder writes its process id here, for the message a second start prints. */
const PID_FILE = 'porchlight.pid';

function readPid(path: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** An error's first line, short: PGlite's own can carry kilobytes of its minified source. */
const firstLine = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);

// PGlite answers one statement at a time; a pool of one keeps transactions whole.
const pgliteConnection = (socketDir: string) => ({ host: socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres', max: 1 });
const pgliteFactory = (socketDir: string, Client: typeof engineClient) => new PrismaPg({ ...pgliteConnection(socketDir), Client });

/** A connection that clears PGlite's shared session of prepared names before the pool hands it out. */
class FreshSessionClient extends pg.Client {
  // pg.Pool connects with a callback; a promise is returned when none is given.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override connect(callback?: (...args: any[]) => void): any {
    const ready = super.connect().then(() => super.query('DEALLOCATE ALL')).then(() => this);
    if (!callback) return ready;
    ready.then((client) => callback(null, client), (err: Error) => callback(err));
  }
}

/**
 * A database over PGlite's socket. The process serving it (`stop` given) prepares its statements,
 * as on PostgreSQL: planning the schedule's statement alone takes ~4 ms in PGlite. Every socket
 * connection shares PGlite's one session, so prepared names are the server's alone: its one
 * connection is kept open, and a new one starts from DEALLOCATE ALL (names left by the one it
 * replaces would clash). A tool sharing a running server (shareRunning) prepares nothing.
 */
function pgliteDatabase(socketDir: string, options: Pick<DatabaseOptions, 'onQuery'>, stop?: () => Promise<void>): Database {
  const serving = stop !== undefined;
  const pool = new pg.Pool({ ...pgliteConnection(socketDir), idleTimeoutMillis: serving ? 0 : 10_000, ...(serving ? { Client: FreshSessionClient } : {}) });
  pool.on('error', () => {});
  const adapter = serving ? new PrismaPg(pool, { statementNameGenerator: (query) => statementName(query.sql, query.args.length) as string }) : new PrismaPg(pool);
  const prisma = prismaClient(adapter, options);
  return {
    prisma,
    migrationFactory: pgliteFactory(socketDir, engineClient),
    pool,
    prepared: serving,
    kind: 'pglite',
    listen: noListen,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
      await stop?.();
    },
  };
}

/** Whether a server already answers on the data folder's socket. */
async function answers(socketDir: string): Promise<boolean> {
  const client = new pg.Client({ host: socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
