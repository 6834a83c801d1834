import type { Context } from '../context.js';
import type { Auth } from '../auth/vocabulary.js';
import { checkAccess, signedIn } from '../auth/credentials.js';

/** What a guarded field needs: its name for messages, who may call it, and read or write. */
export interface Guarded {
  name: string;
  /** `dashboard`: fields outside the registry that only the dashboard's own session may call. */
  auth: Auth | 'dashboard';
  method: 'GET' | 'POST';
}

const CLIENT_NAME_MAX = 100;
// Control characters and line breaks in a header value are never part of an assistant's name.
const CONTROL = /[\u0000-\u001F\u007F]/g;

/** The assistant's name as stored and shown: plain text, at most 100 characters, or none. */
export const cleanClientName = (name: string | undefined): string | undefined =>
  name?.replace(CONTROL, ' ').trim().slice(0, CLIENT_NAME_MAX) || undefined;

/**
 * Every executed root field passes here before its handler, whichever transport or GraphQL
 * shape (fragments, aliases, subscriptions) reached it (the access plugin wraps each root field
 * with it: registry/access-plugin.ts): it costs one unit of the caller's
 * request budget, then the caller's credential must allow it. The budget is the key's or
 * connection's; the shared public key is nobody's (every assistant may use it), so its callers,
 * like callers without a key, are told apart by address.
 */
export async function enterOperation(op: Guarded, ctx: Context): Promise<void> {
  const caller = signedIn(ctx.credential);
  await ctx.rateLimits.request.consume(caller ? `credential:${caller.id}` : `address:${ctx.clientAddress}`);
  checkAccess(op, ctx.credential);
  ctx.clientName = cleanClientName(ctx.clientName);
}
