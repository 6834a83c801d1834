/**
 * One calendar per business (issue 20): menu visits and appointments booked by customers are on
 * the owner's schedule with cleanings, service calls and own jobs; block_time is refused over
 * any of them (and the database refuses the overlap too); cancel_job, confirm_job_done and
 * report_no_show act on every kind; set_hours names the entries of every kind it strands; the
 * schedule's statements do not grow with the entries. Through REST, MCP and GraphQL.
 */
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { isExclusionViolation } from '../../src/db/errors.js';
import { bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';

const SALON = demoIds.beautySanFrancisco;
const ZONE = 'America/Los_Angeles';
const MINUTE = 60_000;
const h = (hours: number) => hours * 60;
const MON_SAT = [1, 2, 3, 4, 5, 6];

let app: TestApp;
let owner: Record<string, string>;
let salonId: string;
let queries = 0;
/** Minutes the service clock has been moved on by a test. */
let shift = 0;
let keySeq = 0;

const ok = async (name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
  const r = await app.rest(name, input, headers);
  expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
};

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' }, onQuery: () => queries++ });
  const clock = app.services.clock;
  const real = clock.now.bind(clock);
  clock.now = () => real() + shift * MINUTE;
  owner = bearer(await businessKey(app, SALON));
  const salon = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: SALON } });
  salonId = salon.id;
  await app.services.prisma.weeklyHours.deleteMany({ where: { businessId: salonId } });
  await app.services.prisma.weeklyHours.createMany({ data: MON_SAT.map((weekday) => ({ businessId: salonId, weekday, startMinute: h(9), endMinute: h(19) })) });
  await app.services.prisma.business.update({ where: { id: salonId }, data: { minNoticeMinutes: 60 } });
  const setup = await ok('service_setup', {}, owner);
  await ok('update_service_menu', {
    menu_revision: setup.menu_revision,
    services: [{ service_id: 'mens', name: "Men's cut", price_kind: 'fixed', price_cents: 4000, duration_minutes: 30, group: 'haircut' }],
    add_ons: [],
    scents: [],
  }, owner);
  await ok('update_staff_availability', {
    scheduling_enabled: true,
    buffer_minutes: 0,
    staff: [{ name: 'Ana', service_ids: ['mens'], hours: MON_SAT.map((weekday) => ({ weekday, start_minute: h(9), end_minute: h(17) })), time_off: [] }],
  }, owner);
  const booking = await ok('booking_setup', {}, owner);
  await ok('update_booking_setup', {
    services: [{ service_id: 'consult', name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' }],
    remove_service_ids: booking.services.map((s: { service_id: string }) => s.service_id).filter((id: string) => id !== 'consult'),
    hours: MON_SAT.map((weekday) => ({ weekday, start_minute: h(9), end_minute: h(17) })),
  }, owner);
});
afterAll(async () => app?.close());

const at = (date: string, time: string) => DateTime.fromISO(`${date}T${time}`, { zone: ZONE }).toISO({ suppressMilliseconds: true })!;
const localTime = (iso: string) => DateTime.fromISO(iso, { setZone: true }).setZone(ZONE).toFormat('HH:mm');

/** A customer books a men's cut at `time` on `date` (book_visit): confirmed at once, with Ana. */
async function bookVisit(date: string, time: string, name = 'Vic Visitor') {
  const selections = [{ service_id: 'mens', add_on_ids: [] }];
  const e = await ok('estimate_visit', { business: SALON, selections: JSON.stringify(selections) });
  const times = await ok('visit_times', { business: SALON, selections: JSON.stringify(selections), date });
  expect(times.starts, `visit start ${date} ${time}`).toContain(at(date, time));
  const r = await ok('book_visit', {
    business: SALON, selections, customer_name: name, customer_email: 'vic@example.com', menu_revision: e.menu_revision, expected_estimate_cents: e.estimate_cents,
    customer_authorized: true, request_key: `one-calendar-key-${String(++keySeq).padStart(8, "0")}`, start: at(date, time),
  });
  return r.visit?.visit_id ?? r.visit_id as string;
}

