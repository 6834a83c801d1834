/**
 * Who may subscribe to what. Checked once, before the subscription starts: a refused
 * subscriber gets an error and never an event.
 */
import type { Context } from '../context.js';
import { ownBusinessId } from '../auth/credentials.js';
import { enterOperation } from '../registry/guard.js';
import { invalid, notFound } from '../errors.js';
import { bookingAccess, NO_MATCH } from '../bookings/access.js';
import { hashToken } from '../auth/tokens.js';
import { signedIn } from '../auth/credentials.js';

/** Subscriptions read; they pass the guard as a GET operation of the same audience would. */
const asRead = (name: string, auth: 'public' | 'owner') => ({ name, auth, method: 'GET' as const });

/**
 * bookingUpdated: whoever could act on the booking (manage_token, or the key or connection
 * that made it), and the owner of its business.
 */
export async function authorizeBookingSubscriber(ctx: Context, bookingId: string, manageToken: string | undefined): Promise<void> {
  await enterOperation(asRead('bookingUpdated', 'public'), ctx);
  if (bookingId.length > 60) throw invalid('bookingId must be at most 60 characters.');
  if (manageToken !== undefined && manageToken.length > 200) throw invalid('manageToken must be at most 200 characters.');
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
  await enterOperation(asRead('inquiryReplied', 'public'), ctx);
  if (inquiryId.length > 60) throw invalid('inquiryId must be at most 60 characters.');
  if (replyToken !== undefined && replyToken.length > 100) throw invalid('replyToken must be at most 100 characters.');
  const ways = [
    ...(replyToken !== undefined ? [{ replyTokenHash: hashToken(replyToken) }] : []),
    ...(signedIn(ctx.credential) ? [{ credentialId: ctx.credential!.id }] : []),
  ];
  if (ways.length === 0) throw invalid('replyToken is required unless the conversation was started through the same key or connection.');
  const found = await ctx.prisma.conversation.findFirst({ where: { id: inquiryId, OR: ways }, select: { id: true } });
  if (!found) throw notFound('No conversation matches that inquiry_id and reply_token. Check both values from the result that started it.');
}

/** ownerEvents: the signed-in owner's own business. */
export async function ownerSubscriberBusiness(ctx: Context): Promise<string> {
  await enterOperation(asRead('ownerEvents', 'owner'), ctx);
  return ownBusinessId(ctx.credential);
}
