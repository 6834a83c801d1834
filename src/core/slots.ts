/**
 * Open start times for a cleaning job.
 *
 * Everything is computed from "wall-clock minute on a local day" → instant
 * conversions. Most days have a single UTC offset, so the conversion is one
 * subtraction; only the (at most two per year) transition days take the
 * careful path that can return zero instants (spring-forward gap) or two
 * (fall-back overlap). That keeps a month of slots to a few dozen zone
 * look-ups instead of one per candidate.
 *
 * `openStarts` and `isOpenStart` share `prepare`, `dayContext` and
 * `qualifies`, so a start offered by the listing is exactly a start the
 * booking re-check accepts.
 */
import { assertZone, dateToDayNumber, DAY, HOUR, MINUTE, zoneOffset } from './time.js';

export interface WeeklyHours {
  weekday: number /* 0=Sunday..6=Saturday */;
  startMinute: number;
  endMinute: number /* exclusive, minutes after local midnight, may be 1440 */;
}
export interface Busy {
  start: number;
  end: number;
} // epoch ms, half-open [start,end)
export interface SlotQuery {
  zone: string; // IANA zone of the business
  hours: WeeklyHours[]; // at most one entry per weekday in practice, but accept several
  busy: Busy[]; // bookings and blocked time (unsorted)
  durationMinutes: number; // job length in real elapsed minutes
  now: number; // epoch ms, the server clock
  minNoticeMinutes?: number; // default 120: no start earlier than now + notice
  date?: string; // YYYY-MM-DD local: first day to consider (default: today local)
  days: number; // how many local days to scan starting at `date` (or today)
  startAfter?: number; // minutes after local midnight: earliest wall-clock start
  finishBy?: number; // minutes after local midnight: job must END by this wall-clock time
  stepMinutes?: number; // grid of candidate starts in local wall-clock time, default 30
  limit?: number; // stop after this many starts (default unlimited)
}

export const DEFAULT_NOTICE_MINUTES = 120;
export const DEFAULT_STEP_MINUTES = 30;
/** Upper bound on `days` so one request can't ask for unbounded work. */
export const MAX_SCAN_DAYS = 366;

// Offsets are bounded by about -12h..+14h, so the instants whose local time
// falls on a given local day lie within [midnight-14h, midnight+24h+12h].
const SPAN_BEFORE_MS = 14 * HOUR;
const SPAN_AFTER_MS = 36 * HOUR;

type CheckedQuery = Omit<SlotQuery, 'days' | 'date' | 'limit'>;

interface Prepared {
  offset: (ms: number) => number; // zone offset in minutes at an instant
  windowsByWeekday: Array<Array<{ start: number; end: number }>>;
  busy: Busy[]; // sorted by start, merged, non-empty, disjoint
  durationMs: number;
  earliest: number; // now + notice
  startAfter: number; // wall minute, 0 when absent
  finishBy: number | undefined; // wall minute
  step: number;
}

function isInt(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n);
}

