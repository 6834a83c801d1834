/**
 * The one way to announce a change: `emit(tx, event)` writes an Event row inside the change's
 * own transaction and publishes it after commit. `updates`, subscriptions, owner notifications
 * and (later) webhooks all read these rows or these publications, so they can never disagree.
 */
import type { Prisma } from '../generated/prisma/client.js';
import { onCommit, type Tx } from '../db/transaction.js';
import type { Events } from './pubsub.js';

/** Changes the business's owner hears about (ownerEvents, updates). */
export const OWNER_EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.lapsed',
  'booking.done',
  'booking.no_show',
  'message.received',
  'visit.requested',
  'visit.booked',
  'visit.confirmed',
  'visit.cancelled',
] as const;
/** Changes a booking's subscribers hear about (bookingUpdated). */
const BOOKING_EVENT_TYPES = ['booking.confirmed', 'booking.cancelled', 'booking.lapsed', 'booking.updated', 'booking.done', 'booking.no_show'] as const;

/**
 * Changes a conversation's subscribers hear about (inquiryReplied): the business's answers, and
 * the visit a conversation carries being confirmed or cancelled (a visit's customer holds its
 * inquiry_id and reply_token, not a manage_token).
 */
const CONVERSATION_EVENT_TYPES = ['inquiry.replied', 'visit.confirmed', 'visit.cancelled'] as const;

export type EventType = (typeof OWNER_EVENT_TYPES)[number] | (typeof BOOKING_EVENT_TYPES)[number] | (typeof CONVERSATION_EVENT_TYPES)[number];

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
}

export interface NewEvent {
  type: EventType;
  businessId: string;
  bookingId?: string;
  inquiryId?: string;
  clientName?: string | null;
  data?: EventData;
}

/** What subscribers receive: the stored event without its customer-typed facts. */
export interface PublishedEvent {
  position: string;
  type: EventType;
  at: string;
  businessId: string;
  bookingId?: string;
  inquiryId?: string;
  clientName?: string;
}

const isOwnerType = (type: string) => (OWNER_EVENT_TYPES as readonly string[]).includes(type);
const isBookingType = (type: string) => (BOOKING_EVENT_TYPES as readonly string[]).includes(type);
const isConversationType = (type: string) => (CONVERSATION_EVENT_TYPES as readonly string[]).includes(type);

export type Emit = (tx: Tx, event: NewEvent) => Promise<void>;

export function createEmit(events: Events, now: () => Date): Emit {
  return async (tx, event) => {
    const row = await tx.event.create({
      data: {
        type: event.type,
        businessId: event.businessId,
        bookingId: event.bookingId ?? null,
        inquiryId: event.inquiryId ?? null,
        clientName: event.clientName ?? null,
        data: (event.data ?? {}) as Prisma.InputJsonObject,
        at: now(),
      },
      select: { position: true, at: true },
    });
    const published: PublishedEvent = {
      position: row.position.toString(),
      type: event.type,
      at: row.at.toISOString(),
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
}
