import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isOpenStart, openStarts, type Busy, type SlotQuery, type WeeklyHours } from '../../src/core/slots.js';
import { formatHHMM, isoWithOffset } from '../../src/core/time.js';

const CHI = 'America/Chicago'; // Austin
const LA = 'America/Los_Angeles'; // San Francisco, San Jose
const H = 3_600_000;
const M = 60_000;

/** Local wall time (must be unambiguous) → epoch ms. */
const at = (zone: string, local: string) => {
  const dt = DateTime.fromISO(local, { zone });
  if (!dt.isValid) throw new Error(local);
  return dt.toMillis();
};
const iso = (zone: string, ts: number[]) => ts.map((t) => isoWithOffset(t, zone));
const weekdays = (start: number, end: number): WeeklyHours[] =>
  [1, 2, 3, 4, 5].map((weekday) => ({ weekday, startMinute: start, endMinute: end }));
const everyDay = (start: number, end: number): WeeklyHours[] =>
  [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, startMinute: start, endMinute: end }));

/** Austin cleaner, Mon-Fri 09:00-17:00, asked for Tue 2026-12-01 well in advance. */
const base = (over: Partial<SlotQuery> = {}): SlotQuery => ({
  zone: CHI,
  hours: weekdays(540, 1020),
  busy: [],
  durationMinutes: 180,
  now: at(CHI, '2026-11-20T12:00'),
  date: '2026-12-01',
  days: 1,
  ...over,
});

describe('openStarts: ordinary days', () => {
  it('lists every grid start whose job fits before closing', () => {
    expect(iso(CHI, openStarts(base()))).toEqual([
      '2026-12-01T09:00:00-06:00',
      '2026-12-01T09:30:00-06:00',
      '2026-12-01T10:00:00-06:00',
      '2026-12-01T10:30:00-06:00',
      '2026-12-01T11:00:00-06:00',
      '2026-12-01T11:30:00-06:00',
      '2026-12-01T12:00:00-06:00',
      '2026-12-01T12:30:00-06:00',
      '2026-12-01T13:00:00-06:00',
      '2026-12-01T13:30:00-06:00',
      '2026-12-01T14:00:00-06:00',
    ]);
  });

  it('returns nothing on a closed day', () => {
    expect(openStarts(base({ date: '2026-12-06' }))).toEqual([]); // Sunday
    expect(openStarts(base({ hours: [] }))).toEqual([]);
  });

  it('treats an empty or inverted window as closed', () => {
    expect(openStarts(base({ hours: [{ weekday: 2, startMinute: 600, endMinute: 600 }] }))).toEqual([]);
    expect(openStarts(base({ hours: [{ weekday: 2, startMinute: 700, endMinute: 600 }] }))).toEqual([]);
  });

  it('returns nothing when the job is longer than the window', () => {
    expect(openStarts(base({ durationMinutes: 481 }))).toEqual([]);
    expect(iso(CHI, openStarts(base({ durationMinutes: 480 })))).toEqual(['2026-12-01T09:00:00-06:00']);
  });

  it('aligns the grid to the window start and honors stepMinutes', () => {
    const q = base({ hours: [{ weekday: 2, startMinute: 555, endMinute: 720 }], durationMinutes: 60, stepMinutes: 45 });
    expect(iso(CHI, openStarts(q))).toEqual([
      '2026-12-01T09:15:00-06:00',
      '2026-12-01T10:00:00-06:00',
      '2026-12-01T10:45:00-06:00',
    ]);
  });

  it('supports split shifts and merges overlapping hour entries without duplicates', () => {
    const hours: WeeklyHours[] = [
      { weekday: 2, startMinute: 780, endMinute: 960 }, // 13:00-16:00, listed first on purpose
      { weekday: 2, startMinute: 480, endMinute: 660 }, // 08:00-11:00
      { weekday: 2, startMinute: 480, endMinute: 600 }, // duplicate-ish 08:00-10:00
    ];
    expect(iso(CHI, openStarts(base({ hours, durationMinutes: 120, stepMinutes: 60 })))).toEqual([
      '2026-12-01T08:00:00-06:00',
      '2026-12-01T09:00:00-06:00',
      '2026-12-01T13:00:00-06:00',
      '2026-12-01T14:00:00-06:00',
    ]);
  });

  it('allows a window that ends at midnight (1440)', () => {
    const q = base({ hours: [{ weekday: 2, startMinute: 1200, endMinute: 1440 }], durationMinutes: 120, stepMinutes: 60 });
    expect(iso(CHI, openStarts(q))).toEqual([
      '2026-12-01T20:00:00-06:00',
      '2026-12-01T21:00:00-06:00',
      '2026-12-01T22:00:00-06:00',
    ]);
  });

  it('accepts fractional durations in real minutes', () => {
    const q = base({ durationMinutes: 90.5, hours: [{ weekday: 2, startMinute: 540, endMinute: 720 }] });
    // 10:30 + 90.5 min = 12:00:30, past closing.
    expect(iso(CHI, openStarts(q)).at(-1)).toBe('2026-12-01T10:00:00-06:00');
  });
});

