/**
 * Cleaning price engine: price list (business data) + job (customer input)
 * → firm quote in integer cents plus an estimated duration.
 *
 * Money is integer cents throughout. The two fractional inputs (half
 * bathrooms and the clean-type multiplier) are handled by working in half
 * cents and basis points, then rounding once, so the result never depends on
 * floating-point luck.
 */
import { z } from 'zod';

export const CLEAN_TYPES = ['standard', 'deep', 'move_out', 'turnover'] as const;
export type CleanType = (typeof CLEAN_TYPES)[number];

export const ADD_ONS = ['fridge', 'oven', 'windows', 'cabinets', 'laundry', 'restock'] as const;
export type AddOn = (typeof ADD_ONS)[number];

const CLEAN_TYPE_LABEL: Record<CleanType, string> = {
  standard: 'Standard clean',
  deep: 'Deep clean',
  move_out: 'Move-out clean',
  turnover: 'Turnover clean',
};
const ADD_ON_LABEL: Record<AddOn, string> = {
  fridge: 'Inside the fridge',
  oven: 'Inside the oven',
  windows: 'Interior windows',
  cabinets: 'Inside cabinets',
  laundry: 'Laundry',
  restock: 'Restocking supplies',
};

// Generous caps keep every intermediate product far below 2^53.
const cents = z.number().int().min(0).max(10_000_000);
const minutes = z.number().int().min(0).max(10_000);
// Multipliers are honored to 4 decimal places (basis points).
const multiplier = z.number().positive().max(10);

export const cleaningPriceListSchema = z.strictObject({
  base_cents: cents,
  per_bedroom_cents: cents,
  per_bathroom_cents: cents,
  clean_type_multiplier: z.strictObject({
    standard: multiplier.optional(),
    deep: multiplier.optional(),
    move_out: multiplier.optional(),
    turnover: multiplier.optional(),
  }),
  included_sqft: z.number().int().min(0).max(100_000),
  per_extra_100_sqft_cents: cents,
  add_ons: z.partialRecord(z.enum(ADD_ONS), z.strictObject({ cents, minutes })),
  pets_cents: cents,
  minimum_cents: cents,
  duration: z.strictObject({
    base_minutes: minutes,
    per_bedroom_minutes: minutes,
    per_bathroom_minutes: minutes,
    per_extra_100_sqft_minutes: minutes,
    pets_minutes: minutes,
  }),
});
export type CleaningPriceList = z.infer<typeof cleaningPriceListSchema>;

export const MAX_BEDROOMS = 50;
export const MAX_BATHROOMS = 50;
export const MAX_SQFT = 100_000;

export const cleaningJobSchema = z.object({
  bedrooms: z.number().int().min(0).max(MAX_BEDROOMS),
  bathrooms: z
    .number()
    .min(0)
    .max(MAX_BATHROOMS)
    .refine((n) => Number.isInteger(n * 2), 'Bathrooms must be a whole or half number (e.g. 2 or 2.5)'),
  clean_type: z.enum(CLEAN_TYPES),
  sqft: z.number().min(0).max(MAX_SQFT).optional(),
  add_ons: z.array(z.string()).max(20),
  pets: z.boolean(),
});
export type CleaningJob = z.infer<typeof cleaningJobSchema>;

export interface QuoteLine {
  label: string;
  cents: number;
}
export type CleaningQuote =
  | { ok: true; total_cents: number; duration_minutes: number; lines: QuoteLine[] }
  | { ok: false; reason: string };

const DURATION_STEP = 30;
const MIN_DURATION = 60;

/** a*b/d rounded half up, for non-negative integers. */
function mulDivRound(a: number, b: number, d: number): number {
  return Math.floor((a * b + Math.floor(d / 2)) / d);
}

/** Started 100 sq ft blocks above the allowance for `bedrooms` bedrooms. */
function extraBlocks(list: CleaningPriceList, bedrooms: number, sqft: number | undefined): number {
  if (sqft === undefined) return 0;
  const included = Math.max(1, bedrooms) * list.included_sqft;
  return Math.max(0, Math.ceil((sqft - included) / 100));
}

/**
 * Bedroom-dependent part: bedrooms*perBedroom + sqft surcharge. Each bedroom
 * also raises the sqft allowance, so when a bedroom costs less than the
 * surcharge it waives, a same-size home with MORE bedrooms would get cheaper.
 * Taking the max over "this many bedrooms or fewer" keeps prices (and
 * durations) non-decreasing in bedrooms; it changes nothing for price lists
 * where a bedroom costs at least its sqft allowance.
 */
function bedroomPart(bedrooms: number, perBedroom: number, perBlock: number, blocksFor: (b: number) => number): number {
  let best = 0;
  for (let b = 0; b <= bedrooms; b++) best = Math.max(best, b * perBedroom + blocksFor(b) * perBlock);
  return best;
}

function listOfOffered<T extends string>(keys: readonly T[], has: (k: T) => boolean, label: (k: T) => string): string {
  const offered = keys.filter(has).map(label);
  return offered.length > 0 ? offered.join(', ') : 'none';
}

function fmtNumber(n: number): string {
  return n.toLocaleString('en-US');
}

/** A job checked against the engine's own bounds, or why it cannot be priced anywhere. */
export type CheckedJob = { ok: true; job: CleaningJob } | { ok: false; reason: string };

