/**
 * One set of opening hours: the hours parser (one format everywhere, 00:00-23:59, an end of
 * 23:59 is midnight), and the rule that appointment and technician hours narrow opening hours,
 * never widen them — over random hours, bookings and DST days.
 */
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  applyDays,
  formatWindow,
  hoursMap,
  intersectHours,
  minuteWindows,
  outsideHours,
  outsideView,
  parseDayHours,
  parseDayWindows,
  WEEKDAY_NAMES,
  type DayWindow,
} from '../../src/core/hours.js';
import { appointmentStarts, canBook, type AppointmentPlan, type HeldAppointment } from '../../src/appointments/schedule.js';
import { candidates, visitStarts, type Technician, type VisitPlan } from '../../src/menus/schedule.js';
import { generateDemoData } from '../../src/demo/generate.js';

const M = 60_000;
const H = 60 * M;
const LA = 'America/Los_Angeles';
const CHI = 'America/Chicago';

describe('parseDayHours', () => {
  it.each([
    ['09:00-17:00', { startMinute: 540, endMinute: 1020 }],
    ['00:00-23:59', { startMinute: 0, endMinute: 1440 }],
    ['18:00-23:59', { startMinute: 1080, endMinute: 1440 }],
    ['23:58-23:59', { startMinute: 1438, endMinute: 1440 }],
    ['23:00-23:58', { startMinute: 1380, endMinute: 1438 }],
    ['00:00-00:01', { startMinute: 0, endMinute: 1 }],
    ['07:15-07:45', { startMinute: 435, endMinute: 465 }],
    ['closed', null],
  ])('reads %s', (value, expected) => {
    expect(parseDayHours(value)).toEqual(expected);
  });

  it('refuses 24:00 and says to write …-23:59', () => {
    for (const value of ['18:00-24:00', '00:00-24:00', '24:00-24:00']) expect(() => parseDayHours(value), value).toThrow(/24:00 is not a time of day.*"…-23:59"/);
  });

  it.each(['17:00-08:00', '08:00-08:00', '8:00-17:00', '08:00-17:60', '08:00-24:30', '25:00-26:00', 'open', 'Closed', '', ' 08:00-17:00', '08:00 - 17:00', '08:00-17:00 ', '08:00-17:00-18:00', '0800-1700', '09:00-12:00,13:00-17:00'])(
    'refuses %j with a message saying what to write',
    (value) => {
      expect(() => parseDayHours(value)).toThrow(/HH:MM|after the start|24:00/);
    },
  );
});

describe('parseDayWindows', () => {
  it('reads one window, several (any order, a space after the comma allowed), or closed', () => {
    expect(parseDayWindows('closed')).toEqual([]);
    expect(parseDayWindows('09:00-17:00')).toEqual([{ startMinute: 540, endMinute: 1020 }]);
    expect(parseDayWindows('13:00-17:00,09:00-12:00')).toEqual([
      { startMinute: 540, endMinute: 720 },
      { startMinute: 780, endMinute: 1020 },
    ]);
    expect(parseDayWindows('09:00-12:00, 12:00-23:59')).toEqual([
      { startMinute: 540, endMinute: 720 },
      { startMinute: 720, endMinute: 1440 },
    ]);
  });

  it('refuses overlapping windows, 24:00, and a closed among windows', () => {
    expect(() => parseDayWindows('09:00-13:00,12:00-17:00')).toThrow(/overlap; send them as one window/);
    expect(() => parseDayWindows('09:00-12:00,18:00-24:00')).toThrow(/"…-23:59"/);
    expect(() => parseDayWindows('09:00-12:00,closed')).toThrow(/HH:MM/);
    expect(() => parseDayWindows('09:00-12:00,')).toThrow(/HH:MM/);
  });
});

