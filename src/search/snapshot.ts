/**
 * What searches and bookings read on every call — businesses (hours, links, ZIPs, prices) and
 * each business's busy time — held in memory per business and loaded lazily: a ZIP's businesses
 * of one kind when that ZIP is first searched, a business's busy time when a search first needs it.
 *
 * Freshness, per business:
 * - this process's own writes patch memory when their transaction commits (`afterCommit`), so
 *   the next read sees them with no query;
 * - other processes' commits arrive as PostgreSQL notices naming the business (triggers in the
 *   change_payloads migration); that business alone is reloaded in the background while
 *   searches go on reading the last good version;
 * - when notices may have been missed (the listening connection dropped), every entry is marked
 *   stale and reloaded lazily, the next time a search touches it.
 * A reload that raced a patch is discarded and run again, so a patch is never lost. Bookings do
 * not rely on any of this for safety: the exclusion constraint has the last word.
 */
import { Prisma } from '../generated/prisma/client.js';
import type { SqlQuery } from '../db/sql.js';
import type { BusinessKind } from '../generated/prisma/enums.js';
import type { Busy } from '../core/slots.js';
import { holds, type HeldBusy } from '../availability/schedule.js';
import { DAY } from '../core/time.js';
import { onCommit, type AnyTx, type Tx } from '../db/transaction.js';
import { catalogRows, type CatalogBusiness, type CatalogRow } from './catalog.js';
import { AppError } from '../errors.js';

export const CHANGE_CHANNEL = 'porchlight_changes';

/** Busy time is loaded for this span around now; searches and bookings reach ~80 days ahead. */
const BUSY_BEFORE = 2 * DAY;
const BUSY_AFTER = 100 * DAY;

export type Scope = 'catalog' | 'schedule';

/** A business as searches see it: the catalog row and the ZIPs it serves. */
export type SnapshotBusiness = CatalogBusiness & { zips: ReadonlySet<string> };

/** Busy time with what it belongs to (a booking's id or a block's id), so it can be patched. */
export interface BusyEntry extends HeldBusy {
  ref: string;
}

/**
 * A change this process made to one business's busy time, applied once its transaction commits:
 * visits or a block added; a booking's visits (or a block) removed, or only those starting after
 * an instant (a cancellation keeps a visit under way); a booking's hold ended by its confirmation.
 */
export type BusyPatch = { add: BusyEntry[] } | { remove: string; after?: number } | { confirm: string };

interface BusyState {
  from: number;
  to: number;
  entries: BusyEntry[];
  stale: boolean;
  reloading?: Promise<void>;
}

/** Lower bounds on a business's first open start, by job-length class (see `firstStartBound`). */
interface Bound {
  at: number;
  value: number;
}

const key = (kind: BusinessKind, zip: string) => `${kind}:${zip}`;

/** Lists this long or longer keep what ensureBusy found for them (shorter ones cost less to check). */
const ENSURED_MIN = 16;

/** Search memos kept at once (see `memo`). */
const MEMO_LIMIT = 512;

export class SearchSnapshot {
  private businesses = new Map<string, SnapshotBusiness>();
  private idBySlug = new Map<string, string>();
  private staleCatalog = new Set<string>();
  /** (kind, ZIP) pairs loaded completely, and the businesses serving each. */
  private served = new Map<string, Set<string>>();
  private servedLoading = new Map<string, Promise<void>>();
  private catalogLoading = new Map<string, Promise<void>>();
  private staleServed = new Set<string>();
  private busy = new Map<string, BusyState>();
  /**
   * Bumped whenever a business's busy state is replaced, dropped or marked stale (not by this
   * process's own patches, which edit entries in place): while it stays put, what ensureBusy
   * found for a list of businesses still holds (`ensured`).
   */
  private busyEpoch = 0;
  /** Per list of businesses (a search's memoised ids): the span all of their busy states covered. */
  private ensured = new WeakMap<string[], { epoch: number; from: number; to: number }>();
  private busyLoading = new Map<string, Promise<void>>();
  private bounds = new Map<string, Map<number, Bound>>();
  /**
   * Changes seen per business and scope (patches, commits, notices), loaded or not: a read that
   * started before a change is discarded when it arrives after it, and read again.
   */
  private versions = new Map<string, number>();
  /**
   * Per (kind, ZIP): how often what its searches see changed — its businesses and their catalog
   * rows (`catalog`), or their first-start bounds (`bounds`). Memos of searches hold while these
   * stay put, so a search costs its page, not the number of businesses serving the ZIP.
   */
  private zipVersions = { catalog: new Map<string, number>(), bounds: new Map<string, number>() };
  private memos = new Map<string, { version: string; value: unknown }>();