/** Validates once and precomputes everything that doesn't depend on the day. */
function prepare(q: CheckedQuery): Prepared {
  assertZone(q.zone);
  if (typeof q.durationMinutes !== 'number' || !Number.isFinite(q.durationMinutes) || q.durationMinutes <= 0) {
    throw new RangeError('durationMinutes must be a positive number');
  }
  if (!Number.isFinite(q.now)) throw new RangeError('now must be an epoch-millisecond number');
  const notice = q.minNoticeMinutes ?? DEFAULT_NOTICE_MINUTES;
  if (!Number.isFinite(notice) || notice < 0) throw new RangeError('minNoticeMinutes must be >= 0');
  const step = q.stepMinutes ?? DEFAULT_STEP_MINUTES;
  if (!isInt(step) || step < 1 || step > 1440) throw new RangeError('stepMinutes must be a whole number 1-1440');
  if (q.startAfter !== undefined && (!isInt(q.startAfter) || q.startAfter < 0 || q.startAfter > 1440)) {
    throw new RangeError('startAfter must be whole minutes 0-1440');
  }
  if (q.finishBy !== undefined && (!isInt(q.finishBy) || q.finishBy < 0 || q.finishBy > 1440)) {
    throw new RangeError('finishBy must be whole minutes 0-1440');
  }

  const windowsByWeekday: Prepared['windowsByWeekday'] = [[], [], [], [], [], [], []];
  for (const h of q.hours) {
    if (!isInt(h.weekday) || h.weekday < 0 || h.weekday > 6) throw new RangeError(`Bad weekday ${h.weekday}`);
    if (!isInt(h.startMinute) || !isInt(h.endMinute) || h.startMinute < 0 || h.endMinute > 1440) {
      throw new RangeError(`Bad hours window ${h.startMinute}-${h.endMinute}`);
    }
    // An empty or inverted window is simply "closed", not an error.
    if (h.startMinute < h.endMinute) windowsByWeekday[h.weekday]!.push({ start: h.startMinute, end: h.endMinute });
  }

  // Sort and merge once; each candidate is then a binary search.
  const raw = q.busy.filter((b) => {
    if (!Number.isFinite(b.start) || !Number.isFinite(b.end)) throw new RangeError('busy intervals need finite start/end');
    return b.end > b.start; // [s,s) is empty under half-open semantics
  });
  raw.sort((a, b) => a.start - b.start);
  const busy: Busy[] = [];
  for (const b of raw) {
    const last = busy[busy.length - 1];
    if (last && b.start <= last.end) {
      if (b.end > last.end) last.end = b.end;
    } else busy.push({ start: b.start, end: b.end });
  }

  return {
    offset: (ms) => zoneOffset(q.zone, ms),
    windowsByWeekday,
    busy,
    durationMs: Math.round(q.durationMinutes * MINUTE),
    earliest: q.now + notice * MINUTE,
    startAfter: q.startAfter ?? 0,
    finishBy: q.finishBy,
    step,
  };
}

interface Day {
  weekday: number;
  /** All instants at which the local clock reads `minute` on this day (0, 1 or 2, ascending). */
  instants: (minute: number) => number[];
  /** The instant a wall-clock "end time" on this day means (see below). */
  endInstant: (minute: number) => number;
}

/**
 * Conversion helpers for one local day (`day` = days since 1970-01-01).
 * `localMs` below is the local wall time encoded as if it were UTC.
 */
function dayContext(p: Prepared, day: number): Day {
  const midnight = day * DAY;
  const weekday = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  const before = p.offset(midnight - SPAN_BEFORE_MS);
  const after = p.offset(midnight + SPAN_AFTER_MS);

  if (before === after) {
    // Ordinary day: one offset all day, so wall time ↔ instant is a subtraction.
    const shift = before * MINUTE;
    return {
      weekday,
      instants: (minute) => [midnight + minute * MINUTE - shift],
      endInstant: (minute) => midnight + minute * MINUTE - shift,
    };
  }

  // Transition day: a wall time maps to an instant under either offset only
  // if the zone really has that offset at that instant.
  const instants = (minute: number): number[] => {
    const local = midnight + minute * MINUTE;
    const out: number[] = [];
    for (const o of [before, after]) {
      const t = local - o * MINUTE;
      if (p.offset(t) === o && !out.includes(t)) out.push(t);
    }
    return out.sort((a, b) => a - b);
  };
  const endInstant = (minute: number): number => {
    const ts = instants(minute);
    // Repeated wall time (fall-back): the window lasts until the clock reads it
    // for the last time. Missing wall time (spring-forward): the clock jumps
    // past it at the transition instant, so that is when the window closes.
    if (ts.length > 0) return ts[ts.length - 1]!;
    const local = midnight + minute * MINUTE;
    let lo = local - Math.max(before, after) * MINUTE; // still on the old offset
    let hi = local - Math.min(before, after) * MINUTE; // already on the new offset
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / MINUTE / 2) * MINUTE;
      if (p.offset(mid) === before) lo = mid;
      else hi = mid;
    }
    return hi;
  };
  return { weekday, instants, endInstant };
}