/** A customer books a consultation at `time` on `date` (contact_business, book_appointment): confirmed at once. */
async function bookAppointment(date: string, time: string, name = 'Pat Doe') {
  const c = await ok('contact_business', { business: SALON, customer_name: name, customer_email: 'pat@example.com', message: 'An appointment, please.', request_type: 'appointment' });
  const times = await ok('appointment_times', { business: SALON, service_id: 'consult', date });
  expect(times.starts, `appointment start ${date} ${time}`).toContain(at(date, time));
  const r = await ok('book_appointment', {
    inquiry_id: c.inquiry_id, reply_token: c.reply_token, service_id: 'consult', start: at(date, time), expected_price_cents: 0, customer_authorized: true,
  });
  expect(r.status).toBe('confirmed');
  return r.booking_id as string;
}

type Entry = { booking_id: string; kind: string; status: string; start: string; end: string; customer_name: string; technician: string | null; customer_email: string | null };

describe('one calendar', () => {
  let visitId: string;
  let appointmentId: string;

  it('shows a visit and an appointment booked by customers on the schedule with kind and technician, on every surface', async () => {
    visitId = await bookVisit('2026-12-01', '10:00');
    appointmentId = await bookAppointment('2026-12-01', '14:00');
    for (const via of SURFACES) {
      const r = await call(app, via, 'schedule', { days: 30 }, owner);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      const visit = r.body.jobs.find((j: Entry) => j.booking_id === visitId);
      expect(visit, via).toMatchObject({ kind: 'visit', status: 'confirmed', technician: 'Ana', customer_name: 'Vic Visitor', customer_email: 'vic@example.com', address: null });
      expect(visit.start).toBe('2026-12-01T10:00:00-08:00');
      expect(visit.end).toBe('2026-12-01T10:30:00-08:00');
      const appointment = r.body.jobs.find((j: Entry) => j.booking_id === appointmentId);
      expect(appointment, via).toMatchObject({ kind: 'appointment', status: 'confirmed', technician: null, customer_name: 'Pat Doe', job: 'Consultation' });
      expect(appointment.start).toBe('2026-12-01T14:00:00-08:00');
      // Soonest first across kinds.
      const starts = r.body.jobs.map((j: Entry) => Date.parse(j.start));
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
    }
    // The customers' bookings are notifications, newest first.
    const again = await ok('schedule', {}, owner);
    const types = again.notifications.map((n: { type: string }) => n.type);
    expect(types).toEqual(expect.arrayContaining(['visit.booked', 'appointment.booked']));
    const instants = again.notifications.map((n: { at: string }) => Date.parse(n.at));
    expect(instants).toEqual([...instants].sort((a, b) => b - a));
    const visitNote = again.notifications.find((n: { type: string; visit_id: string }) => n.type === 'visit.booked' && n.visit_id === visitId);
    expect(visitNote.text).toMatch(/^New visit.*Vic Visitor/);
  });

  it('refuses block_time over a visit or an appointment with job_conflict naming it, on every surface', async () => {
    for (const via of SURFACES) {
      const v = await call(app, via, 'block_time', { date: '2026-12-01', start: '10:15', end: '11:00' }, owner);
      expect(v.ok, via).toBe(false);
      expect(v.code, via).toBe('job_conflict');
      expect(v.error).toContain(visitId);
      expect(v.error).toMatch(/visit "Men's cut" for Vic Visitor, 2026-12-01 10:00-10:30, with Ana \(visit_id/);
      expect(v.error).toContain('cancel_job');
      const a = await call(app, via, 'block_time', { date: '2026-12-01', start: '13:00', end: '14:15' }, owner);
      expect(a.code, via).toBe('job_conflict');
      expect(a.error).toMatch(new RegExp(`appointment "Consultation" for Pat Doe, 2026-12-01 14:00-14:30 \\(booking_id ${appointmentId}, confirmed\\)`));
    }
    // A whole day names every entry on it, not "and N more".
    const day = await app.rest('block_time', { date: '2026-12-01' }, owner);
    expect(day.status).toBe(400);
    expect(day.body.error).toContain(visitId);
    expect(day.body.error).toContain(appointmentId);
    expect(day.body.error).toMatch(/2 entries/);
    expect(day.body.error).not.toMatch(/more/);
    expect(await app.services.prisma.block.count({ where: { businessId: salonId, start: { lt: new Date(at('2026-12-02', '00:00')) }, end: { gt: new Date(at('2026-12-01', '00:00')) } } })).toBe(0);
  });

  it('refuses in the database a block over a confirmed visit or appointment, and a visit or appointment written into a block', async () => {
    const write = async (fn: () => Promise<unknown>) => {
      try {
        await fn();
        return 'written';
      } catch (err) {
        return isExclusionViolation(err) ? 'refused' : String(err);
      }
    };
    const prisma = app.services.prisma;
    expect(await write(() => prisma.block.create({ data: { businessId: salonId, start: new Date(at('2026-12-01', '10:20')), end: new Date(at('2026-12-01', '10:25')) } }))).toBe('refused');
    expect(await write(() => prisma.block.create({ data: { businessId: salonId, start: new Date(at('2026-12-01', '14:20')), end: new Date(at('2026-12-01', '14:25')) } }))).toBe('refused');
    const block = await ok('block_time', { date: '2026-12-01', start: '16:00', end: '17:00' }, owner);
    expect(await write(() => prisma.visit.update({ where: { id: visitId }, data: { start: new Date(at('2026-12-01', '16:00')), end: new Date(at('2026-12-01', '16:30')), busyUntil: new Date(at('2026-12-01', '16:30')) } }))).toBe('refused');
    expect(await write(() => prisma.appointment.update({ where: { id: appointmentId }, data: { start: new Date(at('2026-12-01', '16:30')), end: new Date(at('2026-12-01', '17:00')) } }))).toBe('refused');
    // Blocks take the time out of visit_times and appointment_times.
    const visitStarts = (await ok('visit_times', { business: SALON, selections: JSON.stringify([{ service_id: 'mens', add_on_ids: [] }]), date: '2026-12-01' })).starts as string[];
    const appointmentStarts = (await ok('appointment_times', { business: SALON, service_id: 'consult', date: '2026-12-01' })).starts as string[];
    expect(visitStarts.length).toBeGreaterThan(0);
    expect(appointmentStarts.length).toBeGreaterThan(0);
    for (const s of [...visitStarts, ...appointmentStarts]) expect(localTime(s) < '15:45' || localTime(s) >= '17:00', s).toBe(true);
    await ok('unblock_time', { block_id: block.block_id }, owner);
  });

  it('cancel_job cancels a visit (as cancel_business_visit) and an appointment (as cancel_business_appointment), on every surface', async () => {
    let day = 2;
    for (const via of SURFACES) {
      const date = `2026-12-0${day++}`;
      const visit = await bookVisit(date, '11:00');
      const appointment = await bookAppointment(date, '15:00');
      const v = await call(app, via, 'cancel_job', { booking_id: visit, message: 'Sorry, we are closed.' }, owner);
      expect(v.ok, JSON.stringify(v.body)).toBe(true);
      expect(v.body).toMatchObject({ booking_id: visit, status: 'cancelled' });
      expect(await app.services.prisma.visit.findUniqueOrThrow({ where: { id: visit } })).toMatchObject({ status: 'cancelled', cancelledBy: 'business' });
      const a = await call(app, via, 'cancel_job', { booking_id: appointment }, owner);
      expect(a.ok, JSON.stringify(a.body)).toBe(true);
      expect(a.body).toMatchObject({ booking_id: appointment, status: 'cancelled' });
      expect(await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: appointment } })).toMatchObject({ status: 'cancelled', cancelledBy: 'business', holdsTime: false });
      const after = await call(app, via, 'schedule', { days: 30 }, owner);
      expect(after.body.jobs.some((j: Entry) => j.booking_id === visit || j.booking_id === appointment), via).toBe(false);
      // The time is free again: a block fits.
      const block = await call(app, via, 'block_time', { date, start: '10:00', end: '16:00' }, owner);
      expect(block.ok, JSON.stringify(block.body)).toBe(true);
    }
  });

  it('confirm_job_done and report_no_show close an ended visit or appointment; too early or the wrong rule is a 400 naming what to do', async () => {
    const done = { visit: await bookVisit('2026-11-24', '10:00', 'Dana Done'), appointment: await bookAppointment('2026-11-24', '10:00', 'Dana Done') };
    const absent = { visit: await bookVisit('2026-11-24', '11:00', 'Nora Noshow'), appointment: await bookAppointment('2026-11-24', '11:00', 'Nora Noshow') };
    // Before the end: not yet.
    const early = await app.rest('confirm_job_done', { booking_id: done.visit }, owner);
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/confirm it done once it has ended/);
    const earlyNoShow = await app.rest('report_no_show', { booking_id: absent.appointment }, owner);
    expect(earlyNoShow.body.error).toMatch(/report a no-show only after its start/);
    const before = (await app.services.prisma.business.findUniqueOrThrow({ where: { id: salonId } })).jobsConfirmedDone;
    // A day later (the clock moves on).
    shift += 30 * 60;
    try {
      const waiting = await ok('schedule', {}, owner);
      const ids = waiting.awaiting_confirmation.map((j: Entry) => j.booking_id);
      expect(ids).toEqual(expect.arrayContaining([done.visit, done.appointment, absent.visit, absent.appointment]));
      const tooLate = await app.rest('cancel_job', { booking_id: done.visit }, owner);
      expect(tooLate.body.code).toBe('too_late_to_cancel');
      expect(tooLate.body.error).toMatch(/confirm_job_done.*report_no_show/);
      let n = 0;
      for (const [id, via] of [[done.visit, 'mcp'], [done.appointment, 'graphql']] as const) {
        const r = await call(app, via, 'confirm_job_done', { booking_id: id }, owner);
        expect(r.ok, JSON.stringify(r.body)).toBe(true);
        expect(r.body).toMatchObject({ booking_id: id, status: 'done', counted: true });
        // Again: the same answer, counted once.
        expect((await call(app, 'rest', 'confirm_job_done', { booking_id: id }, owner)).body).toMatchObject({ status: 'done' });
        n++;
      }
      for (const [id, via] of [[absent.visit, 'graphql'], [absent.appointment, 'mcp']] as const) {
        const r = await call(app, via, 'report_no_show', { booking_id: id, note: 'Never came.' }, owner);
        expect(r.ok, JSON.stringify(r.body)).toBe(true);
        expect(r.body).toMatchObject({ booking_id: id, status: 'no_show', fee_waived: 0 });
        const wrong = await app.rest('confirm_job_done', { booking_id: id }, owner);
        expect(wrong.body.error).toMatch(/closed as a no-show/);
      }
      expect((await app.services.prisma.business.findUniqueOrThrow({ where: { id: salonId } })).jobsConfirmedDone).toBe(before + n);
      expect(await app.services.prisma.visit.findUniqueOrThrow({ where: { id: done.visit } })).toMatchObject({ outcome: 'done', status: 'confirmed' });
      expect(await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: absent.appointment } })).toMatchObject({ outcome: 'no_show' });
      const after = await ok('schedule', {}, owner);
      expect(after.awaiting_confirmation.some((j: Entry) => Object.values(done).includes(j.booking_id) || Object.values(absent).includes(j.booking_id))).toBe(false);
      const events = await app.services.prisma.event.findMany({ where: { businessId: salonId, type: { in: ['visit.done', 'appointment.done', 'visit.no_show', 'appointment.no_show'] } } });
      expect(events.map((e) => e.type).sort()).toEqual(['appointment.done', 'appointment.no_show', 'visit.done', 'visit.no_show']);
    } finally {
      shift -= 30 * 60;
    }
  });

  it('answers cancel_job on a visit request with a 400 naming cancel_business_visit', async () => {
    const selections = [{ service_id: 'mens', add_on_ids: [] }];
    const e = await ok('estimate_visit', { business: SALON, selections: JSON.stringify(selections) });
    const r = await ok('request_visit', {
      business: SALON, selections, customer_name: 'Rita Request', customer_email: 'rita@example.com', menu_revision: e.menu_revision, expected_estimate_cents: e.estimate_cents,
      customer_authorized: true, request_key: `one-calendar-key-${String(++keySeq).padStart(8, "0")}`,
    });
    const id = r.request.visit_id;
    for (const via of SURFACES) {
      const c = await call(app, via, 'cancel_job', { booking_id: id }, owner);
      expect(c.ok, via).toBe(false);
      expect(c.error).toMatch(/cancel_business_visit/);
    }
  });

  it('set_hours names stranded visits and appointments', async () => {
    const visit = await bookVisit('2026-12-05', '15:00', 'Sam Saturday');
    const appointment = await bookAppointment('2026-12-05', '16:00', 'Sam Saturday');
    const r = await ok('set_hours', { saturday: '09:00-12:00' }, owner);
    const ids = r.stranded_jobs.map((j: Entry) => j.booking_id);
    expect(ids).toEqual(expect.arrayContaining([visit, appointment]));
    expect(r.stranded_jobs.find((j: Entry) => j.booking_id === visit)).toMatchObject({ kind: 'visit', technician: 'Ana' });
    await ok('set_hours', { saturday: '09:00-19:00' }, owner);
  });

  it('takes end 23:59 as the end of the day and shows it so; refuses 24:00 saying to use 23:59', async () => {
    for (const via of SURFACES) {
      const bad = await call(app, via, 'block_time', { date: '2026-12-13', start: '20:00', end: '24:00' }, owner);
      expect(bad.ok, via).toBe(false);
      expect(bad.error, via).toMatch(/23:59/);
    }
    const r = await ok('block_time', { date: '2026-12-13', start: '20:00', end: '23:59' }, owner);
    expect(r).toMatchObject({ start: '20:00', end: '23:59', whole_day: false, end_at: '2026-12-14T00:00:00-08:00' });
    const whole = await ok('block_time', { date: '2026-12-14' }, owner);
    expect(whole).toMatchObject({ start: '00:00', end: '23:59', whole_day: true });
  });
});