  /** Told of every change to a business this snapshot hears of (other copies of it follow). */
  onBusinessChanged: (businessId: string) => void = () => {};

  constructor(
    private readonly query: SqlQuery,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  // ---------------------------------------------------------------------------------------
  // Reading

  /** Loads the businesses of one kind serving these ZIPs (once), and refreshes stale ones in the background. */
  async ensureServed(kind: BusinessKind, zips: string[]): Promise<void> {
    const missing = zips.filter((zip) => !this.served.has(key(kind, zip)));
    if (missing.length) await this.loadServed(kind, missing);
    const stale = zips.filter((zip) => this.staleServed.has(key(kind, zip)));
    if (stale.length) void this.loadServed(kind, stale).catch(this.onError);
  }

  /** Businesses of one kind serving any of these ZIPs, ordered by slug (after ensureServed). */
  servedBy(kind: BusinessKind, zips: string[]): SnapshotBusiness[] {
    const found = new Map<string, SnapshotBusiness>();
    for (const zip of zips) {
      for (const id of this.served.get(key(kind, zip)) ?? []) {
        const business = this.fresh(id);
        if (business) found.set(id, business);
      }
    }
    return [...found.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  }

  /** ensureServed, then servedBy. */
  async businessesServing(kind: BusinessKind, zips: string[]): Promise<SnapshotBusiness[]> {
    await this.ensureServed(kind, zips);
    return this.servedBy(kind, zips);
  }

  /**
   * What a search worked out from the businesses serving these ZIPs, kept under `memoKey` until
   * one of them changes: their catalog rows (`catalog`), or also their first-start bounds
   * (`bounds`); `valid` may retire it earlier. Busy time alone never retires a memo.
   */
  memo<T>(memoKey: string, kind: BusinessKind, zips: string[], depends: 'catalog' | 'bounds', compute: () => T, valid?: (value: T) => boolean): T {
    const version = () => {
      let v = zips.map((zip) => this.zipVersions.catalog.get(key(kind, zip)) ?? 0).join(',');
      if (depends === 'bounds') v += `/${zips.map((zip) => this.zipVersions.bounds.get(key(kind, zip)) ?? 0).join(',')}`;
      return v;
    };
    const kept = this.memos.get(memoKey);
    if (kept && kept.version === version() && (!valid || valid(kept.value as T))) return kept.value as T;
    const value = compute();
    this.memos.delete(memoKey);
    this.memos.set(memoKey, { version: version(), value });
    // The oldest memo leaves first; a search's inputs rarely repeat beyond a few hundred shapes.
    if (this.memos.size > MEMO_LIMIT) this.memos.delete(this.memos.keys().next().value!);
    return value;
  }

  /** One business by its slug (pro_id), or null when there is none. */
  async business(slug: string): Promise<SnapshotBusiness | null> {
    let id = this.idBySlug.get(slug);
    if (id === undefined) {
      const [row] = await catalogRows(this.query, Prisma.sql`b.slug = ${slug}`);
      if (!row) return null;
      id = this.store(row).id;
    }
    return this.fresh(id) ?? null;
  }

  /**
   * Makes sure busy time of these businesses covering [from, to) is in memory: businesses seen
   * for the first time are loaded together (one read); stale ones are reloaded in the background.
   */
  async ensureBusy(businessIds: string[], from: number, to: number): Promise<void> {
    // A search's list of a ZIP's businesses is checked whole once, not on every search (the cost
    // would follow the businesses serving the ZIP, not the page).
    const kept = this.ensured.get(businessIds);
    if (kept && kept.epoch === this.busyEpoch && from >= kept.from && to <= kept.to) return;
    const missing = businessIds.filter((id) => {
      const state = this.busy.get(id);
      return !state || from < state.from || to > state.to;
    });
    if (missing.length) await this.loadBusy(missing, this.now());
    let whole = true;
    let coverFrom = Number.NEGATIVE_INFINITY;
    let coverTo = Number.POSITIVE_INFINITY;
    for (const id of businessIds) {
      const state = this.busy.get(id);
      if (state?.stale) void this.reloadBusy(id);
      if (!state || state.stale) whole = false;
      else {
        coverFrom = Math.max(coverFrom, state.from);
        coverTo = Math.min(coverTo, state.to);
      }
    }
    if (whole && businessIds.length >= ENSURED_MIN) this.ensured.set(businessIds, { epoch: this.busyEpoch, from: coverFrom, to: coverTo });
  }

  /** Busy time of one business overlapping [from, to) that holds now (after ensureBusy). */
  busyFor(businessId: string, from: number, to: number): Busy[] {
    const now = this.now();
    return (this.busy.get(businessId)?.entries ?? []).filter((b) => b.start < to && b.end > from && holds(b, now));
  }

  /** ensureBusy, then busyFor each business. */
  async busyOf(businessIds: string[], from: number, to: number): Promise<Map<string, Busy[]>> {
    await this.ensureBusy(businessIds, from, to);
    return new Map(businessIds.map((id) => [id, this.busyFor(id, from, to)]));
  }

  /**
   * A lower bound on the first open start of a job of `durationMinutes` at this business, by
   * job-length class: a start that fits a longer job fits every shorter one, so the first start
   * of the class's shortest job is never later. `compute` works it out when none is kept.
   * Busy time only ever added keeps a bound valid; anything released or re-read drops it.
   */
  firstStartBound(businessId: string, classMinutes: number, compute: () => number): number {
    let byClass = this.bounds.get(businessId);
    if (!byClass) this.bounds.set(businessId, (byClass = new Map()));
    const now = this.now();
    const kept = byClass.get(classMinutes);
    // "No start" holds only for the window it was computed in; the window moves with the clock.
    if (kept && (Number.isFinite(kept.value) || now - kept.at < 60_000)) return kept.value;
    const value = compute();
    byClass.set(classMinutes, { at: now, value });
    this.touch('bounds', businessId);
    return value;
  }

  // ---------------------------------------------------------------------------------------
  // Writing

  /** Applies a change to a business's busy time once `tx` commits (this process's own writes). */
  patchAfterCommit(tx: AnyTx, businessId: string, patch: BusyPatch): void {
    onCommit(tx, () => this.patch(businessId, patch));
  }

  /** Re-reads a business once `tx` commits, before the operation answers (rarer owner writes). */
  reloadAfterCommit(tx: Tx, scope: Scope, businessId: string): void {
    onCommit(tx, async () => {
      this.bump(scope, businessId);
      this.onBusinessChanged(businessId);
      if (scope === 'catalog') await this.readCatalog(businessId);
      else if (this.busy.has(businessId)) await this.readBusy([businessId], this.now());
    });
  }

  patch(businessId: string, patch: BusyPatch): void {
    this.bump('schedule', businessId);
    this.onBusinessChanged(businessId);
    const state = this.busy.get(businessId);
    if (!state) return;
    if ('add' in patch) state.entries = [...state.entries, ...patch.add];
    else if ('remove' in patch) {
      const after = patch.after ?? Number.NEGATIVE_INFINITY;
      state.entries = state.entries.filter((b) => b.ref !== patch.remove || b.start <= after);
      this.dropBounds(businessId);
    } else state.entries = state.entries.map((b) => (b.ref === patch.confirm ? { start: b.start, end: b.end, ref: b.ref } : b));
  }

  /** A notice from the database: another process committed a change to this business. */
  changed(scope: Scope, businessId: string): void {
    this.bump(scope, businessId);
    this.onBusinessChanged(businessId);
    if (scope === 'catalog') {
      if (this.businesses.has(businessId) || this.isServedSomewhere(businessId)) void this.reloadCatalog(businessId).catch(this.onError);
      else void this.loadNewBusiness(businessId).catch(this.onError);
    } else if (this.busy.has(businessId)) void this.reloadBusy(businessId);
  }

  /** Notices may have been missed: everything loaded is reloaded the next time it is read. */
  reset(): void {
    for (const id of this.businesses.keys()) this.staleCatalog.add(id);
    for (const k of this.served.keys()) this.staleServed.add(k);
    for (const [id, state] of this.busy) {
      state.stale = true;
      this.bump('schedule', id);
    }
    this.busyEpoch++;
    this.bounds.clear();
    this.memos.clear();
  }

  /** Forgets everything (tests that write around the services). */
  clear(): void {
    this.businesses.clear();
    this.idBySlug.clear();
    this.staleCatalog.clear();
    this.served.clear();
    this.staleServed.clear();
    this.busy.clear();
    this.busyEpoch++;
    this.bounds.clear();
    this.memos.clear();
    for (const k of this.versions.keys()) this.versions.set(k, (this.versions.get(k) ?? 0) + 1);
  }

  private version = (scope: Scope, id: string) => this.versions.get(`${scope}:${id}`) ?? 0;

  /** Marks what searches of this business's ZIPs see as changed. */
  private touch(what: 'catalog' | 'bounds', id: string, business = this.businesses.get(id)) {
    if (!business) return;
    const versions = this.zipVersions[what];
    for (const zip of business.zips) {
      const k = key(business.kind, zip);
      versions.set(k, (versions.get(k) ?? 0) + 1);
    }
  }

  private dropBounds(id: string) {
    if (this.bounds.delete(id)) this.touch('bounds', id);
  }
  private bump(scope: Scope, id: string) {
    this.versions.set(`${scope}:${id}`, this.version(scope, id) + 1);
  }

  // ---------------------------------------------------------------------------------------
  // Loading

  /** The business as last loaded; a stale one is reloaded in the background meanwhile. */
  private fresh(id: string): SnapshotBusiness | undefined {
    if (this.staleCatalog.has(id)) void this.reloadCatalog(id).catch(this.onError);
    return this.businesses.get(id);
  }

  private isServedSomewhere(id: string): boolean {
    for (const ids of this.served.values()) if (ids.has(id)) return true;
    return false;
  }

  private store(row: CatalogRow): SnapshotBusiness {
    const { zips, ...catalog } = row;
    const previous = this.businesses.get(row.id);
    const business: SnapshotBusiness = { ...catalog, zips: new Set(zips) };
    this.touch('catalog', row.id, previous);
    this.touch('catalog', row.id, business);
    this.businesses.set(row.id, business);
    this.idBySlug.set(row.slug, row.id);
    if (previous && previous.slug !== row.slug) this.idBySlug.delete(previous.slug);
    // Keep every loaded (kind, ZIP) list exact: leave the ZIPs it left, join the ZIPs it serves.
    for (const [k, ids] of this.served) {
      const [kind, zip] = k.split(':') as [BusinessKind, string];
      if (kind === business.kind && business.zips.has(zip)) ids.add(row.id);
      else ids.delete(row.id);
    }
    this.staleCatalog.delete(row.id);
    this.dropBounds(row.id);
    return business;
  }

  private forget(id: string): void {
    const business = this.businesses.get(id);
    if (business) this.idBySlug.delete(business.slug);
    this.touch('catalog', id);
    this.businesses.delete(id);
    for (const ids of this.served.values()) ids.delete(id);
    this.busy.delete(id);
    this.busyEpoch++;
    this.bounds.delete(id);
    this.staleCatalog.delete(id);
  }

  private loadServed(kind: BusinessKind, zips: string[]): Promise<void> {
    const pending = zips.map((zip) => this.servedLoading.get(key(kind, zip))).filter((p): p is Promise<void> => p !== undefined);
    const todo = zips.filter((zip) => !this.servedLoading.has(key(kind, zip)));
    if (todo.length) {
      const loading = (async () => {
        const rows = await catalogRows(
          this.query,
          Prisma.sql`b.kind = ${kind}::"BusinessKind" AND EXISTS (SELECT 1 FROM "ServiceZip" z WHERE z."businessId" = b.id AND z.zip = ANY(${todo}::text[]))`,
        );
        for (const zip of todo) {
          this.served.set(key(kind, zip), new Set());
          this.staleServed.delete(key(kind, zip));
          this.zipVersions.catalog.set(key(kind, zip), (this.zipVersions.catalog.get(key(kind, zip)) ?? 0) + 1);
        }
        for (const row of rows) this.store(row);
      })().finally(() => {
        for (const zip of todo) this.servedLoading.delete(key(kind, zip));
      });
      for (const zip of todo) this.servedLoading.set(key(kind, zip), loading);
      pending.push(loading);
    }
    return Promise.all(pending).then(() => undefined);
  }

  private async loadNewBusiness(id: string): Promise<void> {
    const [row] = await catalogRows(this.query, Prisma.sql`b.id = ${id}`);
    if (row && row.zips.some((zip) => this.served.has(key(row.kind, zip)))) this.store(row);
  }

  /** Background reload of one business; concurrent calls share one read. */
  private reloadCatalog(id: string): Promise<void> {
    let loading = this.catalogLoading.get(id);
    if (!loading) {
      loading = this.readCatalog(id).finally(() => this.catalogLoading.delete(id));
      this.catalogLoading.set(id, loading);
    }
    return loading;
  }

  /** Reads one business and stores it, unless it changed again meanwhile (then reads again). */
  private async readCatalog(id: string): Promise<void> {
    for (;;) {
      const version = this.version('catalog', id);
      const [row] = await catalogRows(this.query, Prisma.sql`b.id = ${id}`);
      if (version !== this.version('catalog', id)) continue;
      if (row) this.store(row);
      else this.forget(id);
      return;
    }
  }

  private async loadBusy(ids: string[], now: number): Promise<void> {
    const waiting = ids.map((id) => this.busyLoading.get(id)).filter((p): p is Promise<void> => p !== undefined);
    const todo = ids.filter((id) => !this.busyLoading.has(id));
    if (todo.length) {
      const loading = this.readBusy(todo, now).finally(() => {
        for (const id of todo) this.busyLoading.delete(id);
      });
      for (const id of todo) this.busyLoading.set(id, loading);
      waiting.push(loading);
    }
    await Promise.all(waiting);
  }

  /** Reads busy time of these businesses and stores it, unless a patch landed meanwhile. */
  private async readBusy(ids: string[], now: number): Promise<void> {
    const from = now - BUSY_BEFORE;
    const to = now + BUSY_AFTER;
    const versions = new Map(ids.map((id) => [id, this.version('schedule', id)]));
    // Visits and blocks in one statement: a visit's ref is its booking, a block's its own id.
    const rows = await this.query<{ businessId: string; ref: string; start: Date; end: Date; holdUntil: Date | null }>(Prisma.sql`
      SELECT v."businessId", v."bookingId" AS ref, v.start, v."end", v."holdUntil" FROM "BookingVisit" v
        WHERE v."businessId" = ANY(${ids}::text[]) AND v.active AND v.start < ${new Date(to)} AND v."end" > ${new Date(from)}
      UNION ALL
      SELECT k."businessId", k.id, k.start, k."end", NULL FROM "Block" k
        WHERE k."businessId" = ANY(${ids}::text[]) AND k.start < ${new Date(to)} AND k."end" > ${new Date(from)}`);
    const entries = new Map<string, BusyEntry[]>(ids.map((id) => [id, []]));
    for (const r of rows) {
      entries.get(r.businessId)!.push({ ref: r.ref, start: r.start.getTime(), end: r.end.getTime(), ...(r.holdUntil ? { holdUntil: r.holdUntil.getTime() } : {}) });
    }
    const changed: string[] = [];
    for (const id of ids) {
      if (this.version('schedule', id) !== versions.get(id)) changed.push(id);
      else {
        this.busy.set(id, { from, to, entries: entries.get(id)!, stale: false });
        this.busyEpoch++;
        this.dropBounds(id);
      }
    }
    // A change landed while reading: what was read may predate it. Read those again.
    if (changed.length) await this.readBusy(changed, now);
  }

  /** Background reload of one business's busy time; concurrent calls share one read. */
  private reloadBusy(id: string): Promise<void> {
    const state = this.busy.get(id);
    if (state?.reloading) return state.reloading;
    const reloading = this.readBusy([id], this.now())
      .catch(this.onError)
      .finally(() => {
        const current = this.busy.get(id);
        if (current) current.reloading = undefined;
      });
    if (state) state.reloading = reloading;
    return reloading;
  }
}

/** A cleaner or pro by its pro_id, as searches see it (the snapshot); a 400 when there is none of these kinds. */
export async function businessBySlug(snapshot: SearchSnapshot, slug: string, kinds: BusinessKind[]) {
  const business = await snapshot.business(slug);
  if (!business || !kinds.includes(business.kind)) {
    throw new AppError('not_found', `No ${kinds.includes('cleaning') ? 'cleaner' : 'pro'} has pro_id "${slug}". Use a pro_id from find_cleaners or find_service_call, or find the business with find_businesses.`);
  }
  return business;
}
