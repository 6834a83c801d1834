/**
 * Appointments end to end over REST, MCP and GraphQL: every state of the spec's Appointment
 * rows (confirmed; awaiting_payment → confirmed by the sandbox's signed webhook; lapsed after 30
 * minutes by the clock; refund_pending → refunded or refund_failed; too late to cancel), retries,
 * price changes, every refusal, and the attacks: other businesses' ids, read-only credentials,
 * NUL bytes.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whenForPeople } from '../../src/core/for-people.js';
import { renameKeys, toCamel, toSnake } from '../../src/registry/case.js';
import { errorStatus, type ErrorCode } from '../../src/errors.js';
import { sweepAppointments } from '../../src/appointments/payments.js';
import { TEST_CARDS } from '../../src/payments/sandbox.js';
import { bearer, businessKey, lastMailTo, startApp, type TestApp } from '../helpers/harness.js';

const SALON = 'velvet-hair-studio-san-francisco';
const LA = 'America/Los_Angeles';
const SURFACES = ['rest', 'mcp', 'graphql'] as const;
type Surface = (typeof SURFACES)[number];
const MINUTE = 60_000;

let app: TestApp;
let owner: Record<string, string>;
let readOnlyOwner: Record<string, string>;
let garage: { slug: string; owner: Record<string, string> };
let onboarding: { slug: string; owner: Record<string, string> };
/** Minutes the service clock has been moved on by a test. */
let shift = 0;

async function call(surface: Surface, name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  if (surface === 'rest') {
    const r = await app.rest(name, input, headers);
    return { status: r.status, body: r.body };
  }
  if (surface === 'mcp') {
    const r = await app.tool(name, input, headers);
    return r.isError ? { status: 400, body: r.body } : { status: 200, body: r.structured };
  }
  const doc = app.app.documents.get(name)!;
  const variables = /\$input/.test(doc) ? { input: renameKeys(input, toCamel) } : {};
  const r = await app.graphql(doc, variables, headers);
  if (r.body.errors) return { status: r.status, body: { error: r.body.errors[0].message, code: r.body.errors[0].extensions.code, ...r.body.errors[0].extensions } };
  return { status: 200, body: renameKeys(Object.values(r.body.data)[0], toSnake) };
}

