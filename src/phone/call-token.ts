/**
 * The credential the AI agent answering a receptionist call reads the business's call_brief
 * with: one token per call, handed to the agent in the ConversationRelay parameters of that
 * call's TwiML. It is an HMAC of the call id under a key derived from SECRETS_KEY, so nothing is
 * stored and a webhook answered twice hands out the same token; it works only for call_brief of
 * the called business, and only while the call is live (the status callback ends it), at most
 * MAX_CALL_HOURS after it rang.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Prisma } from '../generated/prisma/client.js';
import type { Verifier } from '../auth/verifier.js';
import { readAheadColumn } from '../auth/read-ahead.js';
import { HOUR } from '../core/time.js';

const PREFIX = 'sk_call_';
export const MAX_CALL_HOURS = 10;
/** Statuses after which a call is over (Twilio's call statuses). */
const ENDED = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];
const READ_ONLY = new Set(['read'] as const);
const CALL_BRIEF_ONLY: ReadonlySet<string> = new Set(['call_brief']);

const keys = new WeakMap<Uint8Array, Buffer>();
function keyOf(secretsKey: Uint8Array): Buffer {
  let key = keys.get(secretsKey);
  if (!key) keys.set(secretsKey, (key = Buffer.from(hkdfSync('sha256', secretsKey, new Uint8Array(0), 'porchlight call-token', 32))));
  return key;
}

const macOf = (secretsKey: Uint8Array, callSid: string) => createHmac('sha256', keyOf(secretsKey)).update(callSid).digest('base64url');

/** The token of one call: `sk_call_<call id>.<mac>`. */
export const callToken = (secretsKey: Uint8Array, callSid: string) => `${PREFIX}${callSid}.${macOf(secretsKey, callSid)}`;

export const callTokenVerifier: Verifier = async (services, token, read) => {
  if (!token.startsWith(PREFIX)) return null;
  const [callSid, mac] = token.slice(PREFIX.length).split('.');
  if (!callSid || !mac) return null;
  const expected = Buffer.from(macOf(services.secretsKey, callSid));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  // With what call_brief reads, when it asks (auth/read-ahead.ts): one round trip as the call starts.
  const [call] = await services.query<{ id: string; businessId: string; answer: string; status: string; createdAt: Date; readAhead?: unknown }>(
    Prisma.sql`SELECT c."id", c."businessId", c."answer", c."status", c."createdAt"${readAheadColumn(read, 'c."businessId"')} FROM "VoiceCall" c WHERE c."callSid" = ${callSid}`,
  );
  const now = services.clock.now();
  const endsAt = call ? call.createdAt.getTime() + MAX_CALL_HOURS * HOUR : 0;
  if (!call || call.answer !== 'agent' || ENDED.includes(call.status) || endsAt <= now) return null;
  return { id: call.id, kind: 'call', scopes: READ_ONLY, businessId: call.businessId, operations: CALL_BRIEF_ONLY, expiresAt: endsAt, readAhead: read && { read, value: call.readAhead } };
};
