/**
 * The one way to announce a change: `emit(tx, event)` writes an Event row inside the change's
 * own transaction and publishes it after commit. `updates`, subscriptions, owner notifications
 * and (later) webhooks all read these rows or these publications, so they can never disagree.
 */
import { Prisma } from '../generated/prisma/client.js';
import { onCommit, type AnyTx, type Tx } from '../db/transaction.js';
import { formatInstant } from '../core/time.js';
import type { Events } from './pubsub.js';
import { OWNER_EVENT_TYPES, BOOKING_EVENT_TYPES, CONVERSATION_EVENT_TYPES, type EventType, type PublishedEvent } from './kinds.js';

/** Facts kept with an event for the owner's feed; customer-typed text is data. */
export interface EventData {
  customerName?: string | null;
  /** First visit, ISO with the business's offset. */
  start?: string | null;
  /** The message, verbatim. */
  text?: string | null;
  /** The business itself made the change (cancel_job, book_job…): not a notification for its owner. */
  by?: 'business';
  /** The visit of a menu business the event is about. */
  visitId?: string | null;
  /** receptionist.* and front_desk.updated: what the owner changed (comma-separated); receptionist.limit_reached: pause or ask; number_active: the number. */
  change?: string;
}

export interface NewEvent {
  type: EventType;
  businessId: string;
  bookingId?: string;
  inquiryId?: string;
  clientName?: string | null;
  data?: EventData;
}

const isOwnerType = (type: string) => (OWNER_EVENT_TYPES as readonly string[]).includes(type);
const isBookingType = (type: string) => (BOOKING_EVENT_TYPES as readonly string[]).includes(type);
const isConversationType = (type: string) => (CONVERSATION_EVENT_TYPES as readonly string[]).includes(type);

/** The columns of an Event row, for a hot path that inserts it in its own SQL statement. */
export interface EventColumns {
  type: EventType;
  businessId: string;
  bookingId: string | null;
  inquiryId: string | null;
  clientName: string | null;
  /** JSON text. */
  data: string;
  at: Date;
}

export const eventColumns = (event: NewEvent, at: Date): EventColumns => ({
  type: event.type,
  businessId: event.businessId,
  bookingId: event.bookingId ?? null,
  inquiryId: event.inquiryId ?? null,
  clientName: event.clientName ?? null,
  data: JSON.stringify(event.data ?? {}),
  at,
});

export interface Emit {
  /** Writes the event's row in `tx` and publishes it once `tx` commits. */
  (tx: Tx, event: NewEvent): Promise<void>;
  /** Publishes, once `tx` commits, an event whose row `tx` inserted itself (from `eventColumns`). */
  recorded(tx: AnyTx, event: NewEvent, row: { position: bigint | string; at: Date }): void;
}

export function createEmit(events: Events, now: () => Date): Emit {
  const recorded: Emit['recorded'] = (tx, event, row) => {
    const published: PublishedEvent = {
      position: row.position.toString(),
      type: event.type,
      // Z on the wire; subscribers' resolvers show it with the business's offset.
      at: formatInstant(row.at),
      businessId: event.businessId,
      ...(event.bookingId ? { bookingId: event.bookingId } : {}),
      ...(event.inquiryId ? { inquiryId: event.inquiryId } : {}),
      ...(event.clientName ? { clientName: event.clientName } : {}),
    };
    onCommit(tx, () => {
      if (isOwnerType(event.type)) events.publish('ownerEvent', event.businessId, published);
      if (event.bookingId && isBookingType(event.type)) events.publish('bookingUpdated', event.bookingId, published);
      if (event.inquiryId && isConversationType(event.type)) events.publish('inquiryReplied', event.inquiryId, published);
    });
  };
  const emit = async (tx: Tx, event: NewEvent) => {
    const row = await tx.event.create({
      data: { ...eventColumns(event, now()), data: (event.data ?? {}) as Prisma.InputJsonObject },
      select: { position: true, at: true },
    });
    recorded(tx, event, row);
  };
  return Object.assign(emit, { recorded });
}

/**
 * SQL common table expressions ending in `h(horizon)`: the oldest transaction still running
 * that may write this database's events. Readers take rows with txid below it, in
 * (txid, position) order, so an event committing late never lands behind a position already
 * read. Transactions seen running in another database of the same server cannot write here and
 * do not hold events back; a running one not seen (it ended meanwhile, or is hidden) counts.
 */
export const EVENT_HORIZON = Prisma.sql`
  s AS (SELECT pg_current_snapshot() AS snap),
  elsewhere AS (
    SELECT (backend_xid::text)::bigint AS xid FROM pg_stat_activity
    WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database()),
  running AS (SELECT (x::text)::bigint AS xid FROM s, pg_snapshot_xip(s.snap) AS x),
  h AS (
    SELECT coalesce(
      (SELECT min(r.xid) FROM running r WHERE (r.xid & 4294967295) NOT IN (SELECT xid FROM elsewhere)),
      (SELECT (pg_snapshot_xmax(snap)::text)::bigint FROM s)) AS horizon)`;