const ok = async (surface: Surface, name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
  const r = await call(surface, name, input, headers);
  expect(r.status, `${name} via ${surface}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
};

async function refused(surface: Surface, name: string, input: Record<string, unknown>, code: ErrorCode, message?: RegExp, headers: Record<string, string> = {}) {
  const r = await call(surface, name, input, headers);
  // MCP carries the refusal in an isError result (call() reports it as 400); REST and GraphQL answer the code's status.
  const expected = surface === 'mcp' ? 400 : errorStatus[code];
  expect(r.status, `${name} via ${surface}: ${JSON.stringify(r.body)}`).toBe(expected);
  expect(r.body.code, `${name} via ${surface}`).toBe(code);
  if (message) expect(r.body.error, `${name} via ${surface}`).toMatch(message);
  return r.body;
}

/** A new conversation with a business (contact_business). */
async function conversation(business = SALON, name = 'Pat Doe') {
  const c = await app.rest('contact_business', { business, customer_name: name, customer_email: 'pat@example.com', message: 'I would like an appointment.', request_type: 'appointment' });
  expect(c.status).toBe(200);
  return { inquiry_id: c.body.inquiry_id as string, reply_token: c.body.reply_token as string };
}

/** Starts never used before, in the salon's hours (Monday to Saturday 09:00-17:00 Los Angeles), from Wednesday on. */
const used = new Set<string>();
function freshStart(): string {
  for (let day = DateTime.fromISO('2026-11-25T00:00', { zone: LA }); ; day = day.plus({ days: 1 })) {
    if (day.weekday === 7) continue;
    for (let hour = 9; hour <= 15; hour++) {
      const s = day.set({ hour, minute: 0 }).toISO({ suppressMilliseconds: true })!;
      if (!used.has(s)) {
        used.add(s);
        return s;
      }
    }
  }
}
/** A start for a 30-minute service on the day of the clock (07:00 there), hours ahead: less than 24 hours away. */
let soon = 0;
function soonStart(): string {
  const start = DateTime.fromISO('2026-11-23T10:00', { zone: LA }).plus({ minutes: 30 * soon++ });
  if (start.hour >= 17) throw new Error('no more starts today');
  return start.toISO({ suppressMilliseconds: true })!;
}

const settle = () => app.services.payments.sandbox!.flush();

/** The customer pays on the sandbox's hosted checkout page (a form POST, as the browser sends it). */
async function pay(checkoutUrl: string, card: string = TEST_CARDS.pays) {
  const res = await app.get(new URL(checkoutUrl).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: card, expiry: '12/30', cvc: '123', name: 'Pat Doe' }),
  });
  await settle();
  return res;
}

const stored = (id: string) => app.services.prisma.appointment.findUniqueOrThrow({ where: { id } });
const messages = async (c: { inquiry_id: string; reply_token: string }) =>
  ((await app.rest('inquiry_status', c)).body.messages as { from: string; text: string }[]).map((m) => `${m.from}: ${m.text}`);

/** Resolves with the next inquiryReplied event of a conversation; listening starts at once. */
async function nextConversationEvent(inquiryId: string) {
  const iterator = app.services.events.subscribe('inquiryReplied', inquiryId)[Symbol.asyncIterator]();
  const next = iterator.next().finally(() => void iterator.return?.());
  await new Promise((r) => setTimeout(r, 0));
  return next;
}

const PRICES = { consult: 0, cut: 6500, trim: 2000 };

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  const clock = app.services.clock;
  const real = clock.now.bind(clock);
  clock.now = () => real() + shift * MINUTE;
  owner = bearer(await businessKey(app, SALON));
  readOnlyOwner = bearer(await businessKey(app, SALON, ['read']));
  const prisma = app.services.prisma;
  const salon = await prisma.business.findUniqueOrThrow({ where: { slug: SALON } });
  await prisma.business.update({ where: { id: salon.id }, data: { minNoticeMinutes: 120 } });
  const free = await prisma.business.findFirstOrThrow({ where: { kind: 'auto_repair', city: 'Austin', appointmentServices: { some: {} } }, orderBy: { slug: 'asc' } });
  garage = { slug: free.slug, owner: bearer(await businessKey(app, free.slug)) };
  const unfinished = await prisma.paymentAccount.findFirstOrThrow({ where: { chargesEnabled: false }, include: { business: true } });
  onboarding = { slug: unfinished.business.slug, owner: bearer(await businessKey(app, unfinished.business.slug)) };
  // Opening hours bound appointment hours: the salon opens Monday to Saturday 09:00-17:00 here.
  await ok('rest', 'set_hours', { ...Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => [d, '09:00-17:00'])), sunday: 'closed' }, owner);
  const setup = await ok('rest', 'update_booking_setup', {
    services: [
      { service_id: 'consult', name: 'Consultation', price_cents: PRICES.consult, duration_minutes: 30, payment: 'none' },
      { service_id: 'cut', name: "Women's cut", price_cents: PRICES.cut, duration_minutes: 60, payment: 'upfront' },
      { service_id: 'trim', name: 'Fringe trim', price_cents: PRICES.trim, duration_minutes: 30, payment: 'upfront' },
    ],
    remove_service_ids: ['style-consultation', 'express-blow-dry', 'fringe-trim'],
    hours: [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_minute: 540, end_minute: 1020 })),
  }, owner);
  expect(setup.services.map((s: { service_id: string }) => s.service_id)).toEqual(['consult', 'cut', 'trim']);
});
afterAll(async () => app?.close());

describe('what a business offers', () => {
  it('business_info says appointments are offered and how; appointment_times lists the bookable services', async () => {
    for (const surface of SURFACES) {
      const info = await ok(surface, 'business_info', { business: SALON });
      expect(info.booking.appointments).toBe('upfront');
      expect(info.booking.how).toMatch(/appointment_times and book_appointment/);
      expect(info.policies.payment).toMatch(/upfront are paid by card/);
      const list = await ok(surface, 'appointment_times', { business: SALON });
      expect(list.services).toEqual([
        { service_id: 'consult', name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' },
        { service_id: 'cut', name: "Women's cut", price_cents: 6500, duration_minutes: 60, payment: 'upfront' },
        { service_id: 'trim', name: 'Fringe trim', price_cents: 2000, duration_minutes: 30, payment: 'upfront' },
      ]);
      expect(list.starts).toEqual([]);
      expect((await ok(surface, 'business_info', { business: garage.slug })).booking.appointments).toBe('book');
      expect((await ok(surface, 'business_info', { business: 'sparkle-shine-cleaning-austin' })).booking.appointments).toBe('none');
    }
  });

  it('gives live starts of a service for a day, in the business-local offset, on the quarter hour', async () => {
    for (const surface of SURFACES) {
      const day = await ok(surface, 'appointment_times', { business: SALON, service_id: 'cut', date: '2026-12-01' });
      expect(day).toMatchObject({ service_id: 'cut', price_cents: 6500, duration_minutes: 60, payment: 'upfront', date: '2026-12-01' });
      expect(day.starts[0]).toBe('2026-12-01T09:00:00-08:00');
      expect(day.starts.at(-1)).toBe('2026-12-01T16:00:00-08:00');
      expect(day.starts).toHaveLength(29);
      expect((await ok(surface, 'appointment_times', { business: SALON, service_id: 'cut', date: '2026-11-29' })).starts).toEqual([]); // a Sunday
      const week = await ok(surface, 'appointment_times', { business: SALON, service_id: 'consult' });
      expect(week.date).toBe('2026-11-23');
      // Two hours' notice from a little after 07:00.
      expect(week.starts[0]).toBe('2026-11-23T09:15:00-08:00');
      expect(new Set(week.starts.map((s: string) => s.slice(0, 10))).size).toBe(6);
    }
  });

  it('offers a business whose payment onboarding is unfinished only its free services', async () => {
    const list = await ok('rest', 'appointment_times', { business: onboarding.slug });
    expect(list.services.length).toBeGreaterThan(0);
    expect(list.services.every((s: { payment: string }) => s.payment === 'none')).toBe(true);
    const setup = await ok('rest', 'booking_setup', {}, onboarding.owner);
    expect(setup.payment_account_ready).toBe(false);
  });

  it('refuses what it cannot answer', async () => {
    for (const surface of SURFACES) {
      await refused(surface, 'appointment_times', { business: SALON, date: '2026-12-01' }, 'invalid_input', /date needs service_id/);
      await refused(surface, 'appointment_times', { business: SALON, service_id: 'colour' }, 'not_found', /Bookable: "consult", "cut", "trim"/);
      await refused(surface, 'appointment_times', { business: SALON, service_id: 'cut', date: '2026-02-30' }, 'invalid_input');
      await refused(surface, 'appointment_times', { business: SALON, service_id: 'cut', date: '2027-12-01' }, 'invalid_input', /within the next 180 days/);
      await refused(surface, 'appointment_times', { business: 'no-such-business' }, 'not_found');
      await refused(surface, 'appointment_times', { business: 'sparkle-shine-cleaning-austin' }, 'invalid_input', /no service menu/);
    }
  });
});

describe('a free appointment', () => {
  it('is confirmed at once; a retry returns the same booking; the time is taken; cancelling 24 hours ahead releases it', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const start = freshStart();
      const replied = nextConversationEvent(c.inquiry_id);
      const b = await ok(surface, 'book_appointment', { ...c, service_id: 'consult', start, expected_price_cents: 0, customer_authorized: true });
      expect(b).toMatchObject({ status: 'confirmed', checkout_url: null, hold_until: null, service_id: 'consult', start, price_cents: 0, payment: 'none', inquiry_id: c.inquiry_id, replayed: false });
      expect(b.next).toMatch(/cancel_appointment/);
      expect((await replied).value).toMatchObject({ type: 'appointment.booked', inquiryId: c.inquiry_id, bookingId: b.booking_id });

      const again = await ok(surface, 'book_appointment', { ...c, service_id: 'consult', start, expected_price_cents: 0, customer_authorized: true });
      expect(again).toMatchObject({ booking_id: b.booking_id, status: 'confirmed', replayed: true });
      expect(await app.services.prisma.appointment.count({ where: { conversationId: c.inquiry_id } })).toBe(1);

      const date = start.slice(0, 10);
      expect((await ok(surface, 'appointment_times', { business: SALON, service_id: 'consult', date })).starts).not.toContain(start);
      const other = await conversation(SALON, 'Sam Other');
      await refused(surface, 'book_appointment', { ...other, service_id: 'consult', start, expected_price_cents: 0, customer_authorized: true }, 'time_unavailable', /appointment_times/);
      // One at a time: another service overlapping it is refused too.
      const overlapping = DateTime.fromISO(start, { setZone: true }).minus({ minutes: 15 }).toISO({ suppressMilliseconds: true })!;
      await refused(surface, 'book_appointment', { ...other, service_id: 'cut', start: overlapping, expected_price_cents: PRICES.cut, customer_authorized: true }, 'time_unavailable');

      expect(await messages(c)).toEqual([
        'customer: I would like an appointment.',
        `customer: Booked Consultation on ${start}, $0.00.`,
        `business: Confirmed: Consultation on ${start}. Nothing is paid through Porchlight; the business charges for its work itself.`,
      ]);
      const cancelled = await ok(surface, 'cancel_appointment', { booking_id: b.booking_id, ...c });
      expect(cancelled).toEqual({ booking_id: b.booking_id, status: 'cancelled' });
      expect(await ok(surface, 'cancel_appointment', { booking_id: b.booking_id, ...c })).toEqual({ booking_id: b.booking_id, status: 'cancelled' });
      expect((await ok(surface, 'appointment_times', { business: SALON, service_id: 'consult', date })).starts).toContain(start);
      expect((await messages(c)).at(-1)).toBe(`customer: Cancelled Consultation on ${start}.`);
    }
  });

  it('tells the owner: updates, the mail, and booking_setup', async () => {
    const before = (await ok('rest', 'updates', {}, owner)).cursor;
    const c = await conversation(SALON, 'Owner Watch');
    const start = freshStart();
    const b = await ok('rest', 'book_appointment', { ...c, service_id: 'consult', start, expected_price_cents: 0, customer_authorized: true }, { 'x-client-name': 'Test Assistant' });
    const feed = await ok('rest', 'updates', { since: before }, owner);
    expect(feed.events).toContainEqual(expect.objectContaining({ type: 'appointment.booked', booking_id: b.booking_id, inquiry_id: c.inquiry_id, start, customer_name: 'Owner Watch', client_name: 'Test Assistant' }));
    const mail = await lastMailTo(app, `hello@${SALON}.example`);
    expect(mail?.subject).toBe(`New appointment: Owner Watch, ${whenForPeople(start, 'America/Los_Angeles')}`);
    const setup = await ok('graphql', 'booking_setup', {}, owner);
    expect(setup.appointments).toContainEqual(expect.objectContaining({ booking_id: b.booking_id, status: 'confirmed', start, service_id: 'consult', customer_name: 'Owner Watch', client_name: 'Test Assistant' }));
    const schedule = await ok('rest', 'schedule', {}, owner);
    expect(schedule.notifications.map((n: { text: string }) => n.text)).toContain(`New appointment made through Test Assistant: Owner Watch for ${start}.`);
  });
});

describe('an appointment paid upfront', () => {
  it('awaits payment with a checkout; the sandbox checkout pays it and its signed webhook confirms it', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const start = freshStart();
      const b = await ok(surface, 'book_appointment', { ...c, service_id: 'cut', start, expected_price_cents: PRICES.cut, customer_authorized: true });
      expect(b).toMatchObject({ status: 'awaiting_payment', payment: 'upfront', price_cents: 6500, replayed: false });
      expect(b.checkout_url).toMatch(/^http:\/\/porchlight\.test\/sandbox\/checkout\/cs_sbx_/);
      const holdUntil = Date.parse(b.hold_until);
      expect(holdUntil - app.services.clock.now()).toBeGreaterThan(29 * MINUTE);
      expect(holdUntil - app.services.clock.now()).toBeLessThanOrEqual(30 * MINUTE);
      expect(b.hold_until).toMatch(/-08:00$/);
      // The held time is taken while the hold runs.
      expect((await ok(surface, 'appointment_times', { business: SALON, service_id: 'cut', date: start.slice(0, 10) })).starts).not.toContain(start);
      // A retry returns the same booking and the same checkout.
      expect(await ok(surface, 'book_appointment', { ...c, service_id: 'cut', start, expected_price_cents: PRICES.cut, customer_authorized: true })).toMatchObject({ booking_id: b.booking_id, checkout_url: b.checkout_url, replayed: true });

      // Landing on the return page with made-up parameters changes nothing.
      const landing = await app.get(`/payments/checkout/done?session_id=${encodeURIComponent(new URL(b.checkout_url).pathname.split('/').pop()!)}&status=paid`);
      expect(landing.status).toBe(200);
      expect((await stored(b.booking_id)).status).toBe('awaiting_payment');

      const declined = await pay(b.checkout_url, TEST_CARDS.declined);
      expect(declined.status).toBe(400);
      expect(await declined.text()).toContain('Your card was declined');
      expect((await stored(b.booking_id)).status).toBe('awaiting_payment');

      const replied = nextConversationEvent(c.inquiry_id);
      const paid = await pay(b.checkout_url);
      expect(paid.status).toBe(303);
      expect(paid.headers.get('location')).toBe(`http://porchlight.test/payments/checkout/done?session_id=${new URL(b.checkout_url).pathname.split('/').pop()!}`);
      expect((await replied).value).toMatchObject({ type: 'appointment.confirmed', bookingId: b.booking_id });
      const row = await stored(b.booking_id);
      expect(row).toMatchObject({ status: 'confirmed', paidCents: 6500, holdsTime: true });
      expect(row.paymentIntentId).toMatch(/^pi_sbx_/);
      expect(await ok(surface, 'book_appointment', { ...c, service_id: 'cut', start, expected_price_cents: PRICES.cut, customer_authorized: true })).toMatchObject({ booking_id: b.booking_id, status: 'confirmed', checkout_url: null, replayed: true });
      expect((await messages(c)).at(-1)).toBe(`business: Payment of $65.00 received: Women's cut on ${start} is confirmed. Cancel at least 24 hours before the start for a full refund.`);
      expect((await ok(surface, 'inquiry_status', c)).appointments).toEqual([{ booking_id: b.booking_id, status: 'confirmed', start, service_name: "Women's cut", checkout_url: null, hold_until: null }]);
      const setup = await ok(surface, 'booking_setup', {}, owner);
      expect(setup.appointments).toContainEqual(expect.objectContaining({ booking_id: b.booking_id, status: 'confirmed', paid_cents: 6500 }));
    }
  });

  it('cancelled 24 hours ahead: refund_pending, then refunded when the provider reports', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const b = await ok(surface, 'book_appointment', { ...c, service_id: 'trim', start: freshStart(), expected_price_cents: PRICES.trim, customer_authorized: true });
      await pay(b.checkout_url);
      // The refund's outcome webhook is held back for a moment, so refund_pending can be seen.
      const sandbox = app.services.payments.sandbox!;
      sandbox.connect(async () => new Response('busy', { status: 503 }));
      const cancelled = await ok(surface, 'cancel_appointment', { booking_id: b.booking_id, ...c });
      expect(cancelled).toEqual({ booking_id: b.booking_id, status: 'refund_pending' });
      await settle();
      expect((await stored(b.booking_id)).status).toBe('refund_pending');
      expect((await ok(surface, 'booking_setup', {}, owner)).appointments).toContainEqual(expect.objectContaining({ booking_id: b.booking_id, status: 'refund_pending' }));
      expect(await ok(surface, 'cancel_appointment', { booking_id: b.booking_id, ...c })).toEqual({ booking_id: b.booking_id, status: 'refund_pending' });
      sandbox.connect(async (request) => app.fetch(request));
      await app.services.prisma.sandboxWebhook.updateMany({ where: { deliveredAt: null }, data: { nextAttemptAt: new Date(0) } });
      await settle();
      const row = await stored(b.booking_id);
      expect(row).toMatchObject({ status: 'refunded', holdsTime: false, cancelledBy: 'customer' });
      expect(row.refundId).toMatch(/^re_sbx_/);
      expect((await ok(surface, 'cancel_appointment', { booking_id: b.booking_id, ...c })).status).toBe('refunded');
      expect((await messages(c)).slice(-2)).toEqual([
        `customer: Cancelled Fringe trim on ${b.start}. The $20.00 paid is being refunded through the payment provider.`,
        'business: The refund of $20.00 is done: the payment provider returned it to the card it was paid with.',
      ]);
    }
  });

  it('a refund the provider cannot make ends refund_failed; the owner may try again', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const b = await ok(surface, 'book_appointment', { ...c, service_id: 'trim', start: freshStart(), expected_price_cents: PRICES.trim, customer_authorized: true });
      await pay(b.checkout_url, TEST_CARDS.refundFails);
      expect((await stored(b.booking_id)).status).toBe('confirmed');
      expect(await ok(surface, 'cancel_appointment', { booking_id: b.booking_id, ...c })).toEqual({ booking_id: b.booking_id, status: 'refund_pending' });
      await settle();
      expect((await stored(b.booking_id)).status).toBe('refund_failed');
      expect((await messages(c)).at(-1)).toBe('business: The payment provider could not refund the $20.00. Velvet Hair Studio will follow up here to return it another way.');
      expect((await ok(surface, 'booking_setup', {}, owner)).appointments).toContainEqual(expect.objectContaining({ booking_id: b.booking_id, status: 'refund_failed' }));
      // The owner retries: a new refund, which fails again for this card.
      expect(await ok(surface, 'cancel_business_appointment', { booking_id: b.booking_id }, owner)).toEqual({ booking_id: b.booking_id, status: 'refund_pending' });
      await settle();
      const row = await stored(b.booking_id);
      expect(row).toMatchObject({ status: 'refund_failed', refundRound: 2 });
      expect(await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'refund', status: 'failed', data: { path: ['paymentIntentId'], equals: row.paymentIntentId! } } })).toBe(2);
    }
  });

  it('lapses unpaid after 30 minutes by the service clock: the time is free at once, the sweep tells everyone', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const start = freshStart();
      const date = start.slice(0, 10);
      const b = await ok(surface, 'book_appointment', { ...c, service_id: 'cut', start, expected_price_cents: PRICES.cut, customer_authorized: true });
      shift += 29;
      try {
        expect((await ok(surface, 'appointment_times', { business: SALON, service_id: 'cut', date })).starts).not.toContain(start);
        shift += 2;
        // Past its hold: free in every read before any sweep, and bookable by someone else.
        expect((await ok(surface, 'appointment_times', { business: SALON, service_id: 'cut', date })).starts).toContain(start);
        expect((await ok(surface, 'booking_setup', {}, owner)).appointments).toContainEqual(expect.objectContaining({ booking_id: b.booking_id, status: 'lapsed' }));
        expect((await ok(surface, 'inquiry_status', c)).appointments).toEqual([expect.objectContaining({ booking_id: b.booking_id, status: 'lapsed' })]);
        const retry = await ok(surface, 'book_appointment', { ...c, service_id: 'cut', start, expected_price_cents: PRICES.cut, customer_authorized: true });
        expect(retry.booking_id).not.toBe(b.booking_id);
        expect(retry.status).toBe('awaiting_payment');
        const first = await stored(b.booking_id);
        expect(first).toMatchObject({ status: 'awaiting_payment', holdsTime: false }); // let go by the database itself
        expect(await sweepAppointments(app.services)).toBeGreaterThanOrEqual(1);
        expect(await stored(b.booking_id)).toMatchObject({ status: 'lapsed', cancelledBy: 'lapse' });
        expect(await sweepAppointments(app.services)).toBe(0);
        expect(await messages(c)).toContain(`business: The payment for Women's cut on ${start} did not arrive in time, so the booking lapsed and the time is free again. Book again if it is still wanted.`);
        await settle();
        // The lapsed booking's checkout no longer takes payment.
        const page = await app.get(new URL(b.checkout_url).pathname);
        expect(await page.text()).toContain('This checkout has expired: nothing was charged.');
        const late = await pay(b.checkout_url);
        expect(late.status).toBe(400);
        expect((await stored(b.booking_id)).status).toBe('lapsed');
        await ok(surface, 'cancel_appointment', { booking_id: retry.booking_id, ...c });
      } finally {
        shift = 0;
      }
    }
  });

  it('cancelling before paying releases the time and closes the checkout', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const start = soonStart();
      const b = await ok(surface, 'book_appointment', { ...c, service_id: 'trim', start, expected_price_cents: PRICES.trim, customer_authorized: true });
      // Unpaid, it may be cancelled even within 24 hours: nothing was paid.
      expect(await ok(surface, 'cancel_appointment', { booking_id: b.booking_id, ...c })).toEqual({ booking_id: b.booking_id, status: 'cancelled' });
      await settle();
      const session = await app.services.prisma.sandboxPaymentObject.findUniqueOrThrow({ where: { id: (await stored(b.booking_id)).checkoutSessionId! } });
      expect(session.status).toBe('expired');
      expect((await pay(b.checkout_url)).status).toBe(400);
      expect((await stored(b.booking_id)).status).toBe('cancelled');
    }
  });
});

