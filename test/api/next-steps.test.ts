/**
 * Answers that say what to do next (issue 21): empty searches say why and name the nearest
 * alternative, series-aware search, refusals that list open starts, statuses that say what the
 * customer still has to do, and errors that point to the tool that does the job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { zipsNear } from '../../src/search/zips.js';
import { zipsOfCity } from '../../src/search/catalog.js';
import { bearer, businessKey, personalKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';
import { humanStart } from '../../src/leads/drafts.js';

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


/** A San Francisco menu business that books visits at once, with one fixed-price service of known length. */
async function bookableMenu(): Promise<{ business: string; selections: { service_id: string }[] }> {
  const found = (await app.rest('find_businesses', { city: 'San Francisco CA' })).body.businesses as { business: string; booking: { visits: boolean } }[];
  for (const b of found.filter((x) => x.booking.visits)) {
    const menu = (await app.rest('service_menu', { business: b.business })).body;
    const service = menu.services.find((x: { price_kind: string; duration_minutes: number | null; scents: unknown[] }) => x.price_kind === 'fixed' && x.duration_minutes && !x.scents.length);
    if (menu.booking === 'book' && service) return { business: b.business, selections: [{ service_id: service.service_id }] };
  }
  expect.fail('a menu business that books visits at once');
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

describe('time_unavailable names the nearest open starts', () => {
  const customer = (n: string) => ({ address: '1 Taken St', zip, customer_name: `Taken ${n}`, customer_email: `taken-${n}@example.com` });

  it('for a cleaning, on every surface: three open starts of the same cleaner and job, nearest first', async () => {
    const [pro] = (await cleaners({ date: '2026-11-30' })).cleaners;
    const start = pro!.starts[1]!;
    const first = await app.rest('book_cleaning', { pro_id: pro!.pro_id, ...job, start, ...customer('a') });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const times = (await app.rest('available_times', { pro_id: pro!.pro_id, ...job, date: '2026-11-27', days: 7 })).body.starts as string[];
    const byDistance = [...times].sort((a, b) => Math.abs(Date.parse(a) - Date.parse(start)) - Math.abs(Date.parse(b) - Date.parse(start)) || Date.parse(a) - Date.parse(b));
    const expected = byDistance.slice(0, 3).sort();
    for (const via of SURFACES) {
      const r = await call(app, via, 'book_cleaning', { pro_id: pro!.pro_id, ...job, start, ...customer(`b-${via}`) });
      expect(r.code, via).toBe('time_unavailable');
      expect(r.error, via).toContain(`The nearest open starts: ${expected.join(', ')}.`);
      const details = via === 'graphql' ? r.body.errors[0].extensions.open_starts : r.body.open_starts;
      expect(details, via).toEqual(expected);
    }
  });

  it('for a service call: arrival windows of the same pro', async () => {
    const r0 = await app.rest('find_service_call', { zip, trade: 'plumbing', issue: 'leak', date: '2026-11-30', days: 2 });
    const pro = r0.body.pros[0];
    const start = pro.windows[0].start;
    const book = (n: string) => app.rest('book_service_call', { pro_id: pro.pro_id, trade: 'plumbing', issue: 'leak', start, ...customer(n) });
    expect((await book('sc1')).status).toBe(200);
    const r = await book('sc2');
    expect(r.body.code).toBe('time_unavailable');
    expect(r.body.open_starts).toHaveLength(3);
    expect(r.body.open_starts).not.toContain(start);
    expect(r.body.error).toContain('find_service_call');
    // Each is an open window of that pro: it books.
    const taken = await app.rest('book_service_call', { pro_id: pro.pro_id, trade: 'plumbing', issue: 'leak', start: r.body.open_starts[0], ...customer('sc3') });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
  });

  it('for an appointment: starts of the same service from appointment_times', async () => {
    const salon = demoIds.beautySanFrancisco;
    const listed = (await app.rest('appointment_times', { business: salon })).body;
    const service = listed.services.find((s: { payment: string }) => s.payment === 'none') ?? listed.services[0];
    const times = (await app.rest('appointment_times', { business: salon, service_id: service.service_id, date: '2026-12-01' })).body.starts as string[];
    const start = times[2]!;
    const talk = async (name: string) =>
      (await app.rest('contact_business', { business: salon, customer_name: name, customer_email: `${name.toLowerCase()}@example.com`, message: 'An appointment, please.', request_type: 'appointment' })).body;
    const booking = (c: { inquiry_id: string; reply_token: string }) =>
      app.rest('book_appointment', { inquiry_id: c.inquiry_id, reply_token: c.reply_token, service_id: service.service_id, start, expected_price_cents: service.price_cents, customer_authorized: true });
    expect((await booking(await talk('Ann'))).status).toBe(200);
    const r = await booking(await talk('Ben'));
    expect(r.body.code, JSON.stringify(r.body)).toBe('time_unavailable');
    expect(r.body.open_starts).toHaveLength(3);
    expect(r.body.open_starts).not.toContain(start);
    const after = (await app.rest('appointment_times', { business: salon, service_id: service.service_id, date: '2026-12-01' })).body.starts as string[];
    for (const s of r.body.open_starts) if (s.startsWith('2026-12-01')) expect(after).toContain(s);
    expect(r.body.error).toContain(`The nearest open starts: ${r.body.open_starts.join(', ')}.`);
  });

  it('for a menu visit: starts of the same selection from visit_times', async () => {
    // Over MCP: selections are objects, which a REST query string does not carry.
    const mcp = async (name: string, input: Record<string, unknown>) => (await call(app, 'mcp', name, input)).body;
    const { business, selections } = await bookableMenu();
    const estimate = await mcp('estimate_visit', { business, selections });
    const times = (await mcp('visit_times', { business, selections, date: '2026-12-02' })).starts as string[];
    const start = times[1]!;
    let refused: any = null;
    // As many bookings of one start as there are technicians who can take it, then a refusal.
    for (let n = 0; n < 8 && !refused; n++) {
      const r = await call(app, 'rest', 'book_visit', {
        business, selections, start, customer_name: `Vee ${n}`, customer_email: `vee${n}@example.com`, menu_revision: estimate.menu_revision,
        expected_estimate_cents: estimate.estimate_cents, customer_authorized: true, request_key: `next-steps-visit-key-${n}-0000`,
      });
      if (!r.ok) refused = r.body;
    }
    expect(refused?.code, JSON.stringify(refused)).toBe('time_unavailable');
    expect(refused.open_starts).toHaveLength(3);
    expect(refused.open_starts).not.toContain(start);
    const after = (await mcp('visit_times', { business, selections, date: '2026-12-02' })).starts as string[];
    for (const s of refused.open_starts) if (s.startsWith('2026-12-02')) expect(after).toContain(s);
  });
});

describe('statuses say what the customer still has to do', () => {
  const customer = { address: '2 Pending St', zip, customer_name: 'Pat Pending', customer_email: 'pending@example.com' };

  it('a new booking is pending, never "Booked"; booking_status says it waits for confirmation until hold_until, then that it is confirmed', async () => {
    const [pro] = (await cleaners({ date: '2026-12-07' })).cleaners;
    const r = await app.rest('book_cleaning', { pro_id: pro!.pro_id, ...job, start: pro!.starts[0], ...customer });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.next).toMatch(/^Pending, not booked yet: /);
    expect(r.body.next).not.toMatch(/\bBooked\b/);
    const status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body.next).toBe(
      `Waiting for the customer's confirmation: we e-mailed pending@example.com a link, and nothing is booked until they confirm there. ` +
        `The time is held until ${r.body.hold_until}; unconfirmed by then, the booking lapses and the time is released.`,
    );
    const mail = await app.services.prisma.outboxMessage.findFirstOrThrow({ where: { bookingId: r.body.booking_id } });
    const confirm = /\/confirm\/(ct_[\w-]+)/.exec(mail.text)![1]!;
    expect((await app.get(`/confirm/${confirm}`, { method: 'POST' })).status).toBeLessThan(400);
    const after = await call(app, 'graphql', 'booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(after.body.next).toMatch(new RegExp(`^Confirmed with .+\\. The next visit is ${pro!.starts[0]!.replace(/[+]/g, '\\+')}\\.`));
    const sc = await app.rest('find_service_call', { zip, trade: 'plumbing', issue: 'clog', date: '2026-12-08', days: 2 });
    const call1 = await app.rest('book_service_call', { pro_id: sc.body.pros[0].pro_id, trade: 'plumbing', issue: 'clog', start: sc.body.pros[0].windows[0].start, ...customer });
    expect(call1.body.next).toMatch(/^Pending, not booked yet: a plumbing service call/);
  });

  it('a recurring series says when it ends and how to go on after it', async () => {
    const [pro] = (await cleaners({ date: '2026-12-01', frequency: 'biweekly' })).cleaners;
    const r = await app.rest('book_cleaning', { pro_id: pro!.pro_id, ...job, frequency: 'biweekly', start: pro!.starts[0], ...customer, customer_email: 'series-end@example.com' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const last = r.body.visits.at(-1).start;
    expect(r.body.visits.length).toBeGreaterThan(1);
    const ends = `The biweekly series ends with the visit on ${last} and does not renew by itself: to go on, book a new biweekly series with book_cleaning starting after it.`;
    expect(r.body.next).toContain(ends);
    const status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body.next).toContain(ends);
  });

  it('contact_business says how to read the answer, on every surface', async () => {
    for (const via of SURFACES) {
      const r = await call(app, via, 'contact_business', { business: demoIds.cleanerAustin, customer_name: 'Quinn', message: 'Do you bring supplies?' });
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(r.body.next).toMatch(/^Sent to .+\. Read the answer with inquiry_status \(inquiry_id and reply_token; keep reply_token private\)/);
      expect(r.body.next).toContain('follow_up_business');
    }
  });

  it("inquiry_status shows an appointment's checkout_url and hold_until while the payment waits", async () => {
    const salon = demoIds.beautySanFrancisco;
    const owner = bearer(await businessKey(app, salon));
    const setup = (await app.rest('booking_setup', {}, owner)).body;
    const services = setup.services.map((s: Record<string, unknown>) => ({ service_id: s.service_id, name: s.name, price_cents: s.price_cents, duration_minutes: s.duration_minutes, payment: s.payment }));
    const changed = await app.rest('update_booking_setup', { services: [...services, { service_id: 'deposit-cut', name: 'Cut with deposit', price_cents: 5000, duration_minutes: 60, payment: 'upfront' }] }, owner);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const start = (await app.rest('appointment_times', { business: salon, service_id: 'deposit-cut', date: '2026-12-03' })).body.starts[0];
    const c = (await app.rest('contact_business', { business: salon, customer_name: 'Dee', customer_email: 'dee@example.com', message: 'A cut, please.', request_type: 'appointment' })).body;
    const b = await app.rest('book_appointment', { inquiry_id: c.inquiry_id, reply_token: c.reply_token, service_id: 'deposit-cut', start, expected_price_cents: 5000, customer_authorized: true });
    expect(b.body.status, JSON.stringify(b.body)).toBe('awaiting_payment');
    for (const via of SURFACES) {
      const s = await call(app, via, 'inquiry_status', { inquiry_id: c.inquiry_id, reply_token: c.reply_token });
      expect(s.body.appointments, via).toEqual([
        { booking_id: b.body.booking_id, status: 'awaiting_payment', start, service_name: 'Cut with deposit', checkout_url: b.body.checkout_url, hold_until: b.body.hold_until },
      ]);
    }
    expect(b.body.checkout_url).toMatch(/^http/);
  });
});

describe('leads', () => {
  let owner: Record<string, string>;
  beforeAll(async () => {
    owner = bearer(await businessKey(app, demoIds.cleanerAustin));
  });
  const lead = (extra: Record<string, unknown>) => app.rest('log_lead', { platform: 'thumbtack', zip, ...job, cost: 12, ...extra }, owner);

  it("drafts the reply with starts inside the customer's preferred day and time window", async () => {
    const r = await lead({ date: '2026-12-02', start_after: '12:00' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.preferred_open).toBe(true);
    expect(r.body.starts.length).toBeGreaterThan(0);
    for (const s of r.body.starts) {
      expect(s.slice(0, 10)).toBe('2026-12-02');
      expect(Number(s.slice(11, 13))).toBeGreaterThanOrEqual(12);
    }
    expect(r.body.reply_draft).toContain('At the time you asked for, we have Wed Dec 2 at');
    // Nothing open then (a Sunday night, closed): said so, and the open starts nearest it offered.
    const none = await lead({ date: '2026-12-06', start_after: '22:00' });
    expect(none.body.preferred_open).toBe(false);
    expect(none.body.reply_draft).toContain('We have no openings on Sun Dec 6. The nearest open times: Mon Dec 7 at 8:00 AM');
    expect(none.body.starts.length).toBeGreaterThan(0);
    // The day open at other hours: booked at the time asked for, and the starts nearest it.
    const late = await lead({ date: '2026-12-02', start_after: '16:00' });
    expect(late.body.preferred_open).toBe(false);
    expect(late.body.reply_draft).toMatch(/We are already booked at the time you asked for\. Open times: Wed Dec 2 at .*, Wed Dec 2 at .* or Wed Dec 2 at 1:30 PM\./);
    expect((await lead({})).body.preferred_open).toBeNull();
  });

  it('needs the cost of a platform lead, or an explicit "unknown", never a silent 0', async () => {
    const missing = await app.rest('log_lead', { platform: 'angi', zip, ...job }, owner);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/cost is required for a angi lead: .*"unknown"/);
    const unknown = await lead({ platform: 'angi', cost: 'unknown' });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(200);
    expect(unknown.body.lead.cost).toBeNull();
    const viaGraphql = await call(app, 'graphql', 'log_lead', { platform: 'angi', zip, ...job, cost: 'unknown' }, owner);
    expect(viaGraphql.body.lead.cost, JSON.stringify(viaGraphql.body)).toBeNull();
    const direct = await app.rest('log_lead', { platform: 'direct', zip, ...job, customer_name: 'Dana Direct' }, owner);
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    expect(direct.body.lead.cost).toBe(0);
    const pipe = await app.rest('pipeline', {}, owner);
    const angi = pipe.body.platforms.find((p: { platform: string }) => p.platform === 'angi');
    expect(angi).toMatchObject({ leads: 2, spend: 0, unknown_cost: 2 });
    const flag = await app.rest('flag_bad_lead', { lead_id: unknown.body.lead_id, reason: 'Disconnected number.' }, owner);
    expect(flag.body.error).toMatch(/logged as unknown/);
  });

  it('lists leads by status, platform and month, newest first', async () => {
    const all = await app.rest('leads', {}, owner);
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.leads.length).toBeGreaterThanOrEqual(6);
    const quotedAt = all.body.leads.map((l: { quoted_at: string }) => l.quoted_at);
    expect(quotedAt).toEqual([...quotedAt].sort().reverse());
    const angi = await app.rest('leads', { platform: 'angi' }, owner);
    expect(angi.body.leads.map((l: { platform: string }) => l.platform)).toEqual(['angi', 'angi']);
    const [first] = all.body.leads;
    await app.rest('update_lead', { lead_id: first.lead_id, status: 'lost' }, owner);
    const lost = await call(app, 'mcp', 'leads', { status: 'lost' }, owner);
    expect(lost.body.leads.map((l: { lead_id: string }) => l.lead_id)).toContain(first.lead_id);
    expect(lost.body.leads.every((l: { status: string }) => l.status === 'lost')).toBe(true);
    const november = (await app.rest('leads', { month: '2026-11' }, owner)).body.leads as { quoted_at: string; lead_id: string }[];
    expect(november.every((l) => l.quoted_at.startsWith('2026-11'))).toBe(true);
    expect(november.map((l) => l.lead_id)).toContain(first.lead_id);
    expect((await app.rest('leads', { month: '2027-01' }, owner)).body.leads).toEqual([]);
    expect((await app.rest('leads', { status: 'won' }, owner)).body.error).toMatch(/status must be one of quoted, booked, lost/);
    expect((await app.rest('leads', { cursor: 'nonsense' }, owner)).body.error).toMatch(/next_cursor/);
  });
});

