import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { Busy, WeeklyHours } from '../../src/core/slots.js';
import { isoWithOffset } from '../../src/core/time.js';
import { intersectHours } from '../../src/core/hours.js';
import {
  candidates,
  canTake,
  stillFits,
  technicianStarts,
  timeOfDayOf,
  visitStarts,
  type Technician,
  type VisitPlan,
} from '../../src/menus/schedule.js';
import { timeOffBound } from '../../src/menus/setup.js';

const LA = 'America/Los_Angeles';
const CHI = 'America/Chicago';
const M = 60_000;
const H = 60 * M;

const at = (local: string, zone = LA) => {
  const dt = DateTime.fromISO(local, { zone });
  if (!dt.isValid) throw new Error(local);
  return dt.toMillis();
};
const iso = (ts: number[], zone = LA) => ts.map((t) => isoWithOffset(t, zone));
const days = (weekdays: number[], start: number, end: number): WeeklyHours[] => weekdays.map((weekday) => ({ weekday, startMinute: start, endMinute: end }));
const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6];

const tech = (id: string, serviceIds: string[], over: Partial<Technician> = {}): Technician => ({
  id,
  name: id,
  serviceIds,
  hours: days(ALL_WEEK, 9 * 60, 17 * 60),
  timeOff: [],
  visits: [],
  ...over,
});

/** A San Francisco salon open 9-17 every day; Wednesday 2026-12-02 asked well ahead. */
const plan = (over: Partial<VisitPlan> = {}): VisitPlan => ({
  zone: LA,
  businessHours: days(ALL_WEEK, 9 * 60, 17 * 60),
  blocks: [],
  minNoticeMinutes: 120,
  now: at('2026-11-23T09:00'),
  bufferMinutes: 0,
  durationMinutes: 60,
  serviceIds: ['cut'],
  ...over,
});
const DAY = '2026-12-02';

describe('intersectHours', () => {
  it('keeps only the time inside both calendars, per weekday, split shifts included', () => {
    const business = days([1, 2], 9 * 60, 17 * 60);
    const staff = [...days([1], 8 * 60, 12 * 60), { weekday: 1, startMinute: 13 * 60, endMinute: 18 * 60 }, ...days([3], 9 * 60, 17 * 60)];
    expect(intersectHours(business, staff)).toEqual([
      { weekday: 1, startMinute: 9 * 60, endMinute: 12 * 60 },
      { weekday: 1, startMinute: 13 * 60, endMinute: 17 * 60 },
    ]);
    expect(intersectHours(business, days([1], 17 * 60, 20 * 60))).toEqual([]);
  });
});