describe('within 24 hours', () => {
  it('the customer cannot cancel and is told to ask in the conversation; the business can, and refunds', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const start = soonStart();
      const free = await ok(surface, 'book_appointment', { ...c, service_id: 'consult', start, expected_price_cents: 0, customer_authorized: true });
      await refused(surface, 'cancel_appointment', { booking_id: free.booking_id, ...c }, 'too_late_to_cancel', /less than 24 hours from now.*Ask Velvet Hair Studio in the conversation \(follow_up_business/);
      expect((await stored(free.booking_id)).status).toBe('confirmed');
      const byOwner = await ok(surface, 'cancel_business_appointment', { booking_id: free.booking_id, message: 'Sorry, we are closed that day.' }, owner);
      expect(byOwner).toEqual({ booking_id: free.booking_id, status: 'cancelled' });
      expect((await messages(c)).at(-1)).toBe(`business: Velvet Hair Studio cancelled Consultation on ${start}.\nSorry, we are closed that day.`);

      const paidStart = soonStart();
      const paid = await ok(surface, 'book_appointment', { ...c, service_id: 'trim', start: paidStart, expected_price_cents: PRICES.trim, customer_authorized: true });
      await pay(paid.checkout_url);
      await refused(surface, 'cancel_appointment', { booking_id: paid.booking_id, ...c }, 'too_late_to_cancel');
      expect(await ok(surface, 'cancel_business_appointment', { booking_id: paid.booking_id }, owner)).toEqual({ booking_id: paid.booking_id, status: 'refund_pending' });
      await settle();
      expect(await stored(paid.booking_id)).toMatchObject({ status: 'refunded', cancelledBy: 'business' });
      expect(await ok(surface, 'cancel_business_appointment', { booking_id: paid.booking_id }, owner)).toEqual({ booking_id: paid.booking_id, status: 'refunded' });
    }
  });
});