describe('errors point to the tool that does the job', () => {
  it("ask_business's 401 names contact_business for people who are not signed in, on every surface", async () => {
    for (const via of SURFACES) {
      const r = await call(app, via, 'ask_business', { pro_id: demoIds.cleanerAustin, question: 'Do you bring supplies?' });
      expect(r.code, via).toBe('unauthorized');
      expect(r.error, via).toContain('Without signing in, use contact_business');
      expect(r.error, via).toContain('inquiry_status');
    }
  });

  it("a cleaner's menu and appointment setup point to the owner's own operations, not customer tools", async () => {
    const cleaner = bearer(await businessKey(app, demoIds.cleanerAustin));
    for (const op of ['service_setup', 'booking_setup']) {
      const r = await app.rest(op, {}, cleaner);
      expect(r.body.code, op).toBe('invalid_input');
      expect(r.body.error, op).toMatch(/is a cleaner: it has no service menu or appointment setup\. Your prices and details are in my_business; your jobs, hours and blocked time in schedule/);
      expect(r.body.error, op).not.toMatch(/find_cleaners|book_cleaning/);
    }
    const salon = bearer(await businessKey(app, demoIds.beautySanFrancisco));
    const quote = await app.rest('quote_job', { ...job }, salon);
    expect(quote.body.error).toMatch(/service_setup or booking_setup.*inquiries.*schedule/);
    // Customers asking a cleaner for its menu are still sent to the cleaner's booking tools.
    expect((await app.rest('service_menu', { business: demoIds.cleanerAustin })).body.error).toMatch(/find_cleaners, available_times and book_cleaning/);
  });

  it("contact_business requires customer_name, which X-User-Name may supply; the schema says so", async () => {
    const r = await app.rest('contact_business', { business: demoIds.cleanerAustin, message: 'Hello?' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/customer_name is required.*X-User-Name/);
    const header = await app.rest('contact_business', { business: demoIds.cleanerAustin, message: 'Hello?' }, { 'x-user-name': 'Hana Header' });
    expect(header.status, JSON.stringify(header.body)).toBe(200);
    const { body } = await app.mcp('tools/list');
    const tool = body.result.tools.find((t: { name: string }) => t.name === 'contact_business');
    expect(tool.inputSchema.properties.customer_name.description).toMatch(/^Required: .*X-User-Name/);
  });
});

describe('the limit on unconfirmed bookings', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startApp({ env: { PENDING_PER_REQUESTER: '2', PENDING_PER_CONTACT: '3' } });
  });
  afterAll(async () => limited?.close());

  it('counts an assistant signed in with its own key by that key, not by its address; the per-contact limit stays', async () => {
    const open = (await limited.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, date: '2026-12-01', days: 21 })).body.starts as string[];
    // One start a day, so no two bookings overlap.
    const times = open.filter((s, i) => i === 0 || s.slice(0, 10) !== open[i - 1]!.slice(0, 10));
    expect(times.length).toBeGreaterThanOrEqual(10);
    let next = 0;
    const book = (email: string, headers: Record<string, string> = {}) =>
      limited.rest('book_cleaning', { pro_id: demoIds.cleanerAustin, ...job, start: times[next++], address: '3 Limit St', zip, customer_name: 'Lim', customer_email: email }, headers);
    const booked = async (r: Promise<{ status: number; body: any }>) => {
      const got = await r;
      expect(got.status, JSON.stringify(got.body)).toBe(200);
    };
    // Without a key, the address holds two.
    const a1 = await book('a1@example.com');
    expect(a1.status, JSON.stringify(a1.body)).toBe(200);
    await booked(book('a2@example.com'));
    expect((await book('a3@example.com')).body.code).toBe('too_many_pending');
    // The same address signed in with an assistant's own key: counted by the key.
    const assistant = bearer(await personalKey(limited));
    await booked(book('b1@example.com', assistant));
    await booked(book('b2@example.com', assistant));
    expect((await book('b3@example.com', assistant)).body.code).toBe('too_many_pending');
    const other = bearer(await personalKey(limited));
    await booked(book('c1@example.com', other));
    // One customer's unconfirmed bookings are limited whoever books them.
    await booked(book('c1@example.com', other));
    const third = bearer(await personalKey(limited));
    await booked(book('c1@example.com', third));
    const fourth = bearer(await personalKey(limited));
    const refused = await book('c1@example.com', fourth);
    expect(refused.body.code).toBe('too_many_pending');
  });
});

