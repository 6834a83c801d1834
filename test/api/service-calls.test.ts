import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockForPeople, whenForPeople } from '../../src/core/for-people.js';
import { demoIds } from '../../src/demo/generate.js';
import { ISSUES, SAFETY, TRADES } from '../../src/pricing/service-call.js';
import { lastMailTo, startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

const zip = demoIds.austinZip;
const plumber = demoIds.plumberAustin;
const search = { zip, trade: 'plumbing', issue: 'leak' };
const customer = { customer_name: 'Sam Ortiz', customer_email: 'sam@example.com', address: '1100 S Congress Ave, Austin TX', zip };

interface Window { start: string; end: string }
interface Pro { pro_id: string; name: string; fee: number; window_minutes: number; windows: Window[]; texts_customers: boolean; links: unknown[] }

async function find(extra: Record<string, unknown> = {}) {
  const r = await app.rest('find_service_call', { ...search, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { pros: Pro[]; safety: string; fee_note: string; note: string | null };
}

async function proOf(slug: string, extra: Record<string, unknown> = {}) {
  const pro = (await find({ days: 14, ...extra })).pros.find((p) => p.pro_id === slug);
  expect(pro, slug).toBeDefined();
  return pro!;
}

const book = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.rest('book_service_call', { trade: 'plumbing', issue: 'leak', ...customer, ...body }, headers);

async function priceListOf(slug: string) {
  const b = await app.services.prisma.business.findUniqueOrThrow({ where: { slug }, select: { id: true, priceList: true, timeZone: true, hours: true } });
  return { ...b, priceList: b.priceList as { service_call: Record<string, number>; window_minutes: number } };
}

describe('find_service_call', () => {
  it('lists pros of the trade with a firm fee per issue, arrival windows with offsets, links and the safety instruction', async () => {
    const r = await find();
    expect(r.pros.length).toBeGreaterThan(0);
    expect(r.safety).toBe(SAFETY);
    expect(r.safety).toMatch(/gas/);
    expect(r.safety).toMatch(/911/);
    expect(r.safety).toMatch(/flood/);
    expect(r.fee_note).toMatch(/never the price of the repair/);
    for (const p of r.pros) {
      const list = await priceListOf(p.pro_id);
      expect(p.fee).toBe(list.priceList.service_call.leak! / 100);
      expect(p.window_minutes).toBe(list.priceList.window_minutes);
      expect(p.windows.length).toBeGreaterThan(0);
      for (const w of p.windows) {
        expect(w.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:[03]0:00-06:00$/);
        expect(Date.parse(w.end) - Date.parse(w.start)).toBe(p.window_minutes * 60_000);
      }
      expect(Array.isArray(p.links)).toBe(true);
    }
    expect(r.pros.map((p) => p.pro_id)).toContain(plumber);
    const kinds = await app.services.prisma.business.findMany({ where: { slug: { in: r.pros.map((p) => p.pro_id) } }, select: { kind: true } });
    expect(new Set(kinds.map((k) => k.kind))).toEqual(new Set(['plumbing']));
  });

  it('prices each issue separately: the fee follows the issue, never a repair', async () => {
    const list = await priceListOf(plumber);
    for (const issue of ISSUES.plumbing) {
      const p = await proOf(plumber, { issue });
      expect(p.fee).toBe(list.priceList.service_call[issue]! / 100);
    }
  });

  it('finds HVAC pros in San Jose with Pacific offsets', async () => {
    const r = await app.rest('find_service_call', { zip: demoIds.sanJoseZip, trade: 'hvac', issue: 'no_heat' });
    expect(r.status).toBe(200);
    expect(r.body.pros.map((p: Pro) => p.pro_id)).toContain(demoIds.hvacSanJose);
    for (const p of r.body.pros as Pro[]) for (const w of p.windows) expect(w.start).toMatch(/-08:00$/);
    expect(r.body.safety).toBe(SAFETY);
    const city = await app.rest('find_service_call', { city: 'San Jose CA', trade: 'hvac', issue: 'no_heat' });
    expect(city.status).toBe(200);
    expect(city.body.pros.map((p: Pro) => p.pro_id)).toContain(demoIds.hvacSanJose);
  });

  it('offers only windows that lie wholly within the weekly hours', async () => {
    const b = await priceListOf(plumber);
    const p = await proOf(plumber);
    for (const w of p.windows) {
      const s = DateTime.fromISO(w.start, { zone: b.timeZone });
      const e = DateTime.fromISO(w.end, { zone: b.timeZone });
      expect(s.toISODate()).toBe(e.toISODate());
      const hours = b.hours.filter((h) => h.weekday === s.weekday % 7);
      const from = s.hour * 60 + s.minute;
      const to = e.hour * 60 + e.minute;
      expect(hours.some((h) => h.startMinute <= from && to <= h.endMinute), w.start).toBe(true);
    }
  });

  it('honours days, date, start_after, finish_by, max_price and sort', async () => {
    const one = await proOf(plumber, { days: 1, date: '2026-11-24' });
    for (const w of one.windows) expect(w.start.slice(0, 10)).toBe('2026-11-24');
    const late = await proOf(plumber, { date: '2026-11-24', start_after: '12:00', finish_by: '16:00' });
    for (const w of late.windows) {
      expect(w.start.slice(11, 16) >= '12:00').toBe(true);
      expect(w.end.slice(11, 16) <= '16:00').toBe(true);
    }
    const byPrice = (await find({ sort: 'price' })).pros.map((p) => p.fee);
    expect(byPrice).toEqual([...byPrice].sort((a, b) => a - b));
    const soonest = (await find()).pros.map((p) => Date.parse(p.windows[0]!.start));
    expect(soonest).toEqual([...soonest].sort((a, b) => a - b));
    const cap = byPrice[0]!;
    const capped = await find({ max_price: cap });
    expect(capped.pros.length).toBeGreaterThan(0);
    expect(capped.pros.every((p) => p.fee <= cap)).toBe(true);
    const none = await find({ max_price: 1 });
    expect(none.pros).toEqual([]);
    expect(none.note).toMatch(/max_price/);
    expect(none.safety).toBe(SAFETY);
  });

  it('answers an area nobody serves with a note and still the safety instruction', async () => {
    const r = await find({ zip: '10001' });
    expect(r.pros).toEqual([]);
    expect(r.note).toMatch(/No plumber/);
    expect(r.safety).toBe(SAFETY);
  });

  it('gives the same result over REST, MCP and GraphQL', async () => {
    const input = { ...search, date: '2026-11-25', days: 3, sort: 'price' };
    const rest = await app.rest('find_service_call', input);
    const mcp = await app.tool('find_service_call', input);
    expect(mcp.isError).toBe(false);
    expect(mcp.structured).toEqual(rest.body);
    expect(mcp.body).toEqual(rest.body);
    const gql = await app.graphql(
      `query($input: FindServiceCallInput!) { findServiceCall(input: $input) {
        pros { proId name fee windowMinutes windows { start end } links { url label rating } jobsConfirmedDone textsCustomers }
        feeNote safety note } }`,
      { input: { zip, trade: 'plumbing', issue: 'leak', date: '2026-11-25', days: 3, sort: 'price' } },
    );
    const g = gql.body.data.findServiceCall;
    expect(g.safety).toBe(rest.body.safety);
    expect(g.feeNote).toBe(rest.body.fee_note);
    expect(g.pros.map((p: { proId: string; fee: number; windows: Window[] }) => [p.proId, p.fee, p.windows])).toEqual(
      rest.body.pros.map((p: Pro) => [p.pro_id, p.fee, p.windows]),
    );
    const tools = await app.mcp('tools/list');
    const tool = tools.body.result.tools.find((t: { name: string }) => t.name === 'find_service_call');
    expect(tool.inputSchema.properties.trade.enum).toEqual([...TRADES]);
    expect(tool.annotations.readOnlyHint).toBe(true);
  });
});

describe('find_service_call limits and refusals', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['missing trade', { trade: undefined }, /trade/],
    ['unknown trade', { trade: 'roofing' }, /plumbing or hvac/],
    ['missing issue', { issue: undefined }, /issue/],
    ['unknown issue', { issue: 'burst_pipe' }, /leak, clog, water_heater, toilet, fixture, no_water, other.*no_cool, no_heat, maintenance, noise, thermostat, other/],
    ['issue of the other trade', { issue: 'no_cool' }, /not a plumbing category.*leak, clog, water_heater, toilet, fixture, no_water, other/],
    ['details over 500', { details: 'x'.repeat(501) }, /details/],
    ['days 0', { days: 0 }, /days must be between 1 and 14/],
    ['days 15', { days: 15 }, /days must be between 1 and 14/],
    ['days 1.5', { days: 1.5 }, /days/],
    ['zip of 4 digits', { zip: '7870' }, /zip/],
    ['no zip or city', { zip: undefined }, /zip.*city/],
    ['city over 60', { zip: undefined, city: 'a'.repeat(61) }, /city/],
    ['city not served', { zip: undefined, city: 'Boise ID' }, /Austin TX/],
    ['max_price 0', { max_price: 0 }, /max_price/],
    ['sort unknown', { sort: 'rating' }, /soonest, price/],
    ['bad date', { date: '2026-02-30' }, /date/],
    ['bad start_after', { start_after: '25:00' }, /start_after/],
    ['bad finish_by', { finish_by: '9am' }, /finish_by/],
  ];
  it.each(cases)('%s → 400 invalid_input', async (_name, change, message) => {
    const input = Object.fromEntries(Object.entries({ ...search, ...change }).filter(([, v]) => v !== undefined));
    const r = await app.rest('find_service_call', input);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.code).toBe('invalid_input');
    expect(r.body.error).toMatch(message);
  });

  it('accepts the bounds themselves', async () => {
    for (const extra of [{ days: 1 }, { days: 14 }, { details: 'x'.repeat(500) }, { city: 'Austin TX', zip: undefined }]) {
      const input = Object.fromEntries(Object.entries({ ...search, ...extra }).filter(([, v]) => v !== undefined));
      expect((await app.rest('find_service_call', input)).status, JSON.stringify(extra)).toBe(200);
    }
  });
});

