/**
 * Searches rank top-K from the snapshot; the answer must be what evaluating every business
 * straight from the database and sorting gives (the way searches worked before).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { zipsOfCity } from '../../src/search/catalog.js';
import { priceAt } from '../../src/pricing/quote.js';
import { quoteServiceCall, type Trade } from '../../src/pricing/service-call.js';
import { openStarts } from '../../src/core/slots.js';
import { querySpan, slotQuery, holds, type HeldBusy } from '../../src/availability/schedule.js';
import { isoWithOffset } from '../../src/core/time.js';
import { startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
  // Some bookings, so busy time matters to the ranking.
  const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, days: 3 });
  for (const start of times.body.starts.slice(0, 2)) {
    await app.rest('book_cleaning', { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, start, address: '1 Rank St', zip: demoIds.austinZip, customer_name: 'R', customer_email: `r${start.slice(8, 10)}@example.com` });
  }
});
afterAll(async () => app?.close());

/** Every business of the kind serving the ZIPs, evaluated from the database, sorted, sliced. */
async function reference(kind: 'cleaning' | Trade, zips: string[], price: (b: { priceList: unknown }) => { cents: number; minutes: number } | null, filters: { date?: string; start_after?: string; finish_by?: string }, days: number, sort: 'price' | 'soonest', page: number) {
  const now = app.services.clock.now();
  const rows = await app.services.prisma.business.findMany({
    where: { kind, serviceZips: { some: { zip: { in: zips } } } },
    include: { hours: true },
  });
  const span = querySpan(now, filters.date, Math.max(days, 14));
  const out = [];
  for (const b of rows) {
    const p = price(b);
    if (!p) continue;
    const visits = await app.services.prisma.bookingVisit.findMany({ where: { businessId: b.id, active: true, start: { lt: new Date(span.to) }, end: { gt: new Date(span.from) } } });
    const blocks = await app.services.prisma.block.findMany({ where: { businessId: b.id, start: { lt: new Date(span.to) }, end: { gt: new Date(span.from) } } });
    const busy: HeldBusy[] = [
      ...visits.map((v) => ({ start: v.start.getTime(), end: v.end.getTime(), ...(v.holdUntil ? { holdUntil: v.holdUntil.getTime() } : {}) })),
      ...blocks.map((x) => ({ start: x.start.getTime(), end: x.end.getTime() })),
    ].filter((x) => holds(x, now));
    const starts = openStarts(slotQuery(b, busy, p.minutes, now, filters, days, 6));
    if (starts.length) out.push({ slug: b.slug, cents: p.cents, starts, zone: b.timeZone });
  }
  out.sort((a, b) =>
    sort === 'price'
      ? a.cents - b.cents || a.starts[0]! - b.starts[0]! || a.slug.localeCompare(b.slug)
      : a.starts[0]! - b.starts[0]! || a.cents - b.cents || a.slug.localeCompare(b.slug),
  );
  return out.slice((page - 1) * 20, page * 20).map((r) => ({ pro_id: r.slug, starts: r.starts.map((s) => isoWithOffset(s, r.zone)) }));
}

const job = { bedrooms: 2, bathrooms: 1.5 };
const cleaningPrice = (b: { priceList: unknown }) => {
  const q = priceAt(b, { ...job, clean_type: 'standard', add_ons: [], pets: false });
  return q.ok ? { cents: q.total_cents, minutes: q.duration_minutes } : null;
};

describe('find_cleaners ranks exactly as evaluating everyone would', () => {
  const cases: Array<{ where: { zip?: string; city?: string }; sort: 'price' | 'soonest'; filters?: Record<string, string>; page?: number }> = [
    { where: { zip: demoIds.austinZip }, sort: 'soonest' },
    { where: { zip: demoIds.austinZip }, sort: 'price' },
    { where: { city: 'San Jose CA' }, sort: 'soonest' },
    { where: { city: 'San Jose CA' }, sort: 'price' },
    { where: { city: 'San Jose CA' }, sort: 'soonest', page: 2 },
    { where: { city: 'Austin TX' }, sort: 'soonest', filters: { start_after: '13:00' } },
    { where: { city: 'Austin TX' }, sort: 'soonest', filters: { date: '2026-12-07', finish_by: '15:00' } },
    { where: { city: 'San Francisco CA' }, sort: 'price', filters: { date: '2026-11-30' } },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c)}`, async () => {
      const page = c.page ?? 1;
      const zips = c.where.zip ? [c.where.zip] : zipsOfCity(c.where.city!);
      const expected = await reference('cleaning', zips, cleaningPrice, c.filters ?? {}, 14, c.sort, page);
      const got = await app.rest('find_cleaners', { ...c.where, ...job, sort: c.sort, page, ...(c.filters ?? {}) });
      expect(got.status).toBe(200);
      expect(got.body.cleaners.map((x: { pro_id: string; starts: string[] }) => ({ pro_id: x.pro_id, starts: x.starts }))).toEqual(expected);
      // Asking again, with bounds now kept, changes nothing.
      const again = await app.rest('find_cleaners', { ...c.where, ...job, sort: c.sort, page, ...(c.filters ?? {}) });
      expect(again.body.cleaners).toEqual(got.body.cleaners);
    });
  }

  it('pages: next_page names the next page exactly while more remain', async () => {
    for (const city of ['San Jose CA', 'Austin TX', 'San Francisco CA']) {
      const zips = zipsOfCity(city);
      const more = (await reference('cleaning', zips, cleaningPrice, {}, 14, 'soonest', 2)).length > 0;
      const first = await app.rest('find_cleaners', { city, ...job });
      expect(first.body.next_page, city).toBe(more ? 2 : null);
      if (more) {
        const second = await app.rest('find_cleaners', { city, ...job, page: 2 });
        const ids = new Set(first.body.cleaners.map((c: { pro_id: string }) => c.pro_id));
        expect(second.body.cleaners.every((c: { pro_id: string }) => !ids.has(c.pro_id))).toBe(true);
      }
    }
  });
});

describe('find_service_call ranks exactly as evaluating everyone would', () => {
  for (const [trade, issue, sort, days] of [['plumbing', 'leak', 'soonest', 7], ['hvac', 'no_heat', 'price', 3], ['plumbing', 'clog', 'soonest', 14]] as const) {
    it(`${trade} ${issue} ${sort} ${days} days`, async () => {
      const zips = zipsOfCity('Austin TX');
      const fee = (b: { priceList: unknown }) => {
        const q = quoteServiceCall(b.priceList, trade, issue);
        return q.ok ? { cents: q.fee_cents, minutes: q.window_minutes } : null;
      };
      const expected = await reference(trade, zips, fee, {}, days, sort, 1);
      const got = await app.rest('find_service_call', { city: 'Austin TX', trade, issue, sort, days });
      expect(got.body.pros.map((p: { pro_id: string; windows: { start: string }[] }) => ({ pro_id: p.pro_id, starts: p.windows.map((w) => w.start) }))).toEqual(expected);
    });
  }
});