describe('technicianStarts and visitStarts', () => {
  it('offers 15-minute starts where business hours and the technician\'s own hours both hold the whole visit', () => {
    const t = tech('ana', ['cut'], { hours: days(ALL_WEEK, 10 * 60, 13 * 60) });
    expect(iso(technicianStarts(plan(), t, DAY))).toEqual([
      '2026-12-02T10:00:00-08:00', '2026-12-02T10:15:00-08:00', '2026-12-02T10:30:00-08:00', '2026-12-02T10:45:00-08:00',
      '2026-12-02T11:00:00-08:00', '2026-12-02T11:15:00-08:00', '2026-12-02T11:30:00-08:00', '2026-12-02T11:45:00-08:00',
      '2026-12-02T12:00:00-08:00',
    ]);
  });

  it('fits a sequential multi-service visit only to a technician qualified for all of it', () => {
    const cutter = tech('cutter', ['cut']);
    const colourist = tech('colourist', ['colour']);
    const both = tech('both', ['cut', 'colour'], { hours: days(ALL_WEEK, 13 * 60, 17 * 60) });
    const p = plan({ serviceIds: ['cut', 'colour'], durationMinutes: 150 });
    // Cut and colour back to back: 150 minutes with one person, so only "both" (13:00-17:00) can.
    const starts = visitStarts(p, [cutter, colourist, both], DAY);
    expect(iso(starts)[0]).toBe('2026-12-02T13:00:00-08:00');
    expect(iso(starts).at(-1)).toBe('2026-12-02T14:30:00-08:00');
    expect(starts.every((s) => candidates(p, [cutter, colourist, both], s).map((t) => t.id).join() === 'both')).toBe(true);
    // Two people who each do half never make one visit.
    expect(visitStarts(p, [cutter, colourist], DAY)).toEqual([]);
    // Once "both" is taken all afternoon, nobody can.
    const busy = { ...both, visits: [{ start: at(`${DAY}T13:00`), end: at(`${DAY}T17:00`) }] };
    expect(visitStarts(p, [cutter, colourist, busy], DAY)).toEqual([]);
  });

  it('needs the whole visit inside one working window of a split shift', () => {
    const t = tech('split', ['cut'], { hours: [...days([3], 9 * 60, 12 * 60), { weekday: 3, startMinute: 13 * 60, endMinute: 17 * 60 }] });
    const starts = iso(technicianStarts(plan({ durationMinutes: 150 }), t, DAY));
    expect(starts).toEqual([
      '2026-12-02T09:00:00-08:00', '2026-12-02T09:15:00-08:00', '2026-12-02T09:30:00-08:00',
      '2026-12-02T13:00:00-08:00', '2026-12-02T13:15:00-08:00', '2026-12-02T13:30:00-08:00', '2026-12-02T13:45:00-08:00',
      '2026-12-02T14:00:00-08:00', '2026-12-02T14:15:00-08:00', '2026-12-02T14:30:00-08:00',
    ]);
  });

  it('keeps the buffer free after every visit, the new one included', () => {
    // A visit 11:00-12:00 holds the technician until 12:15 (buffer 15).
    const t = tech('ana', ['cut'], { visits: [{ start: at(`${DAY}T11:00`), end: at(`${DAY}T12:15`) }] });
    const starts = iso(technicianStarts(plan({ bufferMinutes: 15 }), t, DAY));
    expect(starts).toContain('2026-12-02T09:45:00-08:00'); // 09:45-10:45, buffer to 11:00
    expect(starts).not.toContain('2026-12-02T10:00:00-08:00'); // its buffer would run into 11:00
    expect(starts).not.toContain('2026-12-02T12:00:00-08:00');
    expect(starts).toContain('2026-12-02T12:15:00-08:00');
    // Without a buffer the new visit may end exactly as the other starts.
    expect(iso(technicianStarts(plan(), { ...t, visits: [{ start: at(`${DAY}T11:00`), end: at(`${DAY}T12:00`) }] }, DAY))).toContain('2026-12-02T10:00:00-08:00');
  });

  it('skips time off, blocked business time and starts inside the notice', () => {
    const t = tech('ana', ['cut'], { timeOff: [{ start: at(`${DAY}T09:00`), end: at(`${DAY}T12:00`) }] });
    const blocks: Busy[] = [{ start: at(`${DAY}T14:00`), end: at(`${DAY}T15:00`) }];
    const starts = iso(technicianStarts(plan({ blocks }), t, DAY));
    expect(starts[0]).toBe('2026-12-02T12:00:00-08:00');
    expect(starts).toContain('2026-12-02T13:00:00-08:00');
    expect(starts).not.toContain('2026-12-02T13:15:00-08:00');
    expect(starts).not.toContain('2026-12-02T14:30:00-08:00');
    expect(starts).toContain('2026-12-02T15:00:00-08:00');
    // The clock at 10:05 with two hours' notice: nothing before 12:05.
    const soon = iso(technicianStarts(plan({ now: at(`${DAY}T10:05`) }), tech('bo', ['cut']), DAY));
    expect(soon[0]).toBe('2026-12-02T12:15:00-08:00');
  });

  it('filters by business-local time of day and by the preferred technician', () => {
    const ana = tech('ana', ['cut'], { hours: days(ALL_WEEK, 9 * 60, 12 * 60) });
    const bo = tech('bo', ['cut'], { hours: days(ALL_WEEK, 11 * 60, 20 * 60) });
    const p = plan({ businessHours: days(ALL_WEEK, 9 * 60, 20 * 60) });
    const local = (ts: number[]) => ts.map((t) => DateTime.fromMillis(t, { zone: LA }).toFormat('HH:mm'));
    expect(local(visitStarts(p, [ana, bo], DAY, { timeOfDay: 'morning' })).at(-1)).toBe('11:45');
    expect(local(visitStarts(p, [ana, bo], DAY, { timeOfDay: 'afternoon' }))[0]).toBe('12:00');
    expect(local(visitStarts(p, [ana, bo], DAY, { timeOfDay: 'afternoon' })).at(-1)).toBe('16:45');
    expect(local(visitStarts(p, [ana, bo], DAY, { timeOfDay: 'evening' }))).toEqual(['17:00', '17:15', '17:30', '17:45', '18:00', '18:15', '18:30', '18:45', '19:00']);
    expect(local(visitStarts(p, [ana, bo], DAY, { technicianId: 'ana' })).at(-1)).toBe('11:00');
    expect(visitStarts(p, [ana, bo], DAY, { technicianId: 'nobody' })).toEqual([]);
  });
});

describe('timeOfDayOf', () => {
  it('reads the business-local clock', () => {
    expect(timeOfDayOf(at(`${DAY}T11:59`), LA)).toBe('morning');
    expect(timeOfDayOf(at(`${DAY}T12:00`), LA)).toBe('afternoon');
    expect(timeOfDayOf(at(`${DAY}T16:59`), LA)).toBe('afternoon');
    expect(timeOfDayOf(at(`${DAY}T17:00`), LA)).toBe('evening');
    // The same instant is afternoon in Austin and still morning in San Francisco.
    expect(timeOfDayOf(at(`${DAY}T13:30`, CHI), CHI)).toBe('afternoon');
    expect(timeOfDayOf(at(`${DAY}T13:30`, CHI), LA)).toBe('morning');
  });
});