describe('writing hours', () => {
  it('shows a midnight end as 23:59 and several windows of a day together', () => {
    expect(formatWindow({ startMinute: 1080, endMinute: 1440 })).toBe('18:00-23:59');
    expect(
      hoursMap([
        { weekday: 1, startMinute: 780, endMinute: 1020 },
        { weekday: 1, startMinute: 540, endMinute: 720 },
        { weekday: 6, startMinute: 0, endMinute: 1440 },
      ]),
    ).toEqual({ sunday: 'closed', monday: '09:00-12:00, 13:00-17:00', tuesday: 'closed', wednesday: 'closed', thursday: 'closed', friday: 'closed', saturday: '00:00-23:59' });
  });

  it('reads back what it writes (any windows ending on a whole minute other than 23:59)', () => {
    const windowArb = fc
      .tuple(fc.integer({ min: 0, max: 1438 }), fc.integer({ min: 1, max: 1440 }))
      .filter(([s, e]) => e > s && e !== 1439)
      .map(([startMinute, endMinute]) => ({ startMinute, endMinute }));
    fc.assert(
      fc.property(windowArb, (w) => {
        expect(parseDayHours(formatWindow(w))).toEqual(w);
      }),
      { numRuns: 500 },
    );
  });

  it('days by name change only the days sent', () => {
    const current: DayWindow[] = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, startMinute: 540, endMinute: 1020 }));
    expect(applyDays(current, { monday: 'closed', saturday: '10:00-12:00,13:00-23:59' })).toEqual([
      ...[2, 3, 4, 5].map((weekday) => ({ weekday, startMinute: 540, endMinute: 1020 })),
      { weekday: 6, startMinute: 600, endMinute: 720 },
      { weekday: 6, startMinute: 780, endMinute: 1440 },
    ]);
    expect(applyDays(current, {})).toEqual(current);
  });

  it('both input forms come out as minute windows', () => {
    const windows = [{ weekday: 2, start_minute: 60, end_minute: 120 }];
    expect(minuteWindows(windows, [{ weekday: 1, startMinute: 0, endMinute: 10 }])).toEqual(windows);
    expect(minuteWindows({ tuesday: '01:00-02:00' }, [{ weekday: 1, startMinute: 0, endMinute: 10 }])).toEqual([
      { weekday: 1, start_minute: 0, end_minute: 10 },
      { weekday: 2, start_minute: 60, end_minute: 120 },
    ]);
  });
});

