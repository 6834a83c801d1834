/**
 * What searches read on every call — the catalog (businesses with hours, links and ZIPs) and
 * each business's busy time — held in memory and dropped when it changes, so a search costs
 * no database round trip in the common case.
 *
 * Freshness: this process's own writes drop the data as their statements run (Database
 * onWrite); other processes' writes drop it when they commit (PostgreSQL NOTIFY from the
 * triggers in the change_notifications migration). A generation counter keeps a load that was
 * already under way when something changed from storing what it read. Bookings never rely on
 * this: they re-read inside their transaction and the exclusion constraint has the last word.
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import type { BusinessKind } from '../generated/prisma/enums.js';
import type { Busy } from '../availability/slots.js';
import { busyByBusiness, holds, type HeldBusy } from '../availability/schedule.js';
import { catalogSelect, type CatalogBusiness } from './catalog.js';
import { DAY } from '../availability/time.js';

const CATALOG_TABLES = new Set(['Business', 'WeeklyHours', 'ServiceZip', 'BusinessLink']);
const SCHEDULE_TABLES = new Set(['BookingVisit', 'Block']);
export const CHANGE_CHANNELS = { catalog: 'porchlight_catalog', schedule: 'porchlight_schedule' } as const;

/** Busy time is loaded for this span around now; searches reach at most ~80 days ahead. */
const BUSY_BEFORE = 2 * DAY;
const BUSY_AFTER = 120 * DAY;
/** A safety net: even without any notification, nothing is served older than this. */
const MAX_AGE_MS = 60_000;

interface Catalog {
  byZip: Map<string, CatalogBusiness[]>;
}

interface BusyTable {
  from: number;
  to: number;
  byBusiness: Map<string, HeldBusy[]>;
}

interface Entry<T> {
  value: Promise<T>;
  loadedAt: number;
}

export class SearchSnapshot {
  private catalogs = new Map<BusinessKind, Entry<Catalog>>();
  private busy?: Entry<BusyTable>;
  private catalogGeneration = 0;
  private busyGeneration = 0;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => number,
  ) {}

  /** A write to `table` happened (here, or committed elsewhere). */
  changed(table: string): void {
    if (CATALOG_TABLES.has(table)) this.dropCatalog();
    else if (SCHEDULE_TABLES.has(table)) this.dropBusy();
  }

  /** Notifications may have been missed (the listening connection dropped): forget everything. */
  reset(): void {
    this.dropCatalog();
    this.dropBusy();
  }

  dropCatalog(): void {
    this.catalogGeneration++;
    this.catalogs.clear();
  }

  dropBusy(): void {
    this.busyGeneration++;
    this.busy = undefined;
  }

  /** Businesses of one kind that serve any of these ZIPs, ordered by slug. */
  async businessesServing(kind: BusinessKind, zips: string[]): Promise<CatalogBusiness[]> {
    const catalog = await this.fresh(
      this.catalogs.get(kind),
      () => this.catalogGeneration,
      () => this.loadCatalog(kind),
      (entry) => this.catalogs.set(kind, entry),
      () => this.catalogs.delete(kind),
    );
    const found = new Map<string, CatalogBusiness>();
    for (const zip of zips) for (const b of catalog.byZip.get(zip) ?? []) found.set(b.id, b);
    return [...found.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  }

  /** Busy time of these businesses between two instants (same answer as busyByBusiness). */
  async busyByBusiness(businessIds: string[], from: number, to: number): Promise<Map<string, Busy[]>> {
    const table = await this.fresh(
      this.busy,
      () => this.busyGeneration,
      () => this.loadBusy(),
      (entry) => (this.busy = entry),
      () => (this.busy = undefined),
    );
    const now = this.now();
    const source = from < table.from || to > table.to ? await busyByBusiness(this.prisma, businessIds, from, to) : table.byBusiness;
    return new Map(businessIds.map((id) => [id, (source.get(id) ?? []).filter((b) => b.start < to && b.end > from && holds(b, now))]));
  }

  private async fresh<T>(
    entry: Entry<T> | undefined,
    generation: () => number,
    load: () => Promise<T>,
    store: (e: Entry<T>) => void,
    forget: () => void,
  ): Promise<T> {
    if (entry && this.now() - entry.loadedAt < MAX_AGE_MS) return entry.value;
    const started = generation();
    const value = load();
    const fresh = { value, loadedAt: this.now() };
    store(fresh);
    try {
      const result = await value;
      // Something changed while loading: answer this caller, but let the next one reload.
      if (generation() !== started) forget();
      return result;
    } catch (err) {
      forget();
      throw err;
    }
  }

  private async loadCatalog(kind: BusinessKind): Promise<Catalog> {
    const rows = await this.prisma.business.findMany({
      where: { kind },
      select: { ...catalogSelect, serviceZips: { select: { zip: true } } },
      orderBy: { slug: 'asc' },
    });
    const byZip = new Map<string, CatalogBusiness[]>();
    for (const { serviceZips, ...business } of rows) {
      for (const { zip } of serviceZips) {
        let list = byZip.get(zip);
        if (!list) byZip.set(zip, (list = []));
        list.push(business);
      }
    }
    return { byZip };
  }

  private async loadBusy(): Promise<BusyTable> {
    const now = this.now();
    const from = now - BUSY_BEFORE;
    const to = now + BUSY_AFTER;
    const ids = (await this.prisma.business.findMany({ select: { id: true } })).map((b) => b.id);
    return { from, to, byBusiness: await busyByBusiness(this.prisma, ids, from, to) };
  }
}
