/**
 * Jobs on the owner's schedule: cancel_job, confirm_job_done, report_no_show, book_job,
 * open_times and quote_job, through REST, MCP and GraphQL, with their fee effects and events.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, lastMailTo, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';

let app: TestApp;
let cleaner: Record<string, string>;
let plumber: Record<string, string>;
const job = { bedrooms: 2, bathrooms: 1.5 };
let n = 0;

beforeAll(async () => {
  app = await startApp();
  cleaner = bearer(await businessKey(app, demoIds.cleanerAustin));
  plumber = bearer(await businessKey(app, demoIds.plumberAustin));
});
afterAll(async () => app?.close());
afterEach(() => vi.restoreAllMocks());

/** A confirmed booking made through the service by a customer, on a date. */
async function serviceJob(date: string) {
  const email = `customer${++n}@example.com`;
  const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, date, days: 1 });
  const r = await app.rest('book_cleaning', {
    pro_id: demoIds.cleanerAustin, ...job, start: times.body.starts[0], customer_name: 'Casey Brooks', customer_email: email, address: '12 Oak St, Austin TX', zip: demoIds.austinZip,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  await app.services.prisma.booking.update({ where: { id: r.body.booking_id }, data: { status: 'confirmed', holdUntil: null } });
  await app.services.prisma.bookingVisit.updateMany({ where: { bookingId: r.body.booking_id }, data: { holdUntil: null } });
  return { id: r.body.booking_id as string, start: Date.parse(r.body.visits[0].start), end: Date.parse(r.body.visits[0].start) + r.body.duration_minutes * 60_000, email };
}

/** An own job (book_job) on the next open start of a date. */
async function ownJob(date: string, headers = cleaner, described: Record<string, unknown> = job) {
  // The first open start from that date (demo jobs may fill a day).
  const open = await app.rest('open_times', { ...described, date, days: 7 }, headers);
  const r = await app.rest('book_job', { customer_name: 'Dana Ortiz', customer_phone: '512-555-0148', address: '2400 S 1st St, Austin TX 78704', start: open.body.starts[0], ...described }, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const moveClockTo = (at: number) => vi.spyOn(app.services.clock, 'now').mockReturnValue(at);
const published = () => vi.spyOn(app.services.events, 'publish');

describe('cancel_job', () => {
  it('cancels an upcoming job, e-mails the customer who booked through the service, and tells subscribers, on every surface', async () => {
    for (const via of SURFACES) {
      const b = await serviceJob('2026-12-01');
      const spy = published();
      const r = await call(app, via, 'cancel_job', { booking_id: b.id, message: 'Our van broke down, sorry!' }, cleaner);
      expect(r.body, via).toEqual({ booking_id: b.id, status: 'cancelled', customer_told: `e-mailed ${b.email}` });
      const mail = await lastMailTo(app, b.email);
      expect(mail?.subject).toMatch(/cancelled your booking/);
      expect(mail?.text).toContain('Our van broke down, sorry!');
      expect(spy).toHaveBeenCalledWith('bookingUpdated', b.id, expect.objectContaining({ type: 'booking.cancelled' }));
      expect(spy).toHaveBeenCalledWith('ownerEvent', expect.any(String), expect.objectContaining({ type: 'booking.cancelled', bookingId: b.id }));
      // The time is free again, and cancelling twice changes nothing.
      const free = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, date: '2026-12-01', days: 1 });
      expect((free.body.starts as string[]).map(Date.parse)).toContain(b.start);
      expect((await call(app, via, 'cancel_job', { booking_id: b.id }, cleaner)).body.status).toBe('cancelled');
    }
  });

  it('tells nobody for an own job, charges no fee, and refuses a job already under way', async () => {
    const own = await ownJob('2026-12-02');
    const r = await call(app, 'rest', 'cancel_job', { booking_id: own.booking_id }, cleaner);
    expect(r.body).toEqual({ booking_id: own.booking_id, status: 'cancelled', customer_told: null });
    const b = await serviceJob('2026-12-02');
    moveClockTo(b.start + 60_000);
    for (const via of SURFACES) expect((await call(app, via, 'cancel_job', { booking_id: b.id }, cleaner)).code, via).toBe('too_late_to_cancel');
  });
});

describe('confirm_job_done', () => {
  it('only after the job ended; then it counts toward jobs_confirmed_done in search, once', async () => {
    const b = await serviceJob('2026-12-03');
    for (const via of SURFACES) expect((await call(app, via, 'confirm_job_done', { booking_id: b.id }, cleaner)).code, via).toBe('invalid_input');
    const count = async () =>
      (await app.rest('find_cleaners', { zip: demoIds.austinZip, ...job })).body.cleaners.find((c: { pro_id: string }) => c.pro_id === demoIds.cleanerAustin)?.jobs_confirmed_done as number;
    const before = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).jobsConfirmedDone;
    moveClockTo(b.end);
    const spy = published();
    const r = await call(app, 'mcp', 'confirm_job_done', { booking_id: b.id }, cleaner);
    expect(r.body).toEqual({ booking_id: b.id, status: 'done', counted: true });
    expect(spy).toHaveBeenCalledWith('bookingUpdated', b.id, expect.objectContaining({ type: 'booking.done' }));
    expect(spy).toHaveBeenCalledWith('ownerEvent', expect.any(String), expect.objectContaining({ type: 'booking.done' }));
    for (const via of SURFACES) expect((await call(app, via, 'confirm_job_done', { booking_id: b.id }, cleaner)).body.status, via).toBe('done');
    vi.restoreAllMocks();
    expect((await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).jobsConfirmedDone).toBe(before + 1);
    const shown = await count();
    if (shown !== undefined) expect(shown).toBe(before + 1);
  });

  it('marks an own job done without counting it', async () => {
    const own = await ownJob('2026-12-04');
    moveClockTo(Date.parse(own.end));
    expect((await call(app, 'graphql', 'confirm_job_done', { booking_id: own.booking_id }, cleaner)).body).toEqual({ booking_id: own.booking_id, status: 'done', counted: false });
  });
});

