/**
 * Calendar squatting at menu businesses (issue 18, item 4): visits and appointments book at once,
 * so what one caller (key, connection or address) and one customer (e-mail or phone) may hold is
 * limited, unpaid holds may take only part of a business's day, and what is booked at once with
 * nothing paid needs a contact the business can reach. The attacks as reported, refused at the
 * limits over REST, MCP and GraphQL; the races run on PostgreSQL only (PGlite runs one statement
 * at a time).
 */
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { loadConfig } from '../../src/config.js';
import { bearer, businessKey, onPostgres, personalKey, startApp, type TestApp } from '../helpers/harness.js';
import { SURFACES, call, type Surface } from '../helpers/surfaces.js';

const SALON: string = demoIds.beautySanFrancisco;
const LA = 'America/Los_Angeles';
const CUT = [{ service_id: 'womens-cut' }];
/** Monday to Saturday 09:00-17:00: 480 minutes of appointment hours a day. */
const HOURS = [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_minute: 540, end_minute: 1020 }));

let app: TestApp;
let salonId: string;
let garage: string;
/** Each test calls from addresses of its own: 10.<block>.0.<n>. */
let block = 0;
const addresses = () => {
  const b = ++block;
  return (n: number) => ({ 'x-forwarded-for': `10.${b}.0.${n}` });
};

beforeAll(async () => {
  // The limits at their defaults (the harness lifts them for other tests); callers told apart by
  // X-Forwarded-For, believed from the in-process "proxy".
  app = await startApp({
    env: {
      RATE_LIMIT_PER_MINUTE: '100000',
      TRUST_PROXY: '127.0.0.1',
      CALENDAR_PER_REQUESTER: '6',
      CALENDAR_PER_REQUESTER_AT_BUSINESS: '4',
      CALENDAR_PER_CONTACT: '4',
      UNPAID_HOLDS_DAY_PERCENT: '50',
    },
  });
  const owner = bearer(await businessKey(app, SALON));
  salonId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: SALON } })).id;
  const setup = await app.rest(
    'update_booking_setup',
    {
      services: [
        { service_id: 'consult', name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' },
        { service_id: 'cut', name: 'Cut', price_cents: 6500, duration_minutes: 60, payment: 'upfront' },
      ],
      hours: HOURS,
    },
    owner,
  );
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  // Opening hours bound appointment hours: open the same hours.
  const opened = await app.rest('set_hours', { ...Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => [d, '09:00-17:00'])), sunday: 'closed' }, owner);
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  garage = (await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'auto_repair', city: 'Austin', appointmentServices: { some: { priceCents: 0 } } }, orderBy: { slug: 'asc' } })).slug;
});
afterAll(async () => app?.close());

// ---------------------------------------------------------------------------------------------
// Helpers

async function conversation(headers: Record<string, string>, extra: Record<string, unknown> = {}, business = SALON) {
  const c = await app.rest('contact_business', { business, customer_name: 'Sam Squatter', message: 'Hi', request_type: 'appointment', ...extra }, headers);
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  return { inquiry_id: c.body.inquiry_id as string, reply_token: c.body.reply_token as string };
}

async function appointmentStarts(serviceId: string, date: string, business = SALON): Promise<string[]> {
  const r = await app.rest('appointment_times', { business, service_id: serviceId, date });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.starts;
}

/** Books the first open start of `serviceId` on `date` in a new conversation from `headers`. */
async function bookAppointment(via: Surface, headers: Record<string, string>, serviceId: string, date: string, extra: { conversation?: Record<string, unknown>; booking?: Record<string, unknown>; business?: string } = {}) {
  const business = extra.business ?? SALON;
  const [start] = await appointmentStarts(serviceId, date, business);
  const c = await conversation(headers, extra.conversation, business);
  const price = (await app.rest('appointment_times', { business, service_id: serviceId })).body.price_cents;
  const r = await call(app, via, 'book_appointment', { ...c, service_id: serviceId, start, expected_price_cents: price, customer_authorized: true, ...extra.booking }, headers);
  return { ...r, conversation: c };
}

async function visitInput(extra: Record<string, unknown> = {}) {
  const e = (await app.rest('estimate_visit', { business: SALON, selections: JSON.stringify(CUT) })).body;
  return { business: SALON, selections: CUT, customer_name: 'Sam Squatter', menu_revision: e.menu_revision, expected_estimate_cents: e.estimate_cents, customer_authorized: true, request_key: randomUUID(), ...extra };
}

