/**
 * One calendar per business: every entry that occupies the business's time — cleanings,
 * service calls, the owner's own jobs (Booking rows, one entry per visit), menu visits (per
 * technician) and appointments (one at a time) — read in one statement (a UNION ALL of the
 * kinds, contact and own-job rows joined in) whatever the mix. schedule, block_time, set_hours,
 * updates and the iCalendar feed read it.
 */
import type { Context } from '../context.js';
import type { SqlQuery } from '../db/sql.js';
import type { Tx } from '../db/transaction.js';
import { Prisma } from '../generated/prisma/client.js';
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

/** One entry as the calendar's statement returns it: a JSON object of its kind's fields (the others absent). */
interface EntryRow {
  source: 'booking' | 'visit' | 'appointment';
  awaiting: boolean;
  id: string;
  status: string;
  outcome: string | null;
  /** ISO strings, as JSON carries timestamps. */
  start: string;
  end: string;
  customerName: string;
  customerPhone: string | null;
  customerEmail: string | null;
  clientName: string | null;
  priceCents: number | null;
  // Bookings
  kind: 'cleaning' | 'service_call' | null;
  address: string | null;
  zip: string | null;
  notes: string | null;
  details: string | null;
  bedrooms: number | null;
  bathrooms: number | null;
  cleanType: string | null;
  addOns: string[] | null;
  pets: boolean | null;
  trade: string | null;
  issue: string | null;
  ownJob: boolean | null;
  leadId: string | null;
  // Visits
  estimateCents: number | null;
  selections: unknown;
  technicianName: string | null;
  note: string | null;
  // Appointments
  serviceName: string | null;
}

/** The $5 fee a booking carries: made through the service and the job stands (confirmed or done). */
export const serviceFeeCents = (b: { status: string; ownJob: unknown }) =>
  !b.ownJob && (b.status === 'confirmed' || b.status === 'done') ? SERVICE_FEE_CENTS : 0;

function bookingEntryView(b: EntryRow, zone: string, startMs: number, endMs: number): JobView {
  const kind = b.kind!;
  return {
    bookingId: b.id,
    kind: b.ownJob ? 'own_job' : kind,
    status: b.status,
    start: isoWithOffset(startMs, zone),
    end: isoWithOffset(endMs, zone),
    customerName: b.customerName,
    customerPhone: b.customerPhone,
    customerEmail: b.customerEmail,
    address: b.address,
    zip: b.zip || null,
    price: kind === 'cleaning' ? b.priceCents! / 100 : null,
    fee: kind === 'service_call' ? b.priceCents! / 100 : null,
    source: b.ownJob ? 'own' : 'porchlight',
    clientName: b.clientName,
    done: b.status === 'done',
    job: bookingSummary({ kind, bedrooms: b.bedrooms, bathrooms: b.bathrooms, cleanType: b.cleanType, addOns: b.addOns ?? [], pets: b.pets ?? false, trade: b.trade, issue: b.issue }),
    notes: b.notes,
    details: b.details,
    leadId: b.leadId,
    serviceFee: serviceFeeCents(b) / 100,
    technician: null,
  };
}

function visitEntryView(v: EntryRow, zone: string, startMs: number, endMs: number): JobView {
  return {
    bookingId: v.id,
    kind: 'visit',
    status: v.outcome ?? v.status,
    start: isoWithOffset(startMs, zone),
    end: isoWithOffset(endMs, zone),
    customerName: v.customerName,
    customerPhone: v.customerPhone,
    customerEmail: v.customerEmail,
    address: null,
    zip: null,
    price: (v.priceCents ?? v.estimateCents!) / 100,
    fee: null,
    source: 'porchlight',
    clientName: v.clientName,
    done: v.outcome === 'done',
    job: describeItems(v.selections as EstimateItem[]),
    notes: v.note,
    details: null,
    leadId: null,
    serviceFee: 0,
    technician: v.technicianName,
  };
}

function appointmentEntryView(a: EntryRow, zone: string, startMs: number, endMs: number): JobView {
  return {
    bookingId: a.id,
    kind: 'appointment',
    status: a.outcome ?? a.status,
    start: isoWithOffset(startMs, zone),
    end: isoWithOffset(endMs, zone),
    customerName: a.customerName,
    customerPhone: a.customerPhone,
    customerEmail: a.customerEmail,
    address: null,
    zip: null,
    price: a.priceCents! / 100,
    fee: null,
    source: 'porchlight',
    clientName: a.clientName,
    done: a.outcome === 'done',
    job: a.serviceName!,
    notes: null,
    details: null,
    leadId: null,
    serviceFee: 0,
    technician: null,
  };
}

const VIEW = { booking: bookingEntryView, visit: visitEntryView, appointment: appointmentEntryView } as const;

/** The fields an entry may have; each kind's arm returns its own only. */
type Column = Exclude<keyof EntryRow, 'source' | 'awaiting'>;

