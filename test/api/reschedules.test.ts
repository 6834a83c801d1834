/**
 * Move instead of cancel (issue 21): reschedule_job (owner, every kind on the schedule),
 * reschedule_booking, reschedule_visit and reschedule_appointment (customers). Each move frees
 * the old start (offered again by the search) and takes the new one (no longer offered), shows
 * on the schedule, mails the customer the same calendar event (same UID) at its new time with a
 * higher SEQUENCE, refuses a taken or blocked start (the database too), and customers' moves
 * within 24 hours. Through REST, MCP and GraphQL; the race with a new booking on PostgreSQL.
 */
import { DateTime } from 'luxon';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { attachmentsOf } from '../../src/mail/transport.js';
import { isExclusionViolation } from '../../src/db/errors.js';
import { TEST_CARDS } from '../../src/payments/sandbox.js';
import { bearer, businessKey, onPostgres, personalKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, type Surface } from '../helpers/surfaces.js';
import { salonForVisitsAndAppointments } from '../helpers/salon.js';

const CLEANER = demoIds.cleanerAustin;
const PLUMBER = demoIds.plumberAustin;
const SALON = demoIds.beautySanFrancisco;
const AUSTIN = 'America/Chicago';
const SF = 'America/Los_Angeles';
const job = { bedrooms: 2, bathrooms: 1 };

let app: TestApp;
let cleaner: Record<string, string>;
let plumber: Record<string, string>;
let salon: Record<string, string>;
let seq = 0;

const ok = async (name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}, via: Surface = 'rest') => {
  const r = await call(app, via, name, input, headers);
  expect(r.ok, `${name} via ${via}: ${JSON.stringify(r.body)}`).toBe(true);
  return r.body;
};
const refused = async (code: string, name: string, input: Record<string, unknown>, headers: Record<string, string> = {}, via: Surface = 'rest') => {
  const r = await call(app, via, name, input, headers);
  expect(r.ok, `${name} via ${via} should be refused: ${JSON.stringify(r.body)}`).toBe(false);
  expect(r.code, r.error).toBe(code);
  return r.error!;
};
const at = (zone: string, date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone }).toISO({ suppressMilliseconds: true })!;

interface Invite {
  method: string;
  uid: string;
  start: number;
  sequence: number;
}

/** The calendar events of every mail to an address, oldest mail first. */
async function invitesTo(to: string): Promise<Invite[][]> {
  const rows = await app.services.prisma.outboxMessage.findMany({ where: { to }, orderBy: { createdAt: 'asc' } });
  return rows.flatMap((r) => attachmentsOf(r.attachments)).map((f) => {
    const cal = new ICAL.Component(ICAL.parse(f.content));
    return cal.getAllSubcomponents('vevent').map((v) => {
      const e = new ICAL.Event(v);
      return { method: cal.getFirstPropertyValue('method') as string, uid: e.uid, start: e.startDate.toJSDate().getTime(), sequence: e.sequence };
    });
  });
}

/**
 * The mail after a move carries one event of the booking mail (the moved visit's, for a series)
 * under the same UID, at the new start, with a higher SEQUENCE.
 */
async function expectMovedInvite(to: string, newStart: string) {
  const mails = await invitesTo(to);
  expect(mails.length, `invites to ${to}`).toBeGreaterThanOrEqual(2);
  const moved = mails.at(-1)!;
  expect(moved).toHaveLength(1);
  const [last] = moved;
  expect(last!.method).toBe('REQUEST');
  expect(last!.start).toBe(Date.parse(newStart));
  const booked = mails[0]!.find((e) => e.uid === last!.uid);
  expect(booked, `an event ${last!.uid} in the booking mail`).toBeDefined();
  expect(last!.sequence).toBeGreaterThan(booked!.sequence);
  // Each move outranks the one before it.
  const before = mails.at(-2)!.find((e) => e.uid === last!.uid)!;
  expect(last!.sequence).toBeGreaterThan(before.sequence);
}

