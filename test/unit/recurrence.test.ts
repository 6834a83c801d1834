import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { isoWithOffset, parseStart } from '../../src/core/time.js';
import { seriesStarts, type Frequency } from '../../src/core/recurrence.js';

const CHI = 'America/Chicago';
const LA = 'America/Los_Angeles';
const DAY = 86_400_000;
const H = 3_600_000;

const t = (s: string) => {
  const ms = parseStart(s);
  if (ms === null) throw new Error(s);
  return ms;
};
function starts(r: ReturnType<typeof seriesStarts>): number[] {
  if (!r.ok) throw new Error(`expected ok, got: ${r.reason}`);
  return r.starts;
}
const iso = (zone: string, ts: number[]) => ts.map((x) => isoWithOffset(x, zone));

describe('seriesStarts: basics', () => {
  const now = t('2026-12-01T08:00:00-06:00');
  const first = t('2026-12-02T09:00:00-06:00');

  it('once is just the first start', () => {
    expect(seriesStarts({ first, zone: CHI, frequency: 'once', now })).toEqual({ ok: true, starts: [first] });
    expect(seriesStarts({ first, zone: CHI, frequency: 'once', visits: 1, now })).toEqual({ ok: true, starts: [first] });
    expect(seriesStarts({ first, zone: CHI, frequency: 'once', visits: 3, now }).ok).toBe(false);
  });

  it('weekly defaults to as many visits as fit in 60 days (9)', () => {
    const got = starts(seriesStarts({ first, zone: CHI, frequency: 'weekly', now }));
    expect(got).toHaveLength(9);
    expect(isoWithOffset(got.at(-1)!, CHI)).toBe('2027-01-27T09:00:00-06:00');
    for (let i = 1; i < got.length; i++) expect(got[i]! - got[i - 1]!).toBe(7 * DAY);
  });

  it('biweekly is every 14 days and monthly every 28 days', () => {
    expect(iso(CHI, starts(seriesStarts({ first, zone: CHI, frequency: 'biweekly', now })))).toEqual([
      '2026-12-02T09:00:00-06:00',
      '2026-12-16T09:00:00-06:00',
      '2026-12-30T09:00:00-06:00',
      '2027-01-13T09:00:00-06:00',
      '2027-01-27T09:00:00-06:00',
    ]);
    expect(iso(CHI, starts(seriesStarts({ first, zone: CHI, frequency: 'monthly', now })))).toEqual([
      '2026-12-02T09:00:00-06:00',
      '2026-12-30T09:00:00-06:00',
      '2027-01-27T09:00:00-06:00',
    ]);
  });

  it('honors an explicit visit count', () => {
    expect(iso(CHI, starts(seriesStarts({ first, zone: CHI, frequency: 'weekly', visits: 2, now })))).toEqual([
      '2026-12-02T09:00:00-06:00',
      '2026-12-09T09:00:00-06:00',
    ]);
    expect(starts(seriesStarts({ first, zone: CHI, frequency: 'weekly', visits: 9, now }))).toHaveLength(9);
  });

  it('says how many fit when the requested count does not', () => {
    expect(seriesStarts({ first, zone: CHI, frequency: 'weekly', visits: 10, now })).toEqual({
      ok: false,
      reason:
        'Only 9 weekly visits starting then fit within the next 60 days (bookings can be made up to 60 days ahead). Choose 9 visits or fewer, or an earlier first visit.',
    });
    const r = seriesStarts({ first, zone: CHI, frequency: 'monthly', visits: 4, now });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain('Only 3 every-four-weeks visits');
  });

  it('rejects visit counts outside 2-10 for repeating series', () => {
    for (const visits of [0, 1, 11, 2.5]) {
      const r = seriesStarts({ first, zone: CHI, frequency: 'weekly', visits, now });
      expect(r).toEqual({ ok: false, reason: 'A repeating booking needs 2 to 10 visits (including the first).' });
    }
  });

  it('refuses a first visit beyond the horizon or in the past', () => {
    expect(seriesStarts({ first: now + 60 * DAY + 1, zone: CHI, frequency: 'once', now })).toEqual({
      ok: false,
      reason: 'The first visit must be within the next 60 days.',
    });
    expect(seriesStarts({ first: now + 60 * DAY, zone: CHI, frequency: 'weekly', now })).toEqual({ ok: true, starts: [now + 60 * DAY] });
    const r = seriesStarts({ first: now + 60 * DAY, zone: CHI, frequency: 'weekly', visits: 2, now });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^Only 1 weekly visit starting then fits .*Choose a one-time visit/);
    expect(seriesStarts({ first: now - 1, zone: CHI, frequency: 'once', now }).ok).toBe(false);
    expect(seriesStarts({ first: now, zone: CHI, frequency: 'once', now }).ok).toBe(true);
  });

  it('supports a custom horizon', () => {
    const got = starts(seriesStarts({ first: now + H, zone: CHI, frequency: 'weekly', now, horizonDays: 14 }));
    expect(got).toEqual([now + H, now + H + 7 * DAY]);
  });

  it('throws on programmer errors', () => {
    expect(() => seriesStarts({ first, zone: 'Texas/Austin', frequency: 'weekly', now })).toThrow(RangeError);
    expect(() => seriesStarts({ first, zone: CHI, frequency: 'weekly', now, horizonDays: 0 })).toThrow(RangeError);
    expect(seriesStarts({ first, zone: CHI, frequency: 'daily' as Frequency, now }).ok).toBe(false);
  });
});