describe('DST days', () => {
  const night = (over: Partial<VisitPlan>) => plan({ businessHours: days(ALL_WEEK, 0, 6 * 60), minNoticeMinutes: 0, ...over });
  const nightTech = tech('night', ['cut'], { hours: days(ALL_WEEK, 60, 4 * 60) });

  it('measures a visit in real minutes when the clocks spring forward', () => {
    // 01:00-04:00 local is only two real hours on 2027-03-14: a 150-minute visit cannot fit.
    expect(technicianStarts(night({ durationMinutes: 150 }), nightTech, '2027-03-14')).toEqual([]);
    expect(iso(technicianStarts(night({ durationMinutes: 150 }), nightTech, '2027-03-13'))).toEqual(['2027-03-13T01:00:00-08:00', '2027-03-13T01:15:00-08:00', '2027-03-13T01:30:00-08:00']);
    // Starts in the missing hour do not exist; after it, the offset is -07:00.
    const starts = iso(technicianStarts(night({ durationMinutes: 30 }), nightTech, '2027-03-14'));
    expect(starts.some((s) => s.startsWith('2027-03-14T02:'))).toBe(false);
    expect(starts).toContain('2027-03-14T01:30:00-08:00');
    expect(starts).toContain('2027-03-14T03:00:00-07:00');
  });

  it('offers the repeated hour twice when the clocks fall back, each a real start', () => {
    const october = at('2026-10-20T09:00');
    const starts = iso(technicianStarts(night({ durationMinutes: 30, now: october }), nightTech, '2026-11-01'));
    expect(starts).toContain('2026-11-01T01:00:00-07:00');
    expect(starts).toContain('2026-11-01T01:00:00-08:00');
    // 01:00-04:00 local is four real hours that night: a 210-minute visit fits.
    expect(technicianStarts(night({ durationMinutes: 210, now: october }), nightTech, '2026-11-01').length).toBeGreaterThan(0);
    expect(technicianStarts(night({ durationMinutes: 210, now: october }), nightTech, '2026-11-02')).toEqual([]);
  });

  it('keeps daytime starts at 09:00 local with the new offset on both change days', () => {
    expect(iso(technicianStarts(plan({ minNoticeMinutes: 0 }), tech('a', ['cut']), '2027-03-14'))[0]).toBe('2027-03-14T09:00:00-07:00');
    expect(iso(technicianStarts(plan({ minNoticeMinutes: 0, now: at('2026-10-20T09:00') }), tech('a', ['cut']), '2026-11-01'))[0]).toBe('2026-11-01T09:00:00-08:00');
  });
});

describe('candidates', () => {
  it('puts the preferred technician first when they can, then the least booked', () => {
    const start = at(`${DAY}T10:00`);
    const ana = tech('ana', ['cut'], { visits: [{ start: at(`${DAY}T13:00`), end: at(`${DAY}T16:00`) }] });
    const bo = tech('bo', ['cut'], { visits: [{ start: at(`${DAY}T13:00`), end: at(`${DAY}T14:00`) }] });
    const cy = tech('cy', ['colour']);
    expect(candidates(plan(), [ana, bo, cy], start).map((t) => t.id)).toEqual(['bo', 'ana']);
    expect(candidates(plan(), [ana, bo, cy], start, 'ana').map((t) => t.id)).toEqual(['ana', 'bo']);
    // A preferred technician who cannot is simply passed over.
    expect(candidates(plan(), [ana, bo, cy], start, 'cy').map((t) => t.id)).toEqual(['bo', 'ana']);
    expect(canTake(plan(), cy, start)).toBe(false);
  });
});

describe('stillFits', () => {
  const visit = { start: at(`${DAY}T10:00`), end: at(`${DAY}T12:30`), serviceIds: ['cut', 'colour'] };
  const t = { serviceIds: ['cut', 'colour'], hours: days([3], 9 * 60, 17 * 60), timeOff: [] as Busy[] };
  it('keeps a visit its technician can still do, and names none otherwise', () => {
    expect(stillFits(LA, t, visit)).toBe(true);
    expect(stillFits(LA, { ...t, serviceIds: ['cut'] }, visit)).toBe(false);
    expect(stillFits(LA, { ...t, hours: days([3], 11 * 60, 17 * 60) }, visit)).toBe(false);
    expect(stillFits(LA, { ...t, hours: days([4], 9 * 60, 17 * 60) }, visit)).toBe(false);
    expect(stillFits(LA, { ...t, timeOff: [{ start: at(`${DAY}T12:00`), end: at(`${DAY}T13:00`) }] }, visit)).toBe(false);
    expect(stillFits(LA, { ...t, timeOff: [{ start: at(`${DAY}T12:30`), end: at(`${DAY}T13:00`) }] }, visit)).toBe(true);
  });
});