export function checkJob(job: CleaningJob): CheckedJob {
  const parsed = cleaningJobSchema.safeParse(job);
  if (parsed.success) return { ok: true, job: parsed.data };
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return { ok: false, reason: `The job details aren't valid (${where}${issue.message}).` };
}

export function quoteCleaning(list: CleaningPriceList, job: CleaningJob): CleaningQuote {
  const checked = checkJob(job);
  return checked.ok ? quoteCheckedJob(list, checked.job) : checked;
}

/** quoteCleaning for a job already checked: a search prices one job at many businesses. */
export function quoteCheckedJob(list: CleaningPriceList, job: CleaningJob): CleaningQuote {
  const { bedrooms, bathrooms, clean_type, sqft, pets } = job;

  const mult = list.clean_type_multiplier[clean_type];
  if (mult === undefined) {
    const offered = listOfOffered(CLEAN_TYPES, (t) => list.clean_type_multiplier[t] !== undefined, (t) => CLEAN_TYPE_LABEL[t].toLowerCase());
    return {
      ok: false,
      reason: `This business doesn't offer a ${CLEAN_TYPE_LABEL[clean_type].toLowerCase()}. Please choose one they offer: ${offered}.`,
    };
  }

  // Dedupe, then price add-ons in a fixed order so equal jobs give identical quotes.
  const requested = new Set(job.add_ons);
  for (const a of requested) {
    if (!(ADD_ONS as readonly string[]).includes(a)) {
      return { ok: false, reason: `"${a}" isn't an add-on we know. Choose from: ${ADD_ONS.join(', ')}.` };
    }
    if (list.add_ons[a as AddOn] === undefined) {
      const offered = listOfOffered(ADD_ONS, (k) => list.add_ons[k] !== undefined, (k) => k);
      return {
        ok: false,
        reason: `This business doesn't offer the "${a}" add-on (${ADD_ON_LABEL[a as AddOn].toLowerCase()}). Remove it to get a quote; add-ons offered: ${offered}.`,
      };
    }
  }
  const addOns = ADD_ONS.filter((k) => requested.has(k));

  const bp = Math.round(mult * 10_000); // multiplier in basis points
  // Bathrooms beyond the first, counted in halves (a half bath costs half).
  const halfBaths = Math.max(0, Math.round(bathrooms * 2) - 2);
  const blocksFor = (b: number) => extraBlocks(list, b, sqft);

  // ---- price (in half cents until the single rounding step) ----
  const roomsHalf = 2 * list.base_cents + 2 * bedrooms * list.per_bedroom_cents + halfBaths * list.per_bathroom_cents;
  const bedAndSqft = bedroomPart(bedrooms, list.per_bedroom_cents, list.per_extra_100_sqft_cents, blocksFor);
  const sqftHalf = 2 * (bedAndSqft - bedrooms * list.per_bedroom_cents);
  const cleaningCents = mulDivRound(roomsHalf + sqftHalf, bp, 20_000);
  const sqftCents = mulDivRound(sqftHalf, bp, 20_000);

  const lines: QuoteLine[] = [];
  lines.push({
    label: `${CLEAN_TYPE_LABEL[clean_type]}: ${bedrooms} bedroom${bedrooms === 1 ? '' : 's'}, ${bathrooms} bathroom${bathrooms === 1 ? '' : 's'}`,
    cents: cleaningCents - sqftCents, // so the two lines add up to the rounded product exactly
  });
  if (sqftCents > 0) {
    lines.push({
      label: `Extra square footage (${fmtNumber(sqft!)} sq ft; ${fmtNumber(Math.max(1, bedrooms) * list.included_sqft)} included)`,
      cents: sqftCents,
    });
  }
  for (const a of addOns) lines.push({ label: `Add-on: ${ADD_ON_LABEL[a]}`, cents: list.add_ons[a]!.cents });
  if (pets) lines.push({ label: 'Pets in the home', cents: list.pets_cents });

  const sum = lines.reduce((s, l) => s + l.cents, 0);
  // Whole dollars: nearest dollar for the computed price, but never below the
  // minimum (a minimum with cents is rounded up, not down).
  const rounded = Math.floor((sum + 50) / 100) * 100;
  const minimum = Math.ceil(list.minimum_cents / 100) * 100;
  const total = Math.max(rounded, minimum);
  if (total !== sum) {
    lines.push({ label: minimum > rounded ? 'Minimum charge adjustment' : 'Rounded to whole dollars', cents: total - sum });
  }

  // ---- duration (in half minutes × basis points until rounding) ----
  const d = list.duration;
  const roomMinHalf =
    2 * d.base_minutes +
    2 * bedroomPart(bedrooms, d.per_bedroom_minutes, d.per_extra_100_sqft_minutes, blocksFor) +
    halfBaths * d.per_bathroom_minutes;
  const extraMin = addOns.reduce((s, a) => s + list.add_ons[a]!.minutes, 0) + (pets ? d.pets_minutes : 0);
  // Exact ceil((roomMinHalf*bp/20000 + extraMin) / 30) * 30 in integers.
  const num = roomMinHalf * bp + extraMin * 20_000;
  const den = 20_000 * DURATION_STEP;
  const duration = Math.max(MIN_DURATION, Math.ceil(num / den) * DURATION_STEP);

  return { ok: true, total_cents: total, duration_minutes: duration, lines };
}
