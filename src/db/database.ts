import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.js';
import { engineClient } from './engine-pool.js';

export interface Database {
  prisma: PrismaClient;
  /** Adapter factory for the schema engine (migrations); hands out its own connections. */
  migrationFactory: PrismaPg;
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

/** A PrismaClient over an adapter; with onQuery, query events are emitted and reported. */
function prismaClient(adapter: PrismaPg, onQuery?: () => void): PrismaClient {
  if (!onQuery) return new PrismaClient({ adapter });
  const prisma = new PrismaClient({ adapter, log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (e) => (onQuery as (e: unknown) => void)(e));
  return prisma;
}

/** PGlite's socket file lives in the data folder so that CLI tools can reach a running server. */
export const pgliteSocketDir = (dataDir: string) => resolve(dataDir);
const SOCKET_PORT = 5432;

/**
 * Opens the database. Both kinds are reached through @prisma/adapter-pg, so everything above
 * this function runs one code path; PGlite is served over its wire-protocol socket.
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.url) {
    const prisma = prismaClient(new PrismaPg({ connectionString: options.url, max: options.poolSize ?? 10 }), options.onQuery);
    const migrationFactory = new PrismaPg({ connectionString: options.url, max: 1, Client: engineClient });
    return { prisma, migrationFactory, kind: 'postgresql', close: () => prisma.$disconnect() };
  }
  const dataDir = options.dataDir ?? './data';
  const socketDir = pgliteSocketDir(dataDir);
  const existing = await tryRunningServer(socketDir, options.onQuery);
  if (existing) return existing;

  mkdirSync(join(dataDir, 'pglite'), { recursive: true });
  const db = await PGlite.create(join(dataDir, 'pglite'), { extensions: { btree_gist } });
  const server = new PGLiteSocketServer({
    db,
    path: join(socketDir, `.s.PGSQL.${SOCKET_PORT}`),
    // A CLI (manage-code) may connect while the server holds its pool connection; PGlite then
    // serialises whole transactions across the connections.
    maxConnections: 4,
  });
  await server.start();
  const prisma = prismaClient(pgliteFactory(socketDir), options.onQuery);
  return {
    prisma,
    migrationFactory: pgliteFactory(socketDir, engineClient),
    kind: 'pglite',
    async close() {
      await prisma.$disconnect();
      await server.stop();
      await db.close();
    },
  };
}

// PGlite answers one statement at a time; a pool of one keeps transactions whole.
const pgliteFactory = (socketDir: string, Client?: typeof engineClient) =>
  new PrismaPg({ host: socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres', max: 1, Client });

/** When another process (the server) already serves this data folder, share its socket. */
async function tryRunningServer(socketDir: string, onQuery?: () => void): Promise<Database | null> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: socketDir, port: SOCKET_PORT, user: 'postgres', database: 'postgres' });
  try {
    await client.connect();
    await client.end();
  } catch {
    return null;
  }
  const prisma = prismaClient(pgliteFactory(socketDir), onQuery);
  return { prisma, migrationFactory: pgliteFactory(socketDir, engineClient), kind: 'pglite', close: () => prisma.$disconnect() };
}
