/**
 * The owner's schedule, weekly hours and blocked time, through REST, MCP and GraphQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';
import { isExclusionViolation } from '../../src/db/errors.js';

let app: TestApp;
let cleaner: Record<string, string>;
let plumber: Record<string, string>;
const job = { bedrooms: 2, bathrooms: 1.5 };
const customer = { customer_name: 'Alex Rivera', customer_email: 'alex@example.com', address: '1100 S Congress Ave, Austin TX', zip: demoIds.austinZip };

beforeAll(async () => {
  app = await startApp();
  cleaner = bearer(await businessKey(app, demoIds.cleanerAustin));
  plumber = bearer(await businessKey(app, demoIds.plumberAustin));
});
afterAll(async () => app?.close());

/** A customer's booking of the demo cleaner on a date, through the service (pending, then confirmed from the mail's link). */
async function customerBooking(date: string, headers: Record<string, string> = {}, confirm = true) {
  const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, date, days: 1 });
  expect(times.body.starts.length, `no start on ${date}`).toBeGreaterThan(0);
  const r = await app.rest('book_cleaning', { pro_id: demoIds.cleanerAustin, ...job, start: times.body.starts[0], ...customer }, headers);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  if (confirm) {
    const b = await app.services.prisma.booking.findUniqueOrThrow({ where: { id: r.body.booking_id } });
    await app.services.prisma.booking.update({ where: { id: b.id }, data: { status: 'confirmed', holdUntil: null, confirmedAt: new Date() } });
    await app.services.prisma.bookingVisit.updateMany({ where: { bookingId: b.id }, data: { holdUntil: null } });
  }
  return r.body as { booking_id: string; visits: { start: string }[] };
}

async function searchStarts(date: string) {
  const r = await app.rest('find_cleaners', { zip: demoIds.austinZip, ...job, date });
  return (r.body.cleaners.find((c: { pro_id: string }) => c.pro_id === demoIds.cleanerAustin)?.starts ?? []) as string[];
}

describe('schedule', () => {
  it('lists upcoming jobs with contact and address, blocks with block_id, weekly hours and notifications, on every surface', async () => {
    for (const via of SURFACES) {
      const r = await call(app, via, 'schedule', {}, plumber);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(r.body.jobs.length, via).toBeGreaterThan(0);
      for (const j of r.body.jobs) {
        expect(Object.keys(j)).toEqual(expect.arrayContaining(['booking_id', 'kind', 'status', 'start', 'end', 'customer_name', 'customer_phone', 'customer_email', 'address', 'fee', 'source', 'client_name', 'done']));
        expect(j.kind).toBe(j.source === 'own' ? 'own_job' : 'service_call');
        expect(j.start).toMatch(/-0[56]:00$/);
        expect(['porchlight', 'own']).toContain(j.source);
        expect(j.customer_phone ?? j.customer_email).toBeTruthy();
      }
      expect(r.body.blocks.length).toBeGreaterThan(0);
      expect(r.body.blocks[0]).toMatchObject({ block_id: expect.any(String), date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), start: expect.stringMatching(/^\d\d:\d\d$/) });
      expect(Object.keys(r.body.hours).sort()).toEqual(['friday', 'monday', 'saturday', 'sunday', 'thursday', 'tuesday', 'wednesday']);
      expect(Array.isArray(r.body.notifications)).toBe(true);
    }
  });

  it("shows a new booking made by an assistant as an unread notification with the assistant's name, and reading marks it read", async () => {
    const made = await customerBooking('2026-12-09', { 'x-client-name': 'Schedule Test Assistant' }, false);
    const first = await call(app, 'rest', 'schedule', { days: 30 }, cleaner);
    const mine = first.body.notifications.find((n: { booking_id: string; type: string }) => n.booking_id === made.booking_id && n.type === 'booking.created');
    expect(mine).toMatchObject({ read: false, client_name: 'Schedule Test Assistant', customer_name: 'Alex Rivera' });
    expect(mine.text).toContain('Schedule Test Assistant');
    // The pending job is on the schedule too.
    expect(first.body.jobs.some((j: { booking_id: string; status: string }) => j.booking_id === made.booking_id && j.status === 'pending')).toBe(true);
    for (const via of ['mcp', 'graphql'] as const) {
      const again = await call(app, via, 'schedule', {}, cleaner);
      const seen = again.body.notifications.find((n: { booking_id: string; type: string }) => n.booking_id === made.booking_id && n.type === 'booking.created');
      expect(seen?.read, via).toBe(true);
      expect(again.body.notifications.filter((n: { read: boolean }) => !n.read), via).toEqual([]);
    }
    // The owner's own actions are not notifications for the owner.
    await app.rest('cancel_job', { booking_id: made.booking_id }, cleaner);
    const after = await call(app, 'rest', 'schedule', {}, cleaner);
    expect(after.body.notifications.some((n: { booking_id: string; type: string }) => n.booking_id === made.booking_id && n.type === 'booking.cancelled')).toBe(false);
  });

  it('lists a note left for the owner as a notification and marks it read', async () => {
    await app.rest('note_to_owner', { note: 'Call Mrs. Alvarez back' }, { ...plumber, 'x-client-name': 'Note Assistant' });
    const r = await call(app, 'graphql', 'schedule', {}, plumber);
    expect(r.body.notifications.find((n: { type: string }) => n.type === 'note')).toMatchObject({ read: false, client_name: 'Note Assistant', text: 'Note from Note Assistant: Call Mrs. Alvarez back' });
    const again = await call(app, 'rest', 'schedule', {}, plumber);
    expect(again.body.notifications.find((n: { type: string }) => n.type === 'note').read).toBe(true);
  });

  it('needs the business sign-in', async () => {
    expect((await app.rest('schedule', {})).status).toBe(401);
    expect((await app.rest('schedule', {}, bearer('sk_pub_porchlight_demo'))).status).toBe(403);
  });
});