describe('openStarts: busy time (half-open intervals)', () => {
  const busy: Busy[] = [{ start: at(CHI, '2026-12-01T11:00'), end: at(CHI, '2026-12-01T12:00') }];

  it('lets a job end exactly when busy time starts and start exactly when it ends', () => {
    const got = iso(CHI, openStarts(base({ durationMinutes: 120, busy })));
    expect(got).toEqual([
      '2026-12-01T09:00:00-06:00', // 09:00-11:00 touches the booking
      '2026-12-01T12:00:00-06:00', // starts as the booking ends
      '2026-12-01T12:30:00-06:00',
      '2026-12-01T13:00:00-06:00',
      '2026-12-01T13:30:00-06:00',
      '2026-12-01T14:00:00-06:00',
      '2026-12-01T14:30:00-06:00',
      '2026-12-01T15:00:00-06:00',
    ]);
  });

  it('blocks when the overlap is a single millisecond', () => {
    const b: Busy[] = [{ start: at(CHI, '2026-12-01T10:59:59.999'), end: at(CHI, '2026-12-01T11:00:00.001') }];
    const got = iso(CHI, openStarts(base({ durationMinutes: 120, stepMinutes: 60, busy: b })));
    // 09:00, 10:00 and 11:00 all touch the 2 ms of busy time.
    expect(got).toEqual(['2026-12-01T12:00:00-06:00', '2026-12-01T13:00:00-06:00', '2026-12-01T14:00:00-06:00', '2026-12-01T15:00:00-06:00']);
  });

  it('ignores empty busy intervals and handles unsorted, overlapping ones', () => {
    const messy: Busy[] = [
      { start: at(CHI, '2026-12-01T15:00'), end: at(CHI, '2026-12-01T16:00') },
      { start: at(CHI, '2026-12-01T09:00'), end: at(CHI, '2026-12-01T10:00') },
      { start: at(CHI, '2026-12-01T09:30'), end: at(CHI, '2026-12-01T10:30') }, // overlaps the previous
      { start: at(CHI, '2026-12-01T13:00'), end: at(CHI, '2026-12-01T13:00') }, // empty
      { start: at(CHI, '2026-12-01T08:00'), end: at(CHI, '2026-12-01T08:30') }, // before opening
    ];
    expect(iso(CHI, openStarts(base({ durationMinutes: 60, stepMinutes: 60, busy: messy })))).toEqual([
      '2026-12-01T11:00:00-06:00',
      '2026-12-01T12:00:00-06:00',
      '2026-12-01T13:00:00-06:00',
      '2026-12-01T14:00:00-06:00',
      '2026-12-01T16:00:00-06:00',
    ]);
  });

  it('a busy interval spanning the whole day closes it', () => {
    const allDay: Busy[] = [{ start: at(CHI, '2026-12-01T00:00'), end: at(CHI, '2026-12-02T00:00') }];
    expect(openStarts(base({ busy: allDay }))).toEqual([]);
  });
});