// PGlite runs one statement at a time: the race needs PostgreSQL.
describe.runIf(onPostgres)('block_time racing a booking', () => {
  it('lets exactly one of a block and a visit or appointment booked at the same moment win', async () => {
    const selections = [{ service_id: 'mens', add_on_ids: [] }];
    const e = await ok('estimate_visit', { business: SALON, selections: JSON.stringify(selections) });
    const wins = { block: 0, booking: 0 };
    for (const [i, date] of ['2026-12-07', '2026-12-08', '2026-12-09', '2026-12-10', '2026-12-11', '2026-12-12'].entries()) {
      const kind = i % 2 ? 'appointment' : 'visit';
      const c = kind === 'appointment'
        ? await ok('contact_business', { business: SALON, customer_name: `Racer ${i}`, customer_email: 'race@example.com', message: 'An appointment, please.', request_type: 'appointment' })
        : null;
      const booking = kind === 'visit'
        ? app.rest('book_visit', {
            business: SALON, selections, customer_name: `Racer ${i}`, customer_email: 'race@example.com', menu_revision: e.menu_revision, expected_estimate_cents: e.estimate_cents,
            customer_authorized: true, request_key: `one-calendar-race-${String(i).padStart(8, '0')}`, start: at(date, '10:00'),
          })
        : app.rest('book_appointment', { inquiry_id: c!.inquiry_id, reply_token: c!.reply_token, service_id: 'consult', start: at(date, '10:00'), expected_price_cents: 0, customer_authorized: true });
      const [b, k] = await Promise.all([booking, app.rest('block_time', { date, start: '09:00', end: '12:00' }, owner)]);
      expect([b.status, k.status].sort(), `${kind} ${date}: ${JSON.stringify([b.body, k.body])}`).toEqual([200, 400]);
      if (k.status === 200) {
        wins.block++;
        expect(b.body.code).toBe('time_unavailable');
      } else {
        wins.booking++;
        expect(k.body.code).toBe('job_conflict');
      }
    }
    // Whoever won, no block overlaps a confirmed visit or appointment.
    const overlaps = await app.services.prisma.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM "Block" b WHERE b."businessId" = ${salonId} AND (
        EXISTS (SELECT 1 FROM "Visit" v WHERE v."businessId" = b."businessId" AND v."status" = 'confirmed' AND v."start" < b."end" AND v."end" > b."start")
        OR EXISTS (SELECT 1 FROM "Appointment" a WHERE a."businessId" = b."businessId" AND a."holdsTime" AND a."start" < b."end" AND a."end" > b."start"))`;
    expect(Number(overlaps[0]!.n)).toBe(0);
    console.info(`block_time races: block won ${wins.block}, booking won ${wins.booking}`);
  });
});

describe('schedule statements', () => {
  it('are the same for no entries and for many of every kind', async () => {
    const other = await app.services.prisma.business.findFirstOrThrow({ where: { kind: "beauty", serviceMenu: { isNot: null }, slug: { not: SALON } }, orderBy: { slug: 'desc' } });
    const otherKey = bearer(await businessKey(app, other.slug));
    const schedule = (k: Record<string, string>) => () => app.rest('schedule', { days: 30 }, k);
    const count = async (fn: () => Promise<{ status: number; body: any }>) => {
      await app.services.outbox.flush();
      await app.services.payments.sandbox?.flush();
      await fn(); // marks notifications read
      queries = 0;
      const r = await fn();
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { n: queries, body: r.body };
    };
    await app.services.prisma.block.deleteMany({ where: { businessId: other.id } });
    const empty = await count(schedule(otherKey));
    expect(empty.body.jobs).toEqual([]);

    // Many entries of every kind at the other business, written directly.
    const prisma = app.services.prisma;
    const start = app.services.clock.now() + 3_600_000;
    const slot = (i: number) => ({ start: new Date(start + i * 3_600_000), end: new Date(start + i * 3_600_000 + 30 * MINUTE) });
    const n = 40;
    const bookings = Array.from({ length: n }, (_, i) => `cal_b_${i}`);
    await prisma.booking.createMany({
      data: bookings.map((id, i) => ({
        id, businessId: other.id, kind: 'cleaning', status: 'confirmed', manageTokenHash: `m_${id}`, confirmTokenHash: `c_${id}`, priceCents: 10000, bedrooms: 2, bathrooms: 1,
        cleanType: 'standard', address: `${i} Main St`, zip: '94110', customerName: `Customer ${i}`, customerPhone: '415-555-0100',
      })),
    });
    await prisma.bookingVisit.createMany({ data: bookings.map((id, i) => ({ bookingId: id, businessId: other.id, ...slot(i) })) });
    await prisma.ownJob.createMany({ data: bookings.filter((_, i) => i % 2).map((id) => ({ bookingId: id, businessId: other.id })) });
    const conversations = Array.from({ length: 2 * n }, (_, i) => `cal_c_${i}`);
    await prisma.conversation.createMany({
      data: conversations.map((id) => ({ id, businessId: other.id, replyTokenHash: `r_${id}`, requestType: 'appointment', customerName: 'C', customerEmail: 'c@example.com' })),
    });
    const menu = await prisma.serviceMenu.findUniqueOrThrow({ where: { businessId: other.id } });
    await prisma.visit.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        id: `cal_v_${i}`, businessId: menu.businessId, conversationId: conversations[i]!, status: 'confirmed' as const, source: 'book_visit', selections: [{ name: 'Cut', addOns: [], scent: null }],
        serviceIds: ['x'], menuRevision: 1, estimateCents: 5000, partial: false, priceCents: 5000, durationMinutes: 30, ...slot(n + i), busyUntil: slot(n + i).end,
        technicianName: 'Ana', customerName: `Visitor ${i}`, requestKeyHash: `k_${i}`, requestFingerprint: 'f', createdAt: new Date(),
      })),
    });
    await prisma.appointment.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        id: `cal_a_${i}`, businessId: other.id, conversationId: conversations[n + i]!, serviceId: 'consult', serviceName: 'Consultation', priceCents: 0, durationMinutes: 30,
        payment: 'none' as const, status: 'confirmed' as const, ...slot(2 * n + i), customerName: `Guest ${i}`, createdAt: new Date(),
      })),
    });
    const full = await count(schedule(otherKey));
    const kinds = new Set(full.body.jobs.map((j: Entry) => j.kind));
    expect([...kinds].sort()).toEqual(['appointment', 'cleaning', 'own_job', 'visit']);
    expect(full.body.jobs.length).toBe(3 * n);
    expect(full.n).toBe(empty.n);
    console.info(`queries: schedule empty ${empty.n}, with ${3 * n} entries of every kind ${full.n}`);
  });
});
