/**
 * services.sql: a transaction on a plain connection, whose statements are written without waiting
 * for the answers before them on PostgreSQL (db/sql.ts). It stays one transaction either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Prisma } from '../../src/generated/prisma/client.js';
import { startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
  await app.services.prisma.$executeRawUnsafe('CREATE TABLE "SqlProbe" ("id" integer PRIMARY KEY)');
});
afterAll(async () => app?.close());

const insert = (id: number) => Prisma.sql`INSERT INTO "SqlProbe" ("id") VALUES (${id}) RETURNING "id"`;
const ids = async () => (await app.services.prisma.$queryRawUnsafe<{ id: number }[]>('SELECT "id" FROM "SqlProbe" ORDER BY "id"')).map((r) => r.id);

describe('services.sql', () => {
  it('commits statements sent together, the last with COMMIT behind it, and answers each', async () => {
    const rows = await app.services.sql(async (tx) => {
      const first = tx.query<{ id: number }>(insert(1));
      const last = tx.query<{ id: number }>(insert(2), { last: true });
      return Promise.all([first, last]);
    });
    expect(rows).toEqual([[{ id: 1 }], [{ id: 2 }]]);
    expect(await ids()).toEqual([1, 2]);
  });

  it('rolls everything back when a statement fails, throws that statement\'s error, and keeps the connections usable', async () => {
    const failed = app.services.sql(async (tx) => {
      const first = tx.query(insert(3));
      const duplicate = tx.query(insert(1));
      const last = tx.query(insert(4), { last: true });
      return Promise.all([first, duplicate, last]);
    });
    await expect(failed).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).toEqual([1, 2]);
    // Every connection of the pool answers a transaction again.
    await Promise.all([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16].map((id) => app.services.sql((tx) => tx.query(insert(id), { last: true }))));
    expect((await ids()).length).toBe(14);
  });

  it('rolls back when the code refuses after its statements (none marked last)', async () => {
    const refused = app.services.sql(async (tx) => {
      await tx.query(insert(20));
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    expect(await ids()).not.toContain(20);
  });

  it('takes no statement behind the last', async () => {
    const late = app.services.sql(async (tx) => {
      const last = tx.query(insert(30), { last: true });
      await tx.query(insert(31));
      return last;
    });
    await expect(late).rejects.toThrow(/no statement behind its last/);
  });
});