async function cleaningStarts(date: string): Promise<string[]> {
  return (await ok('available_times', { pro_id: CLEANER, ...job, date, days: 1 })).starts;
}

async function bookCleaning(start: string, email: string, extra: Record<string, unknown> = {}) {
  return ok('book_cleaning', {
    pro_id: CLEANER, ...job, start, customer_name: 'Robin Mover', customer_email: email, address: '1100 S Congress Ave, Austin TX', zip: demoIds.austinZip, ...extra,
  }) as Promise<{ booking_id: string; manage_token: string; visits: { start: string }[] }>;
}

/**
 * Two open cleaning starts on one date, from `date` on, far enough apart that a 2-bedroom job at
 * the first leaves the second open (demo bookings fill some days).
 */
async function twoStarts(date: string): Promise<[string, string]> {
  for (let d = 0; d < 7; d++) {
    const day = DateTime.fromISO(date).plus({ days: d }).toISODate()!;
    const starts = await cleaningStarts(day);
    const first = starts[0];
    const later = first && starts.find((s) => Date.parse(s) - Date.parse(first) >= 4 * 3_600_000);
    if (first && later) return [first, later];
  }
  throw new Error(`no two cleaning starts in the week from ${date}`);
}

const scheduleEntry = async (headers: Record<string, string>, id: string) =>
  ((await ok('schedule', { days: 30 }, headers)).jobs as { booking_id: string; start: string; kind: string }[]).filter((j) => j.booking_id === id);

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  cleaner = bearer(await businessKey(app, CLEANER));
  plumber = bearer(await businessKey(app, PLUMBER));
  salon = bearer(await businessKey(app, SALON));
  // The salon as in one-calendar: Ana alone does men's cuts; consultations are free appointments.
  await salonForVisitsAndAppointments(app, SALON, salon, {
    group: 'haircut',
    appointmentServices: [
      { service_id: 'consult', name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' },
      { service_id: 'paid', name: 'Paid consultation', price_cents: 2500, duration_minutes: 30, payment: 'upfront' },
    ],
  });
  await app.services.prisma.business.update({ where: { slug: SALON }, data: { minNoticeMinutes: 60 } });
});
afterAll(async () => app?.close());

const SELECTIONS = [{ service_id: 'mens', add_on_ids: [] }];

async function visitStarts(date: string): Promise<string[]> {
  return (await ok('visit_times', { business: SALON, selections: JSON.stringify(SELECTIONS), date })).starts;
}

async function bookVisit(start: string, email: string) {
  const e = await ok('estimate_visit', { business: SALON, selections: JSON.stringify(SELECTIONS) });
  const r = await ok('book_visit', {
    business: SALON, selections: SELECTIONS, customer_name: 'Vic Visitor', customer_email: email, menu_revision: e.menu_revision,
    expected_estimate_cents: e.estimate_cents, customer_authorized: true, request_key: `reschedule-visit-key-${String(++seq).padStart(6, '0')}`, start,
  });
  return { visitId: r.visit.visit_id as string, inquiryId: r.inquiry_id as string, replyToken: r.reply_token as string };
}

async function appointmentStarts(date: string, service = 'consult'): Promise<string[]> {
  return (await ok('appointment_times', { business: SALON, service_id: service, date })).starts;
}

async function bookAppointment(start: string, email: string, paid = false) {
  const c = await ok('contact_business', { business: SALON, customer_name: 'Pat Doe', customer_email: email, message: 'An appointment, please.', request_type: 'appointment' });
  const r = await ok('book_appointment', {
    inquiry_id: c.inquiry_id, reply_token: c.reply_token, service_id: paid ? 'paid' : 'consult', start, expected_price_cents: paid ? 2500 : 0, customer_authorized: true,
  });
  return { bookingId: r.booking_id as string, inquiryId: c.inquiry_id as string, replyToken: c.reply_token as string, checkoutUrl: r.checkout_url as string | null };
}

/** The customer pays on the sandbox's hosted checkout page, and its webhook arrives. */
async function pay(checkoutUrl: string) {
  const res = await app.get(new URL(checkoutUrl).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: TEST_CARDS.pays, expiry: '12/30', cvc: '123', name: 'Pat Doe' }),
  });
  await app.services.payments.sandbox!.flush();
  return res;
}

