/** The business's side of conversations: its inbox, answers (also about a booked job) and closing. */
import type { Context, OwnerContext } from '../context.js';
import { LIST_MAX, viewSelect, bookedPairs, bookedHere, awaitingBusiness, jobView, messageView, lockConversation, closed } from './conversation.js';
import type { z } from 'zod';
import type { messageCustomerInput, closeInquiryInput } from './inputs.js';
import { invalid, notFound } from '../errors.js';
import { answerText, answerMail, jobMessageMail } from './mail.js';
import { DAY, formatInstant } from '../core/time.js';

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
        createdAt: formatInstant(c.createdAt, c.business.timeZone),
        updatedAt: formatInstant(c.updatedAt, c.business.timeZone),
        messages: c.messages.map(messageView(c.business.timeZone)),
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
      await ctx.outbox.enqueue(tx, answerText(c.customerPhone, { businessId, businessName: c.business.name, message: input.message }));
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
      await ctx.outbox.enqueue(tx, answerText(booking.customerPhone, { businessId, businessName: booking.business.name, message: input.message, bookingId: booking.id }));
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

/** The owner's list covers conversations active in the last 30 days. */
const LIST_WINDOW_MS = 30 * DAY;

const NOT_RECEIVED = 'No conversation received by your business has that inquiry_id. Use an inquiry_id from inquiries.';
