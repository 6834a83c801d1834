/** The customer's side of conversations: contacting a business, asking, following up, reading them. */
import type { z } from 'zod';
import type { contactBusinessInput, inquiryStatusInput, followUpBusinessInput, askBusinessInput } from './inputs.js';
import type { Context } from '../context.js';
import { customerContact } from '../bookings/contact.js';
import { signedIn } from '../auth/credentials.js';
import { invalid, notFound } from '../errors.js';
import { newToken, hashToken } from '../auth/tokens.js';
import { priceAt } from '../pricing/quote.js';
import { LIST_MAX, announceCustomerMessage, appointmentsOf, awaitingBusiness, bookedHere, bookedPairs, closed, lockConversation, lockKey, messageView, viewSelect, type ConversationRow, type Db } from './conversation.js';
import { formatInstant } from '../core/time.js';
import { visitView } from '../menus/views.js';

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
  return {
    inquiryId,
    replyToken,
    status: 'waiting_for_response' as const,
    next:
      `Sent to ${business.name}. Read the answer with inquiry_status (inquiry_id and reply_token; keep reply_token private): status turns replied when they answer` +
      `${contact.email ? `, and we e-mail ${contact.email} too` : ''}. Add to it with follow_up_business.`,
  };
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

const NO_CONVERSATION = 'No conversation matches that inquiry_id and reply_token. Check both values from contact_business.';

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
    createdAt: formatInstant(c.createdAt, c.business.timeZone),
    updatedAt: formatInstant(c.updatedAt, c.business.timeZone),
    awaitingBusiness: awaitingBusiness(c),
    visitId: c.visit?.id ?? null,
    visit: c.visit ? visitView(c.visit, c.business.timeZone) : null,
    appointments: appointmentsOf(c, now),
    messages: c.messages.map(messageView(c.business.timeZone)),
  };
}

async function businessNamed(db: Db, slug: string, field: 'business' | 'pro_id') {
  const business = await db.business.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, kind: true, email: true, priceList: true },
  });
  if (!business) throw notFound(`No business has the ${field} "${slug}". Use the exact id the business shared, or find it with find_businesses (zip or city, and what the person wants).`);
  return business;
}