/** Resolves with the next event of a channel (bookingUpdated, inquiryReplied); listening starts at once. */
async function nextEvent(channel: 'bookingUpdated' | 'inquiryReplied', id: string) {
  const iterator = app.services.events.subscribe(channel, id)[Symbol.asyncIterator]();
  const next = iterator.next().finally(() => void iterator.return?.());
  await new Promise((r) => setTimeout(r, 0));
  return next;
}

const notificationTypes = async (headers: Record<string, string>) => (await ok('schedule', {}, headers)).notifications.map((n: { type: string }) => n.type);

describe('reschedule_job (owner, every kind)', () => {
  it('moves a cleaning: the old start is offered again, the new one not, the schedule and the customer\'s calendar follow (REST)', async () => {
    const [from, to] = await twoStarts('2026-12-01');
    const date = DateTime.fromISO(from, { setZone: true }).toISODate()!;
    const made = await bookCleaning(from, 'job-cleaning@example.com');
    expect(await cleaningStarts(date)).not.toContain(from);
    const r = await ok('reschedule_job', { booking_id: made.booking_id, start: to }, cleaner);
    expect(r).toMatchObject({ booking_id: made.booking_id, kind: 'cleaning', status: 'pending', start: to, customer_told: 'e-mailed job-cleaning@example.com' });
    const starts = await cleaningStarts(date);
    expect(starts).toContain(from);
    expect(starts).not.toContain(to);
    expect((await scheduleEntry(cleaner, made.booking_id)).map((j) => j.start)).toEqual([to]);
    await expectMovedInvite('job-cleaning@example.com', to);
    // The customer's side shows it too.
    const status = await ok('booking_status', { booking_id: made.booking_id, manage_token: made.manage_token });
    expect(status.visits.map((v: { start: string }) => v.start)).toEqual([to]);
  });

  it('moves a service call over MCP; refuses a taken start, a block and the past', async () => {
    const found = await ok('find_service_call', { zip: demoIds.austinZip, trade: 'plumbing', issue: 'leak', date: '2026-12-02', days: 1 });
    const windows = found.pros.find((p: { pro_id: string }) => p.pro_id === PLUMBER).windows as { start: string; end: string }[];
    expect(windows.length).toBeGreaterThanOrEqual(3);
    const first = await ok('book_service_call', {
      pro_id: PLUMBER, trade: 'plumbing', issue: 'leak', start: windows[0]!.start, zip: demoIds.austinZip, address: '1 Pipe St', customer_name: 'Sam Leak', customer_email: 'job-plumbing@example.com',
    });
    const other = await ok('book_service_call', {
      pro_id: PLUMBER, trade: 'plumbing', issue: 'leak', start: windows.at(-1)!.start, zip: demoIds.austinZip, address: '2 Pipe St', customer_name: 'Lee Drip', customer_email: 'job-plumbing-2@example.com',
    });
    expect(other.booking_id).toBeTruthy();
    await refused('time_unavailable', 'reschedule_job', { booking_id: first.booking_id, start: windows.at(-1)!.start }, plumber, 'mcp');
    await refused('invalid_input', 'reschedule_job', { booking_id: first.booking_id, start: '2026-11-20T09:00:00-06:00' }, plumber, 'mcp');
    const block = await ok('block_time', { date: '2026-12-03', start: '08:00', end: '18:00', reason: 'training' }, plumber);
    await refused('time_unavailable', 'reschedule_job', { booking_id: first.booking_id, start: at(AUSTIN, '2026-12-03', '10:00') }, plumber, 'mcp');
    await ok('unblock_time', { block_id: block.block_id }, plumber);
    const target = windows[1]!.start;
    const r = await ok('reschedule_job', { booking_id: first.booking_id, start: target }, plumber, 'mcp');
    expect(r).toMatchObject({ kind: 'service_call', start: target, end: windows[1]!.end });
    await expectMovedInvite('job-plumbing@example.com', target);
  });

  it('moves an own job (nobody is mailed) and a menu visit over GraphQL', async () => {
    const date = '2026-12-04';
    const [from, to] = await twoStarts(date);
    const own = await ok('book_job', { customer_name: 'Dana Own', customer_phone: '512-555-0148', address: '2400 S 1st St, Austin TX 78704', start: from, ...job }, cleaner);
    const r = await ok('reschedule_job', { booking_id: own.booking_id, start: to }, cleaner, 'graphql');
    expect(r).toMatchObject({ kind: 'own_job', start: to, customer_told: null });
    expect(await app.services.prisma.outboxMessage.count({ where: { bookingId: own.booking_id } })).toBe(0);

    const day = '2026-12-01';
    const starts = await visitStarts(day);
    const visit = await bookVisit(starts[0]!, 'job-visit@example.com');
    const target = at(SF, day, '15:00');
    const moved = await ok('reschedule_job', { booking_id: visit.visitId, start: target }, salon, 'graphql');
    expect(moved).toMatchObject({ booking_id: visit.visitId, kind: 'visit', status: 'confirmed', start: target, end: at(SF, day, '15:30') });
    const after = await visitStarts(day);
    expect(after).toContain(starts[0]);
    expect(after).not.toContain(target);
    await expectMovedInvite('job-visit@example.com', target);
    const status = await ok('inquiry_status', { inquiry_id: visit.inquiryId, reply_token: visit.replyToken });
    expect(status.messages.at(-1).text).toContain(target);
  });

  it('moves an appointment; a block or another appointment is refused', async () => {
    const day = '2026-12-02';
    const starts = await appointmentStarts(day);
    const a = await bookAppointment(starts[0]!, 'job-appointment@example.com');
    const b = await bookAppointment(at(SF, day, '13:00'), 'job-appointment-2@example.com');
    expect(b.bookingId).toBeTruthy();
    await refused('time_unavailable', 'reschedule_job', { booking_id: a.bookingId, start: at(SF, day, '13:00') }, salon);
    const block = await ok('block_time', { date: day, start: '14:00', end: '15:00' }, salon);
    await refused('time_unavailable', 'reschedule_job', { booking_id: a.bookingId, start: at(SF, day, '14:00') }, salon);
    await ok('unblock_time', { block_id: block.block_id }, salon);
    const target = at(SF, day, '16:00');
    const r = await ok('reschedule_job', { booking_id: a.bookingId, start: target }, salon);
    expect(r).toMatchObject({ kind: 'appointment', status: 'confirmed', start: target });
    const after = await appointmentStarts(day);
    expect(after).toContain(starts[0]);
    expect(after).not.toContain(target);
    expect((await scheduleEntry(salon, a.bookingId)).map((j) => j.start)).toEqual([target]);
    await expectMovedInvite('job-appointment@example.com', target);
  });
});

