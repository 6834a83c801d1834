/**
 * One set of opening hours, over REST, MCP and GraphQL: set_hours bounds appointment hours and
 * technician hours (they narrow it, never widen it); closing a day closes it for appointments and
 * visits at once; hours inputs take the set_hours form by weekday name as well as minute windows;
 * 24:00 is refused. On PostgreSQL, a second instance sees a closed day at once (NOTIFY).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPorchlight, type Porchlight } from '../../main.js';
import { demoIds } from '../../src/demo/generate.js';
import { BASE, TEST_NOW, bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES, type Surface } from '../helpers/surfaces.js';

const SALON = demoIds.beautySanFrancisco;
const LA = 'America/Los_Angeles';
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const allDay = Object.fromEntries(DAYS.map((d) => [d, '00:00-23:59']));
const MONDAY = '2026-12-07';
const SATURDAY = '2026-12-12';
const SUNDAY = '2026-12-13';

let app: TestApp;
let owner: Record<string, string>;
let service: string;
let selections: { service_id: string }[];

async function ok(via: Surface, name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const r = await call(app, via, name, input, headers);
  expect(r.ok, `${name} via ${via}: ${JSON.stringify(r.body)}`).toBe(true);
  return r.body;
}
async function refused(via: Surface, name: string, input: Record<string, unknown>, code: string, error: RegExp, headers: Record<string, string> = {}) {
  const r = await call(app, via, name, input, headers);
  expect(r.ok, `${name} via ${via} should be refused`).toBe(false);
  expect(r.code, `${name} via ${via}: ${r.error}`).toBe(code);
  expect(r.error).toMatch(error);
}

const local = (iso: string) => DateTime.fromISO(iso, { zone: LA });
const appointmentStarts = async (via: Surface, date: string) => (await ok(via, 'appointment_times', { business: SALON, service_id: service, date })).starts as string[];
// A GET over REST carries a list of objects as JSON.
const visitStarts = async (via: Surface, date: string) =>
  (await ok(via, 'visit_times', { business: SALON, selections: via === 'rest' ? JSON.stringify(selections) : selections, date })).starts as string[];
/** Opening hours Monday to Saturday 09:00-17:00, closed Sunday. */
const openWeek = { ...Object.fromEntries(DAYS.map((d) => [d, '09:00-17:00'])), sunday: 'closed' };

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  owner = bearer(await businessKey(app, SALON));
  await ok('rest', 'set_hours', openWeek, owner);
  // Appointment hours and every technician's hours wider than opening hours: all day, every day.
  const setup = await ok('rest', 'update_booking_setup', { hours: allDay }, owner);
  service = setup.services.find((s: { payment: string }) => s.payment === 'none').service_id;
  const team = await ok('rest', 'service_setup', {}, owner);
  const timed = team.services.find((s: { duration_minutes: number | null; service_id: string }) => s.duration_minutes && team.staff.some((m: { service_ids: string[] }) => m.service_ids.includes(s.service_id)));
  selections = [{ service_id: timed.service_id }];
  await ok('rest', 'update_staff_availability', {
    scheduling_enabled: true,
    staff: team.staff.map((m: { staff_id: string; name: string; service_ids: string[] }) => ({ staff_id: m.staff_id, name: m.name, service_ids: m.service_ids, hours: allDay })),
  }, owner);
});
afterAll(async () => app?.close());

