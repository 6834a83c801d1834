/**
 * The owner's notifications, shown by schedule: what customers and their assistants did, for
 * every kind on the calendar (new bookings, visit requests and visits, appointments, with the
 * assistant's X-Client-Name; confirmations, cancellations, lapses, refunds; messages)
 * read from the Event rows `updates` reads, and notes left for the owner (note_to_owner).
 * Reading them marks them read: events up to a feed position kept per business (the same
 * commit-safe (txid, position) order as updates, so an event committing late is never marked
 * read unseen), notes by their readAt.
 */
import type { Context } from '../context.js';
import { Prisma } from '../generated/prisma/client.js';
import { DAY, formatInstant, HOUR } from '../core/time.js';
import { EVENT_HORIZON, type EventData } from '../events/emit.js';

const NOTIFICATION_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.lapsed',
  'booking.rescheduled',
  'message.received',
  'visit.requested',
  'visit.booked',
  'visit.confirmed',
  'visit.cancelled',
  'visit.rescheduled',
  'appointment.booked',
  'appointment.confirmed',
  'appointment.lapsed',
  'appointment.cancelled',
  'appointment.rescheduled',
  'appointment.refunded',
  'appointment.refund_failed',
  'receptionist.plan_active',
  'receptionist.plan_cancelled',
  'receptionist.number_active',
  'receptionist.limit_reached',
];
/** Unread notifications are shown for this long; read ones for RECENT_MS, so `read` means something. */
const UNREAD_WINDOW_MS = 30 * DAY;
const RECENT_MS = 48 * HOUR;
const MAX_EVENTS = 100;
const MAX_NOTES = 20;
/** Stands for "every position of this transaction". */
const ALL = 9223372036854775807n;

export interface Notification {
  type: string;
  at: string;
  text: string;
  read: boolean;
  bookingId: string | null;
  inquiryId: string | null;
  visitId: string | null;
  customerName: string | null;
  clientName: string | null;
  start: string | null;
}

/** A row as JSON carries it (db/sql.ts readTogether): int8 as a number, timestamps as ISO strings. */
interface Row {
  position: number | null;
  type: string;
  bookingId: string | null;
  inquiryId: string | null;
  clientName: string | null;
  data: EventData;
  at: string;
  horizon: number | string;
  read: boolean;
  /** Whether the business has events of finished transactions past the horizon (not shown yet: see notificationsOf). */
  later: boolean;
}

interface NoteRow {
  id: string;
  text: string;
  clientName: string | null;
  createdAt: string;
  readAt: string | null;
}

/** One sentence an owner reads on their phone; names and messages inside it are customer-typed data. */
function describe(type: string, d: EventData, clientName: string | null): string {
  const who = d.customerName ?? 'A customer';
  const when = d.start ? ` for ${d.start}` : '';
  switch (type) {
    case 'booking.created':
      return `New booking${clientName ? ` made through ${clientName}` : ''}: ${who}${when}.`;
    case 'booking.confirmed':
      return `${who} confirmed the booking${when}.`;
    case 'booking.cancelled':
      return `${who} cancelled the booking${when}.`;
    case 'booking.lapsed':
      return `${who} never confirmed the booking${when}; it lapsed and the time is free again.`;
    case 'booking.rescheduled':
    case 'visit.rescheduled':
    case 'appointment.rescheduled':
      return `${who} moved the ${type.slice(0, type.indexOf('.'))}${d.start ? ` to ${d.start}` : ''}.`;
    case 'message.received':
      return `Message from ${who}: ${d.text ?? ''}`;
    case 'visit.requested':
      return `Visit request${clientName ? ` made through ${clientName}` : ''}: ${who} asks for ${d.text ?? 'a visit'}. Confirm a time with confirm_visit_request, or decline with cancel_business_visit.`;
    case 'visit.booked':
      return `New visit${clientName ? ` made through ${clientName}` : ''}: ${who}${when}${d.text ? ` (${d.text})` : ''}.`;
    case 'visit.confirmed':
      return `The visit of ${who} is confirmed${when}.`;
    case 'visit.cancelled':
      return `${who} cancelled the visit${when}.`;
    case 'appointment.booked':
      return `New appointment${clientName ? ` made through ${clientName}` : ''}: ${who}${when}.`;
    case 'appointment.confirmed':
      return `${who} paid for the appointment${when}; it is confirmed.`;
    case 'appointment.lapsed':
      return `${who} did not pay for the appointment${when} in time; it lapsed and the time is free again.`;
    case 'appointment.cancelled':
      return `${who} cancelled the appointment${when}.`;
    case 'appointment.refunded':
      return `The refund to ${who} for the appointment${when} went through.`;
    case 'appointment.refund_failed':
      return `The refund to ${who} for the appointment${when} failed: return the money another way, or retry with cancel_business_appointment.`;
    case 'receptionist.plan_active':
      return 'Your AI receptionist plan is active.';
    case 'receptionist.plan_cancelled':
      return 'Your AI receptionist plan has ended; the receptionist no longer answers calls.';
    case 'receptionist.number_active':
      return `Your receptionist's phone number${d.change ? ` ${d.change}` : ''} is active.`;
    case 'receptionist.limit_reached':
      return "Your AI receptionist reached this month's spending limit and stopped answering paid minutes; raise it with receptionist_limits.";
    default:
      return type;
  }
}

/**
 * The notifications' two reads (events, and the owner's notes), as parts of the schedule's one
 * statement (db/sql.ts readTogether).
 */