describe('customers reschedule', () => {
  it('reschedule_booking moves a cleaning on every surface, keeps it pending, and tells the owner', async () => {
    const date = '2026-12-07';
    const starts = await cleaningStarts(date);
    const made = await bookCleaning(starts[0]!, 'customer-move@example.com');
    let current = starts[0]!;
    for (const via of ['rest', 'mcp', 'graphql'] as const) {
      const options = (await cleaningStarts(date)).filter((s) => Math.abs(Date.parse(s) - Date.parse(current)) >= 4 * 3_600_000);
      const to = options[0]!;
      const event = nextEvent('bookingUpdated', made.booking_id);
      const r = await ok('reschedule_booking', { booking_id: made.booking_id, manage_token: made.manage_token, start: to }, {}, via);
      expect(r, via).toMatchObject({ booking_id: made.booking_id, status: 'pending', visits: [{ start: to }], window: null });
      const after = await cleaningStarts(date);
      expect(after, via).toContain(current);
      expect(after, via).not.toContain(to);
      await expectMovedInvite('customer-move@example.com', to);
      expect((await event).value).toMatchObject({ type: 'booking.rescheduled', bookingId: made.booking_id });
      current = to;
    }
    const types = (await ok('schedule', {}, cleaner)).notifications.map((n: { type: string }) => n.type);
    expect(types).toContain('booking.rescheduled');
  });

  it('reschedule_booking refuses inside 24 hours, a taken start and a block; a series moves one visit by visit_start', async () => {
    // Today, a few hours ahead: within 24 hours.
    const today = await cleaningStarts('2026-11-23');
    const soon = await bookCleaning(today[0]!, 'soon@example.com');
    const later = (await cleaningStarts('2026-12-08'))[0]!;
    const error = await refused('too_late_to_change', 'reschedule_booking', { booking_id: soon.booking_id, manage_token: soon.manage_token, start: later });
    expect(error).toMatch(/message_about_booking/);

    const [from, to] = await twoStarts('2026-12-08');
    const mine = await bookCleaning(from, 'taken@example.com');
    await bookCleaning(to, 'other@example.com');
    await refused('time_unavailable', 'reschedule_booking', { booking_id: mine.booking_id, manage_token: mine.manage_token, start: to });
    const block = await ok('block_time', { date: '2026-12-22', reason: 'closed' }, cleaner);
    await refused('time_unavailable', 'reschedule_booking', { booking_id: mine.booking_id, manage_token: mine.manage_token, start: at(AUSTIN, '2026-12-22', '09:00') });
    await ok('unblock_time', { block_id: block.block_id }, cleaner);

    const first = (await cleaningStarts('2026-12-10'))[0]!;
    const series = await bookCleaning(first, 'series@example.com', { frequency: 'weekly', visits: 3 });
    const second = series.visits[1]!.start;
    const target = DateTime.fromISO(second, { setZone: true }).plus({ days: 1 }).toISO({ suppressMilliseconds: true })!;
    const r = await ok('reschedule_booking', { booking_id: series.booking_id, manage_token: series.manage_token, start: target, visit_start: second });
    expect(r.visits.map((v: { start: string }) => v.start)).toEqual([first, target, series.visits[2]!.start]);
    await expectMovedInvite('series@example.com', target);
  });

  it('reschedule_booking moves a service call\'s window, for the key that booked it without a manage_token', async () => {
    const key = bearer(await personalKey(app));
    const found = await ok('find_service_call', { zip: demoIds.austinZip, trade: 'plumbing', issue: 'clog', date: '2026-12-09', days: 1 });
    const windows = found.pros.find((p: { pro_id: string }) => p.pro_id === PLUMBER).windows as { start: string; end: string }[];
    const made = await ok('book_service_call', {
      pro_id: PLUMBER, trade: 'plumbing', issue: 'clog', start: windows[0]!.start, zip: demoIds.austinZip, address: '3 Pipe St', customer_name: 'Kai Key', customer_email: 'keyed@example.com',
    }, key);
    const target = windows.at(-1)!;
    await refused('not_found', 'reschedule_booking', { booking_id: made.booking_id, manage_token: 'mt_not_the_right_token', start: target.start });
    const r = await ok('reschedule_booking', { booking_id: made.booking_id, start: target.start }, key, 'mcp');
    expect(r).toMatchObject({ booking_id: made.booking_id, status: 'pending', visits: null, window: target, price: null, fee: made.fee });
    await expectMovedInvite('keyed@example.com', target.start);
  });

  it('reschedule_booking refuses a changed price until the customer accepts it', async () => {
    const date = '2026-12-11';
    const [from, to] = await twoStarts(date);
    const made = await bookCleaning(from, 'price@example.com');
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: CLEANER }, select: { id: true, priceList: true } });
    const list = business.priceList as { base_cents: number };
    const booked = (await ok('available_times', { pro_id: CLEANER, ...job, date, days: 1 })).price;
    await app.services.prisma.business.update({ where: { id: business.id }, data: { priceList: { ...list, base_cents: list.base_cents + 10_000 } } });
    app.services.search.changed('catalog', business.id);
    // The catalog reloads in the background: wait until searches show the new price.
    let quote = { price: booked };
    for (let i = 0; i < 50 && quote.price === booked; i++) {
      await new Promise((r) => setTimeout(r, 20));
      quote = await ok('available_times', { pro_id: CLEANER, ...job, date, days: 1 });
    }
    expect(quote.price).toBe(booked + 100);
    const r = await call(app, 'rest', 'reschedule_booking', { booking_id: made.booking_id, manage_token: made.manage_token, start: to });
    expect(r.code, JSON.stringify(r.body)).toBe('price_changed');
    expect(r.body.price).toBe(quote.price);
    const moved = await ok('reschedule_booking', { booking_id: made.booking_id, manage_token: made.manage_token, start: to, price: quote.price });
    expect(moved.price).toBe(quote.price);
    await app.services.prisma.business.update({ where: { id: business.id }, data: { priceList: list } });
    app.services.search.changed('catalog', business.id);
  });

  it('reschedule_visit over MCP: moves, refuses a taken start, inside 24 hours', async () => {
    const day = '2026-12-03';
    const starts = await visitStarts(day);
    const v = await bookVisit(starts[0]!, 'customer-visit@example.com');
    const blocker = await bookVisit(at(SF, day, '12:00'), 'customer-visit-2@example.com');
    expect(blocker.visitId).toBeTruthy();
    const auth = { visit_id: v.visitId, inquiry_id: v.inquiryId, reply_token: v.replyToken };
    await refused('time_unavailable', 'reschedule_visit', { ...auth, start: at(SF, day, '12:00') }, {}, 'mcp');
    const target = at(SF, day, '14:30');
    const event = nextEvent('inquiryReplied', v.inquiryId);
    const r = await ok('reschedule_visit', { ...auth, start: target }, {}, 'mcp');
    expect((await event).value).toMatchObject({ type: 'visit.rescheduled', inquiryId: v.inquiryId });
    expect(r.visit).toMatchObject({ visit_id: v.visitId, status: 'confirmed', start: target, technician: 'Ana' });
    const after = await visitStarts(day);
    expect(after).toContain(starts[0]);
    expect(after).not.toContain(target);
    await expectMovedInvite('customer-visit@example.com', target);
    expect(await notificationTypes(salon)).toContain('visit.rescheduled');
    // Today, within 24 hours.
    const today = await visitStarts('2026-11-23');
    const soon = await bookVisit(today[0]!, 'customer-visit-soon@example.com');
    await refused('too_late_to_change', 'reschedule_visit', { visit_id: soon.visitId, inquiry_id: soon.inquiryId, reply_token: soon.replyToken, start: target }, {}, 'mcp');
  });

  it('reschedule_appointment over GraphQL: moves, refuses a taken start, a block and inside 24 hours', async () => {
    const day = '2026-12-04';
    const starts = await appointmentStarts(day);
    const a = await bookAppointment(starts[0]!, 'customer-appointment@example.com');
    await bookAppointment(at(SF, day, '11:00'), 'customer-appointment-2@example.com');
    const auth = { booking_id: a.bookingId, inquiry_id: a.inquiryId, reply_token: a.replyToken };
    await refused('time_unavailable', 'reschedule_appointment', { ...auth, start: at(SF, day, '11:00') }, {}, 'graphql');
    const block = await ok('block_time', { date: day, start: '15:00', end: '16:00' }, salon);
    await refused('time_unavailable', 'reschedule_appointment', { ...auth, start: at(SF, day, '15:00') }, {}, 'graphql');
    await ok('unblock_time', { block_id: block.block_id }, salon);
    const target = at(SF, day, '15:30');
    const r = await ok('reschedule_appointment', { ...auth, start: target }, {}, 'graphql');
    expect(r).toMatchObject({ booking_id: a.bookingId, status: 'confirmed', start: target });
    const after = await appointmentStarts(day);
    expect(after).toContain(starts[0]);
    expect(after).not.toContain(target);
    await expectMovedInvite('customer-appointment@example.com', target);
    expect(await notificationTypes(salon)).toContain('appointment.rescheduled');
    const today = await appointmentStarts('2026-11-23');
    const soon = await bookAppointment(today[0]!, 'customer-appointment-soon@example.com');
    await refused('too_late_to_change', 'reschedule_appointment', { booking_id: soon.bookingId, inquiry_id: soon.inquiryId, reply_token: soon.replyToken, start: target }, {}, 'graphql');
  });
});