const BOOKING: Partial<Record<Column, string>> = {
  id: 'b.id', status: 'b.status', customerName: 'b."customerName"', customerPhone: 'b."customerPhone"', customerEmail: 'b."customerEmail"',
  clientName: 'b."clientName"', priceCents: 'b."priceCents"', kind: 'b.kind', address: 'b.address', zip: 'b.zip', notes: 'b.notes',
  details: 'b.details', bedrooms: 'b.bedrooms', bathrooms: 'b.bathrooms', cleanType: 'b."cleanType"', addOns: 'b."addOns"', pets: 'b.pets',
  trade: 'b.trade', issue: 'b.issue', ownJob: 'o."bookingId" IS NOT NULL', leadId: 'o."leadId"',
};
const VISIT: Partial<Record<Column, string>> = {
  id: 'v.id', status: 'v.status', outcome: 'v.outcome', start: 'v.start', end: 'v."end"', customerName: 'v."customerName"',
  customerPhone: 'c."customerPhone"', customerEmail: 'c."customerEmail"', clientName: 'v."clientName"', priceCents: 'v."priceCents"',
  estimateCents: 'v."estimateCents"', selections: 'v.selections', technicianName: 'v."technicianName"', note: 'v.note',
};
const APPOINTMENT: Partial<Record<Column, string>> = {
  id: 'a.id', status: 'a.status', outcome: 'a.outcome', start: 'a.start', end: 'a."end"', customerName: 'a."customerName"',
  customerPhone: 'c."customerPhone"', customerEmail: 'c."customerEmail"', clientName: 'a."clientName"', priceCents: 'a."priceCents"',
  serviceName: 'a."serviceName"',
};

/**
 * One arm's select list (built once): the entry as one JSON object of its kind's own fields, so
 * the arms line up without padding every row with the other kinds' nulls (half the bytes to
 * build, send and parse for a mixed calendar).
 */
const selectList = (source: EntryRow['source'], awaiting: boolean, own: Partial<Record<Column, string>>) =>
  Prisma.raw(`json_build_object('source', '${source}', 'awaiting', ${awaiting}, ${Object.entries(own).map(([c, expr]) => `'${c}', ${expr}`).join(', ')}) AS e`);
const LIMIT = Prisma.raw(String(MAX_ENTRIES));
const SELECT = {
  bookingVisits: selectList('booking', false, { ...BOOKING, start: 'bv.start', end: 'bv."end"' }),
  visits: selectList('visit', false, VISIT),
  appointments: selectList('appointment', false, APPOINTMENT),
  awaitingBookings: selectList('booking', true, { ...BOOKING, start: 'last.start', end: 'last."end"' }),
  awaitingVisits: selectList('visit', true, VISIT),
  awaitingAppointments: selectList('appointment', true, APPOINTMENT),
};

/**
 * Entries that take time in [from, to): booking visits that still hold time (active, of a pending
 * booking whose hold runs or a confirmed one); menu visits confirmed with a start and no outcome
 * yet; appointments that take time (appointments/schedule.ts takesTime: confirmed, or awaiting
 * payment while the hold runs).
 */
function takingTime(businessId: string, from: Date, to: Date, now: Date): Prisma.Sql[] {
  return [
    Prisma.sql`(SELECT ${SELECT.bookingVisits}
      FROM "BookingVisit" bv JOIN "Booking" b ON b.id = bv."bookingId" LEFT JOIN "OwnJob" o ON o."bookingId" = b.id
      WHERE bv."businessId" = ${businessId} AND bv.active AND b.status IN ('pending', 'confirmed') AND (bv."holdUntil" IS NULL OR bv."holdUntil" > ${now})
        AND bv.start < ${to} AND bv."end" > ${from}
      ORDER BY bv.start, bv.id LIMIT ${LIMIT})`,
    Prisma.sql`(SELECT ${SELECT.visits}
      FROM "Visit" v JOIN "Conversation" c ON c.id = v."conversationId"
      WHERE v."businessId" = ${businessId} AND v.status = 'confirmed' AND v.start IS NOT NULL AND v.outcome IS NULL AND v.start < ${to} AND v."end" > ${from}
      ORDER BY v.start, v.id LIMIT ${LIMIT})`,
    Prisma.sql`(SELECT ${SELECT.appointments}
      FROM "Appointment" a JOIN "Conversation" c ON c.id = a."conversationId"
      WHERE a."businessId" = ${businessId} AND a."holdsTime" AND a.outcome IS NULL
        AND (a.status = 'confirmed' OR (a.status = 'awaiting_payment' AND a."holdUntil" > ${now}))
        AND a.start < ${to} AND a."end" > ${from}
      ORDER BY a.start, a.id LIMIT ${LIMIT})`,
  ];
}

/**
 * Entries that ended in (since, now] and still wait for confirm_job_done or report_no_show:
 * confirmed bookings whose last active visit ended (shown at that visit), confirmed visits and
 * appointments without an outcome.
 */
