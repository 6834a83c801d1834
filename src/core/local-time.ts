/**
 * Local wall-clock times on a business's calendar day → instants, for blocks. DST days have a
 * missing hour (spring forward) and a repeated one (fall back): a block covers every instant
 * whose local clock reads within its span, so its start is the first instant the clock reads the
 * start time and its end the last instant the clock reads the end time; a time that does not
 * exist that day stands for the moment the clock jumps past it.
 */
import { dateToDayNumber, DAY, HOUR, MINUTE, zoneOffset } from './time.js';

/** The instants (0, 1 or 2, ascending) at which the local clock reads `minute` on `date`. */
function instantsAt(day: number, minute: number, zone: string): number[] {
  const local = day * DAY + minute * MINUTE;
  const offsets = new Set([zoneOffset(zone, local - 36 * HOUR), zoneOffset(zone, local), zoneOffset(zone, local + 36 * HOUR)]);
  const out: number[] = [];
  for (const o of offsets) {
    const t = local - o * MINUTE;
    if (zoneOffset(zone, t) === o && !out.includes(t)) out.push(t);
  }
  return out.sort((a, b) => a - b);
}

/** The instant the clock jumps over a local time that does not exist (spring forward). */
function jumpPast(day: number, minute: number, zone: string): number {
  const local = day * DAY + minute * MINUTE;
  const before = zoneOffset(zone, local - 36 * HOUR);
  const after = zoneOffset(zone, local + 36 * HOUR);
  let lo = local - Math.max(before, after) * MINUTE;
  let hi = local - Math.min(before, after) * MINUTE;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / MINUTE / 2) * MINUTE;
    if (zoneOffset(zone, mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * A local span on one calendar day as instants: [start, end) in minutes after local midnight,
 * `end` up to 1440 (the next midnight). Returns null for a date that is not a real date.
 */
export function localSpan(date: string, startMinute: number, endMinute: number, zone: string): { start: number; end: number } | null {
  const day = dateToDayNumber(date);
  if (day === null) return null;
  const at = (d: number, minute: number, which: 'first' | 'last') => {
    const ts = instantsAt(d, minute, zone);
    if (ts.length === 0) return jumpPast(d, minute, zone);
    return which === 'first' ? ts[0]! : ts.at(-1)!;
  };
  const start = at(day, startMinute, 'first');
  // Midnight ending the day is the next day's first midnight.
  const end = endMinute >= 1440 ? at(day + 1, endMinute - 1440, 'first') : at(day, endMinute, 'last');
  return { start, end };
}

/** Minutes after local midnight of an instant, and its local date. */
export function localParts(instant: number, zone: string): { date: string; minute: number; weekday: number } {
  const local = instant + zoneOffset(zone, instant) * MINUTE;
  const day = Math.floor(local / DAY);
  return {
    date: new Date(day * DAY).toISOString().slice(0, 10),
    minute: Math.round((local - day * DAY) / MINUTE),
    weekday: (((day + 4) % 7) + 7) % 7,
  };
}
