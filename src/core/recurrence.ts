/**
 * Start instants for a recurring cleaning series.
 *
 * Visits repeat at the same LOCAL wall-clock time and weekday in the
 * business's zone: a 09:00 Tuesday clean stays 09:00 after a DST change, so
 * its UTC instant moves by an hour. Each visit is computed from the first one
 * (never chained), so a wall time that one day doesn't have (spring-forward
 * gap, luxon moves it later) doesn't drag the following visits with it.
 */
import { DateTime } from 'luxon';
import { assertZone, DAY } from './time.js';

export const FREQUENCIES = ['once', 'weekly', 'biweekly', 'monthly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const DEFAULT_HORIZON_DAYS = 60;
export const MIN_VISITS = 2;
export const MAX_VISITS = 10;

/** Days between visits. "Monthly" is every 4 weeks so the weekday never drifts. */
const INTERVAL_DAYS: Record<Exclude<Frequency, 'once'>, number> = { weekly: 7, biweekly: 14, monthly: 28 };
const FREQ_WORD: Record<Exclude<Frequency, 'once'>, string> = {
  weekly: 'weekly',
  biweekly: 'every-two-weeks',
  monthly: 'every-four-weeks',
};

export function seriesStarts(args: {
  first: number /*epoch ms*/;
  zone: string;
  frequency: Frequency;
  visits?: number;
  now: number;
  horizonDays?: number /*default 60*/;
}): { ok: true; starts: number[] } | { ok: false; reason: string } {
  const { first, zone, frequency, visits, now } = args;
  const horizonDays = args.horizonDays ?? DEFAULT_HORIZON_DAYS;
  // Programming errors (bad zone/clock/horizon) throw; customer choices get a reason.
  assertZone(zone);
  if (!Number.isFinite(first) || !Number.isFinite(now)) throw new RangeError('first and now must be epoch milliseconds');
  if (!Number.isInteger(horizonDays) || horizonDays < 1 || horizonDays > 366) {
    throw new RangeError('horizonDays must be a whole number 1-366');
  }
  if (!FREQUENCIES.includes(frequency)) {
    return { ok: false, reason: `Unknown frequency "${String(frequency)}"; choose once, weekly, biweekly or monthly.` };
  }

  const horizonEnd = now + horizonDays * DAY;
  if (first < now) return { ok: false, reason: 'The first visit is in the past; pick a future start time.' };
  if (first > horizonEnd) {
    return { ok: false, reason: `The first visit must be within the next ${horizonDays} days.` };
  }

  if (frequency === 'once') {
    if (visits !== undefined && visits !== 1) {
      return { ok: false, reason: 'A one-time booking has exactly one visit; choose a repeating frequency for more.' };
    }
    return { ok: true, starts: [first] };
  }

  if (visits !== undefined && (!Number.isInteger(visits) || visits < MIN_VISITS || visits > MAX_VISITS)) {
    return { ok: false, reason: `A repeating booking needs ${MIN_VISITS} to ${MAX_VISITS} visits (including the first).` };
  }

  const interval = INTERVAL_DAYS[frequency];
  const firstLocal = DateTime.fromMillis(first, { zone });
  // Without an explicit count we take as many as fit; with one we still only
  // need to look one past it to know whether it fits.
  const cap = visits ?? Number.MAX_SAFE_INTEGER;
  const starts: number[] = [];
  for (let k = 0; starts.length < cap; k++) {
    // plus({days}) is calendar arithmetic in `zone`: it keeps the wall time.
    const t = k === 0 ? first : firstLocal.plus({ days: k * interval }).toMillis();
    if (t > horizonEnd) break;
    starts.push(t);
  }

  if (visits !== undefined && starts.length < visits) {
    const n = starts.length;
    return {
      ok: false,
      reason:
        `Only ${n} ${FREQ_WORD[frequency]} visit${n === 1 ? '' : 's'} starting then fit${n === 1 ? 's' : ''} within the next ${horizonDays} days ` +
        `(bookings can be made up to ${horizonDays} days ahead). Choose ${n === 1 ? 'a one-time visit' : `${n} visits or fewer`}, or an earlier first visit.`,
    };
  }
  return { ok: true, starts };
}
