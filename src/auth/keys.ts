/**
 * Bearer keys: personal sk_live_ keys that customers get at /key after confirming their e-mail,
 * and sk_pro_ business keys bought with a Manage with AI code at POST /app/api/connect.
 * Only a key's sha256 is stored; the key itself is shown once.
 *
 * A business key works for BUSINESS_KEY_DAYS, until the owner revokes it (revoke_api_key, or
 * the dashboard's Keys and connections), and, when an OAuth connection created the code that
 * bought it, only as long as that connection is not revoked.
 */
import { revisionOf } from '../db/revision.js';
import { Prisma, type ApiKey } from '../generated/prisma/client.js';
import type { Services } from '../context.js';
import type { Scope } from './vocabulary.js';
import { AppError } from '../errors.js';
import type { QueuedMail } from '../mail/outbox.js';
import type { Verifier } from './verifier.js';
import { readAheadColumn } from './read-ahead.js';
import { redeemManageCodeWith, type RedeemedCode } from './manage-codes.js';
import { DAY, HOUR } from '../core/time.js';
import { hashToken, newToken } from './tokens.js';
import { publishCredentialRevoked } from '../events/pubsub.js';

type Tx = Prisma.TransactionClient;

const KEY_SCOPES: Scope[] = ['read', 'write'];
const KEY_REQUEST_LIFETIME_MS = 24 * HOUR;
/** How long a business key works; the owner then creates a new code in the dashboard. */
export const BUSINESS_KEY_DAYS = 180;
/** lastUsedAt is kept to the hour, so a busy key costs one write an hour, not one a request. */
const LAST_USED_STEP_MS = HOUR;
/** Enough of a key to tell keys apart in a list, too little to use. */
const hintOf = (key: string) => key.slice(0, 12);

type KeyRow = Pick<ApiKey, 'id' | 'kind' | 'scopes' | 'businessId' | 'name' | 'email' | 'revokedAt' | 'expiresAt' | 'lastUsedAt'> & {
  grantRevokedAt: Date | null;
  scheduleRevision: string | null;
  readAhead?: unknown;
};

export const apiKeyVerifier: Verifier = async (services, token, read) => {
  if (!token.startsWith('sk_live_') && !token.startsWith('sk_pro_')) return null;
  // Every owner request checks its key: plain SQL (db/sql.ts). The connection that made it, if
  // one did, is read in the same statement: a key never outlives it, whatever else happened. So
  // is the business's schedule revision: the owner's most frequent read then needs no other
  // statement when its page is cached (owners/schedule-cache.ts). So is what the operation reads
  // with the check, when it asks (auth/read-ahead.ts).
  const [key] = await services.query<KeyRow>(
    Prisma.sql`SELECT k."id", k."kind", k."scopes", k."businessId", k."name", k."email", k."revokedAt", k."expiresAt", k."lastUsedAt", g."revokedAt" AS "grantRevokedAt",
        ${revisionOf('s')} AS "scheduleRevision"${readAheadColumn(read, 'k."businessId"')}
      FROM "ApiKey" k LEFT JOIN "OAuthGrant" g ON g."id" = k."grantId" LEFT JOIN "ScheduleRevision" s ON s."businessId" = k."businessId"
      WHERE k."keyHash" = ${hashToken(token)}`,
  );
  const now = services.clock.now();
  if (!key || key.revokedAt || key.grantRevokedAt || (key.expiresAt && key.expiresAt.getTime() <= now)) return null;
  if (!key.lastUsedAt || now - key.lastUsedAt.getTime() >= LAST_USED_STEP_MS) {
    await services.query(Prisma.sql`UPDATE "ApiKey" SET "lastUsedAt" = ${new Date(now)} WHERE "id" = ${key.id}`);
  }
  const scopes = new Set(key.scopes as Scope[]);
  if (key.kind === 'business') {
    return {
      id: key.id, kind: 'business', scopes, businessId: key.businessId!, expiresAt: key.expiresAt?.getTime(), scheduleRevision: key.scheduleRevision ?? undefined,
      readAhead: read && { read, value: key.readAhead },
    };
  }
  return { id: key.id, kind: 'personal', scopes, name: key.name ?? undefined, email: key.email ?? undefined };
};

