/**
 * The owner's schedule: upcoming jobs with contact and address, blocked time, weekly hours and
 * notifications (schedule); weekly hours changed day by day (set_hours).
 */
import type { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { invalid } from '../errors.js';
import { DAY, MINUTE, formatHHMM, isoWithOffset } from '../core/time.js';
import type { Tx } from '../db/transaction.js';
import { bookingSummary } from './job.js';
import { hoursMap, parseDayHours, WEEKDAY_NAMES, type DayWindow } from '../core/hours.js';
import { localParts } from '../core/local-time.js';
import { readNotifications } from './notifications.js';
import type { scheduleInput, setHoursInput } from './inputs.js';

/** The fee a booking made through the service carries for the business (contract: $5). */
export const SERVICE_FEE_CENTS = 500;
/** Past jobs still waiting for confirm_job_done or report_no_show are shown this far back. */
const AWAITING_WINDOW_MS = 14 * DAY;
const MAX_JOBS = 500;
const MAX_BLOCKS = 200;

/** What a job view needs of a booking. */
export const jobSelect = {
  id: true,
  kind: true,
  status: true,
  priceCents: true,
  address: true,
  zip: true,
  notes: true,
  details: true,
  customerName: true,
  customerEmail: true,
  customerPhone: true,
  clientName: true,
  bedrooms: true,
  bathrooms: true,
  cleanType: true,
  addOns: true,
  pets: true,
  trade: true,
  issue: true,
  ownJob: { select: { leadId: true } },
} satisfies Prisma.BookingSelect;

export type JobRow = Prisma.BookingGetPayload<{ select: typeof jobSelect }>;

export interface JobView {
  bookingId: string;
  kind: string;
  status: string;
  start: string;
  end: string;
  customerName: string;
  customerPhone: string | null;
  customerEmail: string | null;
  address: string;
  zip: string | null;
  price: number | null;
  fee: number | null;
  source: 'porchlight' | 'own';
  clientName: string | null;
  done: boolean;
  job: string;
  notes: string | null;
  details: string | null;
  leadId: string | null;
  serviceFee: number;
}

/** The $5 fee a booking carries: made through the service and the job stands (confirmed or done). */
export const serviceFeeCents = (b: { status: string; ownJob: unknown }) =>
  !b.ownJob && (b.status === 'confirmed' || b.status === 'done') ? SERVICE_FEE_CENTS : 0;

export function jobView(b: JobRow, visit: { start: Date; end: Date }, zone: string): JobView {
  return {
    bookingId: b.id,
    kind: b.kind,
    status: b.status,
    start: isoWithOffset(visit.start.getTime(), zone),
    end: isoWithOffset(visit.end.getTime(), zone),
    customerName: b.customerName,
    customerPhone: b.customerPhone,
    customerEmail: b.customerEmail,
    address: b.address,
    zip: b.zip || null,
    price: b.kind === 'cleaning' ? b.priceCents / 100 : null,
    fee: b.kind === 'service_call' ? b.priceCents / 100 : null,
    source: b.ownJob ? 'own' : 'porchlight',
    clientName: b.clientName,
    done: b.status === 'done',
    job: bookingSummary(b),
    notes: b.notes,
    details: b.details,
    leadId: b.ownJob?.leadId ?? null,
    serviceFee: serviceFeeCents(b) / 100,
  };
}

/** Visits that still hold time: active, of a pending booking whose hold runs or a confirmed one. */
export const holdingVisit = (now: number): Prisma.BookingVisitWhereInput => ({
  active: true,
  booking: { status: { in: ['pending', 'confirmed'] } },
  OR: [{ holdUntil: null }, { holdUntil: { gt: new Date(now) } }],
});

/** Upcoming jobs (one entry per visit) ending after `from` and starting before `to`, soonest first. */
export async function upcomingJobs(db: Context['prisma'] | Tx, businessId: string, zone: string, from: number, to: number, now: number): Promise<JobView[]> {
  const visits = await db.bookingVisit.findMany({
    where: { businessId, ...holdingVisit(now), end: { gt: new Date(from) }, start: { lt: new Date(to) } },
    orderBy: [{ start: 'asc' }, { id: 'asc' }],
    take: MAX_JOBS,
    select: { start: true, end: true, booking: { select: jobSelect } },
  });
  return visits.map((v) => jobView(v.booking, v, zone));
}

export interface BlockView {
  blockId: string;
  date: string;
  start: string;
  end: string;
  wholeDay: boolean;
  startAt: string;
  endAt: string;
  reason: string | null;
}

/** A block as owners read it: its local date and HH:MM span ("24:00" when it runs to midnight). */
export function blockView(b: { id: string; start: Date; end: Date; label: string }, zone: string): BlockView {
  const from = localParts(b.start.getTime(), zone);
  const to = localParts(b.end.getTime(), zone);
  const endMinute = to.date > from.date ? 1440 : to.minute;
  return {
    blockId: b.id,
    date: from.date,
    start: formatHHMM(from.minute),
    end: formatHHMM(Math.min(endMinute, 1440)),
    wholeDay: from.minute === 0 && endMinute >= 1440,
    startAt: isoWithOffset(b.start.getTime(), zone),
    endAt: isoWithOffset(b.end.getTime(), zone),
    reason: b.label || null,
  };
}

export async function scheduleService(input: z.output<typeof scheduleInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const business = await ctx.prisma.business.findUniqueOrThrow({
    where: { id: businessId },
    select: { timeZone: true, hours: { select: { weekday: true, startMinute: true, endMinute: true } } },
  });
  const zone = business.timeZone;
  const [jobs, awaiting, blocks, notifications] = await Promise.all([
    upcomingJobs(ctx.prisma, businessId, zone, now, now + input.days * DAY, now),
    // Jobs that ended without being confirmed done or reported as a no-show (series: once the last visit ended).
    ctx.prisma.booking.findMany({
      where: {
        businessId,
        status: 'confirmed',
        visits: { some: { active: true, end: { gt: new Date(now - AWAITING_WINDOW_MS), lte: new Date(now) } }, none: { active: true, end: { gt: new Date(now) } } },
      },
      take: MAX_JOBS,
      select: { ...jobSelect, visits: { where: { active: true }, orderBy: { start: 'desc' }, take: 1, select: { start: true, end: true } } },
    }),
    ctx.prisma.block.findMany({ where: { businessId, end: { gt: new Date(now) } }, orderBy: { start: 'asc' }, take: MAX_BLOCKS }),
    readNotifications(ctx, businessId, now),
  ]);
  return {
    jobs,
    awaitingConfirmation: awaiting
      .map((b) => jobView(b, b.visits[0]!, zone))
      .sort((a, b) => (a.start < b.start ? -1 : 1)),
    blocks: blocks.map((b) => blockView(b, zone)),
    hours: hoursMap(business.hours),
    timeZone: zone,
    notifications,
  };
}

/** Whether a visit no longer fits the new hours of its (changed) local weekday. */
export function outsideChangedHours(visit: { start: number; end: number }, changes: ReadonlyMap<number, DayWindow | null>, zone: string): boolean {
  const s = localParts(visit.start, zone);
  if (!changes.has(s.weekday)) return false;
  const window = changes.get(s.weekday);
  const endMinute = s.minute + Math.round((visit.end - visit.start) / MINUTE);
  return !window || s.minute < window.startMinute || endMinute > window.endMinute;
}

const STRANDED_HORIZON_MS = 120 * DAY;

export async function setHoursService(input: z.output<typeof setHoursInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const changes = new Map<number, DayWindow | null>();
  WEEKDAY_NAMES.forEach((day, weekday) => {
    const value = input[day];
    if (value === undefined) return;
    const parsed = parseDayHours(value);
    changes.set(weekday, parsed && { weekday, ...parsed });
  });
  if (changes.size === 0) throw invalid('Pass at least one day (monday … sunday) with "HH:MM-HH:MM" or "closed"; days not passed stay as they are.');
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    // One writer of a business's hours at a time, so the result shows exactly what was saved.
    await tx.$executeRaw`SELECT 1 FROM "Business" WHERE "id" = ${businessId} FOR UPDATE`;
    const closed = [...changes].filter(([, w]) => w === null).map(([d]) => d);
    if (closed.length) await tx.weeklyHours.deleteMany({ where: { businessId, weekday: { in: closed } } });
    for (const window of changes.values()) {
      if (!window) continue;
      await tx.weeklyHours.upsert({
        where: { businessId_weekday: { businessId, weekday: window.weekday } },
        create: { businessId, ...window },
        update: { startMinute: window.startMinute, endMinute: window.endMinute },
      });
    }
    ctx.search.reloadAfterCommit(tx, 'catalog', businessId);
    const business = await tx.business.findUniqueOrThrow({
      where: { id: businessId },
      select: { timeZone: true, hours: { select: { weekday: true, startMinute: true, endMinute: true } } },
    });
    const visits = await tx.bookingVisit.findMany({
      where: { businessId, ...holdingVisit(now), start: { gt: new Date(now), lt: new Date(now + STRANDED_HORIZON_MS) } },
      orderBy: { start: 'asc' },
      take: MAX_JOBS,
      select: { start: true, end: true, booking: { select: jobSelect } },
    });
    const stranded = visits.filter((v) => outsideChangedHours({ start: v.start.getTime(), end: v.end.getTime() }, changes, business.timeZone));
    return { hours: hoursMap(business.hours), strandedJobs: stranded.map((v) => jobView(v.booking, v, business.timeZone)) };
  });
}
