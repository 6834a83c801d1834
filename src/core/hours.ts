/**
 * Weekly hours as owners read and write them: one line per weekday, local "HH:MM-HH:MM" or
 * "closed" (contract: the same shape everywhere). Times of day run 00:00-23:59 (spec), so a day
 * that ends at midnight is written "…-23:59": that end means the whole last minute, minute 1440.
 * Stored as rows of weekday and minutes after local midnight.
 */
import { z } from 'zod';
import { formatHHMM } from './time.js';

export const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];
export type HoursMap = Record<WeekdayName, string>;

export interface DayWindow {
  weekday: number;
  startMinute: number;
  /** Exclusive; 1440 is midnight at the end of the day. */
  endMinute: number;
}

/** An end minute as written: midnight at the end of the day reads "23:59". */
export const formatEnd = (minute: number) => (minute === 1440 ? '23:59' : formatHHMM(minute));

/** One window as written: "09:00-17:00", "18:00-23:59". */
export const formatWindow = (w: Pick<DayWindow, 'startMinute' | 'endMinute'>) => `${formatHHMM(w.startMinute)}-${formatEnd(w.endMinute)}`;

/** Stored rows → {monday: "08:00-17:00", …, sunday: "closed"}; several windows of a day as "09:00-12:00, 13:00-17:00". */
export function hoursMap(rows: readonly DayWindow[]): HoursMap {
  const out = {} as HoursMap;
  WEEKDAY_NAMES.forEach((day, weekday) => {
    const windows = rows.filter((r) => r.weekday === weekday).sort((a, b) => a.startMinute - b.startMinute);
    out[day] = windows.length ? windows.map(formatWindow).join(', ') : 'closed';
  });
  return out;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

function parseTime(value: string, whole: string): number {
  if (value === '24:00') throw new RangeError(`24:00 is not a time of day (times run 00:00-23:59): write a day that ends at midnight as "…-23:59", e.g. "18:00-23:59", not ${JSON.stringify(whole)}.`);
  const m = TIME.exec(value);
  if (!m) throw new RangeError(`Expected "HH:MM-HH:MM" (00:00-23:59, e.g. "08:00-17:00") or "closed", got ${JSON.stringify(whole)}.`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** One "HH:MM-HH:MM" window → minutes; an end of 23:59 is midnight (1440). Throws a RangeError saying what to write. */
function parseWindow(value: string): { startMinute: number; endMinute: number } {
  const parts = value.split('-');
  if (parts.length !== 2) throw new RangeError(`Expected "HH:MM-HH:MM" (e.g. "08:00-17:00") or "closed", got ${JSON.stringify(value)}.`);
  const startMinute = parseTime(parts[0]!, value);
  const end = parseTime(parts[1]!, value);
  const endMinute = end === 1439 ? 1440 : end;
  if (endMinute <= startMinute) throw new RangeError(`${JSON.stringify(value)} ends before it starts; the end must be after the start (to midnight: "…-23:59").`);
  return { startMinute, endMinute };
}

/** "HH:MM-HH:MM" (an end of 23:59 is midnight, 1440) → minutes, or null for "closed". Throws a RangeError saying what to write. */
export function parseDayHours(value: string): { startMinute: number; endMinute: number } | null {
  if (value === 'closed') return null;
  return parseWindow(value);
}

/**
 * A day with one window or several: "closed" → [], "09:00-12:00,13:00-17:00" → two windows,
 * in order, none overlapping another.
 */
export function parseDayWindows(value: string): { startMinute: number; endMinute: number }[] {
  if (value === 'closed') return [];
  const windows = value.split(/,\s*/).map(parseWindow);
  windows.sort((a, b) => a.startMinute - b.startMinute);
  for (let i = 1; i < windows.length; i++) {
    if (windows[i]!.startMinute < windows[i - 1]!.endMinute) {
      throw new RangeError(`${JSON.stringify(value)} has windows that overlap; send them as one window.`);
    }
  }
  return windows;
}

/** Hours by weekday name, with the days left out. */
export type DaysHours = Partial<Record<WeekdayName, string>>;

/**
 * The week after applying days by name to `current`: a day sent replaces that day's windows
 * ("closed" empties it), a day left out keeps its own — set_hours's rule.
 */
export function applyDays(current: readonly DayWindow[], days: DaysHours): DayWindow[] {
  const out: DayWindow[] = [];
  WEEKDAY_NAMES.forEach((name, weekday) => {
    const value = days[name];
    if (value === undefined) out.push(...current.filter((w) => w.weekday === weekday));
    else out.push(...parseDayWindows(value).map((w) => ({ weekday, ...w })));
  });
  return out.sort((a, b) => a.weekday - b.weekday || a.startMinute - b.startMinute);
}

/** Hours in the minute form (weekday 0 = Sunday, minutes after local midnight, end up to 1440). */
export interface MinuteWindow {
  weekday: number;
  start_minute: number;
  end_minute: number;
}

/** Either form of an hours input (minute windows, or days by name applied to `current`) in the minute form. */
export function minuteWindows(input: readonly MinuteWindow[] | DaysHours, current: readonly DayWindow[]): MinuteWindow[] {
  if (Array.isArray(input)) return [...input];
  return applyDays(current, input as DaysHours).map((w) => ({ weekday: w.weekday, start_minute: w.startMinute, end_minute: w.endMinute }));
}

/** The windows inside both weekly calendars, per weekday (local minutes). */
export function intersectHours(a: readonly DayWindow[], b: readonly DayWindow[]): DayWindow[] {
  const out: DayWindow[] = [];
  for (const x of a) {
    for (const y of b) {
      if (x.weekday !== y.weekday) continue;
      const startMinute = Math.max(x.startMinute, y.startMinute);
      const endMinute = Math.min(x.endMinute, y.endMinute);
      if (startMinute < endMinute) out.push({ weekday: x.weekday, startMinute, endMinute });
    }
  }
  return out.sort((p, q) => p.weekday - q.weekday || p.startMinute - q.startMinute);
}

/** The parts of `windows` outside `opening`, per weekday (so an owner sees what opening hours cut off). */
export function outsideHours(windows: readonly DayWindow[], opening: readonly DayWindow[]): DayWindow[] {
  const out: DayWindow[] = [];
  for (const w of windows) {
    const open = opening.filter((o) => o.weekday === w.weekday && o.endMinute > w.startMinute && o.startMinute < w.endMinute).sort((a, b) => a.startMinute - b.startMinute);
    let from = w.startMinute;
    for (const o of open) {
      if (o.startMinute > from) out.push({ weekday: w.weekday, startMinute: from, endMinute: o.startMinute });
      from = Math.max(from, o.endMinute);
    }
    if (from < w.endMinute) out.push({ weekday: w.weekday, startMinute: from, endMinute: w.endMinute });
  }
  return out.sort((p, q) => p.weekday - q.weekday || p.startMinute - q.startMinute);
}

/** outsideHours as owners read it: [{day: "saturday", hours: "16:00-18:00"}]. */
export const outsideView = (windows: readonly DayWindow[], opening: readonly DayWindow[]) =>
  outsideHours(windows, opening).map((w) => ({ day: WEEKDAY_NAMES[w.weekday]!, hours: formatWindow(w) }));

/** zod's check of a day's text, with the parser's own message (a 24:00 says to write "…-23:59"). */
const dayText = (day: WeekdayName, parse: (v: string) => unknown) =>
  z.string().superRefine((v, ctx) => {
    try {
      parse(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `${day} must be "closed" or local hours "HH:MM-HH:MM": ${(err as Error).message}` });
    }
  });

/** A day's hours as set_hours takes them, with a message naming the day. */
export const dayHours = (day: WeekdayName) =>
  dayText(day, parseDayHours)
    .max(20, `${day} must be "closed" or local hours "HH:MM-HH:MM".`)
    .describe('HH:MM-HH:MM or closed.');

/**
 * Hours by weekday name where a day may have several windows: {monday: "09:00-12:00,13:00-17:00", sunday: "closed"}.
 * The field using it describes the days once (their format and what a day left out means).
 */
export const daysInput = () =>
  z.object(
    Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, dayText(d, parseDayWindows).optional()])) as Record<WeekdayName, z.ZodOptional<z.ZodString>>,
  ).strict();
