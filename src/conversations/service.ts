import { z } from 'zod';
import type { Context, Services, OwnerContext } from '../context.js';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { AppError, invalid, notFound } from '../errors.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { signedIn } from '../auth/credentials.js';
import { customerContact } from '../bookings/contact.js';
import { priceAt } from '../pricing/quote.js';
import { answerMail, answerText, jobMessageMail, newMessageMail } from './mail.js';
import type { askBusinessInput, closeInquiryInput, contactBusinessInput, followUpBusinessInput, inquiryStatusInput, messageCustomerInput, REQUEST_TYPES } from './inputs.js';
import type { Tx } from '../db/transaction.js';
import { DAY, isoWithOffset } from '../core/time.js';

type Db = PrismaClient | Tx;

/** The owner's list covers conversations active in the last 30 days. */
const LIST_WINDOW_MS = 30 * DAY;
const LIST_MAX = 200;

const NO_CONVERSATION = 'No conversation matches that inquiry_id and reply_token. Check both values from contact_business.';
const NOT_RECEIVED = 'No conversation received by your business has that inquiry_id. Use an inquiry_id from inquiries.';
const closed = (message: string) => new AppError('conversation_closed', message);

const messagesSelect = {
  orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  select: { author: true, text: true, createdAt: true },
} satisfies Prisma.Conversation$messagesArgs;

const viewSelect = {
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
  visit: { select: { id: true, status: true } },
  appointments: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, status: true, start: true, serviceName: true, holdUntil: true } },
} satisfies Prisma.ConversationSelect;

type ConversationRow = Prisma.ConversationGetPayload<{ select: typeof viewSelect }>;

export interface CleaningJobView {
  bedrooms: number;
  bathrooms: number;
  cleanType: string;
  sqft: number | null;
  addOns: string[];
  pets: boolean;
}

const jobView = (job: Prisma.JsonValue | null): CleaningJobView | null => {
  if (!job || typeof job !== 'object' || Array.isArray(job)) return null;
  const j = job as { bedrooms: number; bathrooms: number; clean_type: string; sqft?: number; add_ons: string[]; pets: boolean };
  return { bedrooms: j.bedrooms, bathrooms: j.bathrooms, cleanType: j.clean_type, sqft: j.sqft ?? null, addOns: j.add_ons, pets: j.pets };
};

const messageView = (m: ConversationRow['messages'][number]) => ({ from: m.author, text: m.text, at: m.createdAt.toISOString() });

/**
 * Which (credential, business) pairs have a booking between them: only then does either side
 * of a signed-in conversation see the other's e-mail or phone.
 */
async function bookedPairs(db: Db, pairs: { credentialId: string | null; businessId: string }[]): Promise<Set<string>> {
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
const appointmentsOf = (c: ConversationRow, now: number) =>
  c.appointments.map((a) => ({
    bookingId: a.id,
    status: a.status === 'awaiting_payment' && a.holdUntil!.getTime() <= now ? 'lapsed' : a.status,
    start: isoWithOffset(a.start.getTime(), c.business.timeZone),
    serviceName: a.serviceName,
  }));

/**
 * A visit or an appointment booked in the conversation itself is a booking between the two sides
 * too: the business can reach the customer who took its time (and the customer the business).
 */
const bookedHere = (c: ConversationRow) => c.visit?.status === 'confirmed' || c.appointments.some((a) => a.status === 'confirmed' || a.status === 'awaiting_payment');

function customerView(c: ConversationRow, booked: Set<string>, now: number) {
  const shared = booked.has(`${c.credentialId}:${c.businessId}`) || bookedHere(c);
  return {
    inquiryId: c.id,
    status: c.status,
    requestType: c.requestType,
    channel: c.channel,
    proId: c.business.slug,
    businessName: c.business.name,
    businessEmail: shared ? c.business.email : null,
    businessPhone: shared ? c.business.phone : null,
    price: c.priceCents === null ? null : c.priceCents / 100,
    zipServed: c.zipServed,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    awaitingBusiness: awaitingBusiness(c),
    visitId: c.visit?.id ?? null,
    appointments: appointmentsOf(c, now),
    messages: c.messages.map(messageView),
  };
}

/** The business owes an answer: the conversation is open and its latest message is the customer's. */
const awaitingBusiness = (c: { status: string; messages: { author: string }[] }) => c.status !== 'closed' && c.messages.at(-1)?.author === 'customer';

async function businessNamed(db: Db, slug: string, field: 'business' | 'pro_id') {
  const business = await db.business.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, kind: true, email: true, priceList: true },
  });
  if (!business) throw notFound(`No business has the ${field} "${slug}". Use the exact id the business shared, or a pro_id from search results.`);
  return business;
}