/** Books the first open start for a women's cut on `date`. */
async function bookVisit(via: Surface, headers: Record<string, string>, date: string, extra: Record<string, unknown> = {}) {
  const times = await app.rest('visit_times', { business: SALON, selections: JSON.stringify(CUT), date });
  expect(times.body.starts.length, JSON.stringify(times.body)).toBeGreaterThan(0);
  return call(app, via, 'book_visit', await visitInput({ start: times.body.starts[0], ...extra }), headers);
}

const expectLimit = (r: { ok: boolean; code?: string; error?: string }, message: RegExp) => {
  expect(r.ok, JSON.stringify(r)).toBe(false);
  expect(r.code).toBe('too_many_pending');
  expect(r.error).toMatch(message);
};

/** A day ahead with the salon's hours, and a second one. */
const DAY = '2026-12-01';

// ---------------------------------------------------------------------------------------------

describe('the limits', () => {
  it('default to few live visits and appointments per caller and customer, and half a day of unpaid holds', () => {
    expect(loadConfig({}).calendarLimits).toEqual({ perRequester: 10, perRequesterAtBusiness: 4, perContactAtBusiness: 4, unpaidDayPercent: 50 });
    expect(loadConfig({ UNPAID_HOLDS_DAY_PERCENT: '250' }).calendarLimits.unpaidDayPercent).toBe(100);
  });
});

describe('unpaid holds from many addresses cannot empty a day', () => {
  it('13 addresses holding a day for payment: half the day stays bookable, the rest is refused on every surface', async () => {
    const from = addresses();
    const before = await appointmentStarts('cut', DAY);
    expect(before.length).toBeGreaterThan(20);
    const results = [];
    for (let i = 0; i < 13; i++) results.push(await bookAppointment(SURFACES[i % 3]!, from(i), 'cut', DAY));
    const held = results.filter((r) => r.ok);
    // 480 minutes of hours, 60-minute holds, at most half unpaid at once: four.
    expect(held).toHaveLength(4);
    for (const r of held) expect(r.body.status).toBe('awaiting_payment');
    for (const r of results.filter((x) => !x.ok)) expectLimit(r, /waiting for payment on 2026-12-01.*at most 50% of a day.*Choose another day, or try again after 2026-11-23T0\d:\d\d:\d\d-08:00, when the first of them is paid or lapses\./);
    for (const via of SURFACES) expect(results.some((r, i) => !r.ok && SURFACES[i % 3] === via), via).toBe(true);
    expect(await app.services.prisma.appointment.count({ where: { businessId: salonId, status: 'awaiting_payment', start: { gte: new Date(`${DAY}T08:00:00Z`), lt: new Date('2026-12-02T08:00:00Z') } } })).toBe(4);
    // The day keeps open starts for customers who pay or book free.
    expect((await appointmentStarts('cut', DAY)).length).toBeGreaterThan(5);
    expect((await bookAppointment('rest', from(50), 'consult', DAY, { conversation: { customer_email: 'real@example.com' } })).ok).toBe(true);
    // Another day is not affected.
    expect((await bookAppointment('rest', from(51), 'cut', '2026-12-02')).ok).toBe(true);

    // When a hold ends (lapsed here: its 30 minutes passed), another may take its place.
    await app.services.prisma.appointment.update({ where: { id: held[0]!.body.booking_id }, data: { holdUntil: new Date(app.services.clock.now() - 60_000) } });
    expect((await bookAppointment('graphql', from(52), 'cut', DAY)).body.status).toBe('awaiting_payment');
    expectLimit(await bookAppointment('mcp', from(53), 'cut', DAY), /waiting for payment/);
  });
});