describe('openStarts: notice, startAfter, finishBy', () => {
  it('defaults to 120 minutes of notice, inclusive', () => {
    const now = at(CHI, '2026-12-01T08:10');
    expect(iso(CHI, openStarts(base({ now }))).slice(0, 2)).toEqual([
      '2026-12-01T10:30:00-06:00',
      '2026-12-01T11:00:00-06:00',
    ]);
    // Exactly now + notice is allowed.
    expect(iso(CHI, openStarts(base({ now: at(CHI, '2026-12-01T08:00') })))[0]).toBe('2026-12-01T10:00:00-06:00');
  });

  it('honors a custom notice, including zero', () => {
    const now = at(CHI, '2026-12-01T09:00');
    expect(iso(CHI, openStarts(base({ now, minNoticeMinutes: 0 })))[0]).toBe('2026-12-01T09:00:00-06:00');
    expect(iso(CHI, openStarts(base({ now, minNoticeMinutes: 24 * 60 })))).toEqual([]);
  });

  it('startAfter is a wall-clock lower bound that keeps the window grid', () => {
    const got = iso(CHI, openStarts(base({ startAfter: 615 }))); // 10:15
    expect(got[0]).toBe('2026-12-01T10:30:00-06:00');
    expect(got).toHaveLength(8);
    expect(openStarts(base({ startAfter: 1440 }))).toEqual([]);
  });

  it('finishBy makes the job end by a wall-clock time', () => {
    const got = iso(CHI, openStarts(base({ durationMinutes: 120, finishBy: 780 }))); // done by 13:00
    expect(got).toEqual(['2026-12-01T09:00:00-06:00', '2026-12-01T09:30:00-06:00', '2026-12-01T10:00:00-06:00', '2026-12-01T10:30:00-06:00', '2026-12-01T11:00:00-06:00']);
    // finishBy later than closing changes nothing; closing still applies.
    expect(openStarts(base({ finishBy: 1440 }))).toEqual(openStarts(base()));
  });

  it('combines startAfter and finishBy', () => {
    const got = iso(CHI, openStarts(base({ durationMinutes: 60, startAfter: 600, finishBy: 720, stepMinutes: 60 })));
    expect(got).toEqual(['2026-12-01T10:00:00-06:00', '2026-12-01T11:00:00-06:00']);
  });
});

describe('openStarts: date, days, limit', () => {
  it('scans `days` local days from `date`, skipping closed ones', () => {
    // Fri Dec 4 .. Mon Dec 7: only Friday and Monday are open.
    const got = openStarts(base({ date: '2026-12-04', days: 4, durationMinutes: 480 }));
    expect(iso(CHI, got)).toEqual(['2026-12-04T09:00:00-06:00', '2026-12-07T09:00:00-06:00']);
  });

  it('defaults to today in the business zone, not in UTC', () => {
    // 23:30 Monday Nov 30 in Austin is already Tuesday in UTC.
    const now = at(CHI, '2026-11-30T23:30');
    const q = { ...base({ now, minNoticeMinutes: 0, durationMinutes: 480 }), date: undefined };
    expect(openStarts({ ...q, days: 1 })).toEqual([]); // Monday is over
    expect(iso(CHI, openStarts({ ...q, days: 2 }))).toEqual(['2026-12-01T09:00:00-06:00']);
  });

  it('a date in the past yields only starts after now + notice', () => {
    const now = at(CHI, '2026-12-02T12:00');
    const got = openStarts(base({ now, date: '2026-11-30', days: 3, durationMinutes: 480 }));
    expect(got).toEqual([]); // Mon, Tue over; Wed 09:00 is before now
    const got2 = openStarts(base({ now, date: '2026-11-30', days: 4, durationMinutes: 480 }));
    expect(iso(CHI, got2)).toEqual(['2026-12-03T09:00:00-06:00']);
  });

  it('days = 0 scans nothing', () => {
    expect(openStarts(base({ days: 0 }))).toEqual([]);
  });

  it('limit keeps the earliest starts', () => {
    const all = openStarts(base({ days: 14 }));
    expect(all.length).toBe(10 * 11);
    expect(openStarts(base({ days: 14, limit: 3 }))).toEqual(all.slice(0, 3));
    expect(openStarts(base({ days: 14, limit: 15 }))).toEqual(all.slice(0, 15));
    expect(openStarts(base({ days: 14, limit: 0 }))).toEqual([]);
    expect(openStarts(base({ days: 14, limit: 1000 }))).toEqual(all);
  });

  it('rejects bad input with RangeError', () => {
    expect(() => openStarts(base({ zone: 'America/Austin' }))).toThrow(RangeError);
    expect(() => openStarts(base({ durationMinutes: 0 }))).toThrow(RangeError);
    expect(() => openStarts(base({ days: 367 }))).toThrow(RangeError);
    expect(() => openStarts(base({ days: 1.5 }))).toThrow(RangeError);
    expect(() => openStarts(base({ date: '2026-02-30' }))).toThrow(RangeError);
    expect(() => openStarts(base({ stepMinutes: 0 }))).toThrow(RangeError);
    expect(() => openStarts(base({ limit: -1 }))).toThrow(RangeError);
    expect(() => openStarts(base({ hours: [{ weekday: 7, startMinute: 0, endMinute: 60 }] }))).toThrow(RangeError);
    expect(() => openStarts(base({ hours: [{ weekday: 1, startMinute: 0, endMinute: 1441 }] }))).toThrow(RangeError);
    expect(() => openStarts(base({ finishBy: -5 }))).toThrow(RangeError);
  });
});