/** Serialises writers of one conversation (answers, follow-ups) until the transaction ends. */
async function lockConversation(tx: Tx, id: string) {
  await tx.$executeRaw`SELECT 1 FROM "Conversation" WHERE "id" = ${id} FOR UPDATE`;
}

/** Serialises starting a conversation for one key (credential, business or phone number). */
async function lockKey(tx: Tx, key: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
}

/**
 * A customer message reached the business: it is told by e-mail (when it has one) and in its
 * feed, both inside the caller's transaction, so they leave only if the message is stored.
 */
async function announceCustomerMessage(
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

// ---------------------------------------------------------------------------------------------
// Customer side

export async function contactBusinessService(input: z.output<typeof contactBusinessInput>, ctx: Context) {
  const business = await businessNamed(ctx.prisma, input.business, 'business');
  const contact = customerContact(input, ctx);
  const credential = signedIn(ctx.credential);
  if (credential?.businessId === business.id) throw invalid('This is your own business; contact another business.');
  const replyToken = newToken('rt_');
  const now = ctx.clock.date();
  const inquiryId = await ctx.transaction(async (tx) => {
    const conversation = await tx.conversation.create({
      data: {
        businessId: business.id,
        replyTokenHash: hashToken(replyToken),
        requestType: input.request_type,
        customerName: contact.name,
        customerEmail: contact.email,
        customerPhone: contact.phone,
        credentialId: credential?.id ?? null,
        senderBusinessId: credential?.businessId ?? null,
        createdAt: now,
        updatedAt: now,
        messages: { create: { author: 'customer', text: input.message, createdAt: now } },
      },
      select: { id: true },
    });
    await announceCustomerMessage(tx, ctx, business, { inquiryId: conversation.id, from: contact.name, message: input.message, requestType: input.request_type, viaText: false, clientName: ctx.clientName });
    return conversation.id;
  });
  return { inquiryId, replyToken, status: 'waiting_for_response' as const };
}

export async function inquiryStatusService(input: z.output<typeof inquiryStatusInput>, ctx: Context) {
  const conversation = await ctx.prisma.conversation.findFirst({
    where: { id: input.inquiry_id, replyTokenHash: hashToken(input.reply_token) },
    select: viewSelect,
  });
  if (!conversation) throw notFound(NO_CONVERSATION);
  return customerView(conversation, await bookedPairs(ctx.prisma, [conversation]), ctx.clock.now());
}

export async function followUpBusinessService(input: z.output<typeof followUpBusinessInput>, ctx: Context) {
  const now = ctx.clock.date();
  const conversation = await ctx.transaction(async (tx) => {
    await lockConversation(tx, input.inquiry_id);
    const found = await tx.conversation.findFirst({
      where: { id: input.inquiry_id, replyTokenHash: hashToken(input.reply_token) },
      select: { id: true, status: true, requestType: true, customerName: true, business: { select: { id: true, email: true } } },
    });
    if (!found) throw notFound(NO_CONVERSATION);
    if (found.status === 'closed') {
      throw closed('The business closed this conversation. Start a new request with contact_business to continue.');
    }
    // The status stays as it is (the spec's States table); awaiting_business says an answer is owed.
    await tx.conversationMessage.create({ data: { conversationId: found.id, author: 'customer', text: input.message, createdAt: now } });
    await tx.conversation.update({ where: { id: found.id }, data: { updatedAt: now } });
    await announceCustomerMessage(tx, ctx, found.business, {
      inquiryId: found.id,
      from: found.customerName,
      message: input.message,
      requestType: found.requestType,
      viaText: false,
      clientName: ctx.clientName,
    });
    return found;
  });
  return { sent: true, inquiryId: conversation.id, status: conversation.status, awaitingBusiness: true };
}

export async function askBusinessService(input: z.output<typeof askBusinessInput>, ctx: Context) {
  // checkAccess let only a personal key or a connection through.
  const credential = signedIn(ctx.credential)!;
  const business = await businessNamed(ctx.prisma, input.pro_id, 'pro_id');
  if (credential.businessId === business.id) throw invalid('This is your own business; ask another business.');
  if ((input.bedrooms === undefined) !== (input.bathrooms === undefined)) {
    throw invalid('Describe the job with both bedrooms and bathrooms, or leave both out.');
  }
  const job =
    input.bedrooms !== undefined && input.bathrooms !== undefined
      ? { bedrooms: input.bedrooms, bathrooms: input.bathrooms, clean_type: input.clean_type, ...(input.sqft !== undefined ? { sqft: input.sqft } : {}), add_ons: [...new Set(input.add_ons)], pets: input.pets }
      : null;
  // The firm price the business would charge, when it prices cleanings and offers this job.
  const quote = job && business.kind === 'cleaning' ? priceAt(business, job) : null;
  const priceCents = quote?.ok ? quote.total_cents : null;
  const zipServed = input.zip ? ((await ctx.search.business(business.slug))?.zips.has(input.zip) ?? false) : null;
  // A business asking arrives as that business; its mail reaches it through us, never shown.
  const sender = credential.businessId
    ? await ctx.prisma.business.findUniqueOrThrow({ where: { id: credential.businessId }, select: { name: true, email: true } })
    : null;
  const name = sender?.name ?? credential.name ?? ctx.user.name ?? null;
  const email = sender ? sender.email : (credential.email ?? null);

  const now = ctx.clock.date();
  const details = {
    ...(job ? { job, priceCents } : {}),
    ...(input.zip ? { zip: input.zip, zipServed } : {}),
  };
  const outcome = await ctx.transaction(async (tx) => {
    await lockKey(tx, `ask:${credential.id}:${business.id}`);
    const open = await tx.conversation.findFirst({
      where: { businessId: business.id, credentialId: credential.id, status: { not: 'closed' } },
      orderBy: { createdAt: 'desc' },
      select: { id: true, priceCents: true, zipServed: true },
    });
    let replyToken: string | null = null;
    let id: string;
    if (open) {
      await tx.conversationMessage.create({ data: { conversationId: open.id, author: 'customer', text: input.question, createdAt: now } });
      await tx.conversation.update({ where: { id: open.id }, data: { status: 'waiting_for_response', updatedAt: now, ...details } });
      id = open.id;
    } else {
      replyToken = newToken('rt_');
      const created = await tx.conversation.create({
        data: {
          businessId: business.id,
          replyTokenHash: hashToken(replyToken),
          requestType: 'question',
          customerName: name,
          customerEmail: email,
          credentialId: credential.id,
          senderBusinessId: credential.businessId ?? null,
          createdAt: now,
          updatedAt: now,
          ...details,
          messages: { create: { author: 'customer', text: input.question, createdAt: now } },
        },
        select: { id: true },
      });
      id = created.id;
    }
    await announceCustomerMessage(tx, ctx, business, { inquiryId: id, from: name, message: input.question, requestType: 'question', viaText: false, clientName: ctx.clientName });
    const current = await tx.conversation.findUniqueOrThrow({ where: { id }, select: { priceCents: true, zipServed: true } });
    return { id, replyToken, continued: open !== null, ...current };
  });
  return {
    inquiryId: outcome.id,
    replyToken: outcome.replyToken,
    status: 'waiting_for_response' as const,
    continued: outcome.continued,
    price: outcome.priceCents === null ? null : outcome.priceCents / 100,
    zipServed: outcome.zipServed,
  };
}

export async function myInquiriesService(ctx: Context) {
  const credential = signedIn(ctx.credential)!;
  const rows = await ctx.prisma.conversation.findMany({
    where: { credentialId: credential.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: LIST_MAX,
    select: viewSelect,
  });
  const booked = await bookedPairs(ctx.prisma, rows);
  return { inquiries: rows.map((r) => customerView(r, booked, ctx.clock.now())) };
}

// ---------------------------------------------------------------------------------------------
// Owner side

export async function inquiriesService(ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const since = new Date(ctx.clock.now() - LIST_WINDOW_MS);
  const rows = await ctx.prisma.conversation.findMany({
    where: { OR: [{ businessId }, { senderBusinessId: businessId }], updatedAt: { gte: since } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: LIST_MAX,
    select: viewSelect,
  });
  const senderIds = [...new Set(rows.map((r) => r.senderBusinessId).filter((id): id is string => id !== null && id !== businessId))];
  const senders = new Map(
    (await ctx.prisma.business.findMany({ where: { id: { in: senderIds } }, select: { id: true, slug: true, name: true } })).map((b) => [b.id, b]),
  );
  const booked = await bookedPairs(ctx.prisma, rows);
  return {
    inquiries: rows.map((c) => {
      const received = c.businessId === businessId;
      const sender = c.senderBusinessId ? senders.get(c.senderBusinessId) : undefined;
      // Signed-in askers keep their contact private until they book; contact_business and
      // text-message customers gave theirs to this business.
      const shared = received && (c.credentialId === null || booked.has(`${c.credentialId}:${c.businessId}`) || bookedHere(c));
      const other = received ? (sender ? { proId: sender.slug, name: sender.name } : null) : { proId: c.business.slug, name: c.business.name };
      return {
        inquiryId: c.id,
        direction: received ? ('received' as const) : ('sent' as const),
        status: c.status,
        needsAnswer: received && awaitingBusiness(c),
        requestType: c.requestType,
        channel: c.channel,
        customerName: received ? c.customerName : null,
        customerEmail: shared ? c.customerEmail : null,
        customerPhone: shared ? c.customerPhone : null,
        otherBusiness: other,
        job: jobView(c.job),
        price: c.priceCents === null ? null : c.priceCents / 100,
        zip: c.zip,
        zipServed: c.zipServed,
        ownerNotes: received ? c.ownerNotes : null,
        visitId: c.visit?.id ?? null,
        createdAt: c.createdAt.toISOString(),
        updatedAt: c.updatedAt.toISOString(),
        messages: c.messages.map(messageView),
      };
    }),
  };
}

export interface MessageCustomerResult {
  sent: boolean;
  bookingId: string | null;
  inquiryId: string | null;
  status: string;
  via: 'email' | 'sms' | null;
  reason: string | null;
}

const ALREADY_ANSWERED =
  "The customer's latest message was already answered, so nothing was sent. Pass follow_up true to send another message anyway.";

export async function messageCustomerService(input: z.output<typeof messageCustomerInput>, ctx: OwnerContext): Promise<MessageCustomerResult> {
  const businessId = ctx.business.id;
  if ((input.booking_id === undefined) === (input.inquiry_id === undefined)) {
    throw invalid('Pass exactly one of booking_id (a confirmed job) or inquiry_id (a conversation).');
  }
  return input.booking_id !== undefined
    ? messageAboutJob({ ...input, booking_id: input.booking_id }, businessId, ctx)
    : answerConversation({ ...input, inquiry_id: input.inquiry_id! }, businessId, ctx);
}

async function answerConversation(input: { inquiry_id: string; message: string; follow_up: boolean }, businessId: string, ctx: Context): Promise<MessageCustomerResult> {
  const now = ctx.clock.date();
  return ctx.transaction(async (tx): Promise<MessageCustomerResult> => {
    await lockConversation(tx, input.inquiry_id);
    const c = await tx.conversation.findFirst({
      where: { id: input.inquiry_id, businessId },
      select: {
        id: true,
        status: true,
        channel: true,
        customerName: true,
        customerEmail: true,
        customerPhone: true,
        business: { select: { name: true } },
        messages: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 1, select: { author: true } },
      },
    });
    if (!c) throw notFound(NOT_RECEIVED);
    if (c.status === 'closed') throw closed('This conversation is closed; the customer has to start a new one to continue.');
    if (c.messages[0]?.author === 'business' && !input.follow_up) {
      return { sent: false, bookingId: null, inquiryId: c.id, status: c.status, via: null, reason: ALREADY_ANSWERED };
    }
    const byText = c.channel === 'sms';
    await tx.conversationMessage.create({ data: { conversationId: c.id, author: 'business', text: input.message, channel: c.channel, createdAt: now } });
    await tx.conversation.update({ where: { id: c.id }, data: { status: 'replied', updatedAt: now } });
    let via: MessageCustomerResult['via'] = null;
    if (byText && c.customerPhone) {
      await ctx.outbox.enqueue(tx, answerText(c.customerPhone, { businessName: c.business.name, message: input.message }));
      via = 'sms';
    } else if (!byText && c.customerEmail) {
      await ctx.outbox.enqueue(tx, answerMail(c.customerEmail, { inquiryId: c.id, businessName: c.business.name, customerName: c.customerName, message: input.message }));
      via = 'email';
    }
    await ctx.emit(tx, { type: 'inquiry.replied', businessId, inquiryId: c.id });
    return { sent: true, bookingId: null, inquiryId: c.id, status: 'replied', via, reason: null };
  });
}

async function messageAboutJob(input: { booking_id: string; message: string; follow_up: boolean }, businessId: string, ctx: Context): Promise<MessageCustomerResult> {
  const now = ctx.clock.date();
  return ctx.transaction(async (tx): Promise<MessageCustomerResult> => {
    await tx.$executeRaw`SELECT 1 FROM "Booking" WHERE "id" = ${input.booking_id} FOR UPDATE`;
    const booking = await tx.booking.findFirst({
      where: { id: input.booking_id, businessId },
      select: {
        id: true,
        status: true,
        customerName: true,
        customerEmail: true,
        customerPhone: true,
        business: { select: { name: true } },
        messages: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: 1, select: { author: true } },
      },
    });
    if (!booking) throw notFound('No job of your business has that booking_id. Use a booking_id from schedule.');
    if (booking.status !== 'confirmed') {
      throw invalid(`This booking is ${booking.status}; message_customer is for confirmed jobs (the customer confirms from our e-mail).`);
    }
    if (booking.messages[0]?.author === 'business' && !input.follow_up) {
      return { sent: false, bookingId: booking.id, inquiryId: null, status: booking.status, via: null, reason: ALREADY_ANSWERED };
    }
    await tx.bookingMessage.create({ data: { bookingId: booking.id, author: 'business', text: input.message, createdAt: now } });
    // Phone-only customers (of businesses that text) get the message by text.
    let via: MessageCustomerResult['via'] = null;
    if (booking.customerEmail) {
      await ctx.outbox.enqueue(tx, jobMessageMail(booking.customerEmail, { bookingId: booking.id, businessName: booking.business.name, customerName: booking.customerName, message: input.message }));
      via = 'email';
    } else if (booking.customerPhone) {
      await ctx.outbox.enqueue(tx, answerText(booking.customerPhone, { businessName: booking.business.name, message: input.message, bookingId: booking.id }));
      via = 'sms';
    }
    await ctx.emit(tx, { type: 'booking.updated', businessId, bookingId: booking.id });
    return { sent: true, bookingId: booking.id, inquiryId: null, status: booking.status, via, reason: null };
  });
}

export async function closeInquiryService(input: z.output<typeof closeInquiryInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const updated = await ctx.prisma.conversation.updateMany({
    where: { id: input.inquiry_id, businessId },
    data: { status: 'closed', updatedAt: ctx.clock.date(), ...(input.notes !== undefined ? { ownerNotes: input.notes } : {}) },
  });
  if (updated.count === 0) throw notFound(NOT_RECEIVED);
  return { inquiryId: input.inquiry_id, status: 'closed' as const };
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

// ---------------------------------------------------------------------------------------------
// Text messages to a business phone

/**
 * Relays an inbound text message into the business's open text conversation with that number,
 * or starts one. Returns null when no business has the number it was sent to.
 */
export async function relayTextMessage(services: Services, text: { from: string; to: string; body: string }) {
  // US numbers compared by their last 10 digits: "+1-512-555-0123" and "+15125550123" match.
  const digits = text.to.replace(/\D/g, '').slice(-10);
  if (digits.length < 10) return null;
  const [business] = await services.prisma.$queryRaw<{ id: string; email: string | null }[]>`
    SELECT "id", "email" FROM "Business" WHERE right(regexp_replace("phone", '\\D', '', 'g'), 10) = ${digits} ORDER BY "createdAt" LIMIT 1`;
  if (!business) return null;
  const now = services.clock.date();
  const outcome = await services.transaction(async (tx) => {
    await lockKey(tx, `sms:${business.id}:${text.from}`);
    const open = await tx.conversation.findFirst({
      where: { businessId: business.id, channel: 'sms', customerPhone: text.from, status: { not: 'closed' } },
      orderBy: { createdAt: 'desc' },
      select: { id: true },
    });
    let id: string;
    if (open) {
      await tx.conversationMessage.create({ data: { conversationId: open.id, author: 'customer', text: text.body, channel: 'sms', createdAt: now } });
      await tx.conversation.update({ where: { id: open.id }, data: { status: 'waiting_for_response', updatedAt: now } });
      id = open.id;
    } else {
      // The texter continues by text; nobody holds this conversation's reply_token.
      const created = await tx.conversation.create({
        data: {
          businessId: business.id,
          replyTokenHash: hashToken(newToken('rt_')),
          requestType: 'question',
          channel: 'sms',
          customerPhone: text.from,
          createdAt: now,
          updatedAt: now,
          messages: { create: { author: 'customer', text: text.body, channel: 'sms', createdAt: now } },
        },
        select: { id: true },
      });
      id = created.id;
    }
    await announceCustomerMessage(tx, services, business, { inquiryId: id, from: text.from, message: text.body, requestType: 'question', viaText: true });
    return { inquiryId: id, created: !open };
  });
  return outcome;
}
