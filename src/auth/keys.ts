/**
 * Bearer keys: personal sk_live_ keys that customers get at /key after confirming their e-mail,
 * and sk_pro_ business keys bought with a Manage with AI code at POST /app/api/connect.
 * Only a key's sha256 is stored; the key itself is shown once.
 */
import { Prisma, type ApiKey } from '../generated/prisma/client.js';
import type { Scope, Services } from '../context.js';
import { AppError } from '../errors.js';
import type { QueuedMail } from '../mail/outbox.js';
import type { Verifier } from './credentials.js';
import { redeemManageCodeWith } from './manage-codes.js';
import { hashToken, newToken } from './tokens.js';
import { publishCredentialRevoked } from '../events/pubsub.js';

type Tx = Prisma.TransactionClient;

const KEY_SCOPES: Scope[] = ['read', 'write'];
const KEY_REQUEST_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Enough of a key to tell keys apart in a list, too little to use. */
const hintOf = (key: string) => key.slice(0, 12);

export const apiKeyVerifier: Verifier = async (services, token) => {
  if (!token.startsWith('sk_live_') && !token.startsWith('sk_pro_')) return null;
  // Every owner request checks its key: plain SQL (db/sql.ts).
  const [key] = await services.query<Pick<ApiKey, 'id' | 'kind' | 'scopes' | 'businessId' | 'name' | 'email' | 'revokedAt'>>(
    Prisma.sql`SELECT "id", "kind", "scopes", "businessId", "name", "email", "revokedAt" FROM "ApiKey" WHERE "keyHash" = ${hashToken(token)}`,
  );
  if (!key || key.revokedAt) return null;
  const scopes = new Set(key.scopes as Scope[]);
  if (key.kind === 'business') return { id: key.id, kind: 'business', scopes, businessId: key.businessId! };
  return { id: key.id, kind: 'personal', scopes, name: key.name ?? undefined, email: key.email ?? undefined };
};

/** Revokes a key: it stops working at once, and WebSockets opened with it close on every instance. */
export async function revokeApiKey(services: Services, keyId: string): Promise<void> {
  const { count } = await services.prisma.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: services.clock.date() } });
  if (count > 0) publishCredentialRevoked(services.events, keyId);
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

async function createBusinessKey(tx: Tx, businessId: string, now: Date): Promise<{ key: string }> {
  const key = newToken('sk_pro_');
  await tx.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: hintOf(key), businessId, scopes: KEY_SCOPES, createdAt: now } });
  return { key };
}

/** POST /app/api/connect: a Manage with AI code buys one sk_pro_ business key. */
export function connectWithCode(services: Services, code: string, clientAddress: string): Promise<{ key: string }> {
  return redeemManageCodeWith(services, code, clientAddress, (tx, businessId) => createBusinessKey(tx, businessId, services.clock.date()));
}