describe('openStarts: DST in Austin (America/Chicago)', () => {
  const night = (date: string, over: Partial<SlotQuery> = {}) =>
    base({ date, hours: [{ weekday: 0, startMinute: 0, endMinute: 360 }], durationMinutes: 60, ...over });

  it('spring-forward 2026-03-08 skips 02:00-02:59 and never emits a shifted duplicate', () => {
    const got = openStarts(night('2026-03-08', { now: at(CHI, '2026-03-01T00:00') }));
    expect(iso(CHI, got)).toEqual([
      '2026-03-08T00:00:00-06:00',
      '2026-03-08T00:30:00-06:00',
      '2026-03-08T01:00:00-06:00',
      '2026-03-08T01:30:00-06:00',
      '2026-03-08T03:00:00-05:00',
      '2026-03-08T03:30:00-05:00',
      '2026-03-08T04:00:00-05:00',
      '2026-03-08T04:30:00-05:00',
      '2026-03-08T05:00:00-05:00',
    ]);
    expect(new Set(got).size).toBe(got.length);
  });

  it('spring-forward durations are real elapsed time (the lost hour counts)', () => {
    // 00:00 CST + 3h = 04:00 CDT, the closing time; 00:30 would finish at 04:30.
    const got = openStarts(night('2026-03-08', { now: at(CHI, '2026-03-01T00:00'), hours: [{ weekday: 0, startMinute: 0, endMinute: 240 }], durationMinutes: 180 }));
    expect(iso(CHI, got)).toEqual(['2026-03-08T00:00:00-06:00']);
  });

  it('a window ending inside the gap closes at the jump (03:00 CDT)', () => {
    const got = openStarts(night('2026-03-08', { now: at(CHI, '2026-03-01T00:00'), hours: [{ weekday: 0, startMinute: 0, endMinute: 150 }] }));
    expect(iso(CHI, got)).toEqual(['2026-03-08T00:00:00-06:00', '2026-03-08T00:30:00-06:00', '2026-03-08T01:00:00-06:00']);
  });

  it('fall-back 2026-11-01 yields both 01:00s and both 01:30s, in instant order', () => {
    const got = openStarts(night('2026-11-01', { now: at(CHI, '2026-10-25T00:00') }));
    expect(iso(CHI, got)).toEqual([
      '2026-11-01T00:00:00-05:00',
      '2026-11-01T00:30:00-05:00',
      '2026-11-01T01:00:00-05:00',
      '2026-11-01T01:30:00-05:00',
      '2026-11-01T01:00:00-06:00',
      '2026-11-01T01:30:00-06:00',
      '2026-11-01T02:00:00-06:00',
      '2026-11-01T02:30:00-06:00',
      '2026-11-01T03:00:00-06:00',
      '2026-11-01T03:30:00-06:00',
      '2026-11-01T04:00:00-06:00',
      '2026-11-01T04:30:00-06:00',
      '2026-11-01T05:00:00-06:00',
    ]);
  });

  it('fall-back: a 3h job starting at 00:00 ends at 02:00 wall time', () => {
    const q = night('2026-11-01', { now: at(CHI, '2026-10-25T00:00'), hours: [{ weekday: 0, startMinute: 0, endMinute: 120 }], durationMinutes: 180 });
    const got = openStarts(q);
    expect(iso(CHI, got)).toEqual(['2026-11-01T00:00:00-05:00']);
    expect(isoWithOffset(got[0]! + 180 * M, CHI)).toBe('2026-11-01T02:00:00-06:00');
  });

  it('fall-back: busy time can block one 01:30 and not the other', () => {
    const busy: Busy[] = [{ start: Date.parse('2026-11-01T01:30:00-05:00'), end: Date.parse('2026-11-01T02:00:00-05:00') }];
    const q = night('2026-11-01', { now: at(CHI, '2026-10-25T00:00'), durationMinutes: 30, busy });
    const got = iso(CHI, openStarts(q));
    expect(got).not.toContain('2026-11-01T01:30:00-05:00');
    expect(got).toContain('2026-11-01T01:30:00-06:00');
    expect(isOpenStart(q, Date.parse('2026-11-01T01:30:00-05:00'))).toBe(false);
    expect(isOpenStart(q, Date.parse('2026-11-01T01:30:00-06:00'))).toBe(true);
  });

  it('fall-back: a window ending at a repeated time lasts until its second occurrence', () => {
    const q = night('2026-11-01', { now: at(CHI, '2026-10-25T00:00'), hours: [{ weekday: 0, startMinute: 60, endMinute: 90 }], durationMinutes: 30 });
    expect(iso(CHI, openStarts(q))).toEqual(['2026-11-01T01:00:00-05:00', '2026-11-01T01:00:00-06:00']);
  });

  it('daytime hours keep their local times across both changes', () => {
    const hours = everyDay(540, 600);
    const spring = openStarts(base({ hours, durationMinutes: 60, date: '2026-03-07', days: 3, now: at(CHI, '2026-03-01T00:00') }));
    expect(iso(CHI, spring)).toEqual(['2026-03-07T09:00:00-06:00', '2026-03-08T09:00:00-05:00', '2026-03-09T09:00:00-05:00']);
    expect(spring[1]! - spring[0]!).toBe(23 * H);
    const fall = openStarts(base({ hours, durationMinutes: 60, date: '2026-10-31', days: 3, now: at(CHI, '2026-10-25T00:00') }));
    expect(iso(CHI, fall)).toEqual(['2026-10-31T09:00:00-05:00', '2026-11-01T09:00:00-06:00', '2026-11-02T09:00:00-06:00']);
    expect(fall[1]! - fall[0]!).toBe(25 * H);
  });
});

