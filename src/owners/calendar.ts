/**
 * One calendar per business: every entry that occupies the business's time — cleanings,
 * service calls, the owner's own jobs (Booking rows, one entry per visit), menu visits (per
 * technician) and appointments (one at a time) — read in a fixed number of statements, one per
 * kind of row, whatever the mix. schedule, block_time, set_hours and the iCalendar feed read it.
 */
import type { Context } from '../context.js';
import type { Tx } from '../db/transaction.js';
import type { Prisma } from '../generated/prisma/client.js';
import { isoWithOffset } from '../core/time.js';
import { describeItems } from '../menus/views.js';
import type { EstimateItem } from '../menus/estimate.js';
import { bookingSummary } from './job.js';

type Db = Context['prisma'] | Tx;

export type EntryKind = 'cleaning' | 'service_call' | 'own_job' | 'visit' | 'appointment';

/** The fee a booking made through the service carries for the business (contract: $5). */
export const SERVICE_FEE_CENTS = 500;
const MAX_ENTRIES = 500;

/** One entry of the schedule, as owners read it. */
export interface JobView {
  /** booking_id of a booking or an appointment; visit_id of a visit. */
  bookingId: string;
  kind: EntryKind;
  status: string;
  start: string;
  end: string;
  customerName: string;
  customerPhone: string | null;
  customerEmail: string | null;
  /** Where the job is: the customer's address; null for visits and appointments, which are at the business. */
  address: string | null;
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
  /** Visits: the technician's name. */
  technician: string | null;
}

/** An entry with its instants, for ordering and overlap checks (not shown). */
export interface CalendarEntry {
  view: JobView;
  startMs: number;
  endMs: number;
}

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

/** The $5 fee a booking carries: made through the service and the job stands (confirmed or done). */
export const serviceFeeCents = (b: { status: string; ownJob: unknown }) =>
  !b.ownJob && (b.status === 'confirmed' || b.status === 'done') ? SERVICE_FEE_CENTS : 0;

export function jobView(b: JobRow, visit: { start: Date; end: Date }, zone: string): JobView {
  return {
    bookingId: b.id,
    kind: b.ownJob ? 'own_job' : b.kind,
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
    technician: null,
  };
}

/** Booking visits that still hold time: active, of a pending booking whose hold runs or a confirmed one. */
export const holdingVisit = (now: number): Prisma.BookingVisitWhereInput => ({
  active: true,
  booking: { status: { in: ['pending', 'confirmed'] } },
  OR: [{ holdUntil: null }, { holdUntil: { gt: new Date(now) } }],
});

export const visitEntrySelect = {
  id: true,
  status: true,
  outcome: true,
  selections: true,
  priceCents: true,
  estimateCents: true,
  start: true,
  end: true,
  technicianName: true,
  customerName: true,
  clientName: true,
  note: true,
  conversation: { select: { customerEmail: true, customerPhone: true } },
} satisfies Prisma.VisitSelect;

type VisitEntryRow = Prisma.VisitGetPayload<{ select: typeof visitEntrySelect }>;

export function visitEntryView(v: VisitEntryRow, zone: string): JobView {
  return {
    bookingId: v.id,
    kind: 'visit',
    status: v.outcome ?? v.status,
    start: isoWithOffset(v.start!.getTime(), zone),
    end: isoWithOffset(v.end!.getTime(), zone),
    customerName: v.customerName,
    customerPhone: v.conversation.customerPhone,
    customerEmail: v.conversation.customerEmail,
    address: null,
    zip: null,
    price: (v.priceCents ?? v.estimateCents) / 100,
    fee: null,
    source: 'porchlight',
    clientName: v.clientName,
    done: v.outcome === 'done',
    job: describeItems(v.selections as unknown as EstimateItem[]),
    notes: v.note,
    details: null,
    leadId: null,
    serviceFee: 0,
    technician: v.technicianName,
  };
}

export const appointmentEntrySelect = {
  id: true,
  status: true,
  outcome: true,
  serviceName: true,
  priceCents: true,
  start: true,
  end: true,
  customerName: true,
  clientName: true,
  conversation: { select: { customerEmail: true, customerPhone: true } },
} satisfies Prisma.AppointmentSelect;

type AppointmentEntryRow = Prisma.AppointmentGetPayload<{ select: typeof appointmentEntrySelect }>;

