/**
 * The part find_cleaners and find_service_call share: given priced businesses and a job
 * length, the page of those with open starts, ranked as asked, computing open starts for as few
 * businesses as the ranking needs.
 */
import type { SearchSnapshot, SnapshotBusiness } from './snapshot.js';
import { openStarts } from '../availability/slots.js';
import { querySpan, slotQuery, type TimeFilters } from '../availability/schedule.js';
import { rank, type Candidate } from './rank.js';

/** Results per page. */
export const PAGE_SIZE = 20;

export interface Priced<Q> extends Candidate {
  business: SnapshotBusiness;
  quote: Q;
  minutes: number;
}

export interface SearchPage<Q> {
  shown: { business: SnapshotBusiness; quote: Q; starts: number[] }[];
  nextPage: number | null;
}

/** First-start bounds look this far ahead, whatever a search's own days (a bound for more days bounds fewer). */
const BOUND_DAYS = 14;

/** Job-length classes for first-start bounds: whole hours, so a class serves many jobs. */
const classOf = (minutes: number) => Math.max(30, Math.floor(minutes / 60) * 60);

export async function rankedPage<Q>(
  snapshot: SearchSnapshot,
  priced: Priced<Q>[],
  opts: { now: number; filters: TimeFilters; days: number; startsShown: number; sort: 'price' | 'soonest'; page: number },
): Promise<SearchPage<Q>> {
  const { now, filters, days } = opts;
  const span = querySpan(now, filters.date, Math.max(days, BOUND_DAYS));
  await snapshot.ensureBusy(priced.map((p) => p.business.id), span.from, span.to);
  const startsOf = (p: Priced<Q>, minutes: number, f: TimeFilters, scanDays: number, limit: number) =>
    openStarts(slotQuery(p.business, snapshot.busyFor(p.business.id, span.from, span.to), minutes, now, f, scanDays, limit));
  // A bound from today's window is no bound for a search that starts on a later date.
  const bound = filters.date
    ? undefined
    : (p: Priced<Q>) => {
        const minutes = classOf(p.minutes);
        return snapshot.firstStartBound(p.business.id, minutes, () => startsOf(p, minutes, {}, BOUND_DAYS, 1)[0] ?? Number.POSITIVE_INFINITY);
      };
  // One more than the page, to tell whether another page follows.
  const wanted = opts.page * PAGE_SIZE + 1;
  const ranked = rank(priced, opts.sort, wanted, (p) => startsOf(p, p.minutes, filters, days, opts.startsShown), bound);
  const shown = ranked.slice((opts.page - 1) * PAGE_SIZE, opts.page * PAGE_SIZE);
  return {
    shown: shown.map((r) => ({ business: r.candidate.business, quote: r.candidate.quote, starts: r.starts })),
    nextPage: ranked.length === wanted ? opts.page + 1 : null,
  };
}
