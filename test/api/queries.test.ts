import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { startApp, type TestApp } from '../helpers/harness.js';

// N+1 guard: the number of SQL statements one operation sends must not grow with the data.

let queries = 0;
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ onQuery: () => queries++ });
});
afterAll(async () => app?.close());

const pro = demoIds.cleanerAustin;
const zip = demoIds.austinZip;
const job = { bedrooms: 2, bathrooms: 1.5 };
const customer = { customer_name: 'Alex Rivera', customer_email: 'alex@example.com', address: '1100 S Congress Ave, Austin TX' };

/** SQL statements sent while `fn` runs (mail delivery is flushed first so it cannot interleave). */
async function count(fn: () => Promise<{ status: number; body: unknown }>): Promise<number> {
  await app.services.outbox.flush();
  queries = 0;
  const r = await fn();
  const n = queries;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return n;
}

async function book(date: string, extra: Record<string, unknown> = {}) {
  const t = await app.rest('available_times', { pro_id: pro, ...job, date, days: 1, ...extra });
  expect(t.status).toBe(200);
  const r = await app.rest('book_cleaning', { pro_id: pro, ...job, start: t.body.starts[0], zip, ...customer, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { booking_id: string; manage_token: string; visits: unknown[] };
}

describe('query counts', () => {
  it('counts queries at all', async () => {
    const n = await count(() => app.rest('find_cleaners', { zip, ...job }));
    expect(n).toBeGreaterThan(0);
  });

  it('booking_status sends the same number of queries however many messages and visits there are', async () => {
    const first = await book('2026-11-30');
    const status = () => app.rest('booking_status', { booking_id: first.booking_id, manage_token: first.manage_token });
    const before = await count(status);

    for (let i = 0; i < 5; i++) {
      const m = await app.rest('message_about_booking', { booking_id: first.booking_id, manage_token: first.manage_token, message: `Note ${i}` });
      expect(m.body).toEqual({ sent: true });
    }
    await book('2026-12-01');
    await book('2026-12-02');
    const series = await book('2026-12-03', { frequency: 'weekly', visits: 4 });
    expect(series.visits).toHaveLength(4);

    const after = await count(status);
    const r = await status();
    expect(r.body.messages).toHaveLength(5);
    expect(after).toBe(before);
    expect(after).toBeLessThanOrEqual(8);

    // A booking with many visits and messages costs the same as one with none.
    const seriesStatus = () => app.rest('booking_status', { booking_id: series.booking_id, manage_token: series.manage_token });
    const few = await count(seriesStatus);
    for (let i = 0; i < 3; i++) await app.rest('message_about_booking', { booking_id: series.booking_id, manage_token: series.manage_token, message: `Series note ${i}` });
    const many = await count(seriesStatus);
    expect((await seriesStatus()).body.visits).toHaveLength(4);
    expect(many).toBe(few);
    expect(many).toBe(before);
    console.info(`queries: booking_status ${before}`);
  });

  it('find_cleaners sends a fixed small number of queries, not one per cleaner', async () => {
    const cleaning = await app.services.prisma.serviceZip.groupBy({
      by: ['zip'],
      where: { business: { kind: 'cleaning' } },
      _count: { zip: true },
      orderBy: { _count: { zip: 'desc' } },
    });
    const busiest = cleaning[0]!;
    const quietest = cleaning.at(-1)!;
    expect(busiest._count.zip).toBeGreaterThanOrEqual(3 * quietest._count.zip);

    const search = (z: string) => () => app.rest('find_cleaners', { zip: z, ...job });
    // Cold: the ZIP's cleaners and their busy time are loaded in a fixed number of queries.
    app.services.search.clear();
    const many = await count(search(busiest.zip));
    app.services.search.clear();
    const few = await count(search(quietest.zip));
    expect((await search(busiest.zip)()).body.cleaners.length).toBeGreaterThan((await search(quietest.zip)()).body.cleaners.length);
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(8);
    // Warm: searches read the in-memory snapshot.
    expect(await count(search(busiest.zip))).toBe(0);
    // A booking made here patches the snapshot at commit: the next search reads nothing.
    await book('2026-12-08');
    expect(await count(search(busiest.zip))).toBe(0);
    // A change committed elsewhere reloads that one business, in the background.
    const id = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: pro } })).id;
    queries = 0;
    app.services.search.changed('schedule', id);
    await new Promise((r) => setTimeout(r, 100));
    const reload = queries;
    expect(reload).toBeGreaterThan(0);
    expect(reload).toBeLessThanOrEqual(2);
    console.info(`queries: find_cleaners cold ${many}, warm 0, after a booking here 0, reloading one business ${reload} (ZIP ${busiest.zip}: ${busiest._count.zip} cleaners, ZIP ${quietest.zip}: ${quietest._count.zip})`);
  });
});