describe('an appointment paid upfront', () => {
  it('keeps its payment when moved: no refund, no new checkout', async () => {
    const day = '2026-12-05';
    const starts = await appointmentStarts(day, 'paid');
    const a = await bookAppointment(starts[0]!, 'customer-paid@example.com', true);
    expect((await pay(a.checkoutUrl!)).status).toBeLessThan(400);
    const paid = await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.bookingId } });
    expect(paid).toMatchObject({ status: 'confirmed', paidCents: 2500 });
    const target = starts.at(-1)!;
    const r = await ok('reschedule_appointment', { booking_id: a.bookingId, inquiry_id: a.inquiryId, reply_token: a.replyToken, start: target });
    expect(r).toMatchObject({ status: 'confirmed', start: target });
    expect(r.next).toMatch(/payment stays/);
    const moved = await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.bookingId } });
    expect(moved).toMatchObject({
      status: 'confirmed', paidCents: 2500, paymentIntentId: paid.paymentIntentId, checkoutSessionId: paid.checkoutSessionId, refundId: null, refundRound: 0, start: new Date(target),
    });
    const status = await ok('inquiry_status', { inquiry_id: a.inquiryId, reply_token: a.replyToken });
    expect(status.messages.at(-1).text).toMatch(/\$25\.00 paid stays with it/);
  });
});