describe('book_service_call', () => {
  it('books a window: pending, manage_token, next, fee, window, safety; mails a confirmation; stores the service call', async () => {
    const p = await proOf(plumber, { date: '2026-11-24' });
    const w = p.windows[0]!;
    const r = await book({ pro_id: plumber, start: w.start, price: p.fee, details: 'Drip under the sink', notes: 'Side gate' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: 'pending', fee: p.fee, window: w, trade: 'plumbing', issue: 'leak', safety: SAFETY });
    expect(r.body.manage_token).toMatch(/^mt_/);
    expect(r.body.next).toMatch(/confirm/);
    expect(r.body.next).toMatch(/repair is quoted on site/);
    expect(r.body.fee_note).toMatch(/never the price of the repair/);

    const mail = await lastMailTo(app, customer.customer_email);
    expect(mail?.subject).toMatch(/confirm your plumbing service call/i);
    expect(mail!.text).toContain(`Arrival window: ${whenForPeople(w.start, 'America/Chicago')} to ${clockForPeople(w.end, 'America/Chicago', false)}`);
    expect(mail!.text).toContain(`/manage/${r.body.manage_token}`);
    expect(mail!.text).toMatch(/\/confirm\/ct_/);
    expect(mail!.text).toContain(SAFETY);
    expect(mail!.text).toMatch(/never the price of the repair/);

    const stored = await app.services.prisma.booking.findUniqueOrThrow({ where: { id: r.body.booking_id }, include: { visits: true } });
    expect(stored).toMatchObject({ kind: 'service_call', trade: 'plumbing', issue: 'leak', details: 'Drip under the sink', notes: 'Side gate', priceCents: Math.round(p.fee * 100) });
    expect(stored.visits.map((v) => [v.start.getTime(), v.end.getTime()])).toEqual([[Date.parse(w.start), Date.parse(w.end)]]);

    const status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body).toMatchObject({ kind: 'service_call', status: 'pending', fee: p.fee, price: null, trade: 'plumbing', issue: 'leak', visits: [{ start: w.start, end: w.end }] });

    // The window is taken: no offered window overlaps it, and booking it again is refused.
    const after = await proOf(plumber, { date: '2026-11-24' });
    for (const o of after.windows) expect(Date.parse(o.end) <= Date.parse(w.start) || Date.parse(o.start) >= Date.parse(w.end), o.start).toBe(true);
    const again = await book({ pro_id: plumber, start: w.start, customer_email: 'other@example.com' });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('time_unavailable');
    expect(again.body.error).toMatch(/find_service_call/);
    const overlapping = await book({ pro_id: plumber, start: DateTime.fromISO(w.start, { setZone: true }).plus({ minutes: 30 }).toISO({ suppressMilliseconds: true }) });
    expect(overlapping.body.code).toBe('time_unavailable');
  });

  it('does not offer windows over blocked time', async () => {
    const b = await priceListOf(plumber);
    const before = await proOf(plumber, { date: '2026-11-26', days: 1 });
    expect(before.windows.length).toBeGreaterThan(0);
    const first = before.windows[0]!;
    await app.services.prisma.block.create({ data: { businessId: b.id, start: new Date(first.start), end: new Date(Date.parse(first.start) + 30 * 60_000) } });
    // Written around the services: tell the snapshot, as a notice from another process would.
    app.services.search.clear();
    const after = await proOf(plumber, { date: '2026-11-26', days: 1 });
    expect(after.windows.map((w) => w.start)).not.toContain(first.start);
    expect((await book({ pro_id: plumber, start: first.start })).body.code).toBe('time_unavailable');
  });

  it('refuses a changed fee with price_changed and the current fee', async () => {
    const p = await proOf(plumber, { date: '2026-11-27' });
    const r = await book({ pro_id: plumber, start: p.windows[0]!.start, price: p.fee + 10 });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('price_changed');
    expect(r.body.fee).toBe(p.fee);
  });

  it('refuses starts that are not an open window start', async () => {
    const p = await proOf(plumber, { date: '2026-11-30' });
    const offGrid = DateTime.fromISO(p.windows[0]!.start, { setZone: true }).plus({ minutes: 15 }).toISO({ suppressMilliseconds: true });
    expect((await book({ pro_id: plumber, start: offGrid })).body.code).toBe('time_unavailable');
    expect((await book({ pro_id: plumber, start: '2026-11-30T03:00:00-06:00' })).body.code).toBe('time_unavailable');
    expect((await book({ pro_id: plumber, start: '2026-11-20T10:00:00-06:00' })).body.code).toBe('time_unavailable');
    const noOffset = await book({ pro_id: plumber, start: '2026-11-30T10:00:00' });
    expect(noOffset.body.code).toBe('invalid_input');
    expect(noOffset.body.error).toMatch(/start/);
  });

  it('applies the contact rules of cleanings: headers stand in, phone only with a business that texts', async () => {
    const all = await find({ date: '2026-12-01', days: 3 });
    const texting = all.pros.find((p) => p.texts_customers)!;
    const mailOnly = all.pros.find((p) => !p.texts_customers)!;
    const noContact = await book({ pro_id: mailOnly.pro_id, start: mailOnly.windows[0]!.start, customer_name: undefined, customer_email: undefined });
    expect(noContact.body.error).toMatch(/customer_name/);
    const noEmail = await book({ pro_id: mailOnly.pro_id, start: mailOnly.windows[0]!.start, customer_email: undefined, customer_phone: '+15125550100' });
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.error).toMatch(/e-mail only/);

    const headers = await book(
      { pro_id: mailOnly.pro_id, start: mailOnly.windows[0]!.start, customer_name: undefined, customer_email: undefined },
      { 'X-User-Name': 'Header Person', 'X-User-Email': 'header@example.com' },
    );
    expect(headers.status, JSON.stringify(headers.body)).toBe(200);
    expect((await lastMailTo(app, 'header@example.com'))?.subject).toMatch(/service call/);

    const sms = await book({ pro_id: texting.pro_id, start: texting.windows[0]!.start, customer_email: undefined, customer_phone: '+15125550101' });
    expect(sms.status, JSON.stringify(sms.body)).toBe(200);
    expect(sms.body.next).toMatch(/texted \+15125550101/);
    // A confirmation longer than one text leaves as several; together they hold the whole message.
    const texts = await app.services.prisma.outboxMessage.findMany({ where: { to: '+15125550101' }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    const whole = texts.map((t) => t.text.replace(/^\(\d\/\d\) /, '')).join(' ');
    expect(whole).toMatch(/service call/);
    expect(whole).toContain(SAFETY);
  });

  it('gives the same result shape over REST, MCP and GraphQL', async () => {
    const p = await proOf(plumber, { date: '2026-12-02', days: 1 });
    const [a, b, c] = p.windows.filter((w, i, ws) => i === 0 || Date.parse(w.start) >= Date.parse(ws[0]!.end)).concat(p.windows);
    const rest = await book({ pro_id: plumber, start: a!.start, price: p.fee });
    const mcp = await app.tool('book_service_call', { pro_id: plumber, trade: 'plumbing', issue: 'leak', ...customer, start: b!.start, price: p.fee });
    expect(rest.status).toBe(200);
    expect(mcp.isError, JSON.stringify(mcp.body)).toBe(false);
    const keys = Object.keys(rest.body).sort();
    expect(Object.keys(mcp.structured).sort()).toEqual(keys);
    expect(mcp.structured).toMatchObject({ status: 'pending', fee: p.fee, window: b, safety: SAFETY });
    const gql = await app.graphql(
      `mutation($input: BookServiceCallInput!) { bookServiceCall(input: $input) { bookingId status manageToken next fee feeNote window { start end } safety } }`,
      { input: { proId: plumber, trade: 'plumbing', issue: 'leak', start: c!.start, price: p.fee, address: customer.address, zip, customerName: 'G Q', customerEmail: 'gq@example.com' } },
    );
    // c may overlap a or b (three windows on one day); either outcome is a well-formed answer.
    if (gql.body.errors) expect(gql.body.errors[0].extensions.code).toBe('time_unavailable');
    else expect(gql.body.data.bookServiceCall).toMatchObject({ status: 'pending', fee: p.fee, window: c, safety: SAFETY });
    const bad = await app.tool('book_service_call', { pro_id: plumber, trade: 'plumbing', issue: 'no_heat', ...customer, start: a!.start });
    expect(bad.isError).toBe(true);
    expect(bad.body.code).toBe('invalid_input');
  });

  it('refuses a pro of the other trade, an unknown pro and a ZIP the pro does not serve', async () => {
    const p = await proOf(plumber);
    const hvac = await book({ pro_id: demoIds.hvacSanJose, start: p.windows[0]!.start, trade: 'plumbing' });
    expect(hvac.body).toMatchObject({ code: 'invalid_input' });
    expect(hvac.body.error).toMatch(/hvac/);
    const cleaner = await book({ pro_id: demoIds.cleanerAustin, start: p.windows[0]!.start });
    expect(cleaner.body.code).toBe('not_found');
    const unknown = await book({ pro_id: 'no-such-pro', start: p.windows[0]!.start });
    expect(unknown.body.code).toBe('not_found');
    const far = await book({ pro_id: plumber, start: p.windows[0]!.start, zip: '10001' });
    expect(far.body.code).toBe('invalid_input');
    expect(far.body.error).toMatch(/10001/);
  });

  const bookCases: [string, Record<string, unknown>, RegExp][] = [
    ['missing pro_id', { pro_id: undefined }, /pro_id/],
    ['missing start', { start: undefined }, /start/],
    ['start over 50', { start: 'x'.repeat(51) }, /start/],
    ['unknown trade', { trade: 'electrical' }, /plumbing or hvac/],
    ['issue of the other trade', { issue: 'thermostat' }, /not a plumbing category/],
    ['details over 500', { details: 'x'.repeat(501) }, /details/],
    ['address under 3', { address: 'ab' }, /address/],
    ['address over 300', { address: 'a'.repeat(301) }, /address/],
    ['missing address', { address: undefined }, /address/],
    ['missing zip', { zip: undefined }, /zip/],
    ['zip of letters', { zip: 'abcde' }, /zip/],
    ['notes over 500', { notes: 'n'.repeat(501) }, /notes/],
    ['customer_name over 100', { customer_name: 'n'.repeat(101) }, /customer_name/],
    ['customer_email over 200', { customer_email: `${'e'.repeat(195)}@x.com` }, /customer_email/],
    ['customer_email not an address', { customer_email: 'not-an-email' }, /customer_email/],
    ['customer_phone over 30', { customer_phone: '1'.repeat(31) }, /customer_phone/],
    ['price 0', { price: 0 }, /price/],
    ['price negative', { price: -5 }, /price/],
  ];
  it.each(bookCases)('%s → 400 invalid_input', async (_name, change, message) => {
    const body = Object.fromEntries(
      Object.entries({ pro_id: plumber, trade: 'plumbing', issue: 'leak', start: '2026-12-03T09:00:00-06:00', ...customer, ...change }).filter(([, v]) => v !== undefined),
    );
    const r = await app.rest('book_service_call', body);
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.code).toBe('invalid_input');
    expect(r.body.error).toMatch(message);
  });

  it('accepts details, notes and contact fields at their bounds', async () => {
    const p = await proOf(plumber, { date: '2026-12-04', days: 1 });
    const r = await book({
      pro_id: plumber, start: p.windows[0]!.start, details: 'd'.repeat(500), notes: 'n'.repeat(500), address: 'a'.repeat(300),
      customer_name: 'n'.repeat(100), customer_phone: '+1 (512) 555-0134 ext. 1234567',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });
});

describe('arrival windows across a DST change', () => {
  let dst: TestApp;
  beforeAll(async () => {
    // Thursday 2027-03-11 09:00 in Austin; clocks spring forward on Sunday 2027-03-14 at 02:00.
    dst = await startApp({ now: '2027-03-11T15:00:00Z' });
  });
  afterAll(async () => dst?.close());

  it('keeps windows whole and within local hours, with the offset each day has', async () => {
    const businesses = await dst.services.prisma.business.findMany({ where: { kind: 'plumbing' }, select: { slug: true, timeZone: true, hours: true, priceList: true } });
    const bySlug = new Map(businesses.map((b) => [b.slug, b]));
    const offsets = new Set<string>();
    let checked = 0;
    for (const date of ['2027-03-13', '2027-03-14', '2027-03-15']) {
      const r = await dst.rest('find_service_call', { ...search, date, days: 1 });
      expect(r.status).toBe(200);
      for (const p of r.body.pros as Pro[]) {
        const b = bySlug.get(p.pro_id)!;
        for (const w of p.windows) {
          expect(w.start.slice(0, 10)).toBe(date);
          expect(w.start.slice(-6)).toBe(date < '2027-03-14' ? '-06:00' : '-05:00');
          offsets.add(w.start.slice(-6));
          expect(Date.parse(w.end) - Date.parse(w.start)).toBe((b.priceList as { window_minutes: number }).window_minutes * 60_000);
          const s = DateTime.fromISO(w.start, { zone: b.timeZone });
          const e = DateTime.fromISO(w.end, { zone: b.timeZone });
          expect(s.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ")).toBe(w.start);
          const from = s.hour * 60 + s.minute;
          const to = e.hour * 60 + e.minute;
          expect(b.hours.some((h) => h.weekday === s.weekday % 7 && h.startMinute <= from && to <= h.endMinute), w.start).toBe(true);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
    expect(offsets).toEqual(new Set(['-06:00', '-05:00']));

    // A window after the change books and is stored at the instant it names.
    const r = await dst.rest('find_service_call', { ...search, date: '2027-03-15', days: 1 });
    const pro = (r.body.pros as Pro[])[0]!;
    const w = pro.windows[0]!;
    const booked = await dst.rest('book_service_call', { pro_id: pro.pro_id, trade: 'plumbing', issue: 'leak', start: w.start, ...customer });
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body.window).toEqual(w);
    const visit = await dst.services.prisma.bookingVisit.findFirstOrThrow({ where: { bookingId: booked.body.booking_id } });
    expect(visit.start.getTime()).toBe(Date.parse(w.start));
  });
});