describe('openStarts: DST in San Francisco / San Jose (America/Los_Angeles)', () => {
  const night = (date: string, now: string, over: Partial<SlotQuery> = {}) =>
    base({ zone: LA, date, now: at(LA, now), hours: [{ weekday: 0, startMinute: 60, endMinute: 240 }], durationMinutes: 30, stepMinutes: 30, ...over });

  it('spring-forward 2026-03-08 skips 02:00 and 02:30', () => {
    expect(iso(LA, openStarts(night('2026-03-08', '2026-03-01T00:00')))).toEqual([
      '2026-03-08T01:00:00-08:00',
      '2026-03-08T01:30:00-08:00',
      '2026-03-08T03:00:00-07:00',
      '2026-03-08T03:30:00-07:00',
    ]);
  });

  it('fall-back 2026-11-01 repeats 01:00 and 01:30', () => {
    expect(iso(LA, openStarts(night('2026-11-01', '2026-10-25T00:00')))).toEqual([
      '2026-11-01T01:00:00-07:00',
      '2026-11-01T01:30:00-07:00',
      '2026-11-01T01:00:00-08:00',
      '2026-11-01T01:30:00-08:00',
      '2026-11-01T02:00:00-08:00',
      '2026-11-01T02:30:00-08:00',
      '2026-11-01T03:00:00-08:00',
      '2026-11-01T03:30:00-08:00',
    ]);
  });

  it('a Sunday-morning business sees the same local slots across the change', () => {
    const q = base({ zone: LA, hours: [{ weekday: 0, startMinute: 480, endMinute: 720 }], durationMinutes: 120, stepMinutes: 60, date: '2026-03-01', days: 8, now: at(LA, '2026-02-20T00:00') });
    const got = openStarts(q);
    expect(iso(LA, got)).toEqual([
      '2026-03-01T08:00:00-08:00',
      '2026-03-01T09:00:00-08:00',
      '2026-03-01T10:00:00-08:00',
      '2026-03-08T08:00:00-07:00',
      '2026-03-08T09:00:00-07:00',
      '2026-03-08T10:00:00-07:00',
    ]);
    expect(got[3]! - got[0]!).toBe(7 * 24 * H - H);
  });

  it('the isOpenStart re-check agrees on both DST days', () => {
    for (const [date, now] of [['2026-03-08', '2026-03-01T00:00'], ['2026-11-01', '2026-10-25T00:00']] as const) {
      const q = night(date, now, { hours: [{ weekday: 0, startMinute: 0, endMinute: 360 }], stepMinutes: 15 });
      const got = new Set(openStarts(q));
      const dayStart = at(LA, `${date}T00:00`) - 2 * H;
      for (let t = dayStart; t < dayStart + 30 * H; t += 15 * M) expect(isOpenStart(q, t)).toBe(got.has(t));
    }
  });
});