describe('a field an operation does not take', () => {
  it('is refused naming the accepted fields, over REST and MCP, and nothing changes', async () => {
    const found = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1, date: '2026-12-07' });
    const booked = await app.rest('book_cleaning', {
      pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1, start: found.body.starts[0], zip: demoIds.austinZip,
      address: '9 Unknown Field St', customer_name: 'Una Known', customer_email: 'una@example.com',
    });
    expect(booked.status).toBe(200);
    const ask = { booking_id: booked.body.booking_id, manage_token: booked.body.manage_token, visit_start: found.body.starts[0] };
    const rest = await app.rest('cancel_booking', ask);
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'invalid_input' });
    expect(rest.body.error).toBe('Unknown field: visit_start. Accepted fields: booking_id, manage_token.');
    const mcp = await app.tool('cancel_booking', ask);
    expect(mcp.isError).toBe(true);
    expect(mcp.body.error).toBe(rest.body.error);
    const status = await app.rest('booking_status', { booking_id: booked.body.booking_id, manage_token: booked.body.manage_token });
    expect(status.body.status).toBe('pending');
  });
});

describe('city searches say which ZIPs each pro serves', () => {
  const sanJose = zipsOfCity('San Jose CA');
  /** What the refusal lists: the business's ZIPs, sorted, ten at most. */
  async function servedZips(slug: string) {
    const rows = await app.services.prisma.serviceZip.findMany({ where: { business: { slug } }, select: { zip: true } });
    return rows.map((r) => r.zip).sort();
  }
  const named = (zips: string[]) => zips.slice(0, 10).join(', ') + (zips.length > 10 ? ` and ${zips.length - 10} more` : '');

  it("lists each plumber's ZIPs in the city; a booking elsewhere names the ZIPs served and the search by ZIP", async () => {
    const r = await app.rest('find_service_call', { city: 'San Jose CA', trade: 'plumbing', issue: 'leak' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const pros = r.body.pros as { pro_id: string; name: string; zips: string[]; windows: { start: string }[] }[];
    expect(pros.length).toBeGreaterThan(1);
    for (const p of pros) {
      expect(p.zips.length, p.pro_id).toBeGreaterThan(0);
      expect(p.zips).toEqual([...p.zips].sort());
      expect(p.zips).toEqual((await servedZips(p.pro_id)).filter((z) => sanJose.includes(z)));
    }
    const [first] = pros;
    const elsewhere = pros.flatMap((p) => p.zips).find((z) => !first!.zips.includes(z))!;
    expect(elsewhere, 'a San Jose ZIP the first plumber does not serve').toBeDefined();
    const refused = await app.rest('book_service_call', {
      pro_id: first!.pro_id, trade: 'plumbing', issue: 'leak', start: first!.windows[0]!.start,
      address: '5 Wrong Zip Ave', zip: elsewhere, customer_name: 'Zed Zip', customer_email: 'zed-zip@example.com',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(
      `${first!.name} does not serve ZIP ${elsewhere}; it serves ${named(await servedZips(first!.pro_id))}. ` +
        `If the address is in ZIP ${elsewhere}, call find_service_call with zip ${elsewhere} for pros who serve it.`,
    );
    // That search finds pros who serve the ZIP, and a ZIP search has no zips to list.
    const byZip = await app.rest('find_service_call', { zip: elsewhere, trade: 'plumbing', issue: 'leak' });
    expect(byZip.body.pros.length).toBeGreaterThan(0);
    for (const p of byZip.body.pros) {
      expect(await servedZips(p.pro_id)).toContain(elsewhere);
      expect(p.zips).toBeNull();
    }
  });

  it("lists each cleaner's ZIPs over MCP; book_cleaning outside them names them and find_cleaners", async () => {
    const r = await call(app, 'mcp', 'find_cleaners', { city: 'San Jose CA', ...job });
    expect(r.ok, JSON.stringify(r.body)).toBe(true);
    const list = r.body.cleaners as (Cleaner & { zips: string[] })[];
    for (const c of list) expect(c.zips).toEqual((await servedZips(c.pro_id)).filter((z) => sanJose.includes(z)));
    const [first] = list;
    const elsewhere = sanJose.find((z) => !first!.zips.includes(z))!;
    const refused = await app.rest('book_cleaning', {
      pro_id: first!.pro_id, ...job, start: first!.starts[0], address: '6 Wrong Zip Ave', zip: elsewhere, customer_name: 'Zoe Zip', customer_email: 'zoe-zip@example.com',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain(`does not serve ZIP ${elsewhere}; it serves ${named(await servedZips(first!.pro_id))}.`);
    expect(refused.body.error).toContain(`call find_cleaners with zip ${elsewhere} for cleaners who serve it.`);
    expect((await cleaners()).cleaners.every((c) => (c as Cleaner & { zips: unknown }).zips === null)).toBe(true);
  });
});

describe('an empty search names the filters that empty it', () => {
  const bigJob = { zip: '95125', bedrooms: 3, bathrooms: 2 };

  it('blames both max_price and start_after when each alone leaves nobody, with the cheapest without them', async () => {
    const cheapest = (await app.rest('find_cleaners', { ...bigJob, sort: 'price' })).body.cleaners[0] as Cleaner;
    expect(cheapest.price).toBeGreaterThan(90);
    const r = await app.rest('find_cleaners', { ...bigJob, max_price: 90, start_after: '17:00' });
    expect(r.body.cleaners).toEqual([]);
    expect(r.body.note).toBe(
      'Both filters leave nobody: no cleaner has a total at or under $90 for this job, and none has an open start starting after 17:00 in the days searched. ' +
        `Without them the cheapest is ${cheapest.name} (pro_id ${cheapest.pro_id}, $${cheapest.price}), first open start ${cheapest.starts[0]}. ` +
        'Raise max_price and widen or drop start_after/finish_by to see it.',
    );
    // start_after alone is to blame when max_price leaves someone.
    const priced = await app.rest('find_cleaners', { ...bigJob, max_price: 400, start_after: '17:00' });
    expect(priced.body.note).toMatch(/^No open start starting after 17:00 in the days searched; the nearest is /);
    // max_price alone is to blame when the times leave someone.
    const timed = await app.rest('find_cleaners', { ...bigJob, max_price: 90, start_after: '09:00' });
    expect(timed.body.note).toMatch(/^No cleaner with an open start has a total at or under \$90 for this job; the cheapest is /);
  });

  it('names the whole span searched, as dates, when nothing opens in it', async () => {
    // Every HVAC pro serving one ZIP is booked solid for weeks.
    const pros = await app.services.prisma.business.findMany({ where: { kind: 'hvac', serviceZips: { some: { zip } } }, select: { slug: true } });
    expect(pros.length).toBeGreaterThan(0);
    for (const p of pros) await block(p.slug, Date.parse('2027-01-03T00:00:00Z'), Date.parse('2027-02-10T00:00:00Z'));
    const search = { zip, trade: 'hvac', issue: 'no_heat', date: '2027-01-04', days: 2 };
    const r = await app.rest('find_service_call', search);
    expect(r.body.pros).toEqual([]);
    expect(r.body.note).toBe('No HVAC pro has an open start for this job from 2027-01-04 through 2027-01-19; try a later date.');
    const filtered = await app.rest('find_service_call', { ...search, max_price: 500, finish_by: '18:00' });
    expect(filtered.body.note).toBe('No HVAC pro has an open start for this job from 2027-01-04 through 2027-01-19 (with max_price, finish_by); try a later date or drop max_price, finish_by.');
  });
});

describe('a retry without request_key', () => {
  const customer = { address: '7 Retry Rd', zip, customer_name: 'Rita Retry', customer_email: 'rita-retry@example.com' };

  it("says the customer already holds the start, pending then confirmed, without the booking's id or token", async () => {
    const sc = await app.rest('find_service_call', { zip, trade: 'plumbing', issue: 'leak', date: '2026-12-15', days: 2 });
    const pro = sc.body.pros[0];
    const input = { pro_id: pro.pro_id, trade: 'plumbing', issue: 'leak', start: pro.windows[0].start, ...customer };
    const first = await app.rest('book_service_call', input);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await app.rest('book_service_call', input);
    expect(again.body.code).toBe('time_unavailable');
    expect(again.body.error).toBe(
      `This customer already holds the start ${input.start} with ${pro.name} (pending confirmation): check it with booking_status (or my_bookings when signed in), ` +
        'or pass the same request_key to retry safely. Book again only for a second, separate job.',
    );
    expect(JSON.stringify(again.body)).not.toContain(first.body.booking_id);
    expect(JSON.stringify(again.body)).not.toContain(first.body.manage_token);
    expect(again.body.open_starts).toBeUndefined();
    // Another customer is offered other starts, as before.
    const other = await app.rest('book_service_call', { ...input, customer_email: 'someone-else@example.com' });
    expect(other.body.open_starts).toHaveLength(3);
    const mail = await app.services.prisma.outboxMessage.findFirstOrThrow({ where: { bookingId: first.body.booking_id } });
    const confirm = /\/confirm\/(ct_[\w-]+)/.exec(mail.text)![1]!;
    expect((await app.get(`/confirm/${confirm}`, { method: 'POST' })).status).toBeLessThan(400);
    const confirmed = await app.rest('book_service_call', { ...input, customer_email: 'RITA-retry@example.com' });
    expect(confirmed.body.error).toContain(`with ${pro.name} (confirmed): check it with booking_status`);
  });

  it('says so for a cleaning over MCP too', async () => {
    const [pro] = (await cleaners({ date: '2026-12-16' })).cleaners;
    const input = { pro_id: pro!.pro_id, ...job, start: pro!.starts[0], ...customer };
    expect((await app.rest('book_cleaning', input)).status).toBe(200);
    const again = await call(app, 'mcp', 'book_cleaning', input);
    expect(again.code).toBe('time_unavailable');
    expect(again.error).toMatch(new RegExp(`^This customer already holds the start ${pro!.starts[0]!.replace(/[+]/g, '\\+')} with .+ \\(pending confirmation\\)`));
  });
});

describe('inquiry_status shows the visit a conversation carries', () => {
  it("gives the visit's status, start, technician and price, on every surface", async () => {
    // Over MCP: selections are objects, which a REST query string does not carry.
    const mcp = async (name: string, input: Record<string, unknown>) => (await call(app, 'mcp', name, input)).body;
    const { business, selections } = await bookableMenu();
    const estimate = await mcp('estimate_visit', { business, selections });
    const start = ((await mcp('visit_times', { business, selections, date: '2026-12-09' })).starts as string[])[0];
    const booked = await call(app, 'mcp', 'book_visit', {
      business, selections, start, customer_name: 'Ivy Inquirer', customer_email: 'ivy@example.com', menu_revision: estimate.menu_revision,
      expected_estimate_cents: estimate.estimate_cents, customer_authorized: true, request_key: 'next-steps-inquiry-visit-0000',
    });
    expect(booked.ok, JSON.stringify(booked.body)).toBe(true);
    expect(booked.body.visit).toMatchObject({ status: 'confirmed', start, technician: expect.any(String), estimate_cents: estimate.estimate_cents });
    for (const via of SURFACES) {
      const s = await call(app, via, 'inquiry_status', { inquiry_id: booked.body.inquiry_id, reply_token: booked.body.reply_token });
      expect(s.ok, JSON.stringify(s.body)).toBe(true);
      expect(s.body.visit_id, via).toBe(booked.body.visit.visit_id);
      expect(s.body.visit, via).toEqual(booked.body.visit);
    }
    // A conversation without a visit says so.
    const c = (await app.rest('contact_business', { business, customer_name: 'Nia', message: 'Open on Sundays?' })).body;
    expect((await app.rest('inquiry_status', { inquiry_id: c.inquiry_id, reply_token: c.reply_token })).body.visit).toBeNull();
  });
});

describe("the owner's refusals name what is in the way and the tools that clear it", () => {
  let owner: Record<string, string>;
  beforeAll(async () => {
    owner = bearer(await businessKey(app, demoIds.cleanerAustin));
  });
  const ownJob = (start: string, name: string) =>
    app.rest('book_job', { customer_name: name, customer_phone: '512-555-0100', address: '9 Owner St, Austin TX 78704', start, ...job }, owner);

  it('book_job names the overlapping entry; block_time offers reschedule_job and cancel_job', async () => {
    const start = (await app.rest('open_times', { ...job, date: '2026-12-10', days: 1 }, owner)).body.starts[0] as string;
    const first = await ownJob(start, 'Olga Own');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const hhmm = (iso: string) => iso.slice(11, 16);
    for (const via of SURFACES) {
      const r = await call(app, via, 'book_job', { customer_name: 'Second', customer_phone: '512-555-0101', address: '9 Owner St, Austin TX 78704', start, ...job }, owner);
      expect(r.code, via).toBe('time_unavailable');
      expect(r.error, via).toBe(
        `${start} to ${first.body.end} overlaps own job "${first.body.job}" for Olga Own, 2026-12-10 ${hhmm(start)}-${hhmm(first.body.end)} ` +
          `(booking_id ${first.body.booking_id}, confirmed) on your schedule. Call open_times for open starts or move the entry with reschedule_job.`,
      );
    }
    const blocked = await app.rest('block_time', { date: '2026-12-10', start: hhmm(start), end: hhmm(first.body.end) }, owner);
    expect(blocked.body.code).toBe('job_conflict');
    expect(blocked.body.error).toContain('Olga Own');
    expect(blocked.body.error).toContain('First move it with reschedule_job or cancel it with cancel_job');
  });

  it('book_job names the overlapping block with its reason and block_id, and unblock_time', async () => {
    const b = await app.rest('block_time', { date: '2026-12-11', start: '10:00', end: '12:00', reason: 'Dentist' }, owner);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    const r = await ownJob('2026-12-11T11:00:00-06:00', 'Blocked Bea');
    expect(r.body.code, JSON.stringify(r.body)).toBe('time_unavailable');
    expect(r.body.error).toMatch(/^2026-12-11T11:00:00-06:00 to 2026-12-11T\d\d:\d\d:00-06:00 overlaps blocked time 2026-12-11 10:00-12:00 /);
    expect(r.body.error).toContain(`("Dentist", block_id ${b.body.block_id}) on your schedule. Call open_times for open starts or free the time with unblock_time.`);
    const day = await app.rest('block_time', { date: '2026-12-12' }, owner);
    const whole = await ownJob('2026-12-12T09:00:00-06:00', 'Blocked Bea');
    expect(whole.body.error).toContain(`overlaps blocked time 2026-12-12 all day (block_id ${day.body.block_id})`);
  });

  it('pipeline counts a job in the month it was booked, as its description says', async () => {
    const { body } = await app.mcp('tools/list');
    expect(body.result.tools.find((t: { name: string }) => t.name === 'pipeline').description).toContain('counted by the month booked');
    const count = async (month: string) => (await app.rest('pipeline', { month }, owner)).body.jobs_booked as number;
    const [november, december] = [await count('2026-11'), await count('2026-12')];
    const start = (await app.rest('open_times', { ...job, date: '2026-12-14', days: 1 }, owner)).body.starts[0] as string;
    expect((await ownJob(start, 'December Dan')).status).toBe(200);
    expect(await count('2026-11')).toBe(november + 1);
    expect(await count('2026-12')).toBe(december);
  });
});

describe("log_lead's draft when the preferred day is full", () => {
  it('says the day is full and offers the open starts nearest it, before and after', async () => {
    const owner = bearer(await businessKey(app, demoIds.cleanerAustin));
    expect((await app.rest('block_time', { date: '2026-12-16', reason: 'Full day' }, owner)).status).toBe(200);
    const r = await app.rest('log_lead', { platform: 'thumbtack', zip, ...job, cost: 10, date: '2026-12-16' }, owner);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.preferred_open).toBe(false);
    const starts = r.body.starts as string[];
    expect(starts.some((s) => s < '2026-12-16'), starts.join()).toBe(true);
    expect(starts.some((s) => s > '2026-12-17'), starts.join()).toBe(true);
    expect(starts.some((s) => s.startsWith('2026-12-16'))).toBe(false);
    // The nearest to the day's noon, from the same cleaner's open starts around it.
    const noon = Date.parse('2026-12-16T12:00:00-06:00');
    const open = (await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, date: '2026-12-13', days: 7 })).body.starts as string[];
    const byDistance = (list: string[], n: number) =>
      [...list].sort((a, b) => Math.abs(Date.parse(a) - noon) - Math.abs(Date.parse(b) - noon) || Date.parse(a) - Date.parse(b)).slice(0, n).sort();
    expect(starts).toEqual(byDistance(open, starts.length));
    const shown = byDistance(starts, 3).map(humanStart);
    expect(r.body.reply_draft).toContain(`We have no openings on Wed Dec 16. The nearest open times: ${shown[0]}, ${shown[1]} or ${shown[2]}.`);
  });
});

describe('a past date in the times tools is read as today (issue 21)', () => {
  const readAsToday = (date: string) => `date ${date} is in the past; read as today, 2026-11-23.`;

  it('available_times: the starts from today, with a note, on every surface', async () => {
    const pro = demoIds.cleanerAustin;
    const today = await app.rest('available_times', { pro_id: pro, ...job, date: '2026-11-23', days: 3 });
    expect(today.status, JSON.stringify(today.body)).toBe(200);
    expect(today.body.starts.length).toBeGreaterThan(0);
    expect(today.body.note).toBeNull();
    for (const via of SURFACES) {
      const past = await call(app, via, 'available_times', { pro_id: pro, ...job, date: '2026-11-01', days: 3 });
      expect(past.ok, JSON.stringify(past.body)).toBe(true);
      expect(past.body.starts, via).toEqual(today.body.starts);
      expect(past.body.note, via).toBe(readAsToday('2026-11-01'));
    }
  });

  it("visit_times: today's starts, the date it read, and a note", async () => {
    const input = { business: demoIds.beautySanFrancisco, selections: JSON.stringify([{ service_id: 'womens-cut' }]) };
    const today = await app.rest('visit_times', { ...input, date: '2026-11-23' });
    expect(today.status, JSON.stringify(today.body)).toBe(200);
    expect(today.body.note).toBeNull();
    const past = await app.rest('visit_times', { ...input, date: '2026-11-20' });
    expect(past.status, JSON.stringify(past.body)).toBe(200);
    expect(past.body).toMatchObject({ date: '2026-11-23', note: readAsToday('2026-11-20'), starts: today.body.starts });
    const ahead = await app.rest('visit_times', { ...input, date: '2026-12-01' });
    expect(ahead.body).toMatchObject({ date: '2026-12-01', note: null });
    expect(ahead.body.starts.length).toBeGreaterThan(0);
  });

  it("appointment_times: today's starts, the date it read, and a note", async () => {
    const salon = demoIds.beautySanFrancisco;
    const serviceId = (await app.rest('appointment_times', { business: salon })).body.services[0].service_id;
    const today = await app.rest('appointment_times', { business: salon, service_id: serviceId, date: '2026-11-23' });
    expect(today.status, JSON.stringify(today.body)).toBe(200);
    expect(today.body.note).toBeNull();
    const past = await call(app, 'graphql', 'appointment_times', { business: salon, service_id: serviceId, date: '2025-12-31' });
    expect(past.ok, JSON.stringify(past.body)).toBe(true);
    expect(past.body).toMatchObject({ date: '2026-11-23', note: readAsToday('2025-12-31'), starts: today.body.starts });
    expect((await app.rest('appointment_times', { business: salon, service_id: serviceId })).body.note).toBeNull();
  });
});

describe('wording that matches the booking state', () => {
  const customer = { address: '3 Wording St', zip, customer_name: 'Wren Words' };

  async function bookCall(date: string, email: string) {
    const sc = await app.rest('find_service_call', { zip, trade: 'plumbing', issue: 'leak', date, days: 1 });
    expect(sc.status, JSON.stringify(sc.body)).toBe(200);
    expect(sc.body.pros.length, JSON.stringify(sc.body)).toBeGreaterThan(0);
    const r = await app.rest('book_service_call', { pro_id: sc.body.pros[0].pro_id, trade: 'plumbing', issue: 'leak', start: sc.body.pros[0].windows[0].start, ...customer, customer_email: email });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const mail = await app.services.prisma.outboxMessage.findFirstOrThrow({ where: { bookingId: r.body.booking_id, to: email } });
    return { ...(r.body as { booking_id: string; manage_token: string }), mail, confirm: `/confirm/${/\/confirm\/(ct_[\w-]+)/.exec(mail.text)![1]!}` };
  }
  const status = async (b: { booking_id: string; manage_token: string }) =>
    (await app.rest('booking_status', { booking_id: b.booking_id, manage_token: b.manage_token })).body.next as string;

  it('the confirmation mail says nothing is booked until the customer confirms', async () => {
    const { mail } = await bookCall('2026-12-14', 'mail-words@example.com');
    expect(mail.text).toContain('is not booked yet: it is booked only once you confirm it with the link below.');
    expect(mail.text).not.toMatch(/is booked and/);
  });

  it('the confirm page asks to confirm, and once confirmed says so in its heading', async () => {
    const b = await bookCall('2026-12-10', 'page-words@example.com');
    const before = await (await app.get(b.confirm)).text();
    expect(before).toContain('<h1 id="heading">Confirm your booking</h1>');
    const after = await app.get(b.confirm, { method: 'POST' });
    expect(after.status).toBe(200);
    const html = await after.text();
    expect(html).toContain('<h1 id="heading">Booking confirmed</h1>');
    expect(html).not.toContain('Confirm your booking');
    expect(await (await app.get(b.confirm)).text()).toContain('<h1 id="heading">Booking confirmed</h1>');
  });

  it('booking_status says a cancellation inside 24 hours is late only once the booking is confirmed', async () => {
    const soon = await bookCall('2026-11-23', 'late-words@example.com');
    expect(await status(soon)).not.toContain('is late');
    expect((await app.get(soon.confirm, { method: 'POST' })).status).toBe(200);
    const next = await status(soon);
    expect(next).toContain('cancel_booking cancels, but a cancellation now is late (within 24 hours of the visit): the business may charge under its own policy.');
    expect(next).not.toContain('free until');
    const later = await bookCall('2026-12-11', 'free-words@example.com');
    expect((await app.get(later.confirm, { method: 'POST' })).status).toBe(200);
    expect(await status(later)).toContain('cancel_booking cancels (free until 24 hours before a visit).');
    // cancel_booking agrees with what booking_status said.
    expect((await app.rest('cancel_booking', { booking_id: soon.booking_id, manage_token: soon.manage_token })).body.late).toBe(true);
  });
});