describe('set_hours', () => {
  it('changes only the days passed, and searches follow at once', async () => {
    const key = bearer(await businessKey(app, demoIds.cleanerSanFrancisco));
    const before = (await app.rest('schedule', {}, key)).body.hours;
    for (const via of SURFACES) {
      const r = await call(app, via, 'set_hours', { saturday: 'closed', wednesday: '10:00-14:00' }, key);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(r.body.hours).toEqual({ ...before, saturday: 'closed', wednesday: '10:00-14:00' });
    }
    // Wednesdays in San Francisco: only starts from 10:00 that end by 14:00 (a demo job may fill one).
    const times = await app.rest('available_times', { pro_id: demoIds.cleanerSanFrancisco, bedrooms: 1, bathrooms: 1, date: '2026-12-02', days: 21 });
    const wednesdays = (times.body.starts as string[]).filter((s) => new Date(Date.parse(s) - 8 * 3_600_000).getUTCDay() === 3);
    expect(wednesdays.length).toBeGreaterThan(0);
    for (const s of wednesdays) {
      expect(s.slice(11, 16) >= '10:00').toBe(true);
      expect(Date.parse(s) + times.body.duration_minutes * 60_000).toBeLessThanOrEqual(Date.parse(`${s.slice(0, 10)}T14:00:00-08:00`));
    }
    const r = await call(app, 'rest', 'set_hours', { wednesday: before.wednesday, saturday: before.saturday }, key);
    expect(r.body.hours).toEqual(before);
  });

  it('keeps jobs that no longer fit and names them so the owner can call the customers', async () => {
    const made = await customerBooking('2026-12-10');
    const start = made.visits[0]!.start;
    const r = await call(app, 'mcp', 'set_hours', { thursday: 'closed' }, cleaner);
    expect(r.ok).toBe(true);
    expect(r.body.hours.thursday).toBe('closed');
    const stranded = r.body.stranded_jobs.find((j: { booking_id: string }) => j.booking_id === made.booking_id);
    expect(stranded).toMatchObject({ start, customer_name: 'Alex Rivera', customer_email: 'alex@example.com', status: 'confirmed' });
    // Still booked.
    const s = await app.rest('schedule', { days: 30 }, cleaner);
    expect(s.body.jobs.some((j: { booking_id: string }) => j.booking_id === made.booking_id)).toBe(true);
    await call(app, 'graphql', 'set_hours', { thursday: '08:00-17:00' }, cleaner);
  });

  it('refuses malformed hours and an empty change with 400, naming the day', async () => {
    for (const via of SURFACES) {
      const bad = await call(app, via, 'set_hours', { monday: '17:00-08:00' }, cleaner);
      expect(bad.code, via).toBe('invalid_input');
      expect(bad.error).toMatch(/monday/);
      expect((await call(app, via, 'set_hours', { friday: '9-5' }, cleaner)).code).toBe('invalid_input');
      expect((await call(app, via, 'set_hours', {}, cleaner)).code).toBe('invalid_input');
    }
  });
});