describe('timeOffBound', () => {
  it('reads ISO with offset, local date-times and whole local dates (end date included)', () => {
    expect(timeOffBound('2026-12-24T09:00:00-08:00', LA, 'start')).toBe(at('2026-12-24T09:00'));
    expect(timeOffBound('2026-12-24T17:00Z', LA, 'end')).toBe(Date.parse('2026-12-24T17:00:00Z'));
    expect(timeOffBound('2026-12-24T09:30', LA, 'start')).toBe(at('2026-12-24T09:30'));
    expect(timeOffBound('2026-12-24', LA, 'start')).toBe(at('2026-12-24T00:00'));
    expect(timeOffBound('2026-12-26', LA, 'end')).toBe(at('2026-12-27T00:00'));
    // The end of the day the clocks spring forward is 23 real hours after its start.
    expect(timeOffBound('2027-03-14', LA, 'end')! - timeOffBound('2027-03-14', LA, 'start')!).toBe(23 * H);
    expect(timeOffBound('2026-02-30', LA, 'start')).toBeNull();
    expect(timeOffBound('tomorrow', LA, 'start')).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const SERVICES = ['cut', 'colour', 'blow'];
const base = at('2026-12-02T00:00');
const window = fc
  .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 48 }))
  .map(([weekday, from, length]) => ({ weekday, startMinute: from * 30, endMinute: Math.min(1440, from * 30 + length * 15) }));
const interval = fc
  .tuple(fc.integer({ min: -24 * 4, max: 3 * 24 * 4 }), fc.integer({ min: 1, max: 16 }))
  .map(([q, len]) => ({ start: base + q * 15 * M, end: base + (q + len) * 15 * M }));
const techArb = fc.record({
  id: fc.uuid(),
  name: fc.constant('t'),
  serviceIds: fc.subarray(SERVICES),
  hours: fc.array(window, { maxLength: 6 }),
  timeOff: fc.array(interval, { maxLength: 2 }),
  visits: fc.array(interval, { maxLength: 4 }),
});
const planArb = fc.record({
  zone: fc.constantFrom(LA, CHI),
  businessHours: fc.array(window, { minLength: 1, maxLength: 8 }),
  blocks: fc.array(interval, { maxLength: 2 }),
  minNoticeMinutes: fc.constantFrom(0, 60, 120),
  now: fc.integer({ min: 0, max: 36 }).map((h) => base - 12 * H + h * H),
  bufferMinutes: fc.constantFrom(0, 10, 15),
  durationMinutes: fc.integer({ min: 1, max: 16 }).map((q) => q * 15),
  serviceIds: fc.subarray(SERVICES, { minLength: 1 }),
});
const overlaps = (a: Busy, b: Busy) => a.start < b.end && b.start < a.end;

describe('properties', () => {
  it('every start offered has a qualified technician free for the whole visit, buffers kept', () => {
    fc.assert(
      fc.property(planArb, fc.array(techArb, { minLength: 1, maxLength: 4 }), fc.constantFrom('2026-12-01', '2026-12-02', '2026-12-03'), (p, team, date) => {
        for (const start of visitStarts(p, team, date)) {
          const able = candidates(p, team, start);
          if (able.length === 0) return false;
          const visit = { start, end: start + p.durationMinutes * M };
          const held = { start, end: visit.end + p.bufferMinutes * M };
          for (const t of able) {
            if (!p.serviceIds.every((id) => t.serviceIds.includes(id))) return false;
            if (t.visits.some((v) => overlaps(held, v) || overlaps(visit, { start: v.start - p.bufferMinutes * M, end: v.end }))) return false;
            if ([...t.timeOff, ...p.blocks].some((o) => overlaps(visit, o))) return false;
          }
          if (start < p.now + p.minNoticeMinutes * M) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });

  it('a start is offered exactly when someone can take it (listing and booking agree)', () => {
    fc.assert(
      fc.property(planArb, fc.array(techArb, { minLength: 1, maxLength: 3 }), (p, team) => {
        const offered = new Set(visitStarts(p, team, '2026-12-02'));
        // Every quarter hour of that day and around it.
        for (let t = base - 10 * H; t < base + 34 * H; t += 15 * M) {
          if (offered.has(t) !== candidates(p, team, t).length > 0) {
            // Starts of other local days are not in this day's list.
            if (DateTime.fromMillis(t, { zone: p.zone }).toISODate() === '2026-12-02') return false;
          }
        }
        return true;
      }),
      { numRuns: 200 },
    );
  });
});
