/**
 * The authorization request (RFC 6749 4.1.1 with PKCE, RFC 7636, and resource indicators,
 * RFC 8707) and the sign-in steps of the sign-in window. The window is plain HTML forms, so the
 * request travels in hidden fields; a signed form token binds those fields to a page we served,
 * and a signed consent token carries a password sign-in to the business choice.
 */
import { randomBytes } from 'node:crypto';
import type { Services } from '../../context.js';
import type { Scope } from '../vocabulary.js';
import { AppError } from '../../errors.js';
import { hashPassword, verifyPassword } from '../password.js';
import { hashToken } from '../tokens.js';
import { redeemManageCodeWith } from '../manage-codes.js';
import { authorizingClient, redirectAllowed, type OAuthClientInfo } from './clients.js';
import { OAuthError } from './errors.js';
import { createAuthorizationCode } from './grants.js';
import { checkResources, parseScopes } from './scopes.js';
import { signJwt, verifyJwt } from './signing-keys.js';
import type { AuthorizationRequest } from './grants.js';

const FORM_TTL_SECONDS = 30 * 60;
const CONSENT_TTL_SECONDS = 10 * 60;
const FORM_TYP = 'porchlight-authorize+jwt';
const CONSENT_TYP = 'porchlight-consent+jwt';
const DEVICE_TYP = 'porchlight-device+jwt';
/** How long a browser that signed in stays known to the account (its device cookie). */
export const DEVICE_TTL_SECONDS = 180 * 24 * 60 * 60;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export type Params = Record<string, string | undefined>;

/**
 * Step one: the client and redirect URI. Until both are valid there is nowhere safe to send the
 * user back to, so these errors are shown on a page, never redirected. A client_id that is an
 * https URL is a client ID metadata document, read now: its redirect_uris decide.
 */
export async function checkClient(services: Services, params: Params): Promise<{ client: OAuthClientInfo; redirectUri: string }> {
  const client = params.client_id ? await authorizingClient(services, params.client_id) : null;
  if (!client) throw new OAuthError('invalid_client', 'The app that sent you here is not registered with Porchlight (unknown client_id).');
  const redirectUri = params.redirect_uri ?? '';
  if (!redirectAllowed(client, redirectUri)) {
    throw new OAuthError('invalid_request', 'The address this app asked to return to (redirect_uri) is not one it registered, so sign-in stops here.');
  }
  return { client, redirectUri };
}

/**
 * Step two: the rest of the request. These errors go back to the client's redirect URI.
 * `resources`: every resource parameter (RFC 8707 allows several).
 */
