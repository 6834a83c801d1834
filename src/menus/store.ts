/**
 * Reading a menu business whole — profile and hours, menu, team with hours and time off,
 * confirmed visits and blocked time — and keeping it in memory, with the receptionist's public
 * knowledge, for customers' reads.
 *
 * Writes never trust the cache: they load the same state inside their transaction, under the
 * business's lock. One business's entry is dropped when this process's writes to it commit
 * (they announce it through services.changes: lockBusinessVisits, receptionist edits) and when
 * other processes' commits name it (the change
 * notices of menu, catalog, schedule and knowledge rows). A per-business generation keeps a load that raced a change from
 * being stored.
 */
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { BusinessKind } from '../generated/prisma/enums.js';
import type { Busy, WeeklyHours } from '../core/slots.js';
import { DAY } from '../core/time.js';
import { AppError, notFound } from '../errors.js';
import type { MenuData } from './menu.js';
import { loadPublicKnowledge, type PublicKnowledge } from '../receptionist/knowledge.js';
import type { Technician } from './schedule.js';
import type { BookableService } from '../appointments/plan.js';
import type { AccountState } from '../payments/provider.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** The business kinds point 4 of the spec gives menus, estimates and visits. */
export const MENU_KINDS: readonly BusinessKind[] = ['auto_repair', 'beauty', 'retail', 'food', 'services'];

/** Time-bound data is held for this span around now; visit_times further out reads directly. */
const SPAN_BEFORE = 2 * DAY;
const SPAN_AFTER = 120 * DAY;
const MAX_AGE_MS = 60_000;

export interface MenuTechnician extends Technician {
  position: number;
  hours: WeeklyHours[];
}

export interface MenuState {
  business: {
    id: string;
    slug: string;
    name: string;
    kind: BusinessKind;
    timeZone: string;
    city: string;
    state: string;
    zip: string;
    phone: string | null;
    email: string | null;
    website: string | null;
    customerNotes: string;
    minNoticeMinutes: number;
    priceList: Prisma.JsonValue;
    hours: WeeklyHours[];
  };
  menu: MenuData & { schedulingEnabled: boolean; bufferMinutes: number };
  team: MenuTechnician[];
  blocks: Busy[];
  /** Appointment booking: the bookable services, their weekly hours, and the payment account. */
  appointments: { services: BookableService[]; hours: WeeklyHours[]; account: AccountState | null };
  /** The span the time-bound parts (time off, visits, blocks) were read for. */
  from: number;
  to: number;
}

const businessSelect = {
  id: true,
  slug: true,
  name: true,
  kind: true,
  timeZone: true,
  city: true,
  state: true,
  zip: true,
  phone: true,
  email: true,
  website: true,
  customerNotes: true,
  minNoticeMinutes: true,
  priceList: true,
  hours: { select: { weekday: true, startMinute: true, endMinute: true } },
} satisfies Prisma.BusinessSelect;

const unknownBusiness = (slug: string) =>
  notFound(`No business has the id "${slug}". Use the exact id the business shared, or find it with find_businesses (zip or city, and what the person wants).`);

/**
 * Cleaners and pros are priced and booked by their own operations, not by a menu: customers are
 * told which ones book them, their owners which owner operations hold their prices and calendar.
 */
export function notAMenuBusiness(business: { name: string; kind: BusinessKind }, who: 'customer' | 'owner' = 'customer') {
  if (who === 'owner') {
    return new AppError(
      'invalid_input',
      `${business.name} is a ${business.kind === 'cleaning' ? 'cleaner' : `${business.kind} pro`}: it has no service menu or appointment setup. ` +
        'Your prices and details are in my_business; your jobs, hours and blocked time in schedule (set_hours, block_time); price and book your own jobs with quote_job, open_times and book_job.',
    );
  }
  const how =
    business.kind === 'cleaning'
      ? 'find_cleaners, available_times and book_cleaning'
      : 'find_service_call and book_service_call';
  return new AppError('invalid_input', `${business.name} is a ${business.kind === 'cleaning' ? 'cleaner' : `${business.kind} pro`} with no service menu; use ${how}.`);
}

/**
 * A menu business's whole state, with its time-bound parts between `from` and `to`. A business
 * without a menu yet reads as menu_revision 0 with nothing on it.
 */
