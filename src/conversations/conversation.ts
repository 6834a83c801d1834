/** What both sides of a conversation share: its stored shape and views, locks, opening one and posting to it. */
import type { Services } from '../context.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { AppError } from '../errors.js';
import { hashToken } from '../auth/tokens.js';
import { newMessageMail } from './mail.js';
import type { REQUEST_TYPES } from './inputs.js';
import type { Tx } from '../db/transaction.js';
import { formatInstant, isoWithOffset } from '../core/time.js';

export type Db = PrismaClient | Tx;
export const LIST_MAX = 200;
export const closed = (message: string) => new AppError('conversation_closed', message);

const messagesSelect = {
  orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  select: { author: true, text: true, createdAt: true },
} satisfies Prisma.Conversation$messagesArgs;

export const viewSelect = {
  id: true,
  businessId: true,
  status: true,
  requestType: true,
  channel: true,
  customerName: true,
  customerEmail: true,
  customerPhone: true,
  credentialId: true,
  senderBusinessId: true,
  zip: true,
  job: true,
  priceCents: true,
  zipServed: true,
  ownerNotes: true,
  createdAt: true,
  updatedAt: true,
  business: { select: { slug: true, name: true, email: true, phone: true, timeZone: true } },
  messages: messagesSelect,
  // The visit as its customer sees it (visitView): its status, time, technician and price.
  visit: {
    select: {
      id: true, status: true, source: true, selections: true, estimateCents: true, partial: true, priceCents: true,
      durationMinutes: true, start: true, end: true, technicianName: true, conversationId: true,
    },
  },
  appointments: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, status: true, start: true, serviceName: true, holdUntil: true, checkoutUrl: true } },
} satisfies Prisma.ConversationSelect;

export type ConversationRow = Prisma.ConversationGetPayload<{ select: typeof viewSelect }>;

export interface CleaningJobView {
  bedrooms: number;
  bathrooms: number;
  cleanType: string;
  sqft: number | null;
  addOns: string[];
  pets: boolean;
}

export const jobView = (job: Prisma.JsonValue | null): CleaningJobView | null => {
  if (!job || typeof job !== 'object' || Array.isArray(job)) return null;
  const j = job as { bedrooms: number; bathrooms: number; clean_type: string; sqft?: number; add_ons: string[]; pets: boolean };
  return { bedrooms: j.bedrooms, bathrooms: j.bathrooms, cleanType: j.clean_type, sqft: j.sqft ?? null, addOns: j.add_ons, pets: j.pets };
};

export const messageView = (zone: string) => (m: ConversationRow['messages'][number]) => ({ from: m.author, text: m.text, at: formatInstant(m.createdAt, zone) });

/**
 * Which (credential, business) pairs have a booking between them: only then does either side
 * of a signed-in conversation see the other's e-mail or phone.
 */
export async function bookedPairs(db: Db, pairs: { credentialId: string | null; businessId: string }[]): Promise<Set<string>> {
  const wanted = pairs.filter((p): p is { credentialId: string; businessId: string } => p.credentialId !== null);
  if (wanted.length === 0) return new Set();
  const rows = await db.booking.findMany({
    where: { OR: wanted.map((p) => ({ credentialId: p.credentialId, businessId: p.businessId })) },
    select: { credentialId: true, businessId: true },
    distinct: ['credentialId', 'businessId'],
  });
  return new Set(rows.map((r) => `${r.credentialId}:${r.businessId}`));
}

/** The customer's view of a conversation (inquiry_status, my_inquiries). */
/** The appointments booked in a conversation; an unpaid one whose hold ran out is lapsed, swept or not. */
export const appointmentsOf = (c: ConversationRow, now: number) =>
  c.appointments.map((a) => {
    // While the payment is awaited: where to pay and until when the time is held.
    const paying = a.status === 'awaiting_payment' && a.holdUntil!.getTime() > now;
    return {
      bookingId: a.id,
      status: a.status === 'awaiting_payment' && !paying ? 'lapsed' : a.status,
      start: isoWithOffset(a.start.getTime(), c.business.timeZone),
      serviceName: a.serviceName,
      checkoutUrl: paying ? a.checkoutUrl : null,
      holdUntil: paying ? isoWithOffset(a.holdUntil!.getTime(), c.business.timeZone) : null,
    };
  });

/**
 * A visit or an appointment booked in the conversation itself is a booking between the two sides
 * too: the business can reach the customer who took its time (and the customer the business).
 */
export const bookedHere = (c: ConversationRow) => c.visit?.status === 'confirmed' || c.appointments.some((a) => a.status === 'confirmed' || a.status === 'awaiting_payment');

/** The business owes an answer: the conversation is open and its latest message is the customer's. */
export const awaitingBusiness = (c: { status: string; messages: { author: string }[] }) => c.status !== 'closed' && c.messages.at(-1)?.author === 'customer';

