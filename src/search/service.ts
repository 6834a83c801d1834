import type { z } from 'zod';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import { pricer } from '../pricing/quote.js';
import { isoWithOffset } from '../core/time.js';
import { zipsOfCity } from './catalog.js';
import { rankedPage } from './ranked-search.js';
import type { findCleanersInput } from './inputs.js';

const SEARCH_DAYS = 14;
const STARTS_SHOWN = 6;

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
  const job = { bedrooms: input.bedrooms, bathrooms: input.bathrooms, clean_type: input.clean_type, sqft: input.sqft, add_ons: input.add_ons, pets: input.pets };
  const maxCents = input.max_price === undefined ? undefined : Math.round(input.max_price * 100);
  const { shown, nextPage, serving } = await rankedPage(
    ctx.search,
    {
      kind: 'cleaning',
      zips,
      jobKey: JSON.stringify([job.bedrooms, job.bathrooms, job.clean_type, job.sqft ?? null, [...job.add_ons].sort(), job.pets, maxCents ?? null]),
      price: (businesses) => {
        const priceAt = pricer(job);
        return businesses.flatMap((business) => {
          const quote = priceAt(business);
          if (!quote.ok || (maxCents !== undefined && quote.total_cents > maxCents)) return [];
          return [{ id: business.slug, price: quote.total_cents, business, quote, minutes: quote.duration_minutes }];
        });
      },
    },
    { now: ctx.clock.now(), filters: input, days: SEARCH_DAYS, startsShown: STARTS_SHOWN, sort: input.sort, page: input.page },
  );
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
    nextPage,
    note:
      shown.length === 0
        ? serving === 0
          ? 'No cleaner on Porchlight serves this area yet.'
          : 'No cleaner has an open start for this job in the next two weeks with these filters; try another date, fewer filters or a higher max_price.'
        : null,
  };
}