describe('seriesStarts: DST keeps the local time (Austin)', () => {
  it('fall-back: a Tuesday 09:00 series stays at 09:00 local', () => {
    const got = starts(seriesStarts({ first: t('2026-10-20T09:00:00-05:00'), zone: CHI, frequency: 'weekly', visits: 4, now: t('2026-10-19T12:00:00-05:00') }));
    expect(iso(CHI, got)).toEqual([
      '2026-10-20T09:00:00-05:00',
      '2026-10-27T09:00:00-05:00',
      '2026-11-03T09:00:00-06:00',
      '2026-11-10T09:00:00-06:00',
    ]);
    expect(got[2]! - got[1]!).toBe(7 * DAY + H); // the UTC instant moves by an hour
  });

  it('spring-forward: 09:00 CST becomes 09:00 CDT', () => {
    const got = starts(seriesStarts({ first: t('2026-03-03T09:00:00-06:00'), zone: CHI, frequency: 'biweekly', visits: 2, now: t('2026-03-01T00:00:00-06:00') }));
    expect(iso(CHI, got)).toEqual(['2026-03-03T09:00:00-06:00', '2026-03-17T09:00:00-05:00']);
    expect(got[1]! - got[0]!).toBe(14 * DAY - H);
  });

  it('a wall time missing on the DST day shifts only that visit (luxon moves it later)', () => {
    const got = starts(seriesStarts({ first: t('2026-03-01T02:30:00-06:00'), zone: CHI, frequency: 'weekly', visits: 3, now: t('2026-02-28T00:00:00-06:00') }));
    expect(iso(CHI, got)).toEqual(['2026-03-01T02:30:00-06:00', '2026-03-08T03:30:00-05:00', '2026-03-15T02:30:00-05:00']);
  });

  it('a repeated wall time on the fall-back day uses its first occurrence', () => {
    const got = starts(seriesStarts({ first: t('2026-10-25T01:30:00-05:00'), zone: CHI, frequency: 'weekly', visits: 3, now: t('2026-10-24T00:00:00-05:00') }));
    expect(iso(CHI, got)).toEqual(['2026-10-25T01:30:00-05:00', '2026-11-01T01:30:00-05:00', '2026-11-08T01:30:00-06:00']);
  });

  it('the 60-day horizon is real elapsed time', () => {
    // now + 60 days is exactly 09:00 CST on Sunday Nov 1 because of the fall-back hour.
    const now = t('2026-09-02T10:00:00-05:00');
    const first = t('2026-09-06T09:00:00-05:00');
    const got = starts(seriesStarts({ first, zone: CHI, frequency: 'weekly', now }));
    expect(got).toHaveLength(9);
    expect(isoWithOffset(got.at(-1)!, CHI)).toBe('2026-11-01T09:00:00-06:00');
    expect(got.at(-1)).toBe(now + 60 * DAY);
    expect(starts(seriesStarts({ first, zone: CHI, frequency: 'weekly', now: now - 1 }))).toHaveLength(8);
  });
});