describe('refusals', () => {
  it('price_changed when expected_price_cents is not the live price, also after the owner changes it', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const body = await refused(surface, 'book_appointment', { ...c, service_id: 'cut', start: freshStart(), expected_price_cents: 6000, customer_authorized: true }, 'price_changed', /now \$65\.00 \(price_cents 6500\)/);
      expect(body.price_cents).toBe(6500);
    }
    await ok('rest', 'update_booking_setup', { services: [{ service_id: 'consult', name: 'Consultation', price_cents: 1000, duration_minutes: 30, payment: 'none' }] }, owner);
    try {
      const c = await conversation();
      await refused('rest', 'book_appointment', { ...c, service_id: 'consult', start: freshStart(), expected_price_cents: 0, customer_authorized: true }, 'price_changed');
    } finally {
      await ok('rest', 'update_booking_setup', { services: [{ service_id: 'consult', name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' }] }, owner);
    }
  });

  it('every other 400 of book_appointment and cancel_appointment', async () => {
    for (const surface of SURFACES) {
      const c = await conversation();
      const base = { ...c, service_id: 'consult', start: freshStart(), expected_price_cents: 0, customer_authorized: true };
      await refused(surface, 'book_appointment', { ...base, customer_authorized: false }, 'invalid_input', /customer_authorized true/);
      await refused(surface, 'book_appointment', { ...base, reply_token: 'rt_wrong' }, 'not_found', /contact_business/);
      await refused(surface, 'book_appointment', { ...base, inquiry_id: 'nope' }, 'not_found');
      await refused(surface, 'book_appointment', { ...base, start: '2026-12-01 10:00' }, 'invalid_input', /ISO 8601/);
      await refused(surface, 'book_appointment', { ...base, start: '2026-12-01T10:05:00-08:00' }, 'time_unavailable');
      await refused(surface, 'book_appointment', { ...base, start: '2026-12-06T10:00:00-08:00' }, 'time_unavailable'); // Sunday
      await refused(surface, 'book_appointment', { ...base, start: '2026-11-22T10:00:00-08:00' }, 'time_unavailable'); // past
      await refused(surface, 'book_appointment', { ...base, service_id: 'colour' }, 'not_found');
      await refused(surface, 'book_appointment', { ...base, expected_price_cents: 1_000_001 }, 'invalid_input');
      await refused(surface, 'book_appointment', { ...base, inquiry_id: 'x'.repeat(61) }, 'invalid_input');
      await refused(surface, 'cancel_appointment', { booking_id: 'nope', ...c }, 'not_found', /booking_id, inquiry_id and reply_token/);
    }
    // A closed conversation takes no booking.
    const c = await conversation();
    await app.services.prisma.conversation.update({ where: { id: c.inquiry_id }, data: { status: 'closed' } });
    for (const surface of SURFACES) {
      await refused(surface, 'book_appointment', { ...c, service_id: 'consult', start: freshStart(), expected_price_cents: 0, customer_authorized: true }, 'conversation_closed', /contact_business/);
    }
  });

  it('not_configured: upfront without a ready payment account, in setup and in booking', async () => {
    for (const surface of SURFACES) {
      await refused(
        surface,
        'update_booking_setup',
        { services: [{ service_id: 'deposit', name: 'Deposit visit', price_cents: 2500, duration_minutes: 30, payment: 'upfront' }] },
        'not_configured',
        /customer_payment_onboarding/,
        onboarding.owner,
      );
    }
    // An upfront service whose account stops being ready (the provider restricted it) cannot be booked.
    const prisma = app.services.prisma;
    const salon = await prisma.business.findUniqueOrThrow({ where: { slug: SALON } });
    await prisma.paymentAccount.update({ where: { businessId: salon.id }, data: { chargesEnabled: false } });
    app.services.menus.drop(salon.id);
    try {
      for (const surface of SURFACES) {
        const c = await conversation();
        await refused(surface, 'book_appointment', { ...c, service_id: 'cut', start: freshStart(), expected_price_cents: PRICES.cut, customer_authorized: true }, 'not_configured', /cannot take payment upfront yet/);
        await refused(surface, 'appointment_times', { business: SALON, service_id: 'cut' }, 'not_configured');
        expect((await ok(surface, 'business_info', { business: SALON })).booking.appointments).toBe('book');
      }
    } finally {
      await prisma.paymentAccount.update({ where: { businessId: salon.id }, data: { chargesEnabled: true } });
      app.services.menus.drop(salon.id);
    }
  });

  it('update_booking_setup keeps what is not sent and refuses bad setups', async () => {
    for (const surface of SURFACES) {
      await refused(surface, 'update_booking_setup', {}, 'invalid_input', /whatever is left out stays/, owner);
      await refused(surface, 'update_booking_setup', { hours: [{ weekday: 1, start_minute: 540, end_minute: 700 }, { weekday: 1, start_minute: 600, end_minute: 800 }] }, 'invalid_input', /Monday windows overlap/, owner);
      await refused(surface, 'update_booking_setup', { services: [{ name: 'Deposit', price_cents: 10, duration_minutes: 30, payment: 'upfront' }] }, 'invalid_input', /at least \$0\.50/, owner);
      await refused(surface, 'update_booking_setup', { remove_service_ids: ['nope'] }, 'invalid_input', /no service "nope"/, owner);
      await refused(surface, 'update_booking_setup', { hours: [{ weekday: 7, start_minute: 540, end_minute: 600 }] }, 'invalid_input', undefined, owner);
      await refused(surface, 'update_booking_setup', { services: [{ name: 'x', price_cents: 0, duration_minutes: 1, payment: 'none' }] }, 'invalid_input', undefined, owner);
    }
    const setup = await ok('rest', 'update_booking_setup', { services: [{ name: 'Bridal trial', price_cents: 15000, duration_minutes: 90, payment: 'upfront' }] }, owner);
    expect(setup.services.map((s: { service_id: string }) => s.service_id)).toEqual(['consult', 'cut', 'trim', 'bridal-trial']);
    expect(setup.hours).toHaveLength(6);
    const removed = await ok('graphql', 'update_booking_setup', { remove_service_ids: ['bridal-trial'] }, owner);
    expect(removed.services.map((s: { service_id: string }) => s.service_id)).toEqual(['consult', 'cut', 'trim']);
    // A cleaner has no appointment setup.
    await refused('rest', 'booking_setup', {}, 'invalid_input', /no service menu/, bearer(await businessKey(app, 'sparkle-shine-cleaning-austin')));
  });
});

describe('attacks', () => {
  it("another business's ids: its appointments cannot be seen, cancelled or booked into", async () => {
    const c = await conversation(garage.slug);
    const list = await ok('rest', 'appointment_times', { business: garage.slug });
    const service = list.services[0];
    const times = await ok('rest', 'appointment_times', { business: garage.slug, service_id: service.service_id });
    const theirs = await ok('rest', 'book_appointment', { ...c, service_id: service.service_id, start: times.starts[0], expected_price_cents: service.price_cents, customer_authorized: true });
    for (const surface of SURFACES) {
      await refused(surface, 'cancel_business_appointment', { booking_id: theirs.booking_id }, 'not_found', /booking_setup/, owner);
      expect((await ok(surface, 'booking_setup', {}, owner)).appointments.map((a: { booking_id: string }) => a.booking_id)).not.toContain(theirs.booking_id);
      // The salon's service through the garage's conversation is no service of the garage.
      await refused(surface, 'book_appointment', { ...c, service_id: 'cut', start: freshStart(), expected_price_cents: PRICES.cut, customer_authorized: true }, 'not_found');
      // The right booking_id with another conversation's token.
      const mine = await conversation();
      await refused(surface, 'cancel_appointment', { booking_id: theirs.booking_id, ...mine }, 'not_found');
      await refused(surface, 'cancel_appointment', { booking_id: theirs.booking_id, inquiry_id: c.inquiry_id, reply_token: mine.reply_token }, 'not_found');
    }
    expect((await stored(theirs.booking_id)).status).toBe('confirmed');
  });

  it('a read-only credential changes nothing, however the document is shaped', async () => {
    const input = { services: [{ service_id: 'consult', name: 'Free consult', price_cents: 0, duration_minutes: 30, payment: 'none' }] };
    for (const surface of SURFACES) {
      await refused(surface, 'update_booking_setup', input, 'insufficient_scope', undefined, readOnlyOwner);
      await refused(surface, 'cancel_business_appointment', { booking_id: 'x' }, 'insufficient_scope', undefined, readOnlyOwner);
      await refused(surface, 'customer_payment_onboarding', {}, 'insufficient_scope', undefined, readOnlyOwner);
    }
    const fragment = await app.graphql(
      'mutation M($i: UpdateBookingSetupInput!) { ...F } fragment F on Mutation { a: updateBookingSetup(input: $i) { paymentAccountReady } b: updateBookingSetup(input: $i) { hours { weekday } } }',
      { i: renameKeys(input, toCamel) },
      readOnlyOwner,
    );
    expect(fragment.status).toBe(403);
    expect(fragment.body.errors[0].extensions.code).toBe('insufficient_scope');
    expect((await ok('rest', 'booking_setup', {}, readOnlyOwner)).services[0].name).toBe('Consultation');
    await refused('rest', 'booking_setup', {}, 'unauthorized');
    await refused('rest', 'booking_setup', {}, 'insufficient_scope', undefined, bearer('sk_pub_porchlight_demo'));
  });

  it('NUL bytes are refused before they reach anything', async () => {
    const c = await conversation();
    for (const surface of SURFACES) {
      await refused(surface, 'book_appointment', { ...c, service_id: 'cut\u0000', start: freshStart(), expected_price_cents: PRICES.cut, customer_authorized: true }, 'invalid_input', /control characters/);
      await refused(surface, 'update_booking_setup', { services: [{ name: 'Cut\u0000', price_cents: 0, duration_minutes: 30, payment: 'none' }] }, 'invalid_input', /control characters/, owner);
      await refused(surface, 'cancel_business_appointment', { booking_id: 'x', message: 'hi\u0000' }, 'invalid_input', /control characters/, owner);
      await refused(surface, 'appointment_times', { business: `${SALON}\u0000` }, 'invalid_input');
    }
    const b = await ok('rest', 'book_appointment', { ...c, service_id: 'trim', start: freshStart(), expected_price_cents: PRICES.trim, customer_authorized: true });
    const res = await app.get(new URL(b.checkout_url).pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card_number: TEST_CARDS.pays, expiry: '12/30', cvc: '123', name: 'Pat\u0000<script>' }),
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Use plain text in every field.');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('\u0000');
    expect((await stored(b.booking_id)).status).toBe('awaiting_payment');
  });
});