describe('report_no_show', () => {
  it('only for a job booked through the service, after its start; waives its $5 fee', async () => {
    const b = await serviceJob('2026-12-08');
    for (const via of SURFACES) expect((await call(app, via, 'report_no_show', { booking_id: b.id }, cleaner)).code, via).toBe('invalid_input');
    const pipelineBefore = (await app.rest('pipeline', {}, cleaner)).body;
    moveClockTo(b.start + 15 * 60_000);
    const spy = published();
    const r = await call(app, 'graphql', 'report_no_show', { booking_id: b.id, note: 'Nobody home, gate locked' }, cleaner);
    expect(r.body).toEqual({ booking_id: b.id, status: 'no_show', fee_waived: 5 });
    expect(spy).toHaveBeenCalledWith('bookingUpdated', b.id, expect.objectContaining({ type: 'booking.no_show' }));
    expect(spy).toHaveBeenCalledWith('ownerEvent', expect.any(String), expect.objectContaining({ type: 'booking.no_show' }));
    for (const via of SURFACES) expect((await call(app, via, 'report_no_show', { booking_id: b.id }, cleaner)).body.fee_waived, via).toBe(5);
    vi.restoreAllMocks();
    const after = (await app.rest('pipeline', {}, cleaner)).body;
    expect(after.service_fees).toBe(pipelineBefore.service_fees - 5);
    expect(after.bookings.no_show).toBe(pipelineBefore.bookings.no_show + 1);
    const own = await ownJob('2026-12-09');
    moveClockTo(Date.parse(own.start) + 60_000);
    const refused = await call(app, 'rest', 'report_no_show', { booking_id: own.booking_id }, cleaner);
    expect(refused.code).toBe('invalid_input');
    expect(refused.error).toMatch(/no service fee/);
  });
});

