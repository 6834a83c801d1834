import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
  /** Pool size for a real PostgreSQL. */
  poolSize?: number;
  /** Called once per SQL statement Prisma sends (tests count queries with it). */
  onQuery?: () => void;
}

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
    const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10 });
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
  const existing = await tryRunningServer(socketDir, options);
  if (existing) return existing;

  mkdirSync(join(dataDir, 'pglite'), { recursive: true });
  // Loaded only here: a server on PostgreSQL never needs PGlite's ~30 MB.
  const [{ PGlite }, { btree_gist }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gist'),
    import('@electric-sql/pglite-socket'),
  ]);
  const db = await PGlite.create(join(dataDir, 'pglite'), { extensions: { btree_gist } });
  const server = new PGLiteSocketServer({
    db,
    path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    // A CLI (manage-code) may connect while the server holds its pool connection; PGlite then
    // serialises whole transactions across the connections.
    maxConnections: 4,
  });
  await server.start();
  return pgliteDatabase(socketDir, options, async () => {
    await server.stop();
    await db.close();
  });
}

// PGlite answers one statement at a time; a pool of one keeps transactions whole.
const pgliteConnection = (socketDir: string) => ({ host: socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres', max: 1 });
const pgliteFactory = (socketDir: string, Client: typeof engineClient) => new PrismaPg({ ...pgliteConnection(socketDir), Client });
function pglitePool(socketDir: string): pg.Pool {
  const pool = new pg.Pool(pgliteConnection(socketDir));
  pool.on('error', () => {});
  return pool;
}

/** A database over PGlite's socket; `stop` ends what serves it, when this process does. */
function pgliteDatabase(socketDir: string, options: Pick<DatabaseOptions, 'onQuery'>, stop: () => Promise<void> = async () => {}): Database {
  const pool = pglitePool(socketDir);
  const prisma = prismaClient(new PrismaPg(pool), options);
  return {
    prisma,
    migrationFactory: pgliteFactory(socketDir, engineClient),
    pool,
    prepared: false,
    kind: 'pglite',
    listen: noListen,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
      await stop();
    },
  };
}

/** When another process (the server) already serves this data folder, share its socket. */
async function tryRunningServer(socketDir: string, options: DatabaseOptions): Promise<Database | null> {
  const client = new pg.Client({ host: socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' });
  try {
    await client.connect();
    await client.end();
  } catch {
    return null;
  }
  return pgliteDatabase(socketDir, options);
}
