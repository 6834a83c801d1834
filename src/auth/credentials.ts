/**
 * Bearer credentials: which one a request carried, verified once per request whichever
 * transport asks first, and what each operation's auth needs of it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, OwnerContext, Services } from '../context.js';
import type { Auth, Credential, Scope } from './vocabulary.js';
import { AppError } from '../errors.js';
import { apiKeyVerifier } from './keys.js';
import { accessTokenVerifier } from './oauth/access-token.js';
import { callTokenVerifier } from '../phone/call-token.js';
import type { Verifier } from './verifier.js';
import type { CredentialRead } from './read-ahead.js';

const READ_WRITE: ReadonlySet<Scope> = new Set(['read', 'write']);

const sharedKey: Verifier = async (services, token) => {
  const expected = Buffer.from(services.config.publicSharedKey);
  const given = Buffer.from(token);
  if (!token.startsWith('sk_pub_') || given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { id: 'public', kind: 'public', scopes: READ_WRITE };
};

/** Every kind of bearer credential Porchlight accepts, tried in order. */
const verifiers: Verifier[] = [sharedKey, apiKeyVerifier, accessTokenVerifier, callTokenVerifier];

export const unauthorized = (message: string, invalidToken = false) => new AppError('unauthorized', message, {}, { invalidToken });

const resolved = new WeakMap<Request, Promise<Credential | null>>();

/**
 * A request the server makes itself for a credential it verified some other way (the dashboard
 * acting for its signed-in owner): credentialOf answers with that credential.
 */
export function actingAs(request: Request, credential: Credential): Request {
  resolved.set(request, Promise.resolve(credential));
  return request;
}

/**
 * The request's credential: null without an Authorization header; a 401 AppError when one is
 * sent but is not valid (credentials are optional on customer operations, but must be valid).
 * `address` is the caller's network address: every check is charged to its budget of credential
 * checks up front and given back when the credential is valid, so failed checks are limited and
 * answered 429 before any lookup once the budget is spent. `read`: what the operation the
 * request is for reads with the check (CredentialRead), when this call is the request's first.
 */
export function credentialOf(services: Services, request: Request, address: string, read?: CredentialRead): Promise<Credential | null> {
  let pending = resolved.get(request);
  if (!pending) {
    pending = resolve(services, request, address, read);
    resolved.set(request, pending);
  }
  return pending;
}

/**
 * The protected resource (RFC 8707) a request is for: the MCP endpoint, or the API (REST,
 * GraphQL and its WebSocket) at the base URL.
 */
export function resourceOf(services: Services, request: Request): string {
  const path = new URL(request.url).pathname;
  return path === '/mcp' || path.startsWith('/mcp/') ? `${services.config.baseUrl}/mcp` : services.config.baseUrl;
}

async function resolve(services: Services, request: Request, address: string, read: CredentialRead | undefined): Promise<Credential | null> {
  const header = request.headers.get('authorization');
  if (header === null || header.trim() === '') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw unauthorized('Send credentials as "Authorization: Bearer <key or token>".');
  const budget = `address:${address}`;
  await services.rateLimits.credentialCheck.consume(budget);
  for (const verify of verifiers) {
    const credential = await verify(services, m[1]!, read);
    if (credential) {
      // A token for another resource is not valid here (RFC 8707, RFC 9068 section 4): invalid_token.
      const resource = resourceOf(services, request);
      if (credential.resources && !credential.resources.includes(resource)) {
        throw unauthorized(
          `This access token was issued for ${credential.resources.join(' and ')}, not for ${resource}. Get a token for this resource: send resource=${resource} in the authorization and token requests.`,
          true,
        );
      }
      await services.rateLimits.credentialCheck.refund(budget);
      return credential;
    }
  }
  throw unauthorized('The key or access token is not valid (unknown, expired or revoked). Sign in again or send no Authorization header for customer operations.', true);
}

const NEEDS = {
  owner: "the business's sign-in: connect Porchlight as an app (OAuth) or send an sk_pro_ business key",
  signed_in: 'a signed-in key or connection',
  dashboard: 'the owner signed in to the dashboard: do it there, at /app',
} as const;

/** The operation that does the same job for someone who is not signed in. */
const WITHOUT_SIGN_IN: Record<string, string> = {
  ask_business: ' Without signing in, use contact_business (a name and a message; no account) and read the answer with inquiry_status.',
  my_inquiries: ' Without signing in, read one conversation with inquiry_status (inquiry_id and reply_token).',
};

/**
 * What an operation needs of the credential: reads need `read`, changes need `write` (write
 * implies read); `signed_in` needs a personal key or a connection; `owner` the business's sign-in;
 * `dashboard` the owner signed in to the dashboard itself (no bearer credential will do).
 */
export function checkAccess(op: { name: string; auth: Auth | 'dashboard'; method: 'GET' | 'POST' }, credential: Credential | null): void {
  if (op.auth === 'public' && !credential) return;
  if (!credential) throw unauthorized(`${op.name} needs ${NEEDS[op.auth as keyof typeof NEEDS]}.${WITHOUT_SIGN_IN[op.name] ?? ''}`);
  if (op.auth === 'dashboard' && credential.kind !== 'session') {
    throw new AppError('insufficient_scope', `${op.name} is for the owner signed in to the dashboard, never a connected app or a key: the owner does it at /app.`);
  }
  if (credential.operations && !credential.operations.has(op.name)) {
    throw new AppError('insufficient_scope', `${op.name} cannot be called with this token: it is for ${[...credential.operations].join(', ')} only.`);
  }
  const scope: Scope = op.method === 'GET' ? 'read' : 'write';
  const has = credential.scopes.has(scope) || (scope === 'read' && credential.scopes.has('write'));
  const refuse = (message: string) => new AppError('insufficient_scope', message, {}, { scope });
  if (!has) throw refuse(`${op.name} needs the "${scope}" scope; sign in again granting it.`);
  if ((op.auth === 'owner' || op.auth === 'dashboard') && !credential.businessId) {
    throw refuse(`${op.name} is for business owners; this credential does not act for a business.`);
  }
  if (op.auth === 'signed_in' && credential.kind === 'public') {
    throw refuse(`${op.name} needs a personal key or a signed-in connection; the shared public key allows public operations only.${WITHOUT_SIGN_IN[op.name] ?? ''}`);
  }
}

/** The key or connection a customer acts through; the shared public key is nobody's. */
export const signedIn = (credential: Credential | null): Credential | null => (credential && credential.kind !== 'public' ? credential : null);

/**
 * The context an owner handler runs with: the business its credential acts for, as `business`
 * (after the guard passed, which refuses owner fields to credentials acting for none).
 */
export function ownerContext(ctx: Context): OwnerContext {
  const id = ctx.credential?.businessId;
  if (!id) throw unauthorized("This operation needs the business's sign-in.");
  return { ...ctx, business: { id } };
}
