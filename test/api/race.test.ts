import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { onPostgres, startApp, type TestApp } from '../helpers/harness.js';

/** Exactly one of the racing calls booked; the other 49 were refused time_unavailable, none failed. */
async function expectOneWinner(app: TestApp, results: { status: number; body: any }[], pro: string, start: string) {
  const statuses = results.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
  const refused = results.filter((r) => r.status === 400);
  expect(refused).toHaveLength(49);
  for (const r of refused) expect(r.body.code).toBe('time_unavailable');
  const held = await app.services.prisma.bookingVisit.count({ where: { business: { slug: pro }, active: true, start: new Date(start) } });
  expect(held).toBe(1);
}

// PGlite runs one statement at a time, so a race there proves nothing: this runs on PostgreSQL.
describe.skipIf(!onPostgres)('concurrent bookings on PostgreSQL', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => app?.close());

  it('50 concurrent book_cleaning calls for one pro and start: exactly one succeeds', async () => {
    const pro = demoIds.cleanerAustin;
    const times = await app.rest('available_times', { pro_id: pro, bedrooms: 3, bathrooms: 2, date: '2026-11-30' });
    const start = times.body.starts[0];
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.rest('book_cleaning', {
          pro_id: pro, bedrooms: 3, bathrooms: 2, start, zip: demoIds.austinZip, address: `${i} Race St`,
          customer_name: `Racer ${i}`, customer_email: `racer${i}@example.com`,
        }),
      ),
    );
    await expectOneWinner(app, results, pro, start);
  }, 90_000);

  it('50 concurrent book_service_call calls for one pro and window: exactly one succeeds', async () => {
    const pro = demoIds.plumberAustin;
    const found = await app.rest('find_service_call', { zip: demoIds.austinZip, trade: 'plumbing', issue: 'leak', date: '2026-11-30', days: 1 });
    const start = found.body.pros.find((p: { pro_id: string }) => p.pro_id === pro).windows[0].start;
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.rest('book_service_call', {
          pro_id: pro, trade: 'plumbing', issue: 'leak', start, zip: demoIds.austinZip, address: `${i} Race St`,
          customer_name: `Racer ${i}`, customer_email: `plumbing-racer${i}@example.com`,
        }),
      ),
    );
    await expectOneWinner(app, results, pro, start);
    // Each of the 49 refusals now works out the nearest open starts too: more than 30 s on a busy runner.
  }, 90_000);

  it('the database itself refuses overlapping active visits of one business', async () => {
    const b = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } });
    const booking = await app.services.prisma.booking.findFirstOrThrow({ where: { businessId: b.id } });
    const visit = await app.services.prisma.bookingVisit.findFirstOrThrow({ where: { bookingId: booking.id } });
    await expect(
      app.services.prisma.bookingVisit.create({
        data: { bookingId: booking.id, businessId: b.id, start: new Date(visit.start.getTime() + 30 * 60_000), end: new Date(visit.end.getTime() + 30 * 60_000) },
      }),
    ).rejects.toThrow();
  });
});
