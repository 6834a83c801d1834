/**
 * Answers that say what to do next (issue 21): empty searches say why and name the nearest
 * alternative, series-aware search, refusals that list open starts, statuses that say what the
 * customer still has to do, and errors that point to the tool that does the job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { zipsNear } from '../../src/search/zips.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

const zip = demoIds.austinZip;
const job = { bedrooms: 2, bathrooms: 1.5 };

interface Cleaner { pro_id: string; name: string; price: number; duration_minutes: number; starts: string[] }

async function cleaners(extra: Record<string, unknown> = {}) {
  const r = await app.rest('find_cleaners', { zip, ...job, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { cleaners: Cleaner[]; note: string | null; next_page: number | null };
}

/** Blocks [start, end) on a business's schedule, straight in the database, and drops the snapshot. */
async function block(slug: string, start: number, end: number) {
  const b = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.block.create({ data: { businessId: b.id, start: new Date(start), end: new Date(end), label: 'test' } });
  app.services.search.clear();
}

describe('empty searches say why and give the nearest alternative', () => {
  it('names the cheapest total when max_price leaves everyone out, on every surface', async () => {
    const cheapest = (await cleaners({ sort: 'price' })).cleaners[0]!;
    const under = Math.floor(cheapest.price) - 1;
    for (const via of SURFACES) {
      const r = await call(app, via, 'find_cleaners', { zip, ...job, max_price: under });
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(r.body.cleaners).toEqual([]);
      expect(r.body.note, via).toContain(`at or under $${under}`);
      expect(r.body.note, via).toContain(`the cheapest is ${cheapest.name} (pro_id ${cheapest.pro_id}, $${cheapest.price % 1 ? cheapest.price.toFixed(2) : cheapest.price})`);
      expect(r.body.note, via).toContain(cheapest.starts[0]);
    }
  });

  it('reads a date in the past as today and says so', async () => {
    const r = await cleaners({ date: '2026-11-01' });
    expect(r.cleaners.length).toBeGreaterThan(0);
    expect(r.note).toBe('date 2026-11-01 is in the past; read as today, 2026-11-23.');
    expect(r.cleaners).toEqual((await cleaners()).cleaners);
    const calls = await app.rest('find_service_call', { zip, trade: 'plumbing', issue: 'leak', date: '2025-01-01' });
    expect(calls.body.pros.length).toBeGreaterThan(0);
    expect(calls.body.note).toContain('read as today, 2026-11-23');
    expect((await cleaners({ date: '2026-11-23' })).note).toBeNull();
  });

  it('names the nearest start when start_after and finish_by leave nothing', async () => {
    const r = await cleaners({ start_after: '22:00' });
    expect(r.cleaners).toEqual([]);
    expect(r.note).toMatch(/^No open start starting after 22:00 in the days searched; the nearest is \d{4}-\d\d-\d\dT\d\d:\d\d:00-06:00 with .+ \(pro_id [a-z0-9-]+, \$[\d.]+\)\. Widen or drop start_after\/finish_by/);
    const soonest = (await cleaners()).cleaners[0]!;
    expect(r.note).toContain(`the nearest is ${soonest.starts[0]} with ${soonest.name}`);
  });

  it('names the next date with openings when the days searched are full', async () => {
    const search = { zip, trade: 'plumbing', issue: 'leak', date: '2026-11-25', days: 1 };
    const before = await app.rest('find_service_call', search);
    expect(before.body.pros.length).toBeGreaterThan(0);
    // No plumber serving the ZIP works on Wednesdays any more.
    await app.services.prisma.weeklyHours.deleteMany({ where: { weekday: 3, business: { kind: 'plumbing', serviceZips: { some: { zip } } } } });
    app.services.search.clear();
    const r = await app.rest('find_service_call', search);
    expect(r.body.pros).toEqual([]);
    expect(r.body.note).toMatch(/^No plumber has an open start for this job from 2026-11-25 through 2026-11-25; the next is 2026-11-2[6-9]T\d\d:\d\d:00-06:00 with .+\(pro_id .+\)\. Search with date 2026-11-2[6-9] to see more\.$/);
    const next = /Search with date (\S+) to see more/.exec(r.body.note)![1];
    const then = await app.rest('find_service_call', { ...search, date: next });
    expect(then.body.pros.length).toBeGreaterThan(0);
  });

  it('names the closest ZIP served when nobody serves the ZIP, and the live cities for an unknown one', async () => {
    const served = new Set((await app.services.prisma.serviceZip.findMany({ where: { business: { kind: 'hvac' } }, select: { zip: true } })).map((z) => z.zip));
    const near = zipsNear(zip, 25);
    const lonely = near.find((n) => n.miles > 0 && !served.has(n.zip));
    expect(lonely, 'a ZIP near Austin no HVAC pro serves').toBeDefined();
    const closest = zipsNear(lonely!.zip, 25).find((n) => n.zip !== lonely!.zip && served.has(n.zip))!;
    const r = await app.rest('find_service_call', { zip: lonely!.zip, trade: 'hvac', issue: 'no_heat' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pros).toEqual([]);
    expect(r.body.note).toContain(`the closest ZIP served is ${closest.zip} (${closest.miles} miles away)`);
    const unknown = await cleaners({ zip: '59801' });
    expect(unknown.note).toContain('Live cities: Austin TX, San Francisco CA, San Jose CA');
  });

  it('find_businesses names the types that match when type or the query leaves nothing', async () => {
    const r = await app.rest('find_businesses', { city: 'San Francisco CA', query: 'haircut', type: 'auto_repair' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.businesses).toEqual([]);
    expect(r.body.note).toMatch(/^No auto_repair business within 25 miles of San Francisco CA matches "haircut"; these types do: .*beauty \(\d+\)/);
    const none = await app.rest('find_businesses', { city: 'San Francisco CA', query: 'zeppelin' });
    expect(none.body.businesses).toEqual([]);
    expect(none.body.note).toMatch(/Types of business within 25 miles: .*cleaning \(\d+\)/);
  });
});

describe('series-aware search', () => {
  it('offers only first starts whose whole weekly series is free, as available_times does', async () => {
    const first = (await cleaners({ sort: 'price' })).cleaners[0]!;
    const start = Date.parse(first.starts[0]!);
    // The third visit of a weekly series from that start is taken.
    await block(first.pro_id, start + 14 * 86_400_000, start + 14 * 86_400_000 + 60 * 60_000);
    const once = (await cleaners({ sort: 'price' })).cleaners.find((c) => c.pro_id === first.pro_id)!;
    expect(once.starts[0]).toBe(first.starts[0]);
    const weekly = (await cleaners({ sort: 'price', frequency: 'weekly' })).cleaners.find((c) => c.pro_id === first.pro_id)!;
    expect(weekly.starts).not.toContain(first.starts[0]);
    expect(weekly.starts.length).toBeGreaterThan(0);
    const times = await app.rest('available_times', { pro_id: first.pro_id, ...job, frequency: 'weekly', days: 14 });
    expect(weekly.starts).toEqual(times.body.starts.slice(0, weekly.starts.length));
    const taken = await app.rest('book_cleaning', {
      pro_id: first.pro_id, ...job, frequency: 'weekly', start: first.starts[0], address: '1 Series St', zip, customer_name: 'Sam', customer_email: 'series@example.com',
    });
    expect(taken.body.code).toBe('time_unavailable');
  });
});