describe('the database refuses a move into blocked or taken time', () => {
  it('for a booking visit, a menu visit and an appointment', async () => {
    const db = app.services.prisma;
    const expectRefused = async (write: Promise<unknown>) => {
      const err = await write.then(() => null, (e: unknown) => e);
      expect(isExclusionViolation(err), String(err)).toBe(true);
    };
    const [from, to] = await twoStarts('2026-12-28');
    const x = await db.bookingVisit.findFirstOrThrow({ where: { bookingId: (await bookCleaning(from, 'db-1@example.com')).booking_id } });
    const y = await db.bookingVisit.findFirstOrThrow({ where: { bookingId: (await bookCleaning(to, 'db-2@example.com')).booking_id } });
    const day = '2026-12-19';
    const v = await db.visit.findUniqueOrThrow({ where: { id: (await bookVisit((await visitStarts(day))[0]!, 'db-3@example.com')).visitId } });
    const p = await db.appointment.findUniqueOrThrow({ where: { id: (await bookAppointment((await appointmentStarts(day))[0]!, 'db-4@example.com')).bookingId } });
    const q = await db.appointment.findUniqueOrThrow({ where: { id: (await bookAppointment(at(SF, day, '15:00'), 'db-5@example.com')).bookingId } });
    const half = (start: Date) => ({ start, end: new Date(start.getTime() + 1_800_000) });

    // Into blocked time: the blocks triggers check a move (BookingVisit's since this branch's migration).
    const cleanerBlock = await db.block.create({ data: { businessId: x.businessId, start: new Date(x.start.getTime() + 14 * 86_400_000), end: new Date(x.start.getTime() + 14 * 86_400_000 + 3_600_000) } });
    await expectRefused(db.bookingVisit.update({ where: { id: x.id }, data: half(cleanerBlock.start) }));
    const salonBlock = await db.block.create({ data: { businessId: v.businessId, start: new Date(v.start!.getTime() + 14 * 86_400_000), end: new Date(v.start!.getTime() + 14 * 86_400_000 + 3_600_000) } });
    await expectRefused(db.visit.update({ where: { id: v.id }, data: { ...half(salonBlock.start), busyUntil: half(salonBlock.start).end } }));
    await expectRefused(db.appointment.update({ where: { id: p.id }, data: half(salonBlock.start) }));
    // Onto another entry's time: the exclusion constraints check an UPDATE as they check an INSERT.
    await expectRefused(db.bookingVisit.update({ where: { id: x.id }, data: { start: y.start, end: y.end } }));
    await expectRefused(db.appointment.update({ where: { id: p.id }, data: { start: q.start, end: q.end } }));
  });
});