describe('opening hours bound every kind', () => {
  it('appointment and technician hours wider than opening hours are named, and no start outside opening hours is offered', async () => {
    for (const via of SURFACES) {
      const setup = await ok(via, 'booking_setup', {}, owner);
      expect(setup.outside_opening_hours).toEqual([
        { day: 'sunday', hours: '00:00-23:59' },
        ...DAYS.slice(1).flatMap((day) => [{ day, hours: '00:00-09:00' }, { day, hours: '17:00-23:59' }]),
      ]);
      const team = await ok(via, 'service_setup', {}, owner);
      for (const m of team.staff) expect(m.outside_opening_hours).toHaveLength(13);
      for (const starts of [await appointmentStarts(via, MONDAY), await visitStarts(via, MONDAY)]) {
        expect(starts.length).toBeGreaterThan(0);
        expect(local(starts[0]!).toFormat('HH:mm')).toBe('09:00');
        for (const s of starts) expect(local(s).hour >= 9 && local(s).hour < 17).toBe(true);
      }
      expect(await appointmentStarts(via, SUNDAY)).toEqual([]);
      expect(await visitStarts(via, SUNDAY)).toEqual([]);
    }
  });

  it('closing a day in set_hours closes it for appointments and visits at once; a start offered before is refused', async () => {
    for (const via of SURFACES) {
      const appointment = (await appointmentStarts(via, SATURDAY)).at(-1)!;
      const visit = (await visitStarts(via, SATURDAY)).at(-1)!;
      expect(appointment).toBeDefined();
      expect(visit).toBeDefined();
      expect((await ok(via, 'set_hours', { saturday: 'closed' }, owner)).hours.saturday).toBe('closed');
      expect(await appointmentStarts(via, SATURDAY)).toEqual([]);
      expect(await visitStarts(via, SATURDAY)).toEqual([]);
      const info = await ok(via, 'business_info', { business: SALON });
      expect(info.hours.saturday).toBe('closed');

      const conversation = await ok('rest', 'contact_business', { business: SALON, customer_name: 'Pat Doe', customer_email: 'pat@example.com', message: 'A Saturday, please.', request_type: 'appointment' });
      await refused(via, 'book_appointment', {
        inquiry_id: conversation.inquiry_id, reply_token: conversation.reply_token, service_id: service, start: appointment, expected_price_cents: 0, customer_authorized: true,
      }, 'time_unavailable', /no longer available/);
      const estimate = await ok('mcp', 'estimate_visit', { business: SALON, selections });
      await refused(via, 'book_visit', {
        business: SALON, selections, customer_name: 'Pat Doe', customer_email: 'pat@example.com', menu_revision: estimate.menu_revision, expected_estimate_cents: estimate.estimate_cents,
        customer_authorized: true, request_key: randomBytes(16).toString('hex'), start: visit,
      }, 'time_unavailable', /.+/);

      await ok(via, 'set_hours', { saturday: '09:00-17:00' }, owner);
      expect(await appointmentStarts(via, SATURDAY)).toContain(appointment);
      expect(await visitStarts(via, SATURDAY)).toContain(visit);
    }
  });

  it('a business with no opening hours takes no appointments and offers no visit times', async () => {
    await ok('rest', 'set_hours', Object.fromEntries(DAYS.map((d) => [d, 'closed'])), owner);
    for (const via of SURFACES) {
      expect((await ok(via, 'business_info', { business: SALON })).booking.appointments).toBe('none');
      expect(await visitStarts(via, MONDAY)).toEqual([]);
    }
    await ok('rest', 'set_hours', openWeek, owner);
    expect((await ok('rest', 'business_info', { business: SALON })).booking.appointments).not.toBe('none');
  });
});

describe('one hours format', () => {
  it('update_booking_setup takes days by name (days left out stay) or minute windows, and shows a midnight end as 23:59', async () => {
    for (const via of SURFACES) {
      const byName = await ok(via, 'update_booking_setup', { hours: { monday: '10:00-12:00,13:00-16:00', sunday: 'closed' } }, owner);
      expect(byName.hours.filter((h: { weekday: number }) => h.weekday === 1)).toEqual([
        { weekday: 1, start_minute: 600, end_minute: 720 },
        { weekday: 1, start_minute: 780, end_minute: 960 },
      ]);
      expect(byName.hours.filter((h: { weekday: number }) => h.weekday === 2)).toEqual([{ weekday: 2, start_minute: 0, end_minute: 1440 }]);
      expect(byName.hours.some((h: { weekday: number }) => h.weekday === 0)).toBe(false);
      expect(local((await appointmentStarts(via, MONDAY))[0]!).toFormat('HH:mm')).toBe('10:00');
      expect(byName.outside_opening_hours).not.toContainEqual(expect.objectContaining({ day: 'monday' }));
      expect(byName.outside_opening_hours).toContainEqual({ day: 'tuesday', hours: '17:00-23:59' });

      const windows = await ok(via, 'update_booking_setup', { hours: [{ weekday: 1, start_minute: 540, end_minute: 1440 }] }, owner);
      expect(windows.hours).toEqual([{ weekday: 1, start_minute: 540, end_minute: 1440 }]);
      expect(windows.outside_opening_hours).toEqual([{ day: 'monday', hours: '17:00-23:59' }]);
      await ok(via, 'update_booking_setup', { hours: allDay }, owner);
    }
  });

  it('update_staff_availability takes days by name, each member keeping the days left out', async () => {
    const team = await ok('rest', 'service_setup', {}, owner);
    const [first, ...others] = team.staff as { staff_id: string; name: string; service_ids: string[] }[];
    const keep = (m: { staff_id: string; name: string; service_ids: string[] }) => ({ staff_id: m.staff_id, name: m.name, service_ids: m.service_ids, hours: {} });
    for (const via of SURFACES) {
      const r = await ok(via, 'update_staff_availability', { staff: [{ ...keep(first!), hours: { saturday: '08:00-12:00, 13:00-18:00' } }, ...others.map(keep)] }, owner);
      const me = r.staff.find((m: { staff_id: string }) => m.staff_id === first!.staff_id);
      expect(me.hours.filter((h: { weekday: number }) => h.weekday === 6)).toEqual([
        { weekday: 6, start_minute: 480, end_minute: 720 },
        { weekday: 6, start_minute: 780, end_minute: 1080 },
      ]);
      expect(me.hours.filter((h: { weekday: number }) => h.weekday === 5)).toEqual([{ weekday: 5, start_minute: 0, end_minute: 1440 }]);
      expect(me.outside_opening_hours).toContainEqual({ day: 'saturday', hours: '08:00-09:00' });
      expect(me.outside_opening_hours).toContainEqual({ day: 'saturday', hours: '17:00-18:00' });
    }
    await ok('rest', 'update_staff_availability', { staff: team.staff.map((m: { staff_id: string; name: string; service_ids: string[] }) => ({ ...keep(m), hours: allDay })) }, owner);
  });

  it('24:00 is refused everywhere with a 400 that says to write …-23:59; an end of 23:59 means midnight', async () => {
    const team = await ok('rest', 'service_setup', {}, owner);
    const m = team.staff[0] as { staff_id: string; name: string; service_ids: string[] };
    for (const via of SURFACES) {
      await refused(via, 'set_hours', { friday: '18:00-24:00' }, 'invalid_input', /friday must be "closed" or local hours "HH:MM-HH:MM": 24:00 is not a time of day.*"…-23:59"/, owner);
      await refused(via, 'update_booking_setup', { hours: { friday: '09:00-24:00' } }, 'invalid_input', /friday must be "closed" or local hours "HH:MM-HH:MM": 24:00 is not a time of day.*"…-23:59"/, owner);
      await refused(via, 'update_staff_availability', { staff: [{ staff_id: m.staff_id, name: m.name, service_ids: m.service_ids, hours: { friday: '09:00-12:00,13:00-24:00' } }] }, 'invalid_input', /24:00 is not a time of day.*"…-23:59"/, owner);
      await refused(via, 'update_booking_setup', { hours: { funday: '09:00-17:00' } }, 'invalid_input', /funday|hours/, owner);
      await refused(via, 'update_booking_setup', { hours: { monday: '09:00-13:00,12:00-17:00' } }, 'invalid_input', /overlap/, owner);
      const midnight = await ok(via, 'set_hours', { friday: '09:00-23:59' }, owner);
      expect(midnight.hours.friday).toBe('09:00-23:59');
      expect((await ok(via, 'business_info', { business: SALON })).hours.friday).toBe('09:00-23:59');
    }
    await ok('rest', 'set_hours', { friday: '09:00-17:00' }, owner);
  });
});