function awaitingOutcome(businessId: string, since: Date, now: Date): Prisma.Sql[] {
  return [
    Prisma.sql`(SELECT ${SELECT.awaitingBookings}
      FROM (SELECT DISTINCT x."bookingId" FROM "BookingVisit" x WHERE x."businessId" = ${businessId} AND x.active AND x."end" > ${since} AND x."end" <= ${now}) ended
      JOIN "Booking" b ON b.id = ended."bookingId"
      CROSS JOIN LATERAL (SELECT x.start, x."end" FROM "BookingVisit" x WHERE x."bookingId" = b.id AND x.active ORDER BY x.start DESC LIMIT 1) last
      LEFT JOIN "OwnJob" o ON o."bookingId" = b.id
      WHERE b."businessId" = ${businessId} AND b.status = 'confirmed'
        AND NOT EXISTS (SELECT 1 FROM "BookingVisit" x WHERE x."bookingId" = b.id AND x.active AND x."end" > ${now})
      LIMIT ${LIMIT})`,
    Prisma.sql`(SELECT ${SELECT.awaitingVisits}
      FROM "Visit" v JOIN "Conversation" c ON c.id = v."conversationId"
      WHERE v."businessId" = ${businessId} AND v.status = 'confirmed' AND v.start IS NOT NULL AND v.outcome IS NULL AND v."end" > ${since} AND v."end" <= ${now}
      LIMIT ${LIMIT})`,
    Prisma.sql`(SELECT ${SELECT.awaitingAppointments}
      FROM "Appointment" a JOIN "Conversation" c ON c.id = a."conversationId"
      WHERE a."businessId" = ${businessId} AND a.status = 'confirmed' AND a.outcome IS NULL AND a."end" > ${since} AND a."end" <= ${now}
      LIMIT ${LIMIT})`,
  ];
}

const byStart = (a: CalendarEntry, b: CalendarEntry) => a.startMs - b.startMs || (a.view.bookingId < b.view.bookingId ? -1 : 1);

/** Rows as views, soonest first, at most MAX_ENTRIES. */
function entries(rows: EntryRow[], zone: string): CalendarEntry[] {
  return rows
    .map((r) => {
      const startMs = Date.parse(r.start);
      const endMs = Date.parse(r.end);
      return { view: VIEW[r.source](r, zone, startMs, endMs), startMs, endMs };
    })
    .sort(byStart)
    .slice(0, MAX_ENTRIES);
}

/** A Prisma client's or transaction's statements, for the callers that read inside one. */
const through = (db: Db): SqlQuery => (statement) => db.$queryRaw(statement);

/**
 * The schedule's read: every entry taking time in [from, to) and every entry that ended in
 * (since, now] without an outcome, in one statement whatever the mix of kinds (a part of the
 * schedule's one statement: owners/schedule.ts).
 */
export function scheduleEntriesStatement(businessId: string, window: { from: number; to: number; since: number; now: number }): Prisma.Sql {
  const now = new Date(window.now);
  return Prisma.join([...takingTime(businessId, new Date(window.from), new Date(window.to), now), ...awaitingOutcome(businessId, new Date(window.since), now)], ' UNION ALL ');
}

/**
 * The instants after which what scheduleEntriesStatement returns may change with no write, as
 * rows `t` (for the schedule's cache: owners/schedule-cache.ts): a hold's end; an entry's start
 * less the window's length (it enters the window), its end (it leaves the upcoming entries, and
 * may begin to await an outcome) and its end plus `awaitingMs` (it stops awaiting one). Every
 * entry of the business that could be shown counts, whatever its status: a superset is safe.
 */
export function scheduleEntryChanges(businessId: string, window: { from: number; to: number; since: number }): Prisma.Sql {
  const ahead = Prisma.raw(`interval '${window.to - window.from} milliseconds'`);
  const back = Prisma.raw(`interval '${window.from - window.since} milliseconds'`);
  const since = new Date(window.since);
  return Prisma.sql`
    SELECT unnest(ARRAY[bv."holdUntil", bv.start - ${ahead}, bv."end", bv."end" + ${back}]) AS t
      FROM "BookingVisit" bv WHERE bv."businessId" = ${businessId} AND bv."end" > ${since}
    UNION ALL
    SELECT unnest(ARRAY[v.start - ${ahead}, v."end", v."end" + ${back}]) FROM "Visit" v WHERE v."businessId" = ${businessId} AND v."end" > ${since}
    UNION ALL
    SELECT unnest(ARRAY[a."holdUntil", a.start - ${ahead}, a."end", a."end" + ${back}]) FROM "Appointment" a WHERE a."businessId" = ${businessId} AND a."end" > ${since}`;
}

/** scheduleEntriesStatement's rows as the schedule's entries: upcoming, and awaiting an outcome. */
export function scheduleEntries(rows: unknown[], zone: string) {
  const all = (rows as { e: EntryRow }[]).map((r) => r.e);
  return {
    upcoming: entries(all.filter((r) => !r.awaiting), zone),
    awaiting: entries(all.filter((r) => r.awaiting), zone),
  };
}

/** Every entry occupying the business's time in [from, to), soonest first, in one statement whatever the mix. */
export async function calendarEntries(db: Db, businessId: string, zone: string, from: number, to: number, now: number): Promise<CalendarEntry[]> {
  const rows = await through(db)<{ e: EntryRow }>(Prisma.join(takingTime(businessId, new Date(from), new Date(to), new Date(now)), ' UNION ALL '));
  return entries(rows.map((r) => r.e), zone);
}
