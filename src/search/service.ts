import type { z } from 'zod';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import { pricer } from '../pricing/quote.js';
import { isoWithOffset, readDate } from '../core/time.js';
import { zipsOfCity, type ShownLink } from './catalog.js';
import { rankedPage } from './ranked-search.js';
import { areaZone, whyNobodyServes, whyNoStarts, type Variant } from './nearest.js';
import { SERIES_DAYS, wholeSeriesFree } from '../availability/schedule.js';
import type { SlotQuery } from '../core/slots.js';
import type { findCleanersInput } from './inputs.js';

const SEARCH_DAYS = 14;
const STARTS_SHOWN = 6;

export interface CleanerResult {
  proId: string;
  name: string;
  price: number;
  durationMinutes: number;
  starts: string[];
  links: ShownLink[];
  jobsConfirmedDone: number;
  textsCustomers: boolean;
  /** A city search's: the city's ZIPs this pro serves (a booking's address must be in one). */
  zips: string[] | null;
}

/** The ZIPs a search covers; the input schemas require zip or city (registry requireOneOf). */
export function searchZips(input: { zip?: string; city?: string }): string[] {
  if (input.zip) return [input.zip];
  if (input.city) return zipsOfCity(input.city);
  throw invalid('Pass zip (5 digits) or city (e.g. "Austin TX").');
}

/** For a city search, the searched ZIPs a business serves (sorted); null for a ZIP search, which it serves. */
export function servedOf(input: { zip?: string }, zips: string[], business: { zips: ReadonlySet<string> }): string[] | null {
  return input.zip ? null : zips.filter((z) => business.zips.has(z)).sort();
}

export async function findCleanersService(input: z.output<typeof findCleanersInput>, ctx: Context) {
  const zips = searchZips(input);
  const now = ctx.clock.now();
  const zone = areaZone(input);
  const asked = readDate(input.date, zone, now);
  const filters = { ...input, date: asked.date };
  const job = { bedrooms: input.bedrooms, bathrooms: input.bathrooms, clean_type: input.clean_type, sqft: input.sqft, add_ons: input.add_ons, pets: input.pets };
  const maxCents = input.max_price === undefined ? undefined : Math.round(input.max_price * 100);
  const frequency = input.frequency;
  const search = (v: Variant, page: number, size?: number) =>
    rankedPage(
      ctx.search,
      {
        kind: 'cleaning',
        zips,
        jobKey: JSON.stringify([job.bedrooms, job.bathrooms, job.clean_type, job.sqft ?? null, [...job.add_ons].sort(), job.pets, v.maxCents ?? null]),
        price: (businesses) => {
          const priceAt = pricer(job);
          return businesses.flatMap((business) => {
            const quote = priceAt(business);
            if (!quote.ok || (v.maxCents !== undefined && quote.total_cents > v.maxCents)) return [];
            return [{ id: business.slug, price: quote.total_cents, business, quote, minutes: quote.duration_minutes }];
          });
        },
        // A recurring series is offered only from first starts whose every visit is free, as
        // available_times and book_cleaning require.
        ...(frequency === 'once'
          ? {}
          : { accept: { reachDays: SERIES_DAYS, test: (_: unknown, q: SlotQuery) => (first: number) => wholeSeriesFree(q, first, frequency) } }),
      },
      { now, filters: v.filters, days: v.days, startsShown: STARTS_SHOWN, sort: v.sort, page, size },
    );
  const { shown, nextPage, serving } = await search({ maxCents, filters, days: SEARCH_DAYS, sort: input.sort }, input.page);
  let why: string | null = null;
  if (shown.length === 0) {
    if (serving === 0) why = await whyNobodyServes(ctx, 'cleaning', input, 'cleaner');
    else if (input.page > 1) why = 'No more results: this page is past the last one.';
    else {
      why = await whyNoStarts(
        async (v) => {
          const [best] = (await search(v, 1, 1)).shown;
          return best ? { slug: best.business.slug, name: best.business.name, priceCents: best.quote.total_cents, start: best.starts[0]!, zone: best.business.timeZone } : null;
        },
        { maxCents, filters, days: SEARCH_DAYS, zone: zone ?? 'UTC', now, what: 'cleaner', priceWord: 'total' },
      );
    }
  }
  return {
    cleaners: shown.map(
      ({ business, quote, starts }): CleanerResult => ({
        proId: business.slug,
        name: business.name,
        price: quote.total_cents / 100,
        durationMinutes: quote.duration_minutes,
        starts: starts.map((s) => isoWithOffset(s, business.timeZone)),
        links: business.links,
        jobsConfirmedDone: business.jobsConfirmedDone,
        textsCustomers: business.textsCustomers,
        zips: servedOf(input, zips, business),
      }),
    ),
    nextPage,
    note: [asked.note, why].filter(Boolean).join(' ') || null,
  };
}