describe('isOpenStart', () => {
  const q = base();
  it('accepts exactly the listed starts', () => {
    const listed = new Set(openStarts(q));
    const from = at(CHI, '2026-12-01T00:00');
    for (let t = from; t < from + 24 * H; t += 15 * M) expect(isOpenStart(q, t)).toBe(listed.has(t));
  });
  it('rejects off-grid, off-minute and out-of-hours starts', () => {
    expect(isOpenStart(q, at(CHI, '2026-12-01T09:00'))).toBe(true);
    expect(isOpenStart(q, at(CHI, '2026-12-01T09:15'))).toBe(false);
    expect(isOpenStart(q, at(CHI, '2026-12-01T09:00') + 1000)).toBe(false);
    expect(isOpenStart(q, at(CHI, '2026-12-01T09:00') + 0.5)).toBe(false);
    expect(isOpenStart(q, at(CHI, '2026-12-01T14:30'))).toBe(false); // would end 17:30
    expect(isOpenStart(q, at(CHI, '2026-12-01T08:30'))).toBe(false);
    expect(isOpenStart(q, at(CHI, '2026-12-06T09:00'))).toBe(false); // Sunday
  });
  it('re-checks notice and new bookings at booking time', () => {
    const t = at(CHI, '2026-12-01T10:00');
    expect(isOpenStart({ ...q, now: t - 2 * H }, t)).toBe(true);
    expect(isOpenStart({ ...q, now: t - 2 * H + 1 }, t)).toBe(false);
    expect(isOpenStart({ ...q, busy: [{ start: t + 3 * H - 1, end: t + 4 * H }] }, t)).toBe(false);
    expect(isOpenStart({ ...q, busy: [{ start: t + 3 * H, end: t + 4 * H }] }, t)).toBe(true);
  });
  it('applies startAfter and finishBy on wall-clock time', () => {
    const t = at(CHI, '2026-12-01T10:00');
    expect(isOpenStart({ ...q, startAfter: 601 }, t)).toBe(false);
    expect(isOpenStart({ ...q, startAfter: 600 }, t)).toBe(true);
    expect(isOpenStart({ ...q, finishBy: 779 }, t)).toBe(false);
    expect(isOpenStart({ ...q, finishBy: 780 }, t)).toBe(true);
  });
});

