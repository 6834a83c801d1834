/**
 * OAuth clients: the built-in public client, clients registered dynamically (RFC 7591) and
 * clients that name their metadata document as client_id (client-metadata.ts). All clients are
 * public (no secret); PKCE stands in for client authentication.
 */
import { randomBytes } from 'node:crypto';
import type { Services } from '../../context.js';
import { OAuthError } from './errors.js';
import { acceptableRedirectUri, isMetadataClientId, type OAuthClientInfo } from './client-info.js';

export { acceptableRedirectUri, isMetadataClientId, type OAuthClientInfo };

export const PUBLIC_CLIENT_ID = 'porchlight-public';
const MAX_REDIRECT_URIS = 10;

const publicClientReady = new WeakMap<object, Promise<unknown>>();

/** The public client's row must exist because codes and grants reference it. */
function ensurePublicClient(services: Services): Promise<unknown> {
  let ready = publicClientReady.get(services.prisma);
  if (!ready) {
    ready = services.prisma.oAuthClient.upsert({
      where: { id: PUBLIC_CLIENT_ID },
      create: { id: PUBLIC_CLIENT_ID, name: 'Porchlight public client', redirectUris: [] },
      update: {},
    });
    ready.catch(() => publicClientReady.delete(services.prisma));
    publicClientReady.set(services.prisma, ready);
  }
  return ready;
}

/**
 * A client the server has seen: the public client, a registered one, or a metadata-document
 * client that went through /authorize (its row is written when the owner approves). The token and
 * revocation endpoints know clients this way; /authorize reads a metadata document afresh
 * (authorizingClient).
 */
export async function findClient(services: Services, clientId: string): Promise<OAuthClientInfo | null> {
  if (clientId === PUBLIC_CLIENT_ID) await ensurePublicClient(services);
  if (!clientId || clientId.length > (isMetadataClientId(clientId) ? 2000 : 200)) return null;
  return services.prisma.oAuthClient.findUnique({ where: { id: clientId }, select: { id: true, name: true, redirectUris: true } });
}

/**
 * The client an authorization request names: a metadata-document client as its document says
 * now (cached as its caching headers allow), any other as stored. A document that cannot be
 * read or used is an OAuthError saying why; an unknown registered client is null.
 */
export function authorizingClient(services: Services, clientId: string): Promise<OAuthClientInfo | null> {
  return isMetadataClientId(clientId) ? services.clientDocuments.resolve(clientId) : findClient(services, clientId);
}

/** Registered clients must name one of their redirect URIs exactly; the public client any acceptable one. */
export function redirectAllowed(client: OAuthClientInfo, redirectUri: string): boolean {
  if (client.id === PUBLIC_CLIENT_ID) return acceptableRedirectUri(redirectUri);
  return client.redirectUris.includes(redirectUri);
}

/**
 * Whether the browser may be sent to this redirect URI without the owner choosing to go there
 * (RFC 6749 4.1.2.1, RFC 9700 4.11.1): a URI the client registered, or the public client's
 * loopback address (a native app on the owner's own machine). Any other address the public client
 * names is unverified: anyone can name it, so only an owner who saw it and allowed is sent there.
 */
export function redirectVerified(client: OAuthClientInfo, redirectUri: string): boolean {
  if (client.redirectUris.includes(redirectUri)) return true;
  if (client.id !== PUBLIC_CLIENT_ID || !acceptableRedirectUri(redirectUri)) return false;
  const url = new URL(redirectUri);
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]');
}

export interface RegistrationRequest {
  redirect_uris?: unknown;
  client_name?: unknown;
  token_endpoint_auth_method?: unknown;
  grant_types?: unknown;
  response_types?: unknown;
  scope?: unknown;
}

const stringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** RFC 7591 registration of a public client; answers the metadata the client will be held to. */
export async function registerClient(services: Services, req: RegistrationRequest) {
  const method = req.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') {
    throw new OAuthError('invalid_client_metadata', 'Only public clients can register: token_endpoint_auth_method must be "none" (use PKCE instead of a secret).');
  }
  if (!stringList(req.redirect_uris) || req.redirect_uris.length === 0 || req.redirect_uris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError('invalid_redirect_uri', `redirect_uris must list 1 to ${MAX_REDIRECT_URIS} URIs.`);
  }
  const bad = req.redirect_uris.find((u) => !acceptableRedirectUri(u));
  if (bad !== undefined) {
    throw new OAuthError('invalid_redirect_uri', 'Every redirect URI must be https, or http on 127.0.0.1, [::1] or localhost, without a fragment.');
  }
  const grantTypes = req.grant_types ?? ['authorization_code', 'refresh_token'];
  if (!stringList(grantTypes) || grantTypes.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new OAuthError('invalid_client_metadata', 'grant_types may hold only "authorization_code" and "refresh_token".');
  }
  const responseTypes = req.response_types ?? ['code'];
  if (!stringList(responseTypes) || responseTypes.some((r) => r !== 'code')) {
    throw new OAuthError('invalid_client_metadata', 'response_types may hold only "code".');
  }
  if (req.client_name !== undefined && (typeof req.client_name !== 'string' || req.client_name.length > 100)) {
    throw new OAuthError('invalid_client_metadata', 'client_name must be text of at most 100 characters.');
  }
  const name = (req.client_name as string | undefined)?.trim() || null;
  const client = await services.prisma.oAuthClient.create({
    data: { id: `pc_${randomBytes(16).toString('base64url')}`, name, redirectUris: [...new Set(req.redirect_uris)], createdAt: services.clock.date() },
  });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    ...(name ? { client_name: name } : {}),
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none',
    grant_types: grantTypes,
    response_types: responseTypes,
    scope: 'read write',
  };
}
