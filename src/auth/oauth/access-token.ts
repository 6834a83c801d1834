/**
 * Access tokens: short-lived JWTs (RFC 9068 shape) bound to our audience. Every verification
 * also checks that the grant behind the token is not revoked, so revocation takes effect at once.
 */
import { revisionOf } from '../../db/revision.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Services } from '../../context.js';
import type { Scope } from '../vocabulary.js';
import { readAheadColumn } from '../read-ahead.js';
import type { Verifier } from '../verifier.js';
import { signJwt, verifyJwt } from './signing-keys.js';
import { resourcesOf } from './scopes.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ACCESS_TOKEN_TYP = 'at+jwt';


export interface GrantInfo {
  id: string;
  clientId: string;
  businessId: string;
  ownerId: string | null;
}

/** `audience`: the resources (RFC 8707) the token is for; it is accepted there only (credentials.ts). */
export function issueAccessToken(services: Services, grant: GrantInfo, scopes: Scope[], audience: string | string[]): Promise<string> {
  return signJwt(
    services,
    { scope: scopes.join(' '), client_id: grant.clientId, business_id: grant.businessId, gid: grant.id },
    { typ: ACCESS_TOKEN_TYP, audience, subject: grant.ownerId ?? grant.businessId, ttlSeconds: ACCESS_TOKEN_TTL_SECONDS },
  );
}

const isScope = (s: string): s is Scope => s === 'read' || s === 'write';

/** Claims of a valid access token of ours (signature, issuer, audience, expiry), grant not yet checked. */
export async function accessTokenClaims(services: Services, token: string) {
  const known = resourcesOf(services.config.baseUrl);
  const claims = await verifyJwt(services, token, { typ: ACCESS_TOKEN_TYP, audience: known });
  if (!claims || typeof claims.gid !== 'string' || typeof claims.business_id !== 'string' || typeof claims.scope !== 'string') return null;
  const resources = (Array.isArray(claims.aud) ? claims.aud : [claims.aud]).filter((a): a is string => typeof a === 'string' && known.includes(a));
  return { grantId: claims.gid, businessId: claims.business_id, scopes: claims.scope.split(' ').filter(isScope), expiresAt: claims.exp! * 1000, resources };
}

/** Recognises our JWTs; null for other kinds of bearer token and for invalid, expired or revoked ones. */
export const accessTokenVerifier: Verifier = async (services, token, read) => {
  const claims = await accessTokenClaims(services, token);
  if (!claims) return null;
  // Every request with a token checks its grant: plain SQL (db/sql.ts), with the business's
  // schedule revision and what the operation reads with the check (as business keys read them: auth/keys.ts).
  const [grant] = await services.query<{ revokedAt: Date | null; businessId: string; scheduleRevision: string; readAhead?: unknown }>(
    Prisma.sql`SELECT g."revokedAt", g."businessId", ${revisionOf('s')} AS "scheduleRevision"${readAheadColumn(read, 'g."businessId"')}
      FROM "OAuthGrant" g LEFT JOIN "ScheduleRevision" s ON s."businessId" = g."businessId" WHERE g."id" = ${claims.grantId}`,
  );
  if (!grant || grant.revokedAt || grant.businessId !== claims.businessId) return null;
  return {
    id: claims.grantId, kind: 'oauth', scopes: new Set(claims.scopes), businessId: claims.businessId, expiresAt: claims.expiresAt, resources: claims.resources,
    scheduleRevision: grant.scheduleRevision, readAhead: read && { read, value: grant.readAhead },
  };
};
