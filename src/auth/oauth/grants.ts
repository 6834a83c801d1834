/**
 * Grants and their credentials: authorization codes (single use, 10 minutes, PKCE S256) and
 * rotating refresh tokens. Codes and refresh tokens are stored only as sha256. A code or refresh
 * token presented a second time means it leaked, so the whole grant is revoked (RFC 9700 4.14).
 */
import { createHash } from 'node:crypto';
import type { Services } from '../../context.js';
import type { Scope } from '../vocabulary.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { hashToken, newToken } from '../tokens.js';
import { ACCESS_TOKEN_TTL_SECONDS, accessTokenClaims, issueAccessToken, type GrantInfo } from './access-token.js';
import { checkResources, parseScopes, resourcesOf } from './scopes.js';
import { OAuthError } from './errors.js';
import { publishCredentialRevoked } from '../../events/pubsub.js';
import { isMetadataClientId, type OAuthClientInfo } from './clients.js';

const CODE_TTL_MS = 10 * 60 * 1000;
const REFRESH_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const CODE_PREFIX = 'pac_';
const REFRESH_PREFIX = 'prt_';
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

type Tx = Prisma.TransactionClient;

/**
 * The owner approved: a new grant for the chosen business and its authorization code, inside
 * the transaction that spends what approved it (a Manage with AI code or a consent token).
 */
export async function createAuthorizationCode(services: Services, req: AuthorizationRequest, who: { businessId: string; ownerId: string | null }, tx: Tx): Promise<string> {
  const code = newToken(CODE_PREFIX, 32);
  const now = services.clock.date();
  // A metadata-document client is stored as its document described it when the owner approved:
  // grants and codes name it, and the token endpoint knows it by this row.
  if (isMetadataClientId(req.client.id)) {
    const seen = { name: req.client.name, redirectUris: req.client.redirectUris };
    await tx.oAuthClient.upsert({ where: { id: req.client.id }, create: { id: req.client.id, ...seen, createdAt: now }, update: seen });
  }
  const grant = await tx.oAuthGrant.create({
    data: { clientId: req.client.id, businessId: who.businessId, ownerId: who.ownerId, scopes: req.scopes, resources: req.resources ?? [], createdAt: now },
  });
  await tx.oAuthCode.create({
    data: {
      codeHash: hashToken(code),
      clientId: req.client.id,
      grantId: grant.id,
      redirectUri: req.redirectUri,
      codeChallenge: req.codeChallenge,
      scopes: req.scopes,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MS),
    },
  });
  return code;
}

/**
 * Ends a connection and the business keys its Manage with AI codes bought, in one transaction.
 * WebSockets opened with any of them close, on every instance. Returns the keys it revoked, or
 * null when the connection was revoked already.
 */
export async function revokeGrant(services: Services, grantId: string): Promise<string[] | null> {
  const keys = await services.prisma.$transaction(async (tx) => {
    const now = services.clock.date();
    const { count } = await tx.oAuthGrant.updateMany({ where: { id: grantId, revokedAt: null }, data: { revokedAt: now } });
    if (count === 0) return null;
    const revoked = await tx.apiKey.updateManyAndReturn({ where: { grantId, revokedAt: null }, data: { revokedAt: now }, select: { id: true } });
    return revoked.map((k) => k.id);
  });
  if (!keys) return null;
  for (const id of [grantId, ...keys]) publishCredentialRevoked(services.events, id);
  return keys;
}

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** A fresh refresh token for the grant, stored inside the caller's transaction. */
async function newRefreshToken(services: Services, tx: Tx, grantId: string): Promise<string> {
  const refreshToken = newToken(REFRESH_PREFIX, 32);
  const now = services.clock.now();
  await tx.oAuthRefreshToken.create({
    data: { grantId, tokenHash: hashToken(refreshToken), createdAt: new Date(now), expiresAt: new Date(now + REFRESH_TTL_MS) },
  });
  return refreshToken;
}

/**
 * The resources a new access token is for (RFC 8707): those the token request names, which must
 * be among those the authorization request named; else the authorization request's; else, for
 * a client that named none (clients older than MCP 2025-06-18 send no resource), every resource
 * as before resource binding (docs/owners.md).
 */
function tokenResources(services: Services, asked: readonly string[], granted: readonly string[]): string[] {
  const resources = checkResources(services, asked);
  if (resources.length === 0) return granted.length ? [...granted] : resourcesOf(services.config.baseUrl);
  if (granted.length && resources.some((r) => !granted.includes(r))) {
    throw new OAuthError('invalid_target', `resource must be among those of the authorization request: ${granted.join(', ')}.`);
  }
  return resources;
}

/** Signed after the transaction commits: signing may read the key table, which must not wait on the transaction. */
async function tokenResponse(services: Services, grant: GrantInfo, scopes: Scope[], audience: string[], refreshToken: string): Promise<TokenResponse> {
  return {
    access_token: await issueAccessToken(services, grant, scopes, audience),
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    refresh_token: refreshToken,
    scope: scopes.join(' '),
  };
}