/**
 * Revokes a key: it stops working at once, and WebSockets opened with it close on every instance.
 * False when it was revoked already.
 */
export async function revokeApiKey(services: Services, keyId: string): Promise<boolean> {
  const { count } = await services.prisma.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: services.clock.date() } });
  if (count > 0) publishCredentialRevoked(services.events, keyId);
  return count > 0;
}

function keyRequestMail(to: string, name: string, confirmUrl: string): QueuedMail {
  return {
    to,
    subject: 'Confirm your Porchlight key',
    text: [
      `Hello ${name},`,
      '',
      'Someone (we hope you) asked for a personal Porchlight key for this address.',
      `Open this link within 24 hours and press the button to get the key: ${confirmUrl}`,
      '',
      'If it was not you, ignore this mail: no key is made until the button is pressed.',
    ].join('\n'),
  };
}

/** Stores a key request and mails its confirmation link, in one transaction. */
export async function requestPersonalKey(services: Services, input: { name: string; email: string }): Promise<void> {
  const token = newToken('kr_');
  const now = services.clock.now();
  await services.transaction(async (tx) => {
    await tx.keyRequest.create({
      data: { name: input.name, email: input.email, tokenHash: hashToken(token), createdAt: new Date(now), expiresAt: new Date(now + KEY_REQUEST_LIFETIME_MS) },
    });
    await services.outbox.enqueue(tx, keyRequestMail(input.email, input.name, services.links.keyConfirm(token)));
  });
}

const USED = 'This link was already used: its key was shown once and cannot be shown again. Ask for a new key at /key if you lost it.';
const EXPIRED = 'This link has expired (links work for 24 hours). Ask for a new key at /key.';
const UNKNOWN = 'This link is not valid. Use the link from the most recent e-mail, or ask for a new key at /key.';

/** Whether a confirmation link can still be used; throws the reason it cannot. */
export async function checkKeyRequest(services: Services, token: string): Promise<{ name: string; email: string }> {
  const request = await services.prisma.keyRequest.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!request) throw new AppError('invalid_input', UNKNOWN);
  if (request.usedAt) throw new AppError('invalid_input', USED);
  if (request.expiresAt.getTime() <= services.clock.now()) throw new AppError('invalid_input', EXPIRED);
  return { name: request.name, email: request.email };
}

/** Spends the confirmation link and creates the personal key; the key is returned once. */
export async function confirmPersonalKey(services: Services, token: string): Promise<{ key: string }> {
  await checkKeyRequest(services, token);
  const key = newToken('sk_live_');
  const created = await services.prisma.$transaction(async (tx) => {
    const now = services.clock.date();
    const tokenHash = hashToken(token);
    // Conditional, so two presses racing each other cannot both make a key.
    const spent = await tx.keyRequest.updateMany({ where: { tokenHash, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
    if (spent.count !== 1) return false;
    const request = await tx.keyRequest.findUniqueOrThrow({ where: { tokenHash } });
    await tx.apiKey.create({
      data: { kind: 'personal', keyHash: hashToken(key), hint: hintOf(key), name: request.name, email: request.email, scopes: KEY_SCOPES, createdAt: now },
    });
    return true;
  });
  if (!created) throw new AppError('invalid_input', USED);
  return { key };
}

async function createBusinessKey(tx: Tx, code: RedeemedCode, now: Date): Promise<{ key: string }> {
  const key = newToken('sk_pro_');
  await tx.apiKey.create({
    data: {
      kind: 'business',
      keyHash: hashToken(key),
      hint: hintOf(key),
      businessId: code.businessId,
      grantId: code.grantId,
      scopes: KEY_SCOPES,
      createdAt: now,
      expiresAt: new Date(now.getTime() + BUSINESS_KEY_DAYS * DAY),
    },
  });
  return { key };
}

/** POST /app/api/connect: a Manage with AI code buys one sk_pro_ business key, tied to whatever made the code. */
export function connectWithCode(services: Services, code: string, clientAddress: string): Promise<{ key: string }> {
  return redeemManageCodeWith(services, code, clientAddress, (tx, redeemed) => createBusinessKey(tx, redeemed, services.clock.date()));
}