describe('performance', () => {
  it('computes a month with ~60 busy intervals in well under 5 ms', () => {
    const busy: Busy[] = [];
    const from = at(CHI, '2026-03-01T00:00'); // includes spring-forward
    for (let i = 0; i < 60; i++) {
      const s = from + ((i * 37) % 31) * 24 * H + (9 + (i % 7)) * H;
      busy.push({ start: s, end: s + 90 * M });
    }
    const q = base({ hours: [...weekdays(480, 1080), { weekday: 6, startMinute: 540, endMinute: 840 }], busy, durationMinutes: 150, date: '2026-03-01', days: 31, now: from - 24 * H });
    openStarts(q); // warm up luxon/Intl caches and the JIT
    let best = Infinity;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      openStarts(q);
      best = Math.min(best, performance.now() - t0);
    }
    const got = openStarts(q);
    expect(got.length).toBeGreaterThan(50);
    expect(got).toEqual(reference(q)); // fast path agrees with the slow brute force
    expect(best).toBeLessThan(3); // measured ~1 ms; headroom for busy CI machines
  });
});

// ---------------------------------------------------------------------------
// Properties. A brute-force reference walks every 15-minute instant with luxon
// and applies the rules directly; openStarts must return exactly that set.
// ---------------------------------------------------------------------------