/** Is any busy interval overlapping the half-open job [s, e)? */
function overlapsBusy(busy: Busy[], s: number, e: number): boolean {
  // First merged interval that ends after s; it's the only one that can overlap.
  let lo = 0;
  let hi = busy.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (busy[mid]!.end <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo < busy.length && busy[lo]!.start < e;
}

/** Latest allowed job end (instant) for a window on `day`, honoring finishBy. */
function windowLimit(p: Prepared, day: Day, windowEnd: number): number {
  const end = day.endInstant(windowEnd);
  return p.finishBy === undefined ? end : Math.min(end, day.endInstant(p.finishBy));
}

/** All instant-level rules for one candidate start (grid and wall-clock rules are checked by callers). */
function qualifies(p: Prepared, start: number, limit: number): boolean {
  const end = start + p.durationMs;
  return start >= p.earliest && end <= limit && !overlapsBusy(p.busy, start, end);
}

/** First grid minute ≥ startAfter for a window starting at `wStart`. */
function firstGridMinute(p: Prepared, wStart: number): number {
  if (p.startAfter <= wStart) return wStart;
  return wStart + Math.ceil((p.startAfter - wStart) / p.step) * p.step;
}

export function openStarts(q: SlotQuery): number[] {
  const p = prepare(q);
  if (!isInt(q.days) || q.days < 0 || q.days > MAX_SCAN_DAYS) {
    throw new RangeError(`days must be a whole number 0-${MAX_SCAN_DAYS}`);
  }
  const limit = q.limit ?? Infinity;
  if (limit !== Infinity && (!isInt(limit) || limit < 0)) throw new RangeError('limit must be a whole number >= 0');

  let firstDay: number;
  if (q.date !== undefined) {
    const d = dateToDayNumber(q.date);
    if (d === null) throw new RangeError(`date must be YYYY-MM-DD, got ${JSON.stringify(q.date)}`);
    firstDay = d;
  } else {
    firstDay = Math.floor((q.now + p.offset(q.now) * MINUTE) / DAY);
  }

  const out: number[] = [];
  for (let day = firstDay; day < firstDay + q.days && out.length < limit; day++) {
    const weekday = (((day + 4) % 7) + 7) % 7;
    const windows = p.windowsByWeekday[weekday]!;
    if (windows.length === 0) continue; // closed: skip without any zone look-ups
    const ctx = dayContext(p, day);
    const found: number[] = [];
    for (const w of windows) {
      const lim = windowLimit(p, ctx, w.end);
      // Cheap whole-window rejections (already past, or nothing can fit).
      if (lim < p.earliest + p.durationMs) continue;
      for (let m = firstGridMinute(p, w.start); m < w.end; m += p.step) {
        for (const t of ctx.instants(m)) if (qualifies(p, t, lim)) found.push(t);
      }
    }
    // A day's instants all precede the next day's, so sorting per day keeps the
    // whole list ascending; dedupe handles overlapping hour entries and the
    // interleaving of repeated fall-back times.
    found.sort((a, b) => a - b);
    for (let i = 0; i < found.length && out.length < limit; i++) {
      if (i === 0 || found[i] !== found[i - 1]) out.push(found[i]!);
    }
  }
  return out;
}

export function isOpenStart(q: Omit<SlotQuery, 'days' | 'date' | 'limit'>, start: number): boolean {
  const p = prepare(q);
  if (!isInt(start)) return false;
  const local = start + p.offset(start) * MINUTE;
  if (local % MINUTE !== 0) return false; // starts are whole wall-clock minutes
  const day = Math.floor(local / DAY);
  const minute = (local - day * DAY) / MINUTE;
  const weekday = (((day + 4) % 7) + 7) % 7;
  const windows = p.windowsByWeekday[weekday]!;
  if (windows.length === 0) return false;
  const ctx = dayContext(p, day);
  if (!ctx.instants(minute).includes(start)) return false; // defensive: same mapping as openStarts
  for (const w of windows) {
    if (minute < w.start || minute >= w.end) continue;
    if ((minute - w.start) % p.step !== 0 || minute < p.startAfter) continue;
    if (qualifies(p, start, windowLimit(p, ctx, w.end))) return true;
  }
  return false;
}
