/**
 * The owner's schedule pages, kept per business and window length, so the owner's most frequent
 * read costs one statement (the credential's, which reads the business's schedule revision
 * beside it: auth/keys.ts) and no page to read, parse or build while nothing changed.
 *
 * A page is served only when all of this holds, so it is exactly what a fresh read would show:
 * - the revision the request's credential read is the page's. Database triggers bump it at the
 *   commit of every transaction that writes what the page shows (migration schedule_revision),
 *   whichever instance, script or connection wrote it; the page and its revision were read in
 *   one statement, so they belong together;
 * - the clock is within [builtAt, until): `until` is the first instant at which the page could
 *   change with no write (a hold ending, an entry entering the window or ending, a notification
 *   ageing out: schedule.ts);
 * - the notifications were complete when it was read (no finished transaction's event held back
 *   behind one still running, which would appear with no write: notifications.ts).
 * Pages are per process: instances keep their own, each checked against the shared revision.
 * Writes that fire no row triggers (TRUNCATE, session_replication_role = replica) bump nothing:
 * after such maintenance on a live database, restart the instances.
 */
import type { NotificationMarks } from './notifications.js';
import { WeightedLru } from '../core/weighted-lru.js';

export interface CachedSchedule<P> {
  revision: string;
  builtAt: number;
  until: number;
  page: P;
  /** What showing the page marks read, done again on each answer from it (notifications.ts). */
  marks: NotificationMarks;
  /** Entries, blocks and notifications held: the cache is bounded by their sum. */
  weight: number;
}

/**
 * Pages, and items they hold (about half a kilobyte each), a process keeps at most: some 25 MB.
 * The least recently used go first.
 */
const MAX_PAGES = 2_000;
const MAX_WEIGHT = 50_000;

export class ScheduleCache<P> {
  private readonly pages = new WeightedLru<CachedSchedule<P>>(MAX_PAGES, MAX_WEIGHT);

  private static key(businessId: string, days: number) {
    return `${days}:${businessId}`;
  }

  /** The page for this business and window length if it is current at `revision` and `now`. */
  get(businessId: string, days: number, revision: string, now: number): CachedSchedule<P> | undefined {
    const kept = this.pages.get(ScheduleCache.key(businessId, days));
    if (!kept || kept.revision !== revision || now < kept.builtAt || now >= kept.until) return undefined;
    return kept;
  }

  set(businessId: string, days: number, page: CachedSchedule<P>): void {
    this.pages.set(ScheduleCache.key(businessId, days), page, page.weight);
  }

  get size() {
    return this.pages.size;
  }
}

const caches = new WeakMap<object, ScheduleCache<unknown>>();

/** The cache of one Porchlight instance (`owner`: its Prisma client), so instances in one process never share pages. */
export function scheduleCacheOf<P>(owner: object): ScheduleCache<P> {
  let cache = caches.get(owner);
  if (!cache) {
    cache = new ScheduleCache<unknown>();
    caches.set(owner, cache);
  }
  return cache as ScheduleCache<P>;
}

/** Freezes a page deeply: every answer shares it, so nothing may change it. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