// PGlite runs one statement at a time, so a race there proves nothing: this runs on PostgreSQL.
describe.skipIf(!onPostgres)('a reschedule racing a new booking of the same start on PostgreSQL', () => {
  it('has exactly one winner, round after round (customer and owner moves)', async () => {
    const dates = ['2026-12-14', '2026-12-15', '2026-12-16', '2026-12-17', '2026-12-18', '2026-12-21'];
    for (const [i, date] of dates.entries()) {
      const [from, to] = await twoStarts(date);
      const made = await bookCleaning(from, `race-mover-${i}@example.com`);
      const move = i % 2 === 0
        ? app.rest('reschedule_booking', { booking_id: made.booking_id, manage_token: made.manage_token, start: to })
        : app.rest('reschedule_job', { booking_id: made.booking_id, start: to }, cleaner);
      const results = await Promise.all([
        move,
        app.rest('book_cleaning', {
          pro_id: CLEANER, ...job, start: to, customer_name: 'Racer', customer_email: `race-booker-${i}@example.com`, address: '9 Race St', zip: demoIds.austinZip,
        }),
      ]);
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 200), JSON.stringify(results.map((r) => r.body))).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code).toBe('time_unavailable');
      const held = await app.services.prisma.bookingVisit.count({ where: { business: { slug: CLEANER }, active: true, start: new Date(to) } });
      expect(held).toBe(1);
    }
  });

  it('a visit and an appointment moved while another customer books their target: one winner each', async () => {
    const day = '2026-12-12';
    const visit = await bookVisit(at(SF, day, '09:00'), 'race-visit@example.com');
    const e = await ok('estimate_visit', { business: SALON, selections: JSON.stringify(SELECTIONS) });
    const visitTarget = at(SF, day, '11:00');
    const appointment = await bookAppointment(at(SF, day, '09:00'), 'race-appointment@example.com');
    const c = await ok('contact_business', { business: SALON, customer_name: 'Racer', customer_email: 'race-appointment-2@example.com', message: 'A consultation.', request_type: 'appointment' });
    const appointmentTarget = at(SF, day, '14:00');
    const [visits, appointments] = await Promise.all([
      Promise.all([
        app.rest('reschedule_visit', { visit_id: visit.visitId, inquiry_id: visit.inquiryId, reply_token: visit.replyToken, start: visitTarget }),
        app.rest('book_visit', {
          business: SALON, selections: SELECTIONS, customer_name: 'Racer', customer_email: 'race-visit-2@example.com', menu_revision: e.menu_revision,
          expected_estimate_cents: e.estimate_cents, customer_authorized: true, request_key: 'reschedule-race-visit-key-1', start: visitTarget,
        }),
      ]),
      Promise.all([
        app.rest('reschedule_appointment', { booking_id: appointment.bookingId, inquiry_id: appointment.inquiryId, reply_token: appointment.replyToken, start: appointmentTarget }),
        app.rest('book_appointment', { inquiry_id: c.inquiry_id, reply_token: c.reply_token, service_id: 'consult', start: appointmentTarget, expected_price_cents: 0, customer_authorized: true }),
      ]),
    ]);
    for (const results of [visits, appointments]) {
      expect(results.filter((r) => r.status === 200), JSON.stringify(results.map((r) => r.body))).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code).toBe('time_unavailable');
    }
    const db = app.services.prisma;
    const businessId = (await db.business.findUniqueOrThrow({ where: { slug: SALON } })).id;
    expect(await db.visit.count({ where: { businessId, status: 'confirmed', start: new Date(visitTarget) } })).toBe(1);
    expect(await db.appointment.count({ where: { businessId, holdsTime: true, start: new Date(appointmentTarget) } })).toBe(1);
  });
});
