/**
 * What the pages show people: instants in the business's zone in words ("Tue, Nov 25, 4:12 PM
 * CST"), money as "$180.00", and kinds and statuses as words, never enum names or ISO strings.
 * Pure: Intl only (the platform's tz database, so DST days come out right).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string, withYear: boolean): Intl.DateTimeFormat {
  const key = `${zone}|${withYear}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      ...(withYear ? { year: 'numeric' } : {}),
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    });
    if (formatters.size > 200) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

const toMs = (at: number | Date | string): number => (typeof at === 'number' ? at : typeof at === 'string' ? Date.parse(at) : at.getTime());

/**
 * An instant as a person reads it in `zone`: "Tue, Nov 25, 4:12 PM CST". The year is added
 * when it differs from the year of `now` (when given) in that zone: "Mon, Jan 4, 2027, 9:00 AM CST".
 * Throws a RangeError for an unreadable instant or an unknown zone, so nothing shows "Invalid Date".
 */
export function whenForPeople(at: number | Date | string, zone: string, now?: number): string {
  const ms = toMs(at);
  if (!Number.isFinite(ms)) throw new RangeError(`Not an instant: ${String(at)}`);
  const withYear = now !== undefined && !sameYear(ms, now, zone);
  // Intl writes "Tue, Nov 25, 4:12 PM CST" (with a narrow no-break space before PM in newer ICU).
  return formatter(zone, withYear).format(ms).replace(/[\u202F\u00A0]/g, ' ').replace(/ at /, ', ');
}

const partFormatters = new Map<string, Intl.DateTimeFormat>();
function partFormatter(zone: string, part: 'clock' | 'clockZone' | 'day' | 'dayYear' | 'date' | 'year'): Intl.DateTimeFormat {
  const key = `${zone}|${part}`;
  let f = partFormatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions = {
      clock: { hour: 'numeric', minute: '2-digit' },
      clockZone: { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' },
      day: { weekday: 'short', month: 'short', day: 'numeric' },
      dayYear: { weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' },
      date: { year: 'numeric', month: '2-digit', day: '2-digit' },
      year: { year: 'numeric' },
    }[part] as Intl.DateTimeFormatOptions;
    f = new Intl.DateTimeFormat(part === 'date' ? 'en-CA' : 'en-US', { timeZone: zone, ...options });
    if (partFormatters.size > 200) partFormatters.clear();
    partFormatters.set(key, f);
  }
  return f;
}

/** Whether two instants fall in the same year in `zone`. */
const sameYear = (a: number, b: number, zone: string) => partFormatter(zone, 'year').format(a) === partFormatter(zone, 'year').format(b);

function instant(at: number | Date | string): number {
  const ms = toMs(at);
  if (!Number.isFinite(ms)) throw new RangeError(`Not an instant: ${String(at)}`);
  return ms;
}

/** The business-local day of an instant, as a heading: "Tue, Nov 25" (with the year when it differs from `now`'s). */
export function dayForPeople(at: number | Date | string, zone: string, now?: number): string {
  const ms = instant(at);
  const withYear = now !== undefined && !sameYear(ms, now, zone);
  return partFormatter(zone, withYear ? 'dayYear' : 'day').format(ms);
}

/** The business-local clock time of an instant: "4:12 PM CST" (without the zone, for lists grouped by day: "4:12 PM"). */
export function clockForPeople(at: number | Date | string, zone: string, withZone = true): string {
  return partFormatter(zone, withZone ? 'clockZone' : 'clock').format(instant(at)).replace(/[\u202F\u00A0]/g, ' ');
}

/** The local date of an instant in `zone`, for grouping (not shown): "2026-11-25". */
export const localDateOf = (at: number | Date | string, zone: string): string => partFormatter(zone, 'date').format(instant(at));

/** Text that quotes instants as ISO 8601 (an event's sentence, a system message) with each one in words in `zone`. */
export function instantsInWords(text: string, zone: string, now?: number): string {
  return text.replace(/\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)/g, (iso) => {
    const ms = Date.parse(iso);
    return Number.isFinite(ms) ? whenForPeople(ms, zone, now) : iso;
  });
}

/** Dollars (the interface's numbers, e.g. 180 or 54.5) as "$180.00"; thousands get commas. */
export function dollarsForPeople(amount: number): string {
  if (!Number.isFinite(amount)) throw new RangeError(`Not an amount: ${amount}`);
  const cents = Math.round(amount * 100);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** Cents as "$180.00". */
export const centsForPeople = (cents: number) => dollarsForPeople(cents / 100);

const WORDS: Record<string, string> = {
  // Statuses
  pending: 'waiting for your confirmation',
  confirmed: 'confirmed',
  cancelled: 'cancelled',
  done: 'done',
  no_show: 'marked as a no-show',
  lapsed: 'lapsed (never confirmed; the time was released)',
  awaiting_payment: 'waiting for payment',
  requested: 'requested',
  declined: 'declined',
  expired: 'expired',
  open: 'open',
  complete: 'paid',
  active: 'active',
  // Kinds and frequencies
  cleaning: 'cleaning',
  service_call: 'service call',
  plumbing: 'plumbing',
  hvac: 'heating and cooling',
  once: 'one visit',
  weekly: 'every week',
  biweekly: 'every two weeks',
  monthly: 'every month',
  turnover_series: 'turnover cleanings',
  move_out: 'move-out',
  move_in: 'move-in',
  deep: 'deep',
  standard: 'standard',
  // Service-call issues
  no_cool: 'not cooling',
  no_heat: 'not heating',
  no_water: 'no water',
  water_heater: 'water heater',
  fixture: 'faucet or fixture',
  thermostat: 'thermostat',
  noise: 'strange noise',
  // Add-ons of a cleaning
  fridge: 'inside the fridge',
  oven: 'inside the oven',
  windows: 'inside windows',
  cabinets: 'inside cabinets',
  laundry: 'laundry',
  restock: 'restocking supplies',
};

/**
 * An enum value (a status, a kind, a frequency) as words: the known ones as a person would say
 * them, anything else with its underscores as spaces ("no_show" never reaches a page).
 */
export function wordsFor(value: string | null | undefined): string {
  if (!value) return '';
  return WORDS[value] ?? value.replace(/_/g, ' ');
}