describe('block_time and unblock_time', () => {
  it('takes the blocked starts out of find_cleaners at once, and unblocking brings them back', async () => {
    const date = '2026-12-14';
    const before = await searchStarts(date);
    expect(before.length).toBeGreaterThan(0);
    const first = before[0]!;
    const local = first.slice(11, 16);
    const r = await call(app, 'rest', 'block_time', { date, start: local, end: '17:00', reason: 'Dentist' }, cleaner);
    expect(r.ok, JSON.stringify(r.body)).toBe(true);
    expect(r.body).toMatchObject({ block_id: expect.any(String), date, start: local, end: '17:00', whole_day: false, reason: 'Dentist' });
    expect(await searchStarts(date)).not.toContain(first);
    const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, date, days: 1 });
    expect(times.body.starts).not.toContain(first);
    const open = await app.rest('open_times', { ...job, date, days: 1 }, cleaner);
    expect(open.body.starts).not.toContain(first);
    const removed = await call(app, 'mcp', 'unblock_time', { block_id: r.body.block_id }, cleaner);
    expect(removed.body).toEqual({ block_id: r.body.block_id, removed: true });
    expect(await searchStarts(date)).toContain(first);
  });

  it('blocks a whole day on every surface, and a whole DST day is 23 or 25 hours long', async () => {
    for (const [via, date, hours] of [['rest', '2027-03-14', 23], ['mcp', '2027-11-07', 25], ['graphql', '2026-12-21', 24]] as const) {
      const r = await call(app, via, 'block_time', { date }, plumber);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(r.body).toMatchObject({ date, start: '00:00', end: '23:59', whole_day: true });
      expect((Date.parse(r.body.end_at) - Date.parse(r.body.start_at)) / 3_600_000, via).toBe(hours);
    }
    // A part of the spring-forward day across the missing hour: 01:00 to 04:00 is two real hours.
    const gap = await call(app, 'rest', 'block_time', { date: '2027-03-14', start: '01:00', end: '04:00' }, bearer(await businessKey(app, demoIds.hvacSanJose)));
    expect(gap.body).toMatchObject({ start_at: '2027-03-14T01:00:00-08:00', end_at: '2027-03-14T04:00:00-07:00' });
    // The repeated hour of the fall-back day is covered both times the clock reads it.
    const twice = await call(app, 'rest', 'block_time', { date: '2027-11-07', start: '01:00', end: '02:00' }, bearer(await businessKey(app, demoIds.hvacSanJose)));
    expect(twice.body).toMatchObject({ start_at: '2027-11-07T01:00:00-07:00', end_at: '2027-11-07T02:00:00-08:00' });
  });

  it('refuses a block over a job with 400 job_conflict naming the job, on every surface', async () => {
    const made = await customerBooking('2026-12-15');
    const start = made.visits[0]!.start.slice(11, 16);
    for (const via of SURFACES) {
      const r = await call(app, via, 'block_time', { date: '2026-12-15', start, reason: 'Conflict' }, cleaner);
      expect(r.code, via).toBe('job_conflict');
      expect(r.error).toContain(made.booking_id);
      expect(r.error).toContain('Alex Rivera');
      expect(r.error).toMatch(/cancel_job/);
    }
    expect(await app.services.prisma.block.count({ where: { label: 'Conflict' } })).toBe(0);
    // Once the job is cancelled, the time can be blocked.
    await app.rest('cancel_job', { booking_id: made.booking_id }, cleaner);
    expect((await call(app, 'rest', 'block_time', { date: '2026-12-15', start, reason: 'Now free' }, cleaner)).ok).toBe(true);
  });

  it('refuses a job written over a block in the database itself (23P01), so a race cannot overlap them', async () => {
    const block = await call(app, 'rest', 'block_time', { date: '2026-12-16', start: '08:00', end: '12:00' }, cleaner);
    const businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).id;
    const booking = (await app.services.prisma.booking.findFirstOrThrow({ where: { businessId } })).id;
    const err = await app.services.prisma.bookingVisit
      .create({ data: { bookingId: booking, businessId, start: new Date('2026-12-16T15:00:00Z'), end: new Date('2026-12-16T16:00:00Z') } })
      .then(() => null, (e: unknown) => e);
    expect(isExclusionViolation(err)).toBe(true);
    await app.rest('unblock_time', { block_id: block.body.block_id }, cleaner);
  });

  it('refuses bad spans and past days', async () => {
    for (const via of SURFACES) {
      expect((await call(app, via, 'block_time', { date: '2026-12-17', start: '14:00', end: '09:00' }, cleaner)).code, via).toBe('invalid_input');
      expect((await call(app, via, 'block_time', { date: '2026-11-20' }, cleaner)).code).toBe('invalid_input');
      expect((await call(app, via, 'block_time', { date: '2026-02-30' }, cleaner)).code).toBe('invalid_input');
      expect((await call(app, via, 'block_time', { date: '2026-12-17', start: '25:00' }, cleaner)).code).toBe('invalid_input');
    }
  });

  it("answers another business's block_id with 400 not_found and leaves the block alone", async () => {
    const theirs = await call(app, 'rest', 'block_time', { date: '2026-12-18', start: '09:00', end: '10:00' }, plumber);
    for (const via of SURFACES) {
      const r = await call(app, via, 'unblock_time', { block_id: theirs.body.block_id }, cleaner);
      expect(r.code, via).toBe('not_found');
    }
    expect(await app.services.prisma.block.count({ where: { id: theirs.body.block_id } })).toBe(1);
  });
});