/** Serialises writers of one conversation (answers, follow-ups) until the transaction ends. */
export async function lockConversation(tx: Tx, id: string) {
  await tx.$executeRaw`SELECT 1 FROM "Conversation" WHERE "id" = ${id} FOR UPDATE`;
}

/** Serialises starting a conversation for one key (credential, business or phone number). */
export async function lockKey(tx: Tx, key: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
}

/**
 * A customer message reached the business: it is told by e-mail (when it has one) and in its
 * feed, both inside the caller's transaction, so they leave only if the message is stored.
 */
export async function announceCustomerMessage(
  tx: Tx,
  services: Pick<Services, 'outbox' | 'emit'>,
  business: { id: string; email: string | null },
  f: { inquiryId: string; from: string | null; message: string; requestType: string; viaText: boolean; clientName?: string | null },
) {
  if (business.email) await services.outbox.enqueue(tx, newMessageMail(business.email, { ...f, from: f.from ?? 'A customer' }));
  await services.emit(tx, {
    type: 'message.received',
    businessId: business.id,
    inquiryId: f.inquiryId,
    clientName: f.clientName,
    data: { customerName: f.from, text: f.message },
  });
}

/**
 * Booking a business through the same sign-in settles that sign-in's open conversations with
 * it (the spec's "booking that business through the same sign-in" move). Runs inside the
 * booking's transaction so both commit together.
 */
/**
 * A booking through the same sign-in closes that customer's open conversations with the business:
 * an UPDATE for the booking's own statement (bookings write in plain SQL), run when `booked` holds.
 */
export function closeConversationsOnBooking(booking: { businessId: string; credentialId: string | null; at: Date; booked: Prisma.Sql }): Prisma.Sql {
  return Prisma.sql`
    UPDATE "Conversation" SET "status" = 'closed', "updatedAt" = ${booking.at}
    WHERE "businessId" = ${booking.businessId} AND "credentialId" = ${booking.credentialId} AND "status" <> 'closed' AND EXISTS (${booking.booked})`;
}

/**
 * A visit or appointment booked through a sign-in closes that sign-in's other open conversations
 * with the business (spec States: Conversation), in the booking's transaction. Its own
 * conversation stays open: its inquiry_id and reply_token are how the customer cancels. So does
 * one that holds another live visit or appointment, which its customer may still need to ask
 * about there.
 */
export async function closeOtherConversations(tx: Tx, f: { businessId: string; credentialId: string | null; keep: string; at: Date }): Promise<void> {
  if (f.credentialId === null) return;
  await tx.conversation.updateMany({
    where: {
      businessId: f.businessId,
      credentialId: f.credentialId,
      status: { not: 'closed' },
      id: { not: f.keep },
      NOT: { visit: { status: { in: ['pending', 'confirmed'] } } },
      appointments: { none: { status: { in: ['confirmed', 'awaiting_payment'] } } },
    },
    data: { status: 'closed', updatedAt: f.at },
  });
}

/**
 * A conversation opened by something else the customer asked for (a visit request or booking):
 * the same private conversation contact_business starts, with the customer's first message.
 * Runs in the caller's transaction; the caller announces it to the business in its own terms.
 */
export async function openConversation(
  tx: Tx,
  f: {
    businessId: string;
    replyToken: string;
    requestType: (typeof REQUEST_TYPES)[number];
    contact: { name: string; email: string | null; phone: string | null };
    credentialId: string | null;
    message: string;
    priceCents?: number | null;
    at: Date;
  },
): Promise<string> {
  const conversation = await tx.conversation.create({
    data: {
      businessId: f.businessId,
      replyTokenHash: hashToken(f.replyToken),
      requestType: f.requestType,
      customerName: f.contact.name,
      customerEmail: f.contact.email?.toLowerCase() ?? null,
      customerPhone: f.contact.phone,
      credentialId: f.credentialId,
      priceCents: f.priceCents ?? null,
      createdAt: f.at,
      updatedAt: f.at,
      messages: { create: { author: 'customer', text: f.message, createdAt: f.at } },
    },
    select: { id: true },
  });
  return conversation.id;
}

/**
 * Posts a move into a conversation (a visit confirmed or cancelled...). A business message
 * answers the customer (status replied); a customer message leaves the status as it is, as a
 * follow-up does. Even a closed conversation records what happened to its visit.
 */
export async function postToConversation(tx: Tx, conversationId: string, author: 'customer' | 'business', text: string, at: Date) {
  await lockConversation(tx, conversationId);
  await tx.conversationMessage.create({ data: { conversationId, author, text, createdAt: at } });
  const current = await tx.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { status: true } });
  const status = author === 'business' && current.status !== 'closed' ? 'replied' : current.status;
  await tx.conversation.update({ where: { id: conversationId }, data: { status, updatedAt: at } });
}