// ---------------------------------------------------------------------------------------------

describe.skipIf(!onPostgres)('two instances on PostgreSQL', () => {
  let b: Porchlight;
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-hours-'));
  beforeAll(async () => {
    // A second instance on the same database: its own caches, hearing changes only through NOTIFY.
    b = await createPorchlight({ ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: app.services.config.databaseUrl, dataDir, now: TEST_NOW, baseUrl: BASE });
  });
  afterAll(async () => {
    await b?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const onB = async (path: string) => (await b.fetch(new Request(`${BASE}/api/v1/${path}`))).json() as Promise<any>;
  const appointmentsOnB = async (date: string) => (await onB(`appointment_times?business=${SALON}&service_id=${service}&date=${date}`)).starts as string[];
  const visitsOnB = async (date: string) => (await onB(`visit_times?business=${SALON}&date=${date}&selections=${encodeURIComponent(JSON.stringify(selections))}`)).starts as string[];
  const cleanerOnB = async (date: string) => {
    const r = await onB(`find_cleaners?zip=${demoIds.austinZip}&bedrooms=2&bathrooms=1.5&date=${date}`);
    return ((r.cleaners.find((c: { pro_id: string }) => c.pro_id === demoIds.cleanerAustin)?.starts ?? []) as string[]).filter((s) => s.startsWith(date));
  };
  /** Notices travel through the database: wait for them, up to two seconds. */
  const until = async (check: () => Promise<boolean>, ms = 2000) => {
    const end = Date.now() + ms;
    while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    return check();
  };

  it('closing a weekday in set_hours on one instance removes it from appointment_times, visit_times and find_cleaners on the other', async () => {
    const cleaner = bearer(await businessKey(app, demoIds.cleanerAustin));
    const TUESDAY = '2026-12-15';
    // The second instance has read (and cached) the days first.
    expect((await appointmentsOnB(SATURDAY)).length).toBeGreaterThan(0);
    expect((await visitsOnB(SATURDAY)).length).toBeGreaterThan(0);
    expect((await cleanerOnB(TUESDAY)).length).toBeGreaterThan(0);

    for (const via of SURFACES) {
      await ok(via, 'set_hours', { saturday: 'closed' }, owner);
      await ok(via, 'set_hours', { tuesday: 'closed' }, cleaner);
      expect(await until(async () => (await appointmentsOnB(SATURDAY)).length === 0), via).toBe(true);
      expect(await until(async () => (await visitsOnB(SATURDAY)).length === 0), via).toBe(true);
      expect(await until(async () => (await cleanerOnB(TUESDAY)).length === 0), via).toBe(true);
      // And on the instance that wrote it, at once.
      expect(await appointmentStarts(via, SATURDAY)).toEqual([]);

      await ok(via, 'set_hours', { saturday: '09:00-17:00' }, owner);
      await ok(via, 'set_hours', { tuesday: '08:00-17:00' }, cleaner);
      expect(await until(async () => (await appointmentsOnB(SATURDAY)).length > 0), via).toBe(true);
      expect(await until(async () => (await visitsOnB(SATURDAY)).length > 0), via).toBe(true);
      expect(await until(async () => (await cleanerOnB(TUESDAY)).length > 0), via).toBe(true);
    }
  });
});