const ZONES = [CHI, LA, 'UTC', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata'];
// DST days for the zones above, so the properties keep hitting transitions.
const BASE_DATES = ['2026-03-08', '2026-11-01', '2026-03-29', '2026-10-25', '2026-04-05', '2026-10-04', '2026-06-15'];

const arbQuery = fc
  .record({
    zone: fc.constantFrom(...ZONES),
    baseDate: fc.constantFrom(...BASE_DATES),
    shift: fc.integer({ min: -3, max: 2 }),
    days: fc.integer({ min: 1, max: 5 }),
    // Window starts anywhere (so DST gaps/overlaps are hit); ends at 04:00 or
    // later so the reference can compute the end instant without ambiguity.
    hours: fc.array(
      fc.record({
        weekday: fc.integer({ min: 0, max: 6 }),
        startQ: fc.integer({ min: 0, max: 80 }),
        endQ: fc.integer({ min: 16, max: 96 }),
      }),
      { maxLength: 10 },
    ),
    busy: fc.array(fc.record({ startQ: fc.integer({ min: 0, max: 8 * 96 }), lenQ: fc.integer({ min: 0, max: 24 }) }), { maxLength: 25 }),
    durationQ: fc.integer({ min: 1, max: 24 }),
    stepQ: fc.constantFrom(1, 2, 3, 4),
    noticeQ: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
    nowQ: fc.integer({ min: -200, max: 400 }),
    startAfterQ: fc.option(fc.integer({ min: 0, max: 96 }), { nil: undefined }),
    finishByQ: fc.option(fc.integer({ min: 16, max: 96 }), { nil: undefined }),
  })
  .map((r) => {
    const first = DateTime.fromISO(r.baseDate, { zone: r.zone }).plus({ days: r.shift });
    const origin = first.startOf('day').toMillis();
    const q: SlotQuery = {
      zone: r.zone,
      date: first.toISODate()!,
      days: r.days,
      hours: r.hours.map((h) => ({ weekday: h.weekday, startMinute: h.startQ * 15, endMinute: h.endQ * 15 })),
      busy: r.busy.map((b) => ({ start: origin - 24 * H + b.startQ * 15 * M, end: origin - 24 * H + (b.startQ + b.lenQ) * 15 * M })),
      durationMinutes: r.durationQ * 15,
      stepMinutes: r.stepQ * 15,
      minNoticeMinutes: r.noticeQ === undefined ? undefined : r.noticeQ * 15,
      now: origin + r.nowQ * 15 * M,
      startAfter: r.startAfterQ === undefined ? undefined : r.startAfterQ * 15,
      finishBy: r.finishByQ === undefined ? undefined : r.finishByQ * 15,
    };
    return q;
  });

function reference(q: SlotQuery): number[] {
  const firstDay = DateTime.fromISO(q.date!, { zone: q.zone });
  const dates = new Set(Array.from({ length: q.days }, (_, i) => firstDay.plus({ days: i }).toISODate()));
  const from = firstDay.startOf('day').toMillis() - 6 * H;
  const to = firstDay.plus({ days: q.days }).startOf('day').toMillis() + 6 * H;
  const step = q.stepMinutes ?? 30;
  const earliest = q.now + (q.minNoticeMinutes ?? 120) * M;
  const out: number[] = [];
  for (let t = from; t < to; t += 15 * M) {
    const dt = DateTime.fromMillis(t, { zone: q.zone });
    const date = dt.toISODate()!;
    if (!dates.has(date)) continue;
    const minute = dt.hour * 60 + dt.minute;
    const end = t + q.durationMinutes * M;
    const ok = q.hours.some((h) => {
      if (h.weekday !== dt.weekday % 7 || minute < h.startMinute || minute >= h.endMinute) return false;
      if ((minute - h.startMinute) % step !== 0 || minute < (q.startAfter ?? 0)) return false;
      const endMin = Math.min(h.endMinute, q.finishBy ?? 1440);
      // Generated end times are >= 04:00, so they exist exactly once per day.
      const limit =
        endMin === 1440
          ? DateTime.fromISO(date, { zone: q.zone }).plus({ days: 1 }).toMillis()
          : DateTime.fromISO(`${date}T${formatHHMM(endMin)}`, { zone: q.zone }).toMillis();
      return end <= limit;
    });
    if (!ok || t < earliest) continue;
    if (q.busy.some((b) => b.end > b.start && b.start < end && b.end > t)) continue;
    out.push(t);
  }
  return out;
}

describe('properties', () => {
  it('(a) openStarts equals a brute-force reference; every start passes isOpenStart, avoids busy time and stays in hours', () => {
    fc.assert(
      fc.property(arbQuery, (q) => {
        const got = openStarts(q);
        expect(got).toEqual(reference(q));
        for (const s of got) {
          expect(isOpenStart(q, s)).toBe(true);
          const e = s + q.durationMinutes * M;
          expect(q.busy.some((b) => b.end > b.start && b.start < e && b.end > s)).toBe(false);
          const local = DateTime.fromMillis(s, { zone: q.zone });
          const lastMoment = DateTime.fromMillis(e - 1, { zone: q.zone });
          expect(lastMoment.toISODate()).toBe(local.toISODate()); // windows end by midnight
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 150) },
    );
  });

  it('(b) openStarts is strictly ascending, and limit returns a prefix', () => {
    fc.assert(
      fc.property(arbQuery, fc.integer({ min: 0, max: 20 }), (q, limit) => {
        const got = openStarts(q);
        for (let i = 1; i < got.length; i++) expect(got[i]!).toBeGreaterThan(got[i - 1]!);
        expect(openStarts({ ...q, limit })).toEqual(got.slice(0, limit));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 150) },
    );
  });

  it('isOpenStart rejects what openStarts does not list (on the 15-minute grid)', () => {
    fc.assert(
      fc.property(arbQuery, fc.integer({ min: 0, max: 6 * 96 }), (q, k) => {
        const listed = new Set(openStarts({ ...q, days: q.days + 2, date: DateTime.fromISO(q.date!).minus({ days: 1 }).toISODate()! }));
        const t = DateTime.fromISO(q.date!, { zone: q.zone }).startOf('day').toMillis() - 12 * H + k * 15 * M;
        const localDate = DateTime.fromMillis(t, { zone: q.zone }).toISODate()!;
        // Only meaningful for instants whose local day was scanned.
        const scanned = localDate >= DateTime.fromISO(q.date!).minus({ days: 1 }).toISODate()! && localDate < DateTime.fromISO(q.date!).plus({ days: q.days + 1 }).toISODate()!;
        if (scanned) expect(isOpenStart(q, t)).toBe(listed.has(t));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 300) },
    );
  });
});
