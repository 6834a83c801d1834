import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { onPostgres, startApp, type TestApp } from '../helpers/harness.js';

const job = { bedrooms: 2, bathrooms: 1.5 };
const pro = demoIds.cleanerAustin;

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

async function starts() {
  const search = await app.rest('find_cleaners', { zip: demoIds.austinZip, ...job });
  const mine = search.body.cleaners.find((c: { pro_id: string }) => c.pro_id === pro);
  const times = await app.rest('available_times', { pro_id: pro, ...job, days: 7 });
  return { search: (mine?.starts ?? []) as string[], times: times.body.starts as string[] };
}

const businessId = () => app.services.prisma.business.findUniqueOrThrow({ where: { slug: pro } }).then((b) => b.id);

/**
 * Blocks the first start the search shows, from a plain connection Porchlight's own client
 * never sees (another process), and returns whether the start vanished from searches within 2 s.
 */
async function blockFromElsewhere(other: pg.Client, id: string): Promise<{ first: string; seen: string[] }> {
  const before = await starts();
  const first = before.search[0]!;
  const at = Date.parse(first);
  await other.query(`INSERT INTO "Block" (id, "businessId", start, "end", label) VALUES ($1, $2, $3, $4, 'another process')`, [
    id,
    await businessId(),
    new Date(at - 30 * 60_000),
    new Date(at + 30 * 60_000),
  ]);
  const deadline = Date.now() + 2000;
  let seen = before.search;
  while (seen.includes(first) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    seen = (await starts()).search;
  }
  return { first, seen };
}

describe('searches read a snapshot that never outlives a change', () => {
  /** A write of this process, made the way services make them: the snapshot hears it at commit. */
  const write = <T>(scope: 'schedule' | 'catalog', id: string, change: (tx: Parameters<Parameters<typeof app.services.transaction>[0]>[0]) => Promise<T>) =>
    app.services.transaction(async (tx) => {
      const out = await change(tx);
      app.services.search.reloadAfterCommit(tx, scope, id);
      return out;
    });

  it('drops a start as soon as this instance blocks its time', async () => {
    const before = await starts();
    const first = before.search[0]!;
    expect(before.times).toContain(first);
    const at = Date.parse(first);
    const id = await businessId();
    const block = await write('schedule', id, (tx) =>
      tx.block.create({ data: { businessId: id, start: new Date(at - 30 * 60_000), end: new Date(at + 30 * 60_000), label: 'dentist' } }),
    );
    const after = await starts();
    expect(after.search).not.toContain(first);
    expect(after.times).not.toContain(first);
    await write('schedule', id, (tx) => tx.block.delete({ where: { id: block.id } }));
    expect((await starts()).search).toContain(first);
  });

  it('drops a start when its owner\'s hours change', async () => {
    expect((await starts()).search.length).toBeGreaterThan(0);
    const id = await businessId();
    const hours = await app.services.prisma.weeklyHours.findMany({ where: { businessId: id } });
    await write('catalog', id, (tx) => tx.weeklyHours.deleteMany({ where: { businessId: id } }));
    expect((await starts()).search).toEqual([]);
    await write('catalog', id, (tx) => tx.weeklyHours.createMany({ data: hours }));
    expect((await starts()).search.length).toBeGreaterThan(0);
  });

  it('shows a booking made here at once, and its start again once it is cancelled', async () => {
    const before = await starts();
    const first = before.search[0]!;
    const booked = await app.rest('book_cleaning', {
      pro_id: pro, ...job, start: first, address: '1 Main St, Austin TX', zip: demoIds.austinZip, customer_name: 'Snap', customer_email: 'snap@example.com',
    });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect((await starts()).search).not.toContain(first);
    await app.rest('cancel_booking', { booking_id: booked.body.booking_id, manage_token: booked.body.manage_token });
    expect((await starts()).search).toContain(first);
  });

  it.skipIf(!onPostgres)('hears a change another process commits (PostgreSQL NOTIFY)', async () => {
    const other = new pg.Client({ connectionString: app.services.config.databaseUrl });
    await other.connect();
    try {
      const { first, seen } = await blockFromElsewhere(other, 'blk_other');
      expect(seen).not.toContain(first);
    } finally {
      await other.query(`DELETE FROM "Block" WHERE id = 'blk_other'`);
      await other.end();
    }
  });

  it.skipIf(!onPostgres)('keeps hearing changes after its listening connection is cut', async () => {
    const other = new pg.Client({ connectionString: app.services.config.databaseUrl });
    await other.connect();
    try {
      const killed = await other.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
      expect(killed.rowCount).toBe(1);
      await new Promise((r) => setTimeout(r, 2500));
      const { first, seen } = await blockFromElsewhere(other, 'blk_after_cut');
      expect(seen).not.toContain(first);
    } finally {
      await other.query(`DELETE FROM "Block" WHERE id = 'blk_after_cut'`);
      await other.end();
    }
  });
});
