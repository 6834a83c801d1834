/**
 * What an empty search says instead of nothing: why it is empty and the nearest thing it could
 * offer — the cheapest price when max_price left everyone out, the nearest start outside the
 * times asked, the next days with openings, the closest ZIP served. Each alternative is one more
 * ranked search for a single result (or one indexed query), so an empty answer costs a few
 * searches' pages, never a scan of the catalog.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { Context } from '../context.js';
import type { BusinessKind } from '../generated/prisma/enums.js';
import type { TimeFilters } from '../availability/schedule.js';
import { dateToDayNumber, dayNumberToDate, isoWithOffset, localDate } from '../core/time.js';
import { LIVE_CITIES, liveCity } from './catalog.js';
import { zipRecord, zipsNear } from './zips.js';

/** Days after the searched ones looked at for the next start. */
const LATER_DAYS = 14;

/** How far away a served ZIP may be to be named as the closest. */
const NEAR_MILES = 25;

/** "$331" or "$331.50". */
const usd = (cents: number) => (cents % 100 ? `$${(cents / 100).toFixed(2)}` : `$${cents / 100}`);

const liveList = LIVE_CITIES.map((c) => `${c.city} ${c.state}`).join(', ');

/** The time zone of the area a search names (its live city's), or null for an unknown ZIP. */
export function areaZone(input: { zip?: string; city?: string }): string | null {
  if (input.city) return liveCity(input.city).timeZone;
  const state = input.zip ? zipRecord(input.zip)?.state : undefined;
  return LIVE_CITIES.find((c) => c.state === state)?.timeZone ?? null;
}

/** The single best result of a variant of the search, or null. */
export interface Found {
  slug: string;
  name: string;
  priceCents: number;
  start: number;
  zone: string;
}

export interface Variant {
  maxCents: number | undefined;
  filters: TimeFilters;
  days: number;
  sort: 'price' | 'soonest';
}

/**
 * Why a search of businesses that serve the area found nobody. Each of max_price and
 * start_after/finish_by is tried alone (the search without the other): the filters that alone
 * leave nobody are the ones named, with the nearest result without them — the cheapest, the
 * nearest start, or (both to blame) the cheapest without either. Failing that, the days after
 * the searched ones (the next start). `what` names the business ("cleaner", "plumber").
 */
export async function whyNoStarts(
  run: (v: Variant) => Promise<Found | null>,
  asked: { maxCents: number | undefined; filters: TimeFilters; days: number; zone: string; now: number; what: string; priceWord: string },
): Promise<string> {
  const { maxCents, filters, days } = asked;
  const with_ = (f: Found) => `${f.name} (pro_id ${f.slug}, ${usd(f.priceCents)})`;
  const at = (f: Found) => isoWithOffset(f.start, f.zone);
  const timed = Boolean(filters.start_after || filters.finish_by);
  const asking = [filters.start_after && `starting after ${filters.start_after}`, filters.finish_by && `finishing by ${filters.finish_by}`].filter(Boolean).join(' and ');
  const untimed = { date: filters.date };
  if (maxCents !== undefined) {
    // The times asked alone (no max_price).
    const f = await run({ maxCents: undefined, filters, days, sort: 'price' });
    if (f) return `No ${asked.what} with an open start has a ${asked.priceWord} at or under ${usd(maxCents)} for this job; the cheapest is ${with_(f)}, first open start ${at(f)}. Raise max_price to see it.`;
  }
  if (timed) {
    // max_price alone (no times).
    const f = await run({ maxCents, filters: untimed, days, sort: 'soonest' });
    if (f) return `No open start ${asking} in the days searched; the nearest is ${at(f)} with ${with_(f)}. Widen or drop start_after/finish_by to see it.`;
  }
  if (maxCents !== undefined && timed) {
    // Each alone leaves nobody: both are to blame, unless nobody has a start at all.
    const f = await run({ maxCents: undefined, filters: untimed, days, sort: 'price' });
    if (f) {
      return (
        `Both filters leave nobody: no ${asked.what} has a ${asked.priceWord} at or under ${usd(maxCents)} for this job, and none has an open start ${asking} in the days searched. ` +
        `Without them the cheapest is ${with_(f)}, first open start ${at(f)}. Raise max_price and widen or drop start_after/finish_by to see it.`
      );
    }
  }
  const first = filters.date ?? localDate(asked.now, asked.zone);
  const after = dayNumberToDate(dateToDayNumber(first)! + days);
  const last = dayNumberToDate(dateToDayNumber(first)! + days - 1);
  const f = await run({ maxCents, filters: { ...filters, date: after }, days: LATER_DAYS, sort: 'soonest' });
  if (f) return `No ${asked.what} has an open start for this job from ${first} through ${last}; the next is ${at(f)} with ${with_(f)}. Search with date ${localDate(f.start, f.zone)} to see more.`;
  const through = dayNumberToDate(dateToDayNumber(after)! + LATER_DAYS - 1);
  const given = [maxCents !== undefined && 'max_price', filters.start_after && 'start_after', filters.finish_by && 'finish_by'].filter(Boolean).join(', ');
  return `No ${asked.what} has an open start for this job from ${first} through ${through}${given ? ` (with ${given})` : ''}; try a later date${given ? ` or drop ${given}` : ''}.`;
}

/** Why nobody of `kind` serves the ZIPs searched, naming the closest ZIP that is served. */
export async function whyNobodyServes(ctx: Context, kind: BusinessKind, input: { zip?: string; city?: string }, who: string): Promise<string> {
  const near = input.zip ? zipsNear(input.zip, NEAR_MILES).filter((n) => n.zip !== input.zip) : [];
  if (!near.length) return `No ${who} on Porchlight serves ${input.zip ? `ZIP ${input.zip}` : input.city} yet. Live cities: ${liveList}.`;
  // One indexed read (ServiceZip by zip) over the few dozen ZIPs around it.
  const served = await ctx.prisma.$queryRaw<{ zip: string }[]>(Prisma.sql`
    SELECT DISTINCT z.zip FROM "ServiceZip" z JOIN "Business" b ON b.id = z."businessId"
    WHERE z.zip = ANY(${near.map((n) => n.zip)}::text[]) AND b.kind::text = ${kind}`);
  const zips = new Set(served.map((r) => r.zip));
  const closest = near.find((n) => zips.has(n.zip));
  if (!closest) return `No ${who} on Porchlight serves ZIP ${input.zip} or any ZIP within ${NEAR_MILES} miles yet. Live cities: ${liveList}.`;
  return `No ${who} on Porchlight serves ZIP ${input.zip} yet; the closest ZIP served is ${closest.zip} (${closest.miles} miles away). A ${who} books only addresses in ZIPs they serve: search zip ${closest.zip} if the address is there.`;
}