describe('hours outside opening hours', () => {
  it('names the parts opening hours cut off, per day', () => {
    const opening = [
      { weekday: 1, startMinute: 540, endMinute: 720 },
      { weekday: 1, startMinute: 780, endMinute: 1020 },
    ];
    const wanted = [
      { weekday: 1, startMinute: 480, endMinute: 1080 },
      { weekday: 6, startMinute: 540, endMinute: 1440 },
    ];
    expect(outsideView(wanted, opening)).toEqual([
      { day: 'monday', hours: '08:00-09:00' },
      { day: 'monday', hours: '12:00-13:00' },
      { day: 'monday', hours: '17:00-18:00' },
      { day: 'saturday', hours: '09:00-23:59' },
    ]);
    expect(outsideView(opening, opening)).toEqual([]);
    expect(outsideView(wanted, [])).toHaveLength(2);
  });

  const windowArb = fc
    .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 96 }))
    .map(([weekday, q, len]) => ({ weekday, startMinute: q * 15, endMinute: Math.min(1440, (q + len) * 15) }));
  // Every window here lies on the quarter-hour grid, so quarter hours stand for minutes.
  const minutesOf = (ws: readonly DayWindow[]) => {
    const set = new Set<number>();
    for (const w of ws) for (let m = w.startMinute; m < w.endMinute; m += 15) set.add(w.weekday * 1440 + m);
    return set;
  };

  it('inside and outside split any hours exactly, minute by minute', () => {
    fc.assert(
      fc.property(fc.array(windowArb, { maxLength: 5 }), fc.array(windowArb, { maxLength: 5 }), (a, opening) => {
        // Windows of one calendar never overlap each other (the setups refuse that).
        const disjoint = (ws: DayWindow[]) => ws.every((x, i) => ws.every((y, j) => i === j || x.weekday !== y.weekday || x.endMinute <= y.startMinute || y.endMinute <= x.startMinute));
        fc.pre(disjoint(a) && disjoint(opening));
        const all = minutesOf(a);
        const open = minutesOf(opening);
        const inside = minutesOf(intersectHours(a, opening));
        const outside = minutesOf(outsideHours(a, opening));
        for (const m of inside) expect(all.has(m) && open.has(m)).toBe(true);
        for (const m of outside) expect(all.has(m) && !open.has(m)).toBe(true);
        expect(inside.size + outside.size).toBe(all.size);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Narrow, never widen: no start outside opening hours, whatever the other hours and bookings.

/** Days around both 2026 DST changes of the United States, and ordinary days. */
const DATES = ['2026-03-07', '2026-03-08', '2026-03-09', '2026-10-31', '2026-11-01', '2026-11-02', '2026-12-02'] as const;

const quarterWindow = fc
  .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 64 }))
  .map(([weekday, q, len]) => ({ weekday, startMinute: q * 15, endMinute: Math.min(1440, (q + len) * 15) }));
/** Hours wider than opening hours are likely: often the whole week, always some random windows. */
const wideHours = fc.oneof(
  fc.constant(WEEKDAY_NAMES.map((_, weekday) => ({ weekday, startMinute: 0, endMinute: 1440 }))),
  fc.array(quarterWindow, { minLength: 1, maxLength: 10 }),
);

/** Is a start inside a window of `hours` on its local day, with all of its length before that window's end? */
function inside(hours: readonly DayWindow[], zone: string, start: number, durationMinutes: number): boolean {
  const local = DateTime.fromMillis(start, { zone });
  const weekday = local.weekday % 7;
  const minute = local.hour * 60 + local.minute;
  return hours.some((w) => {
    if (w.weekday !== weekday || minute < w.startMinute || minute >= w.endMinute) return false;
    const first = w.endMinute === 1440 ? local.startOf('day').plus({ days: 1 }) : local.startOf('day').set({ hour: Math.floor(w.endMinute / 60), minute: w.endMinute % 60 });
    // A wall time repeated by the fall-back lasts until the clock reads it the last time (core/slots.ts).
    const again = first.plus({ hours: 1 });
    const end = again.hour === first.hour && again.minute === first.minute ? again : first;
    return start + durationMinutes * M <= end.toMillis();
  });
}

const planAround = (date: string, zone: string) => DateTime.fromISO(date, { zone }).toMillis();

describe('appointment hours narrow opening hours', () => {
  const appt = (day: number) =>
    fc.tuple(fc.integer({ min: -8, max: 120 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom<HeldAppointment['status']>('confirmed', 'awaiting_payment', 'cancelled')).map(
      ([q, len, status]): HeldAppointment => ({ start: day + q * 15 * M, end: day + (q + len) * 15 * M, status, holdsTime: status !== 'cancelled', holdUntil: status === 'awaiting_payment' ? day + 100 * 15 * M : null }),
    );

  it('never offers or books a start outside opening hours (DST days included)', () => {
    const caseArb = fc.tuple(fc.constantFrom(LA, CHI), fc.constantFrom(...DATES)).chain(([zone, date]) =>
      fc.record({
        zone: fc.constant(zone),
        date: fc.constant(date),
        opening: fc.array(quarterWindow, { maxLength: 8 }),
        hours: wideHours,
        held: fc.array(appt(planAround(date, zone)), { maxLength: 6 }),
        durationMinutes: fc.constantFrom(15, 30, 45, 60, 90, 150),
      }),
    );
    fc.assert(
      fc.property(caseArb, ({ zone, date, opening, hours, held, durationMinutes }) => {
        const day = planAround(date, zone);
        const plan: AppointmentPlan = { zone, openingHours: opening, hours, blocks: [], appointments: held, minNoticeMinutes: 0, now: day - 2 * H, durationMinutes };
        for (const s of appointmentStarts(plan, date)) {
          expect(inside(opening, zone, s, durationMinutes), DateTime.fromMillis(s, { zone }).toISO()!).toBe(true);
          expect(inside(hours, zone, s, durationMinutes)).toBe(true);
        }
        // Booking asks the same question: no quarter hour of the day outside opening hours is accepted.
        for (let t = day - 2 * H; t < day + 26 * H; t += 15 * M) {
          if (canBook(plan, t)) expect(inside(opening, zone, t, durationMinutes)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a day closed in opening hours offers nothing, whatever appointment hours say', () => {
    fc.assert(
      fc.property(fc.constantFrom(LA, CHI), fc.constantFrom(...DATES), wideHours, (zone, date, hours) => {
        const weekday = DateTime.fromISO(date, { zone }).weekday % 7;
        const opening = WEEKDAY_NAMES.map((_, d) => ({ weekday: d, startMinute: 0, endMinute: 1440 })).filter((w) => w.weekday !== weekday);
        const day = planAround(date, zone);
        expect(appointmentStarts({ zone, openingHours: opening, hours, blocks: [], appointments: [], minNoticeMinutes: 0, now: day - 2 * H, durationMinutes: 30 }, date)).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('no opening hours at all: closed', () => {
    const day = planAround('2026-12-02', CHI);
    const all = WEEKDAY_NAMES.map((_, weekday) => ({ weekday, startMinute: 0, endMinute: 1440 }));
    expect(appointmentStarts({ zone: CHI, openingHours: [], hours: all, blocks: [], appointments: [], minNoticeMinutes: 0, now: day - H, durationMinutes: 30 }, '2026-12-02', 7)).toEqual([]);
  });
});

describe('technician hours narrow opening hours', () => {
  const SERVICES = ['cut', 'colour'];
  const techArb = (day: number) =>
    fc.record({
      id: fc.uuid(),
      name: fc.constant('t'),
      serviceIds: fc.constant(SERVICES),
      hours: wideHours,
      timeOff: fc.array(fc.integer({ min: -8, max: 100 }).map((q) => ({ start: day + q * 15 * M, end: day + (q + 4) * 15 * M })), { maxLength: 2 }),
      visits: fc.array(fc.tuple(fc.integer({ min: -8, max: 100 }), fc.integer({ min: 1, max: 12 })).map(([q, len]) => ({ start: day + q * 15 * M, end: day + (q + len) * 15 * M })), { maxLength: 4 }),
    });

  it('never offers or assigns a start outside opening hours (DST days included)', () => {
    const caseArb = fc.tuple(fc.constantFrom(LA, CHI), fc.constantFrom(...DATES)).chain(([zone, date]) =>
      fc.record({
        zone: fc.constant(zone),
        date: fc.constant(date),
        opening: fc.array(quarterWindow, { maxLength: 8 }),
        team: fc.array(techArb(planAround(date, zone)), { minLength: 1, maxLength: 3 }),
        durationMinutes: fc.constantFrom(15, 30, 60, 105, 180),
        bufferMinutes: fc.constantFrom(0, 10, 15),
      }),
    );
    fc.assert(
      fc.property(caseArb, ({ zone, date, opening, team, durationMinutes, bufferMinutes }) => {
        const day = planAround(date, zone);
        const plan: VisitPlan = { zone, businessHours: opening, blocks: [], minNoticeMinutes: 0, now: day - 2 * H, bufferMinutes, durationMinutes, serviceIds: SERVICES };
        for (const s of visitStarts(plan, team, date)) {
          expect(inside(opening, zone, s, durationMinutes), DateTime.fromMillis(s, { zone }).toISO()!).toBe(true);
          for (const t of candidates(plan, team, s)) expect(inside(t.hours, zone, s, durationMinutes)).toBe(true);
        }
        for (let t = day - 2 * H; t < day + 26 * H; t += 15 * M) {
          if (candidates(plan, team, t).length > 0) expect(inside(opening, zone, t, durationMinutes)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('no opening hours at all: closed', () => {
    const day = planAround('2026-11-01', LA);
    const tech: Technician = { id: 'a', name: 'a', serviceIds: ['cut'], hours: WEEKDAY_NAMES.map((_, weekday) => ({ weekday, startMinute: 0, endMinute: 1440 })), timeOff: [], visits: [] };
    expect(visitStarts({ zone: LA, businessHours: [], blocks: [], minNoticeMinutes: 0, now: day - H, bufferMinutes: 0, durationMinutes: 30, serviceIds: ['cut'] }, [tech], '2026-11-01')).toEqual([]);
  });
});

describe('demo data', () => {
  it('gives every business with a team or appointment hours opening hours that cover them', () => {
    const data = generateDemoData({ now: Date.parse('2026-03-02T15:00:00Z') });
    const opening = (businessId: string) => data.weeklyHours.filter((h) => h.businessId === businessId);
    const staffBusiness = new Map(data.staffMembers.map((s) => [s.id, s.businessId]));
    const appointmentBusinesses = new Set(data.appointmentHours.map((h) => h.businessId));
    const teamBusinesses = new Set(data.staffMembers.map((s) => s.businessId));
    expect(appointmentBusinesses.size).toBeGreaterThan(0);
    for (const id of [...appointmentBusinesses, ...teamBusinesses]) expect(opening(id).length, id).toBeGreaterThan(0);
    for (const id of appointmentBusinesses) expect(outsideHours(data.appointmentHours.filter((h) => h.businessId === id), opening(id)), id).toEqual([]);
    for (const h of data.staffHours) expect(outsideHours([h], opening(staffBusiness.get(h.staffId)!)), h.staffId).toEqual([]);
  });
});
