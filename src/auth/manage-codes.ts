/**
 * Manage with AI codes: the dashboard (or `npm run manage-code`) shows one, the owner types it
 * into the sign-in window or an assistant exchanges it at POST /app/api/connect. A code works
 * once, for 10 minutes, and only its sha256 is stored.
 */
import { randomInt } from 'node:crypto';
import type { Prisma } from '../generated/prisma/client.js';
import type { Services } from '../context.js';
import { AppError } from '../errors.js';
import { hashToken } from './tokens.js';

type Tx = Prisma.TransactionClient;

export const CODE_LIFETIME_MS = 10 * 60 * 1000;

// Letters and digits people cannot confuse when reading a code aloud or off a screen:
// no 0/O, 1/I/L. The 6-character deployment variant uses letters only.
const LETTERS = 'ABCDEFGHJKMNPQRSTUVWXYZ';
const LETTERS_AND_DIGITS = `${LETTERS}23456789`;

export const INVALID_CODE = 'That code is not valid. Codes work once, for 10 minutes; create a new one in the dashboard.';

/** A fresh code: 6 letters, or 8 letters and digits (MANAGE_CODE_LENGTH). */
export function generateCode(length: number): string {
  const alphabet = length === 6 ? LETTERS : LETTERS_AND_DIGITS;
  let code = '';
  for (let i = 0; i < length; i++) code += alphabet[randomInt(alphabet.length)];
  return code;
}

/** What people type: any case, with spaces or dashes between groups (`abcd-efgh`). */
export const normaliseCode = (code: string) => code.toUpperCase().replace(/[\s-]+/g, '');

const codeHash = (code: string) => hashToken(normaliseCode(code));

const isUniqueViolation = (err: unknown) => (err as { code?: string } | null)?.code === 'P2002';

/**
 * A new single-use code for the business; the caller shows it once and never logs it.
 * `grantId` names the OAuth connection that asked for it, if one did: what the code buys dies
 * with that connection. (The owner's own codes, from the dashboard or the script, have none;
 * connections can no longer ask, see auth/schema.ts, but a code a connection made stays tied.)
 */
export async function createManageCode(
  services: Pick<Services, 'prisma' | 'clock' | 'config'>,
  businessId: string,
  grantId: string | null = null,
): Promise<{ code: string; expiresAt: Date }> {
  const expiresAt = new Date(services.clock.now() + CODE_LIFETIME_MS);
  // Six letters give 23^6 codes, so a new code can equal an old, spent one (codeHash is unique):
  // draw again.
  for (let attempt = 0; ; attempt++) {
    const code = generateCode(services.config.manageCodeLength);
    try {
      await services.prisma.manageCode.create({ data: { businessId, grantId, codeHash: codeHash(code), createdAt: services.clock.date(), expiresAt } });
      return { code, expiresAt };
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 4) throw err;
    }
  }
}

/** A code being spent: its business, and the connection that made it, if one did. */
export interface RedeemedCode {
  businessId: string;
  grantId: string | null;
}

/**
 * Spends a code and runs `then` in the same transaction, so whatever the code buys (a business
 * key, a sign-in) exists exactly when the code is spent. A code whose connection was revoked
 * buys nothing.
 *
 * Guessing is limited twice: every attempt counts against the client address (rateLimits.code),
 * and every attempt at a code that exists but is expired or spent counts against that code
 * (rateLimits.codeAttempts), so replaying a leaked, spent code is throttled from any address.
 * The conditional updateMany makes two concurrent redemptions of one code race safely: only
 * one sees count 1.
 */
export async function redeemManageCodeWith<T>(
  services: Services,
  code: string,
  clientAddress: string,
  then: (tx: Tx, code: RedeemedCode) => Promise<T>,
): Promise<T> {
  await services.rateLimits.code.consume(`address:${clientAddress}`);
  const hash = codeHash(code);
  const row = await services.prisma.manageCode.findUnique({ where: { codeHash: hash }, select: { id: true, businessId: true, grantId: true } });
  if (!row) throw new AppError('invalid_input', INVALID_CODE);
  const result = await services.prisma.$transaction(async (tx) => {
    const now = services.clock.date();
    const spent = await tx.manageCode.updateMany({
      where: { id: row.id, usedAt: null, expiresAt: { gt: now }, OR: [{ grantId: null }, { grant: { revokedAt: null } }] },
      data: { usedAt: now },
    });
    return spent.count === 1 ? { value: await then(tx, { businessId: row.businessId, grantId: row.grantId }) } : null;
  });
  if (result) return result.value;
  await services.rateLimits.codeAttempts.consume(`code:${hash}`);
  throw new AppError('invalid_input', INVALID_CODE);
}

/** Spends a code and says which business it was for (the sign-in window uses this). */
export function redeemManageCode(services: Services, code: string, clientAddress: string): Promise<{ businessId: string }> {
  return redeemManageCodeWith(services, code, clientAddress, async (_tx, redeemed) => ({ businessId: redeemed.businessId }));
}