export function checkRequest(services: Services, target: { client: OAuthClientInfo; redirectUri: string }, params: Params, resources: readonly string[]): AuthorizationRequest {
  if (params.response_type !== 'code') throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported.');
  if (!params.code_challenge) throw new OAuthError('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
  if (params.code_challenge_method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  if (!PKCE_CHALLENGE.test(params.code_challenge)) throw new OAuthError('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters).');
  if (params.state !== undefined && params.state.length > 1000) throw new OAuthError('invalid_request', 'state is too long (at most 1000 characters).');
  return {
    ...target,
    state: params.state || undefined,
    codeChallenge: params.code_challenge,
    scopes: parseScopes(params.scope),
    resources: checkResources(services, resources),
  };
}

/** The request as hidden form fields (what the next POST sends back): name and value, resource repeated. */
export function requestFields(req: AuthorizationRequest): Array<[string, string]> {
  return [
    ['response_type', 'code'],
    ['client_id', req.client.id],
    ['redirect_uri', req.redirectUri],
    ['scope', req.scopes.join(' ')],
    ['code_challenge', req.codeChallenge],
    ['code_challenge_method', 'S256'],
    ...(req.state !== undefined ? [['state', req.state] as [string, string]] : []),
    ...(req.resources ?? []).map((r): [string, string] => ['resource', r]),
  ];
}

const requestHash = (req: AuthorizationRequest) => hashToken(JSON.stringify(requestFields(req).sort()));
const formAudience = (services: Services) => `${services.config.baseUrl}/authorize`;

/** Proof that a POST comes from a sign-in page we served for exactly this request. */
export const formToken = (services: Services, req: AuthorizationRequest) =>
  signJwt(services, { req: requestHash(req) }, { typ: FORM_TYP, audience: formAudience(services), subject: req.client.id, ttlSeconds: FORM_TTL_SECONDS });

export async function checkFormToken(services: Services, token: string | undefined, req: AuthorizationRequest): Promise<void> {
  const claims = token ? await verifyJwt(services, token, { typ: FORM_TYP, audience: formAudience(services) }) : null;
  if (!claims || claims.req !== requestHash(req)) {
    throw new OAuthError('invalid_request', 'This sign-in page has expired or was changed. Start the connection again from your app.');
  }
}

export interface SignedInOwner {
  ownerId: string;
  businesses: Array<{ id: string; name: string; slug: string }>;
  /** A fresh device cookie value naming this account, for the browser that signed in. */
  device: string;
}

/** Compared against when the e-mail is unknown, so a wrong e-mail takes as long as a wrong password. */
let decoyHash: Promise<string> | undefined;
const WRONG_CREDENTIALS = 'That e-mail and password do not match a Porchlight business account.';

const deviceToken = (services: Services, ownerId: string) =>
  signJwt(services, { jti: randomBytes(16).toString('base64url') }, { typ: DEVICE_TYP, audience: formAudience(services), subject: ownerId, ttlSeconds: DEVICE_TTL_SECONDS });

/**
 * The device id of a device cookie issued to this owner's account, or null. A device that has
 * spent its own failure budget is no longer trusted (OWASP's device-cookie lockout).
 */
async function trustedDevice(services: Services, cookie: string | undefined, ownerId: string | undefined): Promise<string | null> {
  if (!cookie || !ownerId) return null;
  const claims = await verifyJwt(services, cookie, { typ: DEVICE_TYP, audience: formAudience(services) });
  if (claims?.sub !== ownerId || typeof claims.jti !== 'string') return null;
  try {
    await services.rateLimits.signInDevice.consume(`device:${claims.jti}`);
    return claims.jti;
  } catch (err) {
    if (err instanceof AppError && err.code === 'rate_limited') return null;
    throw err;
  }
}

/**
 * Password sign-in, limited by failures only: per client address, per device cookie and, for
 * browsers without a device cookie of this account, by the account's backoff. A browser that
 * signed in before carries a device cookie, so guessing from elsewhere never keeps the owner
 * out. Every attempt takes its points before the password is checked (parallel guesses cannot
 * slip past) and a correct password gives them back.
 */
export async function signInWithPassword(
  services: Services,
  input: { email: string; password: string; clientAddress: string; device?: string },
): Promise<SignedInOwner> {
  const email = input.email.trim().toLowerCase();
  if (!email || !input.password || email.length > 200 || input.password.length > 200) throw new AppError('invalid_input', 'Enter your e-mail and password.');
  const limits = services.rateLimits;
  const address = `address:${input.clientAddress}`;
  await limits.signIn.consume(address);
  const owner = await services.prisma.owner.findUnique({
    where: { email },
    select: { id: true, passwordHash: true, businesses: { select: { id: true, name: true, slug: true }, orderBy: { name: 'asc' } } },
  });
  const device = await trustedDevice(services, input.device, owner?.id);
  if (!device) await limits.signInBackoff.attempt(`email:${email}`);
  decoyHash ??= hashPassword('porchlight-decoy-password');
  const ok = await verifyPassword(input.password, owner?.passwordHash ?? (await decoyHash));
  if (!owner || !ok) {
    if (!device) await limits.signInBackoff.failed(`email:${email}`);
    throw new AppError('invalid_input', WRONG_CREDENTIALS);
  }
  await Promise.all([limits.signIn.refund(address), device ? limits.signInDevice.refund(`device:${device}`) : undefined]);
  if (owner.businesses.length === 0) throw new AppError('invalid_input', 'This account has no business on Porchlight yet.');
  return { ownerId: owner.id, businesses: owner.businesses, device: await deviceToken(services, owner.id) };
}

/**
 * A Manage with AI code names the business itself, so entering it is the owner's approval: the
 * code is spent and the grant created in one transaction. Returns the authorization code.
 */
export function approveWithManageCode(services: Services, req: AuthorizationRequest, code: string, clientAddress: string): Promise<string> {
  if (!code.trim() || code.length > 20) throw new AppError('invalid_input', 'Enter the code from the Manage with AI page of your dashboard.');
  return redeemManageCodeWith(services, code, clientAddress, (tx, redeemed) => {
    // A connection's code could otherwise make a connection that outlives it.
    if (redeemed.grantId) throw new AppError('invalid_input', 'This code was made by a connected app, not by you: create a code in the dashboard at /app (Manage with AI).');
    return createAuthorizationCode(services, req, { businessId: redeemed.businessId, ownerId: null }, tx);
  });
}

/** Carries a password sign-in from the sign-in form to the business choice; its jti makes it single use. */
export const consentToken = (services: Services, ownerId: string, req: AuthorizationRequest) =>
  signJwt(services, { req: requestHash(req), jti: randomBytes(16).toString('base64url') }, { typ: CONSENT_TYP, audience: formAudience(services), subject: ownerId, ttlSeconds: CONSENT_TTL_SECONDS });

/**
 * The owner allowed: checks the consent token and the chosen business (one of theirs), then
 * spends the token and creates the authorization code in one transaction, so a replayed
 * consent POST mints no second code. Returns the authorization code.
 */
export async function approveWithConsent(services: Services, req: AuthorizationRequest, token: string | undefined, businessId: string | undefined): Promise<string> {
  const claims = token ? await verifyJwt(services, token, { typ: CONSENT_TYP, audience: formAudience(services) }) : null;
  if (!claims?.sub || typeof claims.jti !== 'string' || typeof claims.exp !== 'number' || claims.req !== requestHash(req)) {
    throw new OAuthError('invalid_request', 'Your sign-in on this page has expired. Start the connection again from your app.');
  }
  const business = businessId ? await services.prisma.business.findFirst({ where: { id: businessId, ownerId: claims.sub }, select: { id: true } }) : null;
  if (!business) throw new AppError('invalid_input', 'Choose one of your businesses.');
  const { sub: ownerId, jti, exp } = claims;
  return services.prisma.$transaction(async (tx) => {
    const now = services.clock.date();
    // A spent token need only be remembered until it would have expired anyway.
    await tx.usedConsent.deleteMany({ where: { expiresAt: { lt: now } } });
    const spent = await tx.usedConsent.createMany({ data: [{ jti, usedAt: now, expiresAt: new Date(exp * 1000) }], skipDuplicates: true });
    if (spent.count !== 1) throw new OAuthError('invalid_request', 'This approval was already used. Start the connection again from your app.');
    return createAuthorizationCode(services, req, { businessId: business.id, ownerId }, tx);
  });
}
