/**
 * Who may subscribe to what. Checked once, before the subscription starts, after the access
 * plugin's guard (budget, audience): a refused subscriber gets an error and never an event.
 */
import { z } from 'zod';
import type { Context } from '../context.js';
import { invalid, notFound } from '../errors.js';
import { parseInput } from '../registry/validate.js';
import { bookingAccess, NO_MATCH } from '../bookings/access.js';
import { hashToken } from '../auth/tokens.js';
import { ownerContext, signedIn } from '../auth/credentials.js';

// Their arguments meet the registry's input rules (bounds, and no control characters, which
// PostgreSQL refuses) before any lookup, as every operation's input does.
const bookingArgs = z.object({ bookingId: z.string().max(60), manageToken: z.string().max(200).optional() });
const inquiryArgs = z.object({ inquiryId: z.string().max(60), replyToken: z.string().max(100).optional() });

/**
 * bookingUpdated: whoever could act on the booking (manage_token, or the key or connection
 * that made it), and the owner of its business.
 */
export async function authorizeBookingSubscriber(ctx: Context, bookingId: string, manageToken: string | undefined): Promise<void> {
  parseInput(bookingArgs, { bookingId, manageToken });
  const owner = ctx.credential?.businessId;
  const customer = manageToken !== undefined || signedIn(ctx.credential) ? [bookingAccess(ctx, bookingId, manageToken)] : [];
  if (!owner && customer.length === 0) {
    throw invalid('manageToken is required unless the booking was made through the same key or connection.');
  }
  const found = await ctx.prisma.booking.findFirst({
    where: { OR: [...customer, ...(owner ? [{ id: bookingId, businessId: owner }] : [])] },
    select: { id: true },
  });
  if (!found) throw notFound(NO_MATCH);
}

/** inquiryReplied: inquiry_id with its reply_token, or the key or connection that started it. */
export async function authorizeInquirySubscriber(ctx: Context, inquiryId: string, replyToken: string | undefined): Promise<void> {
  parseInput(inquiryArgs, { inquiryId, replyToken });
  const ways = [
    ...(replyToken !== undefined ? [{ replyTokenHash: hashToken(replyToken) }] : []),
    ...(signedIn(ctx.credential) ? [{ credentialId: ctx.credential!.id }] : []),
  ];
  if (ways.length === 0) throw invalid('replyToken is required unless the conversation was started through the same key or connection.');
  const found = await ctx.prisma.conversation.findFirst({ where: { id: inquiryId, OR: ways }, select: { id: true } });
  if (!found) throw notFound('No conversation matches that inquiry_id and reply_token. Check both values from the result that started it.');
}

/** ownerEvents: the signed-in owner's own business. */
export function ownerSubscriberBusiness(ctx: Context): string {
  return ownerContext(ctx).business.id;
}