export async function loadMenuState(db: Db, where: { slug: string } | { id: string }, from: number, to: number, who: 'customer' | 'owner' = 'customer'): Promise<MenuState> {
  const business = await db.business.findUnique({ where, select: businessSelect });
  if (!business) throw unknownBusiness('slug' in where ? where.slug : where.id);
  if (!MENU_KINDS.includes(business.kind)) throw notAMenuBusiness(business, who);
  const range = { start: { lt: new Date(to) }, end: { gt: new Date(from) } };
  // One after another: inside a transaction they share one connection anyway.
  const menu = await db.serviceMenu.findUnique({
    where: { businessId: business.id },
    select: {
      revision: true,
      schedulingEnabled: true,
      bufferMinutes: true,
      services: { orderBy: { position: 'asc' } },
      addOns: { orderBy: { position: 'asc' } },
      scents: { orderBy: { position: 'asc' } },
      staff: {
        orderBy: { position: 'asc' },
        select: {
          id: true,
          name: true,
          position: true,
          serviceIds: true,
          hours: { select: { weekday: true, startMinute: true, endMinute: true }, orderBy: [{ weekday: 'asc' }, { startMinute: 'asc' }] },
          timeOff: { where: range, select: { start: true, end: true }, orderBy: { start: 'asc' } },
        },
      },
    },
  });
  const visits = await db.visit.findMany({
    where: { businessId: business.id, status: 'confirmed', technicianId: { not: null }, start: { lt: new Date(to) }, busyUntil: { gt: new Date(from) } },
    select: { technicianId: true, start: true, busyUntil: true },
  });
  const blocks = await db.block.findMany({ where: { businessId: business.id, ...range }, select: { start: true, end: true } });
  const appointmentServices = await db.appointmentService.findMany({
    where: { businessId: business.id },
    orderBy: { position: 'asc' },
    select: { id: true, name: true, priceCents: true, durationMinutes: true, payment: true },
  });
  const appointmentHours = await db.appointmentHours.findMany({
    where: { businessId: business.id },
    orderBy: [{ weekday: 'asc' }, { startMinute: 'asc' }],
    select: { weekday: true, startMinute: true, endMinute: true },
  });
  const paymentAccount = await db.paymentAccount.findUnique({
    where: { businessId: business.id },
    select: { provider: true, accountId: true, chargesEnabled: true, detailsSubmitted: true },
  });
  const byTech = new Map<string, Busy[]>();
  for (const v of visits) {
    let list = byTech.get(v.technicianId!);
    if (!list) byTech.set(v.technicianId!, (list = []));
    list.push({ start: v.start!.getTime(), end: v.busyUntil!.getTime() });
  }
  return {
    business,
    menu: {
      revision: menu?.revision ?? 0,
      schedulingEnabled: menu?.schedulingEnabled ?? false,
      bufferMinutes: menu?.bufferMinutes ?? 0,
      services: (menu?.services ?? []).map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        priceKind: s.priceKind,
        priceCents: s.priceCents,
        durationMinutes: s.durationMinutes,
        group: s.group,
        addOnIds: s.addOnIds,
        scentIds: s.scentIds,
      })),
      addOns: (menu?.addOns ?? []).map((a) => ({ id: a.id, name: a.name, priceCents: a.priceCents, durationMinutes: a.durationMinutes })),
      scents: (menu?.scents ?? []).map((s) => ({ id: s.id, name: s.name })),
    },
    team: (menu?.staff ?? []).map((s) => ({
      id: s.id,
      name: s.name,
      position: s.position,
      serviceIds: s.serviceIds,
      hours: s.hours,
      timeOff: s.timeOff.map((t) => ({ start: t.start.getTime(), end: t.end.getTime() })),
      visits: byTech.get(s.id) ?? [],
    })),
    blocks: blocks.map((b) => ({ start: b.start.getTime(), end: b.end.getTime() })),
    appointments: { services: appointmentServices, hours: appointmentHours, account: paymentAccount },
    from,
    to,
  };
}

/** What customers' reads see: the state with the receptionist's published page and shared sources (business_info). */
export interface CustomerMenuState extends MenuState {
  knowledge: PublicKnowledge;
}

async function loadForCustomers(prisma: PrismaClient, slug: string, from: number, to: number): Promise<CustomerMenuState> {
  const state = await loadMenuState(prisma, { slug }, from, to);
  return { ...state, knowledge: await loadPublicKnowledge(prisma, state.business.id) };
}

interface Entry {
  value: Promise<CustomerMenuState>;
  loadedAt: number;
  businessId?: string;
}

/** Menu businesses' state for customers' reads (service_menu, estimate_visit, visit_times, business_info). */
export class MenuCache {
  private entries = new Map<string, Entry>();
  /** Changes are numbered; a business remembers the number of its latest. */
  private changes = 0;
  private changedAt = new Map<string, number>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly now: () => number,
  ) {}

  /** This business changed (here, once committed, or elsewhere): its entry is read again next time. */
  drop(businessId: string): void {
    this.changedAt.set(businessId, ++this.changes);
    for (const [slug, entry] of this.entries) if (entry.businessId === businessId) this.entries.delete(slug);
  }

  /** Change notices may have been missed: everything is read again. */
  reset(): void {
    for (const entry of this.entries.values()) if (entry.businessId) this.drop(entry.businessId);
    this.entries.clear();
  }

  /** The state of a business by slug, covering at least [from, to) when given. */
  async state(slug: string, span?: { from: number; to: number }): Promise<CustomerMenuState> {
    const now = this.now();
    if (span && (span.from < now - SPAN_BEFORE || span.to > now + SPAN_AFTER)) {
      return loadForCustomers(this.prisma, slug, span.from, span.to);
    }
    const entry = this.entries.get(slug);
    // Time off and visits are read for a span around the moment of loading; that span moves on.
    if (entry && now - entry.loadedAt < MAX_AGE_MS) return entry.value;
    const started = this.changes;
    const fresh: Entry = { value: loadForCustomers(this.prisma, slug, now - SPAN_BEFORE, now + SPAN_AFTER), loadedAt: now };
    this.entries.set(slug, fresh);
    const forget = () => {
      if (this.entries.get(slug) === fresh) this.entries.delete(slug);
    };
    try {
      const state = await fresh.value;
      const id = state.business.id;
      fresh.businessId = id;
      // A change to this business landed while loading: answer this caller, but let the next one reload.
      if ((this.changedAt.get(id) ?? 0) > started) forget();
      return state;
    } catch (err) {
      // Unknown slugs are not kept: a business created later must be found.
      forget();
      throw err;
    }
  }
}