describe('seriesStarts: DST keeps the local time (San Francisco / San Jose)', () => {
  it('spring-forward 2026-03-08', () => {
    const got = starts(seriesStarts({ first: t('2026-03-01T09:00:00-08:00'), zone: LA, frequency: 'weekly', visits: 3, now: t('2026-02-27T00:00:00-08:00') }));
    expect(iso(LA, got)).toEqual(['2026-03-01T09:00:00-08:00', '2026-03-08T09:00:00-07:00', '2026-03-15T09:00:00-07:00']);
  });

  it('fall-back 2026-11-01', () => {
    const got = starts(seriesStarts({ first: t('2026-10-25T09:00:00-07:00'), zone: LA, frequency: 'weekly', visits: 3, now: t('2026-10-20T00:00:00-07:00') }));
    expect(iso(LA, got)).toEqual(['2026-10-25T09:00:00-07:00', '2026-11-01T09:00:00-08:00', '2026-11-08T09:00:00-08:00']);
  });

  it('monthly (every 4 weeks) across the change', () => {
    const got = starts(seriesStarts({ first: t('2026-10-14T14:00:00-07:00'), zone: LA, frequency: 'monthly', visits: 2, now: t('2026-10-01T00:00:00-07:00') }));
    expect(iso(LA, got)).toEqual(['2026-10-14T14:00:00-07:00', '2026-11-11T14:00:00-08:00']);
  });
});

// ---------------------------------------------------------------------------

const INTERVAL: Record<Exclude<Frequency, 'once'>, number> = { weekly: 7, biweekly: 14, monthly: 28 };

describe('properties', () => {
  it('(d) starts share the first local weekday and time, step by whole weeks, and stay within the horizon', () => {
    const arb = fc.record({
      zone: fc.constantFrom(CHI, LA, 'Europe/London', 'Australia/Lord_Howe', 'UTC'),
      nowMin: fc.integer({ min: 0, max: 366 * 24 * 60 }),
      leadMin: fc.integer({ min: 0, max: 61 * 24 * 60 }),
      frequency: fc.constantFrom<Exclude<Frequency, 'once'>>('weekly', 'biweekly', 'monthly'),
      visits: fc.option(fc.integer({ min: 2, max: 10 }), { nil: undefined }),
      horizonDays: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
    });
    fc.assert(
      fc.property(arb, ({ zone, nowMin, leadMin, frequency, visits, horizonDays }) => {
        const now = Date.parse('2026-01-01T00:00:00Z') + nowMin * 60_000;
        const first = now + leadMin * 60_000;
        const horizonEnd = now + (horizonDays ?? 60) * DAY;
        const r = seriesStarts({ first, zone, frequency, visits, now, horizonDays });
        if (first > horizonEnd) {
          expect(r.ok).toBe(false);
          return;
        }
        const fitting = starts(seriesStarts({ first, zone, frequency, now, horizonDays }));
        if (!r.ok) {
          expect(visits).toBeDefined();
          expect(fitting.length).toBeLessThan(visits!);
          expect(r.reason).toContain(`Only ${fitting.length} `);
          return;
        }
        if (visits !== undefined) expect(r.starts).toHaveLength(visits);
        const f = DateTime.fromMillis(first, { zone });
        expect(r.starts[0]).toBe(first);
        r.starts.forEach((s, k) => {
          const d = DateTime.fromMillis(s, { zone });
          expect(s).toBeLessThanOrEqual(horizonEnd);
          expect(s).toBeGreaterThanOrEqual(now);
          if (k > 0) expect(s).toBeGreaterThan(r.starts[k - 1]!);
          expect(d.weekday).toBe(f.weekday);
          expect(d.startOf('day').diff(f.startOf('day'), 'days').days).toBe(k * INTERVAL[frequency]);
          const wanted = DateTime.fromObject({ year: d.year, month: d.month, day: d.day, hour: f.hour, minute: f.minute, second: f.second }, { zone });
          const sameWall = d.hour === f.hour && d.minute === f.minute && d.second === f.second;
          if (!sameWall) {
            // Only a wall time that doesn't exist that day may move, and only later.
            expect(wanted.hour * 60 + wanted.minute).not.toBe(f.hour * 60 + f.minute);
            expect(d.hour * 60 + d.minute).toBeGreaterThan(f.hour * 60 + f.minute);
          }
        });
        // "As many as fit": one more would be past the horizon.
        const next = f.plus({ days: fitting.length * INTERVAL[frequency] }).toMillis();
        expect(next).toBeGreaterThan(horizonEnd);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 400) },
    );
  });
});
