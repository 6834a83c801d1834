import type { Prisma } from '../generated/prisma/client.js';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import { hashToken } from '../auth/tokens.js';
import { signedIn } from '../auth/credentials.js';

/**
 * Who may act on a booking: whoever holds its manage_token, or the personal key or connection
 * that made it. Returns the Prisma filter that finds the booking only for them.
 */
export function bookingAccess(ctx: Context, bookingId: string, manageToken: string | undefined): Prisma.BookingWhereInput {
  const ways: Prisma.BookingWhereInput[] = [];
  if (manageToken) ways.push({ manageTokenHash: hashToken(manageToken) });
  const credential = signedIn(ctx.credential);
  if (credential) ways.push({ credentialId: credential.id });
  if (ways.length === 0) {
    throw invalid('manage_token is required unless the booking was made through the same key or connection.');
  }
  return { id: bookingId, OR: ways };
}

export const NO_MATCH = 'No booking matches that booking_id and manage_token. Check both values from the booking result.';
