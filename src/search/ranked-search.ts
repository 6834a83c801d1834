/**
 * The part find_cleaners and find_service_call share: given the businesses serving a search's
 * ZIPs, priced for its job, the page of those with open starts, ranked as asked, computing open
 * starts for as few businesses as the ranking needs. The priced list and its order by first-start
 * bounds are kept (snapshot memos) while the businesses and bounds behind them stay put, so a
 * search's cost follows its page, not the number of businesses serving the ZIP.
 */
import type { BusinessKind } from '../generated/prisma/enums.js';
import type { SearchSnapshot, SnapshotBusiness } from './snapshot.js';
import { openStarts, type SlotQuery } from '../core/slots.js';
import { querySpan, slotQuery, type TimeFilters } from '../availability/schedule.js';
import { DAY } from '../core/time.js';
import { orderByLowerKey, rankOrdered, type Candidate, type Placed } from './rank.js';

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
  /** How many businesses of the kind serve the ZIPs (priced or not). */
  serving: number;
}

/** What a search ranks: the businesses serving its ZIPs, priced for its job. */
export interface SearchList<Q> {
  kind: BusinessKind;
  zips: string[];
  /** Names the job and every filter `price` applies (e.g. max_price): equal keys, equal lists. */
  jobKey: string;
  price: (businesses: SnapshotBusiness[]) => Priced<Q>[];
  /**
   * Keeps only some open starts (a recurring series: those whose whole series is free); busy
   * time is then loaded up to `reachDays` from now too (a series ends within its horizon). Bounds
   * stay valid: fewer starts never make a first start earlier.
   */
  accept?: { reachDays: number; test: (business: SnapshotBusiness, q: SlotQuery) => (start: number) => boolean };
}

/** First-start bounds look this far ahead, whatever a search's own days (a bound for more days bounds fewer). */
const BOUND_DAYS = 14;
/** "No start" bounds hold for the window they were worked out in; the window moves with the clock. */
const NO_START_RECHECK_MS = 60_000;

/** Job-length classes for first-start bounds: whole hours, so a class serves many jobs. */
const classOf = (minutes: number) => Math.max(30, Math.floor(minutes / 60) * 60);

export async function rankedPage<Q>(
  snapshot: SearchSnapshot,
  list: SearchList<Q>,
  opts: { now: number; filters: TimeFilters; days: number; startsShown: number; sort: 'price' | 'soonest'; page: number; size?: number },
): Promise<SearchPage<Q>> {
  const size = opts.size ?? PAGE_SIZE;
  const { now, filters, days } = opts;
  const { kind, zips } = list;
  await snapshot.ensureServed(kind, zips);
  const where = `${kind}|${zips.join(',')}|${list.jobKey}`;
  const { priced, ids, serving } = snapshot.memo(`priced|${where}`, kind, zips, 'catalog', () => {
    const businesses = snapshot.servedBy(kind, zips);
    const priced = list.price(businesses);
    return { priced, ids: priced.map((p) => p.business.id), serving: businesses.length };
  });
  const searched = querySpan(now, filters.date, Math.max(days, BOUND_DAYS));
  const span = { from: searched.from, to: Math.max(searched.to, now + (list.accept?.reachDays ?? 0) * DAY) };
  await snapshot.ensureBusy(ids, span.from, span.to);
  const startsOf = (p: Priced<Q>, minutes: number, f: TimeFilters, scanDays: number, limit: number) =>
    openStarts(slotQuery(p.business, snapshot.busyFor(p.business.id, span.from, span.to), minutes, now, f, scanDays, limit));
  // What a result shows: its first open starts, or with `accept` the first ones it keeps.
  const shownStarts = (p: Priced<Q>) => {
    if (!list.accept) return startsOf(p, p.minutes, filters, days, opts.startsShown);
    const q = slotQuery(p.business, snapshot.busyFor(p.business.id, span.from, span.to), p.minutes, now, filters, days);
    const keep = list.accept.test(p.business, q);
    const kept: number[] = [];
    for (const start of openStarts(q)) {
      if (keep(start)) kept.push(start);
      if (kept.length === opts.startsShown) break;
    }
    return kept;
  };
  // A bound on the first start from now; a search from a later date starts no earlier, but a
  // business with no start in the bound's window may still have some after it.
  const bound = (p: Priced<Q>) => {
    const minutes = classOf(p.minutes);
    const first = snapshot.firstStartBound(p.business.id, minutes, () => startsOf(p, minutes, {}, BOUND_DAYS, 1)[0] ?? Number.POSITIVE_INFINITY);
    return filters.date && first === Number.POSITIVE_INFINITY ? Number.NEGATIVE_INFINITY : first;
  };
  const ordered = snapshot.memo(
    `ordered|${where}|${opts.sort}|${filters.date ? 'date' : 'now'}`,
    kind,
    zips,
    'bounds',
    (): { at: number; left: boolean; placed: Placed<Priced<Q>>[] } => {
      const placed = orderByLowerKey(priced, opts.sort, bound);
      return { at: now, left: placed.length < priced.length, placed };
    },
    (kept) => !kept.left || now - kept.at < NO_START_RECHECK_MS,
  );
  // One more than the page, to tell whether another page follows.
  const wanted = opts.page * size + 1;
  const ranked = rankOrdered(ordered.placed, opts.sort, wanted, shownStarts);
  const shown = ranked.slice((opts.page - 1) * size, opts.page * size);
  return {
    shown: shown.map((r) => ({ business: r.candidate.business, quote: r.candidate.quote, starts: r.starts })),
    nextPage: ranked.length === wanted ? opts.page + 1 : null,
    serving,
  };
}