describe('a free service is confirmed at once', () => {
  it('needs a contact the business can reach, on every surface', async () => {
    const from = addresses();
    for (const via of SURFACES) {
      const r = await bookAppointment(via, from(1), 'consult', '2026-12-03');
      expect(r.code, JSON.stringify(r)).toBe('invalid_input');
      expect(r.error).toMatch(/free and confirmed at once.*customer_email or customer_phone/);
    }
    expect((await bookAppointment('rest', from(1), 'consult', '2026-12-03', { booking: { customer_phone: 'call me' } })).error).toMatch(/not a phone number/);
    // Given with the booking, the contact is kept on the conversation, where the owner sees it.
    const booked = await bookAppointment('mcp', from(1), 'consult', '2026-12-03', { booking: { customer_phone: '(415) 555-0134' } });
    expect(booked.body.status, JSON.stringify(booked)).toBe('confirmed');
    const inquiries = await app.rest('inquiries', {}, bearer(await businessKey(app, SALON)));
    expect(inquiries.body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === booked.body.inquiry_id).customer_phone).toBe('+14155550134');
    // Or in the X-User-Email header.
    expect((await bookAppointment('graphql', { ...from(1), 'x-user-email': 'head@example.com' }, 'consult', '2026-12-03')).body.status).toBe('confirmed');
    // A paid one needs none: the payment is the customer's commitment.
    expect((await bookAppointment('rest', from(1), 'cut', '2026-12-03')).body.status).toBe('awaiting_payment');
  });

  it('booked 32 times from one address with made-up e-mails: four, the rest refused on every surface', async () => {
    const from = addresses();
    const results = [];
    for (let i = 0; i < 32; i++) {
      results.push(await bookAppointment(SURFACES[i % 3]!, from(1), 'consult', '2026-12-04', { conversation: { customer_email: `fake${i}@example.com` } }));
    }
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    for (const r of results.slice(4)) expectLimit(r, /^This address \(calling without a key or connection\) already has 4 unpaid holds and upcoming appointments at Velvet Hair Studio.*cancel_appointment/);
    // Cancelling one frees a place.
    const cancelled = await app.rest('cancel_appointment', { booking_id: results[0]!.body.booking_id, ...results[0]!.conversation }, from(1));
    expect(cancelled.body.status, JSON.stringify(cancelled.body)).toBe('cancelled');
    expect((await bookAppointment('rest', from(1), 'consult', '2026-12-04', { conversation: { customer_email: 'again@example.com' } })).ok).toBe(true);
  });

  it('one customer e-mail from many addresses is held to four too', async () => {
    const from = addresses();
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await bookAppointment('rest', from(i), 'consult', '2026-12-05', { conversation: { customer_email: `Kim+${i}@Example.com` } }));
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    for (const r of results.slice(4)) expectLimit(r, /^This customer's e-mail or phone already has 4/);
  });

  it('a key is its own requester, limited across businesses too', async () => {
    const key = bearer(await personalKey(app));
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await bookAppointment('rest', key, 'consult', '2026-12-07', { conversation: { customer_email: `pk${i}@example.com` } }));
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    expectLimit(results[4]!, /^This key or connection already has 4 .* at Velvet Hair Studio/);
    // Two more elsewhere reach the limit of six in all.
    const elsewhere = [];
    for (let i = 0; i < 3; i++) elsewhere.push(await bookAppointment('rest', key, 'free-inspection', '2026-12-08', { business: garage, conversation: { customer_email: `gk${i}@example.com` } }));
    expect(elsewhere.map((r) => r.ok)).toEqual([true, true, false]);
    expectLimit(elsewhere[2]!, /^This key or connection already has 6 unpaid holds and upcoming appointments, the most allowed at once/);
  });
});

describe('book_visit', () => {
  it('with fresh random request_keys from one address: four visits, the rest refused on every surface', async () => {
    const from = addresses();
    const results = [];
    for (let i = 0; i < 10; i++) results.push(await bookVisit(SURFACES[i % 3]!, from(1), '2026-12-09', { customer_email: `v${i}@example.com` }));
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    for (const r of results.slice(4)) expectLimit(r, /^This address .* already has 4 open visit requests and upcoming visits at Velvet Hair Studio.*cancel_visit_request/);
    // A request counts too, and a cancelled visit frees a place.
    expectLimit(await call(app, 'rest', 'request_visit', await visitInput({ customer_email: 'r@example.com' }), from(1)), /open visit requests/);
    const first = results[0]!.body;
    const cancelled = await app.rest('cancel_visit_request', { visit_id: first.visit.visit_id, inquiry_id: first.inquiry_id, reply_token: first.reply_token }, from(1));
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect((await bookVisit('rest', from(1), '2026-12-09', { customer_email: 'v11@example.com' })).ok).toBe(true);
  });

  it('needs a contact the business can reach, on every surface', async () => {
    const from = addresses();
    for (const via of SURFACES) {
      const r = await bookVisit(via, from(1), '2026-12-10');
      expect(r.code, JSON.stringify(r)).toBe('invalid_input');
      expect(r.error).toMatch(/book_visit books the time at once with nothing paid.*customer_email or customer_phone/);
    }
    expect((await bookVisit('rest', { ...from(1), 'x-user-phone': '415-555-0199' }, '2026-12-10')).ok).toBe(true);
    // A request holds no time: the business answers in its conversation.
    expect((await call(app, 'rest', 'request_visit', await visitInput(), from(1))).ok).toBe(true);
  });

  it('one customer from many addresses is held to four', async () => {
    const from = addresses();
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await bookVisit('rest', from(i), '2026-12-11', { customer_email: 'same@example.com' }));
    expect(results.filter((r) => r.ok)).toHaveLength(4);
    for (const r of results.slice(4)) expectLimit(r, /^This customer's e-mail or phone already has 4 open visit requests/);
  });
});

