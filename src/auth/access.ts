/**
 * The business's credentials as its owner sees them: the sk_pro_ keys and the OAuth
 * connections that act for it, and revoking either. A revoked key or connection is refused at
 * once on every surface; its open WebSockets close (credentialRevoked).
 */
import type { OwnerContext } from '../context.js';
import { notFound } from '../errors.js';
import { isoWithOffset } from '../core/time.js';
import { revokeApiKey } from './keys.js';
import { revokeGrant } from './oauth/grants.js';

/** The list is for people: the newest of each kind, which is plenty for one business. */
const LIST_MAX = 100;

export interface KeyView {
  keyId: string;
  hint: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  /** The connection whose Manage with AI code bought it; it dies with that connection. */
  connectionId: string | null;
  connectionName: string | null;
  current: boolean;
}

export interface ConnectionView {
  connectionId: string;
  clientId: string;
  clientName: string;
  scopes: string[];
  createdAt: string;
  current: boolean;
}

export async function apiKeysService(_input: unknown, ctx: OwnerContext): Promise<{ keys: KeyView[]; connections: ConnectionView[] }> {
  const businessId = ctx.business.id;
  const now = ctx.clock.date();
  const { timeZone } = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
  const at = (d: Date | null) => (d ? isoWithOffset(d.getTime(), timeZone) : null);
  const liveKey = { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }], AND: [{ OR: [{ grantId: null }, { grant: { revokedAt: null } }] }] };
  const keys = await ctx.prisma.apiKey.findMany({
    where: { businessId, kind: 'business', ...liveKey },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: LIST_MAX,
    select: { id: true, hint: true, createdAt: true, expiresAt: true, lastUsedAt: true, grantId: true, grant: { select: { client: { select: { id: true, name: true } } } } },
  });
  // A connection is listed while something of it can still act: a refresh token or an
  // authorization code not yet spent, or a key it bought.
  const grants = await ctx.prisma.oAuthGrant.findMany({
    where: {
      businessId,
      revokedAt: null,
      OR: [
        { refreshTokens: { some: { usedAt: null, expiresAt: { gt: now } } } },
        { codes: { some: { usedAt: null, expiresAt: { gt: now } } } },
        { apiKeys: { some: { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } } },
      ],
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: LIST_MAX,
    select: { id: true, scopes: true, createdAt: true, client: { select: { id: true, name: true } } },
  });
  const current = ctx.credential?.id;
  return {
    keys: keys.map((k) => ({
      keyId: k.id,
      hint: k.hint,
      createdAt: at(k.createdAt)!,
      expiresAt: at(k.expiresAt),
      lastUsedAt: at(k.lastUsedAt),
      connectionId: k.grantId,
      connectionName: k.grant ? (k.grant.client.name ?? k.grant.client.id) : null,
      current: k.id === current,
    })),
    connections: grants.map((g) => ({
      connectionId: g.id,
      clientId: g.client.id,
      clientName: g.client.name ?? g.client.id,
      scopes: g.scopes,
      createdAt: at(g.createdAt)!,
      current: g.id === current,
    })),
  };
}

export interface Revoked {
  id: string;
  kind: 'key' | 'connection';
  /** Keys the connection had bought, revoked with it. */
  keysRevoked: string[];
  /** The credential of this very call was revoked: it is refused from now on. */
  current: boolean;
}

/**
 * Revokes one of the business's keys or connections by its id. Another business's id, or one
 * that never existed, gets the same not_found: nothing says whether it exists. Revoking one
 * already revoked changes nothing and is no error.
 */
export async function revokeApiKeyService(input: { id: string }, ctx: OwnerContext): Promise<Revoked> {
  const businessId = ctx.business.id;
  const current = ctx.credential?.id;
  const key = await ctx.prisma.apiKey.findFirst({ where: { id: input.id, businessId, kind: 'business' }, select: { id: true } });
  if (key) {
    await revokeApiKey(ctx, key.id);
    return { id: key.id, kind: 'key', keysRevoked: [], current: key.id === current };
  }
  const grant = await ctx.prisma.oAuthGrant.findFirst({ where: { id: input.id, businessId }, select: { id: true } });
  if (!grant) throw notFound('No key or connection of this business has that id: api_keys lists them (key_id, connection_id).');
  const keys = (await revokeGrant(ctx, grant.id)) ?? [];
  return { id: grant.id, kind: 'connection', keysRevoked: keys, current: grant.id === current || keys.includes(current ?? '') };
}
