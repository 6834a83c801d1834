/**
 * Weekly hours as owners read and write them: one line per weekday, local "HH:MM-HH:MM" or
 * "closed" (contract: the same shape everywhere). Stored as WeeklyHours rows, one per open day.
 */
import { z } from 'zod';
import { formatHHMM } from './time.js';

export const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];
export type HoursMap = Record<WeekdayName, string>;

export interface DayWindow {
  weekday: number;
  startMinute: number;
  endMinute: number;
}

/** Stored rows → {monday: "08:00-17:00", …, sunday: "closed"}. */
export function hoursMap(rows: readonly DayWindow[]): HoursMap {
  const out = Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, 'closed'])) as HoursMap;
  for (const r of rows) out[WEEKDAY_NAMES[r.weekday]!] = `${formatHHMM(r.startMinute)}-${formatHHMM(r.endMinute)}`;
  return out;
}

const RANGE = /^([01]\d|2[0-3]):([0-5]\d)-(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;

/** "HH:MM-HH:MM" (the end may be 24:00) → minutes, or null for "closed". Throws on anything else. */
export function parseDayHours(value: string): { startMinute: number; endMinute: number } | null {
  if (value === 'closed') return null;
  const m = RANGE.exec(value);
  if (!m) throw new RangeError(`Expected "HH:MM-HH:MM" or "closed", got ${JSON.stringify(value)}`);
  const startMinute = Number(m[1]) * 60 + Number(m[2]);
  const endMinute = Number(m[3] ?? m[5]) * 60 + Number(m[4] ?? m[6]);
  if (endMinute <= startMinute) throw new RangeError('The end must be after the start');
  return { startMinute, endMinute };
}

/** A day's hours as set_hours takes them, with a message naming the day. */
export const dayHours = (day: WeekdayName) =>
  z
    .string()
    .refine((v) => {
      try {
        parseDayHours(v);
        return true;
      } catch {
        return false;
      }
    }, `${day} must be "closed" or local hours "HH:MM-HH:MM" with the end after the start, e.g. "08:00-17:00" (the end may be 24:00).`)
    .describe(`${day[0]!.toUpperCase()}${day.slice(1)}: local "HH:MM-HH:MM" (e.g. "08:00-17:00") or "closed". Omit to leave it unchanged.`);
