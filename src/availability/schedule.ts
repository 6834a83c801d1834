import { isOpenStart, type Busy, type SlotQuery, type WeeklyHours } from '../core/slots.js';
import { seriesStarts, type Frequency } from '../core/recurrence.js';
import { DAY, parseHHMM } from '../core/time.js';

/** Busy time a recurring series needs past its first start (the 60-day horizon and a margin). */
export const SERIES_DAYS = 62;

/** Whether every visit of a series from `first` is an open start too (available_times, find_cleaners). */
export function wholeSeriesFree(q: SlotQuery, first: number, frequency: Frequency): boolean {
  const series = seriesStarts({ first, zone: q.zone, frequency, now: q.now });
  return series.ok && series.starts.every((s) => isOpenStart(q, s));
}

/** Busy time as stored: a pending booking's visit is busy only until its hold lapses. */
export interface HeldBusy extends Busy {
  holdUntil?: number;
}

/** Whether stored busy time still holds at `now`. */
export const holds = (b: HeldBusy, now: number) => b.holdUntil === undefined || b.holdUntil > now;

export interface ScheduleOf {
  timeZone: string;
  minNoticeMinutes: number;
  hours: WeeklyHours[];
}

/** Customer time filters as the spec names them, turned into slot-engine terms. */
export interface TimeFilters {
  date?: string;
  start_after?: string;
  finish_by?: string;
}

export function slotQuery(
  business: ScheduleOf,
  busy: Busy[],
  durationMinutes: number,
  now: number,
  filters: TimeFilters,
  days: number,
  limit?: number,
): SlotQuery {
  return {
    zone: business.timeZone,
    hours: business.hours,
    busy,
    durationMinutes,
    now,
    minNoticeMinutes: business.minNoticeMinutes,
    date: filters.date,
    days,
    startAfter: filters.start_after ? parseHHMM(filters.start_after) : undefined,
    finishBy: filters.finish_by ? parseHHMM(filters.finish_by) : undefined,
    limit,
  };
}

/** The span of instants a slot query can touch (with a day's margin for zone offsets). */
export function querySpan(now: number, date: string | undefined, days: number): { from: number; to: number } {
  const first = date ? Math.max(now, Date.parse(`${date}T00:00:00Z`)) : now;
  return { from: now - DAY, to: first + (days + 2) * DAY };
}
