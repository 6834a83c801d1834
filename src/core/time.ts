/**
 * Small, pure time helpers shared by availability, booking and pricing code.
 *
 * Conventions: instants are epoch milliseconds (number); wall-clock times of
 * day are "minutes after local midnight"; dates are local "YYYY-MM-DD" strings
 * in the business's IANA zone. All zone arithmetic goes through luxon so DST
 * rules come from the platform's tz database rather than hand-written tables.
 */
import { DateTime, IANAZone } from 'luxon';

/** Durations in milliseconds, defined once for the whole code base. */
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** "HH:MM" (00:00-23:59, two digits each) → minutes after midnight. */
export function parseHHMM(s: string): number {
  const m = typeof s === 'string' ? HHMM.exec(s) : null;
  if (!m) throw new RangeError(`Expected a time as HH:MM between 00:00 and 23:59, got ${JSON.stringify(s)}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/**
 * Minutes after midnight → "HH:MM". 1440 is accepted and rendered "24:00"
 * because opening hours may legitimately end at midnight (exclusive end).
 */
export function formatHHMM(min: number): string {
  if (!Number.isInteger(min) || min < 0 || min > 1440) {
    throw new RangeError(`Expected whole minutes 0-1440, got ${min}`);
  }
  const h = Math.floor(min / 60);
  const m = min % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/**
 * True when `zone` is an IANA zone name the runtime knows (e.g. "America/Chicago", "UTC").
 * IANAZone.create caches per name; IANAZone.isValidZone builds an Intl formatter on every call,
 * which cost a search several milliseconds.
 */
export function isValidZone(zone: string): boolean {
  return typeof zone === 'string' && zone.length > 0 && IANAZone.create(zone).isValid;
}

/** Throws a RangeError for unknown zones so a typo never silently becomes UTC. */
export function assertZone(zone: string): void {
  if (!isValidZone(zone)) throw new RangeError(`Unknown time zone ${JSON.stringify(zone)}`);
}

const QUARTER_HOUR_MS = 15 * MINUTE;
const OFFSET_CACHE_LIMIT = 50_000;
const offsetCache = new Map<string, Map<number, number>>();

/**
 * The zone's UTC offset in minutes at an instant. Luxon asks Intl for every call, which made
 * offsets the largest cost of a search; real zones change offset only on quarter-hour
 * instants, so one answer per zone and quarter hour is exact and is kept.
 */
export function zoneOffset(zone: string, instantMs: number): number {
  let byQuarter = offsetCache.get(zone);
  if (!byQuarter) {
    assertZone(zone);
    offsetCache.set(zone, (byQuarter = new Map()));
  }
  const quarter = Math.floor(instantMs / QUARTER_HOUR_MS);
  let offset = byQuarter.get(quarter);
  if (offset === undefined) {
    if (byQuarter.size >= OFFSET_CACHE_LIMIT) byQuarter.clear();
    offset = IANAZone.create(zone).offset(quarter * QUARTER_HOUR_MS);
    byQuarter.set(quarter, offset);
  }
  return offset;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Instant → ISO 8601 local time with a numeric offset, e.g.
 * "2026-12-01T09:00:00-06:00" ("+00:00" for UTC zones, never "Z", so clients always see one
 * shape). Seconds are kept, milliseconds dropped (bookable instants are whole minutes anyway).
 */
export function isoWithOffset(instantMs: number, zone: string): string {
  if (!Number.isFinite(instantMs)) throw new RangeError(`Invalid instant ${instantMs}`);
  // Searches show the same few hundred starts to caller after caller: each is formatted once.
  let byInstant = isoCache.get(zone);
  if (!byInstant) isoCache.set(zone, (byInstant = new Map()));
  const kept = byInstant.get(instantMs);
  if (kept !== undefined) return kept;
  const offset = zoneOffset(zone, instantMs);
  const local = new Date(instantMs + offset * MINUTE);
  if (Number.isNaN(local.getTime())) throw new RangeError(`Invalid instant ${instantMs}`);
  const abs = Math.abs(offset);
  const iso =
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  if (byInstant.size >= ISO_CACHE_LIMIT) byInstant.clear();
  byInstant.set(instantMs, iso);
  return iso;
}

/**
 * The one formatter of timestamps in results (created_at, at, due_at, expires_at, hold_until…):
 * with the business's UTC offset when the instant belongs to one, as starts are shown, and UTC
 * "Z" when it belongs to none. Whole seconds either way.
 */
export function formatInstant(instant: number | Date, zone?: string | null): string {
  const ms = Math.floor((typeof instant === 'number' ? instant : instant.getTime()) / 1000) * 1000;
  if (zone) return isoWithOffset(ms, zone);
  if (!Number.isFinite(ms)) throw new RangeError(`Invalid instant ${ms}`);
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** An instant as iCalendar's UTC DATE-TIME (RFC 5545 section 3.3.5): 20261126T181500Z. */
export function icalUtc(instant: Date): string {
  return formatInstant(instant).replace(/[-:]/g, '');
}

const ISO_CACHE_LIMIT = 20_000;
const isoCache = new Map<string, Map<number, string>>();

// Full date, full time (seconds and fraction optional) and a mandatory offset.
// A timestamp without an offset is ambiguous for a booking, so it's refused;
// offsets beyond ±14:59 don't exist anywhere and are refused too. Years are those the service
// schedules in (2000-2099, as registry/fields.ts's date rule): PostgreSQL cannot store year 0,
// and a start centuries away is never a real appointment.
const ISO_WITH_OFFSET =
  /^(20\d{2})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(0\d|1[0-4]):?([0-5]\d))$/i;

/**
 * ISO 8601 timestamp with an explicit offset or "Z" → epoch ms.
 * Returns null (never throws) for anything else, including impossible
 * calendar values such as month 13 or Feb 30, so callers can map it to a 400.
 * Read by hand, as luxon's fromISO read it (24:00 is the next day's midnight; a fraction is
 * cut to milliseconds): luxon took ~75 µs a start, on every booking.
 */
export function parseStart(s: string): number | null {
  const m = typeof s === 'string' ? ISO_WITH_OFFSET.exec(s) : null;
  if (!m) return null;
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(m[i]));
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const ms = m[7] === undefined ? 0 : Math.floor(parseFloat(`0.${m[7]}`) * 1000);
  if (month! < 1 || month! > 12 || day! < 1 || day! > new Date(Date.UTC(year!, month!, 0)).getUTCDate() || minute! > 59 || second > 59) return null;
  if (hour! > 24 || (hour === 24 && (minute || second || ms))) return null;
  const offset = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  return Date.UTC(year!, month! - 1, day!, hour!, minute!, second, ms) - offset * MINUTE;
}

/** Instant → local calendar date "YYYY-MM-DD" in `zone`. */
export function localDate(instantMs: number, zone: string): string {
  assertZone(zone);
  const dt = DateTime.fromMillis(instantMs, { zone });
  if (!dt.isValid) throw new RangeError(`Invalid instant ${instantMs}`);
  return dt.toFormat('yyyy-MM-dd');
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Strict "YYYY-MM-DD" check that also rejects impossible dates (2026-02-30). */
export function isValidDate(s: string): boolean {
  return dateToDayNumber(s) !== null;
}

/**
 * "YYYY-MM-DD" → days since 1970-01-01 (a zone-free day index), or null.
 * Day numbers let the slot search walk calendar days with plain arithmetic.
 */
export function dateToDayNumber(s: string): number | null {
  const m = typeof s === 'string' ? YMD.exec(s) : null;
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  // Date.UTC rolls Feb 30 over to Mar 2; a round-trip mismatch means "no such day".
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return null;
  // Date.UTC treats years 0-99 as 1900-1999; the round-trip above already catches that.
  return ms / DAY;
}

/** Days since 1970-01-01 → "YYYY-MM-DD". */
export function dayNumberToDate(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

/** A `date` before today (in the given zone) is read as today, with a note saying so. */
export function readDate(date: string | undefined, zone: string | null, now: number): { date: string | undefined; note: string | null } {
  if (!date || !zone) return { date, note: null };
  const today = localDate(now, zone);
  return date < today ? { date: undefined, note: `date ${date} is in the past; read as today, ${today}.` } : { date, note: null };
}
