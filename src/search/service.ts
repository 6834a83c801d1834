import type { z } from 'zod';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import { priceAt } from '../pricing/quote.js';
import { openStarts } from '../availability/slots.js';
import { isoWithOffset } from '../availability/time.js';
import { querySpan, slotQuery } from '../availability/schedule.js';
import { zipsOfCity, type CatalogBusiness } from './catalog.js';
import type { findCleanersInput } from './operations.js';

const SEARCH_DAYS = 14;
const STARTS_SHOWN = 6;
const RESULTS_SHOWN = 20;

export interface CleanerResult {
  proId: string;
  name: string;
  price: number;
  durationMinutes: number;
  starts: string[];
  links: { url: string; label: string; rating: number | null }[];
  jobsConfirmedDone: number;
  textsCustomers: boolean;
}

/** The ZIPs a search covers; the input schemas require zip or city (registry requireOneOf). */
export function searchZips(input: { zip?: string; city?: string }): string[] {
  if (input.zip) return [input.zip];
  if (input.city) return zipsOfCity(input.city);
  throw invalid('Pass zip (5 digits) or city (e.g. "Austin TX").');
}

export async function findCleanersService(input: z.output<typeof findCleanersInput>, ctx: Context) {
  const zips = searchZips(input);
  const now = ctx.clock.now();
  const businesses = await ctx.search.businessesServing('cleaning', zips);
  const job = { bedrooms: input.bedrooms, bathrooms: input.bathrooms, clean_type: input.clean_type, sqft: input.sqft, add_ons: input.add_ons, pets: input.pets };

  const priced = businesses.flatMap((b) => {
    const quote = priceAt(b, job);
    if (!quote.ok) return [];
    if (input.max_price !== undefined && quote.total_cents > Math.round(input.max_price * 100)) return [];
    return [{ business: b, quote }];
  });
  const span = querySpan(now, input.date, SEARCH_DAYS);
  const busy = await ctx.search.busyByBusiness(priced.map((p) => p.business.id), span.from, span.to);

  const cleaners = priced.map(({ business, quote }) => {
    const starts = openStarts(slotQuery(business, busy.get(business.id) ?? [], quote.duration_minutes, now, input, SEARCH_DAYS, STARTS_SHOWN));
    return { business, quote, starts, first: starts[0] ?? Number.POSITIVE_INFINITY, price: quote.total_cents };
  });
  cleaners.sort((a, b) =>
    input.sort === 'price'
      ? a.price - b.price || a.first - b.first || a.business.slug.localeCompare(b.business.slug)
      : a.first - b.first || a.price - b.price || a.business.slug.localeCompare(b.business.slug),
  );
  // Only the shown cleaners' starts are formatted.
  const shown = cleaners.filter((c) => c.starts.length > 0).slice(0, RESULTS_SHOWN);
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
      }),
    ),
    note:
      shown.length === 0
        ? businesses.length === 0
          ? 'No cleaner on Porchlight serves this area yet.'
          : 'No cleaner has an open start for this job in the next two weeks with these filters; try another date, fewer filters or a higher max_price.'
        : null,
  };
}