describe('an IPv6 caller', () => {
  it('is one requester across its /64', async () => {
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await bookVisit('rest', { 'x-forwarded-for': `2001:db8:aa:1::${i + 1}` }, '2026-12-12', { customer_email: `six${i}@example.com` }));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, true, false]);
    expect((await bookVisit('rest', { 'x-forwarded-for': '2001:db8:aa:2::1' }, '2026-12-12', { customer_email: 'six9@example.com' })).ok).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

describe.skipIf(!onPostgres)('the limits under concurrency on PostgreSQL', () => {
  const localStarts = (date: string, from: number, count: number, minutes: number) =>
    Array.from({ length: count }, (_, i) => DateTime.fromISO(`${date}T09:00`, { zone: LA }).plus({ minutes: from + i * minutes }).toISO({ suppressMilliseconds: true })!);

  it('20 free bookings at once from one address: exactly four', async () => {
    const from = addresses();
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => conversation(from(1), { customer_email: `par${i}@example.com` })));
    // Half-hour starts on two days: none overlaps another, so only the limit decides.
    const starts = [...localStarts('2026-12-14', 0, 10, 30), ...localStarts('2026-12-18', 0, 10, 30)];
    const results = await Promise.all(people.map((c, i) => app.rest('book_appointment', { ...c, service_id: 'consult', start: starts[i], expected_price_cents: 0, customer_authorized: true }, from(1))));
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code).toBe('too_many_pending');
  });

  it('20 free bookings at once from one key at five businesses: exactly six in all', async () => {
    const key = bearer(await personalKey(app));
    const free = await app.services.prisma.appointmentService.findMany({
      where: { priceCents: 0, business: { slug: { not: SALON } } },
      distinct: ['businessId'],
      orderBy: { businessId: 'asc' },
      take: 5,
      select: { id: true, durationMinutes: true, business: { select: { slug: true } } },
    });
    expect(free).toHaveLength(5);
    // Four non-overlapping starts at each: only the limit in all (six) decides, not the one per business (four).
    const calls = (
      await Promise.all(
        free.map(async (s, b) => {
          const starts: string[] = [];
          for (const start of await appointmentStarts(s.id, '2026-12-22', s.business.slug)) {
            if (starts.length < 4 && (starts.length === 0 || Date.parse(start) >= Date.parse(starts.at(-1)!) + s.durationMinutes * 60_000)) starts.push(start);
          }
          expect(starts, s.business.slug).toHaveLength(4);
          return Promise.all(
            starts.map(async (start, i) => ({ ...(await conversation(key, { customer_email: `all${b}-${i}@example.com` }, s.business.slug)), service_id: s.id, start })),
          );
        }),
      )
    ).flat();
    const results = await Promise.all(calls.map((c) => app.rest('book_appointment', { ...c, expected_price_cents: 0, customer_authorized: true }, key)));
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(6);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code).toBe('too_many_pending');
  });

  it('20 unpaid holds at once from 20 addresses for one day: exactly four', async () => {
    const from = addresses();
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => conversation(from(i))));
    // Back-to-back hours: none overlaps another, so only the day's limit decides.
    const starts = localStarts('2026-12-15', 0, 8, 60);
    const results = await Promise.all(people.map((c, i) => app.rest('book_appointment', { ...c, service_id: 'cut', start: starts[i % 8], expected_price_cents: 6500, customer_authorized: true }, from(i))));
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of results.filter((x) => x.status !== 200)) expect(['too_many_pending', 'time_unavailable']).toContain(r.body.code);
    expect(results.filter((r) => r.body.code === 'too_many_pending').length).toBeGreaterThan(0);
  });

  it('20 book_visit calls at once from one address: exactly four', async () => {
    const from = addresses();
    const times = await app.rest('visit_times', { business: SALON, selections: JSON.stringify(CUT), date: '2026-12-16' });
    const inputs = await Promise.all(Array.from({ length: 20 }, (_, i) => visitInput({ start: times.body.starts[i], customer_email: `pv${i}@example.com` })));
    const results = await Promise.all(inputs.map((input) => app.rest('book_visit', input, from(1))));
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    for (const r of results.filter((x) => x.status !== 200)) expect(['too_many_pending', 'time_unavailable']).toContain(r.body.code);
  });

  it('20 calls at once for one customer from 20 addresses: exactly four', async () => {
    const from = addresses();
    const times = await app.rest('visit_times', { business: SALON, selections: JSON.stringify(CUT), date: '2026-12-17' });
    const inputs = await Promise.all(Array.from({ length: 20 }, (_, i) => visitInput({ start: times.body.starts[i], customer_email: 'one@example.com' })));
    const results = await Promise.all(inputs.map((input, i) => app.rest('book_visit', input, from(i))));
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
  });
});