export function notificationStatements(businessId: string, now: number) {
  const since = new Date(now - UNREAD_WINDOW_MS);
  const recent = new Date(now - RECENT_MS);
  return {
    events: Prisma.sql`
      WITH ${EVENT_HORIZON},
           r AS (SELECT "txid", "position" FROM "NotificationsRead" WHERE "businessId" = ${businessId}),
           l AS (SELECT EXISTS (SELECT 1 FROM "Event" x, h WHERE x."businessId" = ${businessId} AND x."txid" >= h.horizon) AS "later")
      SELECT e."position", e."type", e."bookingId", e."inquiryId", e."clientName", e."data", e."at", h.horizon,
             COALESCE((e."txid", e."position") <= (r."txid", r."position"), false) AS "read", l."later"
      FROM h CROSS JOIN l LEFT JOIN r ON true
      LEFT JOIN "Event" e ON e."businessId" = ${businessId} AND e."type" = ANY(${NOTIFICATION_TYPES}) AND e."txid" < h.horizon
        AND e."at" > ${since} AND NOT (e."data" @> '{"by":"business"}'::jsonb)
        AND (r."txid" IS NULL OR (e."txid", e."position") > (r."txid", r."position") OR e."at" > ${recent})
      ORDER BY e."at" DESC, e."position" DESC
      LIMIT ${MAX_EVENTS}`,
    notes: Prisma.sql`
      SELECT id, text, "clientName", "createdAt", "readAt" FROM "OwnerNote"
      WHERE "businessId" = ${businessId} AND ("readAt" IS NULL OR "createdAt" > ${recent})
      ORDER BY "createdAt" DESC LIMIT ${MAX_NOTES}`,
  };
}

/**
 * The instants after `now` at which what notificationStatements shows changes with no write: an
 * unread event leaves after UNREAD_WINDOW_MS, a read one or a read note after RECENT_MS (rows
 * `t`, for the schedule's cache: owners/schedule-cache.ts).
 */
export function notificationChanges(businessId: string, now: number): Prisma.Sql {
  const since = new Date(now - UNREAD_WINDOW_MS);
  return Prisma.sql`
    SELECT unnest(ARRAY[e."at" + ${Prisma.raw(`interval '${RECENT_MS} milliseconds'`)}, e."at" + ${Prisma.raw(`interval '${UNREAD_WINDOW_MS} milliseconds'`)}]) AS t
      FROM "Event" e WHERE e."businessId" = ${businessId} AND e."at" > ${since}
    UNION ALL
    SELECT n."createdAt" + ${Prisma.raw(`interval '${RECENT_MS} milliseconds'`)} FROM "OwnerNote" n WHERE n."businessId" = ${businessId} AND n."createdAt" > ${new Date(now - RECENT_MS)}`;
}

/** What showing notifications marks read: events up to `horizon` when any shown was unread, and the unread notes shown. */
export interface NotificationMarks {
  horizon: string;
  events: boolean;
  notes: string[];
}

/**
 * notificationStatements' rows as the owner reads them, newest first, with what showing them
 * marks read (markNotificationsRead) and whether they are complete: false while the business has
 * events of finished transactions that a transaction still running keeps back (they show once it
 * ends, with no change to the business's rows).
 */
export function notificationsOf(read: { events: unknown[]; notes: unknown[] }, zone: string): { notifications: Notification[]; marks: NotificationMarks; complete: boolean } {
  const rows = read.events as Row[];
  const notes = (read.notes as NoteRow[]).map((n) => ({ ...n, createdAt: new Date(n.createdAt) }));
  const events = rows.filter((r) => r.position !== null);
  // Newest first, events and notes by their instant (updates, a feed, is read oldest first from a cursor).
  const out: (Notification & { instant: number })[] = [
    ...events.map((r) => ({
      instant: Date.parse(r.at),
      type: r.type,
      at: formatInstant(Date.parse(r.at), zone),
      text: describe(r.type, r.data, r.clientName),
      read: r.read,
      bookingId: r.bookingId,
      inquiryId: r.inquiryId,
      visitId: r.data.visitId ?? null,
      customerName: r.data.customerName ?? null,
      clientName: r.clientName,
      start: r.data.start ?? null,
    })),
    ...notes.map((n) => ({
      instant: n.createdAt.getTime(),
      type: 'note',
      at: formatInstant(n.createdAt, zone),
      text: `Note${n.clientName ? ` from ${n.clientName}` : ''}: ${n.text}`,
      read: n.readAt !== null,
      bookingId: null,
      inquiryId: null,
      visitId: null,
      customerName: null,
      clientName: n.clientName,
      start: null,
    })),
  ].sort((a, b) => b.instant - a.instant);

  const marks = { horizon: String(rows[0]!.horizon), events: events.some((e) => !e.read), notes: notes.filter((n) => n.readAt === null).map((n) => n.id) };
  return { notifications: out.map(({ instant: _, ...n }) => n), marks, complete: !rows[0]!.later };
}

/** Marks the notifications shown read (notificationsOf's marks). */
export async function markNotificationsRead(ctx: Context, businessId: string, now: number, marks: NotificationMarks): Promise<void> {
  if (marks.events) {
    // Everything of finished transactions is now read; a transaction still running stays unread.
    await ctx.prisma.$executeRaw`
      INSERT INTO "NotificationsRead" ("businessId", "txid", "position") VALUES (${businessId}, ${BigInt(marks.horizon) - 1n}, ${ALL})
      ON CONFLICT ("businessId") DO UPDATE SET "txid" = GREATEST("NotificationsRead"."txid", EXCLUDED."txid"), "position" = ${ALL}`;
  }
  if (marks.notes.length) await ctx.prisma.ownerNote.updateMany({ where: { id: { in: marks.notes } }, data: { readAt: new Date(now) } });
}
