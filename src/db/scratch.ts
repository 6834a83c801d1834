import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { engineClient } from './engine-pool.js';

/** An in-memory PGlite reachable over a socket, for the schema engine's shadow database. */
async function scratchPglite() {
  const dir = mkdtempSync(join(tmpdir(), 'porchlight-shadow-'));
  const db = await PGlite.create({ extensions: { btree_gist } });
  const server = new PGLiteSocketServer({ db, path: join(dir, '.s.PGSQL.5432'), maxConnections: 4 });
  await server.start();
  return {
    factory: new PrismaPg({ host: dir, port: 5432, user: 'postgres', database: 'postgres', max: 1, Client: engineClient }),
    async close() {
      await server.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A migration-aware adapter factory over throwaway PGlite databases: the main connection and
 * the shadow database are each fresh, so diffs need no running server.
 */
export async function scratchFactory() {
  const main = await scratchPglite();
  const shadows: { close(): Promise<void> }[] = [];
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    adapterName: main.factory.adapterName,
    provider: main.factory.provider,
    connect: () => main.factory.connect(),
    async connectToShadowDb() {
      const shadow = await scratchPglite();
      shadows.push(shadow);
      return shadow.factory.connect();
    },
  };
  return {
    factory,
    async close() {
      for (const s of shadows) await s.close();
      await main.close();
    },
  };
}