describe('book_job', () => {
  it('puts a confirmed own job on the schedule, with no fee, on every surface', async () => {
    for (const via of SURFACES) {
      const open = await app.rest('open_times', { issue: 'leak', date: '2026-12-01', days: 1 }, plumber);
      expect(open.body.duration_minutes).toBeGreaterThan(0);
      const start = open.body.starts[0] as string;
      const r = await call(app, via, 'book_job', { customer_name: 'Pat Lee', customer_email: 'pat@example.com', address: '9 Elm St, Austin TX 78704', start, issue: 'leak', details: 'Drip under sink' }, plumber);
      expect(r.ok, `${via} ${JSON.stringify(r.body)}`).toBe(true);
      expect(r.body).toMatchObject({ status: 'confirmed', start, kind: 'service_call', service_fee: 0, customer_name: 'Pat Lee' });
      const quote = await app.rest('quote_job', { issue: 'leak' }, plumber);
      expect(r.body.fee).toBe(quote.body.fee);
      const s = await app.rest('schedule', {}, plumber);
      expect(s.body.jobs.find((j: { booking_id: string }) => j.booking_id === r.body.booking_id)).toMatchObject({ source: 'own', service_fee: 0, zip: '78704', status: 'confirmed' });
    }
    // Nothing is sent to the customer of an own job.
    expect(await lastMailTo(app, 'pat@example.com')).toBeNull();
  });

  it('refuses an overlap with another job or with blocked time (time_unavailable), and needs a phone or e-mail', async () => {
    const own = await ownJob('2026-12-10');
    const base = { customer_name: 'Sam Park', customer_phone: '512-555-0111', address: '1 Pine St, Austin TX', ...job };
    for (const via of SURFACES) {
      expect((await call(app, via, 'book_job', { ...base, start: own.start }, cleaner)).code, via).toBe('time_unavailable');
      const noContact = await call(app, via, 'book_job', { ...base, customer_phone: undefined, start: '2026-12-11T09:00:00-06:00' }, cleaner);
      expect(noContact.code).toBe('invalid_input');
      expect(noContact.error).toMatch(/customer_phone or customer_email/);
    }
    const block = await app.rest('block_time', { date: '2026-12-17', start: '08:00', end: '12:00' }, cleaner);
    expect(block.status).toBe(200);
    expect((await call(app, 'rest', 'book_job', { ...base, start: '2026-12-17T09:00:00-06:00' }, cleaner)).code).toBe('time_unavailable');
    // Outside hours only when the owner says so.
    const evening = { ...base, start: '2026-12-18T19:00:00-06:00' };
    const refused = await call(app, 'rest', 'book_job', evening, cleaner);
    expect(refused.code).toBe('invalid_input');
    expect(refused.error).toMatch(/outside_hours/);
    expect((await call(app, 'rest', 'book_job', { ...evening, outside_hours: true }, cleaner)).body.status).toBe('confirmed');
  });

  it("answers another business's booking ids with 400 not_found on every job operation", async () => {
    const theirs = await ownJob('2026-12-11', plumber, { issue: 'clog' });
    for (const via of SURFACES) {
      for (const name of ['cancel_job', 'confirm_job_done', 'report_no_show']) {
        const r = await call(app, via, name, { booking_id: theirs.booking_id }, cleaner);
        expect(r.code, `${via} ${name}`).toBe('not_found');
      }
    }
    const still = await app.services.prisma.booking.findUniqueOrThrow({ where: { id: theirs.booking_id } });
    expect(still.status).toBe('confirmed');
  });
});

describe('quote_job and open_times', () => {
  it('quotes exactly what customers are charged, with line items and estimated hours', async () => {
    const described = { bedrooms: 3, bathrooms: 2, clean_type: 'deep', add_ons: ['oven'], pets: true };
    const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...described });
    for (const via of SURFACES) {
      const q = await call(app, via, 'quote_job', described, cleaner);
      expect(q.ok, JSON.stringify(q.body)).toBe(true);
      expect(q.body.total, via).toBe(times.body.price);
      expect(q.body.fee).toBeNull();
      expect(q.body.estimated_hours).toBe(times.body.duration_minutes / 60);
      expect(q.body.line_items.reduce((s: number, l: { amount: number }) => s + l.amount, 0)).toBeCloseTo(q.body.total, 2);
    }
    const calls = await app.rest('find_service_call', { zip: demoIds.austinZip, trade: 'plumbing', issue: 'water_heater', days: 14 });
    const fee = calls.body.pros.find((p: { pro_id: string }) => p.pro_id === demoIds.plumberAustin)?.fee;
    const q = await call(app, 'rest', 'quote_job', { issue: 'water_heater' }, plumber);
    expect(q.body).toMatchObject({ total: null, fee, line_items: [{ amount: fee }] });
  });

  it('refuses a job the business cannot price', async () => {
    for (const via of SURFACES) {
      expect((await call(app, via, 'quote_job', { issue: 'leak' }, cleaner)).code, via).toBe('invalid_input');
      expect((await call(app, via, 'quote_job', { bedrooms: 2 }, cleaner)).code).toBe('invalid_input');
      expect((await call(app, via, 'quote_job', { issue: 'no_heat' }, plumber)).code).toBe('invalid_input');
    }
  });

  it('lists open starts around jobs, from now on, on every surface', async () => {
    for (const via of SURFACES) {
      const r = await call(app, via, 'open_times', { duration_minutes: 120, days: 2 }, cleaner);
      expect(r.ok).toBe(true);
      expect(r.body.starts.length).toBeGreaterThan(0);
      for (const s of r.body.starts) expect(Date.parse(s)).toBeGreaterThan(app.services.clock.now());
    }
  });
});