export function appointmentEntryView(a: AppointmentEntryRow, zone: string): JobView {
  return {
    bookingId: a.id,
    kind: 'appointment',
    status: a.outcome ?? a.status,
    start: isoWithOffset(a.start.getTime(), zone),
    end: isoWithOffset(a.end.getTime(), zone),
    customerName: a.customerName,
    customerPhone: a.conversation.customerPhone,
    customerEmail: a.conversation.customerEmail,
    address: null,
    zip: null,
    price: a.priceCents / 100,
    fee: null,
    source: 'porchlight',
    clientName: a.clientName,
    done: a.outcome === 'done',
    job: a.serviceName,
    notes: null,
    details: null,
    leadId: null,
    serviceFee: 0,
    technician: null,
  };
}

/** Menu visits that take time: confirmed, with a start, not yet closed as done or a no-show. */
export const confirmedVisit = { status: 'confirmed', start: { not: null }, outcome: null } satisfies Prisma.VisitWhereInput;

/** Appointments that take time at `now` (appointments/schedule.ts takesTime): confirmed, or awaiting payment while the hold runs. */
export const holdingAppointment = (now: number): Prisma.AppointmentWhereInput => ({
  holdsTime: true,
  outcome: null,
  OR: [{ status: 'confirmed' }, { status: 'awaiting_payment', holdUntil: { gt: new Date(now) } }],
});

const byStart = (a: CalendarEntry, b: CalendarEntry) => a.startMs - b.startMs || (a.view.bookingId < b.view.bookingId ? -1 : 1);

/**
 * Every entry occupying the business's time in [from, to), soonest first: three statements run
 * in parallel (booking visits, menu visits, appointments), whatever the mix.
 */
export async function calendarEntries(db: Db, businessId: string, zone: string, from: number, to: number, now: number): Promise<CalendarEntry[]> {
  const span = { start: { lt: new Date(to) }, end: { gt: new Date(from) } };
  const [bookings, visits, appointments] = await Promise.all([
    db.bookingVisit.findMany({
      where: { businessId, ...holdingVisit(now), ...span },
      orderBy: [{ start: 'asc' }, { id: 'asc' }],
      take: MAX_ENTRIES,
      select: { start: true, end: true, booking: { select: jobSelect } },
    }),
    db.visit.findMany({ where: { businessId, ...confirmedVisit, ...span }, orderBy: [{ start: 'asc' }, { id: 'asc' }], take: MAX_ENTRIES, select: visitEntrySelect }),
    db.appointment.findMany({ where: { businessId, ...holdingAppointment(now), ...span }, orderBy: [{ start: 'asc' }, { id: 'asc' }], take: MAX_ENTRIES, select: appointmentEntrySelect }),
  ]);
  return [
    ...bookings.map((v) => ({ view: jobView(v.booking, v, zone), startMs: v.start.getTime(), endMs: v.end.getTime() })),
    ...visits.map((v) => ({ view: visitEntryView(v, zone), startMs: v.start!.getTime(), endMs: v.end!.getTime() })),
    ...appointments.map((a) => ({ view: appointmentEntryView(a, zone), startMs: a.start.getTime(), endMs: a.end.getTime() })),
  ]
    .sort(byStart)
    .slice(0, MAX_ENTRIES);
}

/**
 * Entries that ended in [since, now) and still wait for confirm_job_done or report_no_show:
 * confirmed bookings whose last visit ended, confirmed visits and appointments without an
 * outcome. Three statements, soonest first.
 */
export async function awaitingEntries(db: Db, businessId: string, zone: string, since: number, now: number): Promise<CalendarEntry[]> {
  const ended = { end: { gt: new Date(since), lte: new Date(now) } };
  const [bookings, visits, appointments] = await Promise.all([
    db.booking.findMany({
      where: { businessId, status: 'confirmed', visits: { some: { active: true, ...ended }, none: { active: true, end: { gt: new Date(now) } } } },
      take: MAX_ENTRIES,
      select: { ...jobSelect, visits: { where: { active: true }, orderBy: { start: 'desc' }, take: 1, select: { start: true, end: true } } },
    }),
    db.visit.findMany({ where: { businessId, ...confirmedVisit, ...ended }, take: MAX_ENTRIES, select: visitEntrySelect }),
    db.appointment.findMany({ where: { businessId, status: 'confirmed', outcome: null, ...ended }, take: MAX_ENTRIES, select: appointmentEntrySelect }),
  ]);
  return [
    ...bookings.map((b) => ({ view: jobView(b, b.visits[0]!, zone), startMs: b.visits[0]!.start.getTime(), endMs: b.visits[0]!.end.getTime() })),
    ...visits.map((v) => ({ view: visitEntryView(v, zone), startMs: v.start!.getTime(), endMs: v.end!.getTime() })),
    ...appointments.map((a) => ({ view: appointmentEntryView(a, zone), startMs: a.start.getTime(), endMs: a.end.getTime() })),
  ]
    .sort(byStart)
    .slice(0, MAX_ENTRIES);
}