const badCode = () => new OAuthError('invalid_grant', 'The authorization code is not valid (unknown, expired, already used, or issued to another client or redirect URI).');

export async function exchangeCode(
  services: Services,
  input: { code?: string; clientId?: string; redirectUri?: string; codeVerifier?: string; resources?: readonly string[] },
): Promise<TokenResponse> {
  if (!input.code) throw new OAuthError('invalid_request', 'code is required.');
  if (!input.clientId) throw new OAuthError('invalid_request', 'client_id is required (public clients identify themselves with it).');
  if (!input.codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE).');
  if (!VERIFIER.test(input.codeVerifier)) throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9 and -._~.');
  const row = await services.prisma.oAuthCode.findUnique({ where: { codeHash: hashToken(input.code) }, include: { grant: true } });
  if (!row) throw badCode();
  if (row.usedAt) {
    await revokeGrant(services, row.grantId);
    throw badCode();
  }
  const now = services.clock.date();
  if (row.expiresAt <= now || row.grant.revokedAt) throw badCode();
  if (row.clientId !== input.clientId || row.redirectUri !== input.redirectUri) throw badCode();
  if (s256(input.codeVerifier) !== row.codeChallenge) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge of the authorization request.');
  const resources = tokenResources(services, input.resources ?? [], row.grant.resources);

  const grant: GrantInfo = { id: row.grantId, clientId: row.clientId, businessId: row.grant.businessId, ownerId: row.grant.ownerId };
  const refreshToken = await services.prisma.$transaction(async (tx) => {
    // Marking the code used only if still unused makes two racing exchanges yield one winner.
    const { count } = await tx.oAuthCode.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
    return count === 1 ? newRefreshToken(services, tx, grant.id) : null;
  });
  if (!refreshToken) {
    await revokeGrant(services, row.grantId);
    throw badCode();
  }
  return tokenResponse(services, grant, row.scopes as Scope[], resources, refreshToken);
}

const badRefresh = () => new OAuthError('invalid_grant', 'The refresh token is not valid (unknown, expired, already used or revoked). Sign in again.');

/** Rotates a refresh token: the presented one is spent and a new pair is issued. */
export async function refreshGrant(services: Services, input: { refreshToken?: string; clientId?: string; scope?: string; resources?: readonly string[] }): Promise<TokenResponse> {
  if (!input.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required.');
  if (!input.clientId) throw new OAuthError('invalid_request', 'client_id is required (public clients identify themselves with it).');
  const row = await services.prisma.oAuthRefreshToken.findUnique({ where: { tokenHash: hashToken(input.refreshToken) }, include: { grant: true } });
  if (!row || row.grant.clientId !== input.clientId) throw badRefresh();
  if (row.usedAt) {
    await revokeGrant(services, row.grantId);
    throw badRefresh();
  }
  const now = services.clock.date();
  if (row.expiresAt <= now || row.grant.revokedAt) throw badRefresh();
  const granted = row.grant.scopes as Scope[];
  // A client may ask for less than was granted, never more (RFC 6749 section 6).
  const scopes = input.scope === undefined ? granted : parseScopes(input.scope);
  if (scopes.some((s) => !granted.includes(s))) throw new OAuthError('invalid_scope', 'A refresh cannot add scopes the owner did not grant.');
  const resources = tokenResources(services, input.resources ?? [], row.grant.resources);

  const grant: GrantInfo = { id: row.grantId, clientId: row.grant.clientId, businessId: row.grant.businessId, ownerId: row.grant.ownerId };
  const refreshToken = await services.prisma.$transaction(async (tx) => {
    const { count } = await tx.oAuthRefreshToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: now } });
    return count === 1 ? newRefreshToken(services, tx, grant.id) : null;
  });
  if (!refreshToken) {
    await revokeGrant(services, row.grantId);
    throw badRefresh();
  }
  return tokenResponse(services, grant, scopes, resources, refreshToken);
}

/**
 * RFC 7009: revoking either kind of token ends its grant. Unknown tokens, and tokens of another
 * client, are ignored without saying so.
 */
export async function revokeToken(services: Services, input: { token?: string; clientId?: string }): Promise<void> {
  if (!input.token) throw new OAuthError('invalid_request', 'token is required.');
  let grant: { id: string; clientId: string } | null = null;
  if (input.token.startsWith(REFRESH_PREFIX)) {
    const row = await services.prisma.oAuthRefreshToken.findUnique({ where: { tokenHash: hashToken(input.token) }, select: { grant: { select: { id: true, clientId: true } } } });
    grant = row?.grant ?? null;
  } else {
    const claims = await accessTokenClaims(services, input.token);
    if (claims) grant = await services.prisma.oAuthGrant.findUnique({ where: { id: claims.grantId }, select: { id: true, clientId: true } });
  }
  if (grant && (!input.clientId || input.clientId === grant.clientId)) await revokeGrant(services, grant.id);
}

/** A validated authorization request. */
export interface AuthorizationRequest {
  client: OAuthClientInfo;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  scopes: Scope[];
  /** The resources (RFC 8707) it named; none (or absent) means every resource. */
  resources?: string[];
}
