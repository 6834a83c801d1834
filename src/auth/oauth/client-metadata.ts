/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP
 * authorization spec's preferred registration since 2025-11-25): a client_id that is an https URL
 * names a JSON document, served there by the client, that says who the client is. It is fetched
 * with the receptionist's SSRF-safe fetcher (public https addresses only, every address checked
 * before connecting, a deadline and a size cap), never through a redirect, and kept as long as its
 * caching headers allow (at most a day).
 */
import type { Clock } from '../../clock.js';
import { freshFor } from '../../core/http-cache.js';
import { AppError } from '../../errors.js';
import type { UrlFetcher } from '../../receptionist/fetch.js';
import { acceptableRedirectUri, type OAuthClientInfo } from './client-info.js';
import { OAuthError } from './errors.js';

/** The draft recommends a limit of 5 kilobytes. */
export const MAX_DOCUMENT_BYTES = 5 * 1024;
const MAX_CLIENT_ID_LENGTH = 2000;
const MAX_REDIRECT_URIS = 20;
const MAX_NAME_LENGTH = 100;
/** Without caching headers a document is kept 5 minutes; with them, at most a day. */
const FALLBACK_SECONDS = 5 * 60;
const MAX_SECONDS = 24 * 60 * 60;
/** Documents kept at once; the oldest goes first. */
const MAX_ENTRIES = 1000;
/**
 * A document that was served but cannot be used is not read again for this long: asking
 * /authorize for it over and over makes no more requests to its host than one per half minute.
 * A fetch that failed (timeout, refused address, HTTP error) is not remembered: it may pass next time.
 */
const FAILED_SECONDS = 30;

/**
 * Why this client_id cannot be a Client Identifier URL, or null (draft section 3): https, a path
 * other than "/", no dot segments, no fragment, no user name or password.
 */
export function clientIdProblem(clientId: string): string | null {
  if (clientId.length > MAX_CLIENT_ID_LENGTH) return `it is longer than ${MAX_CLIENT_ID_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'https:') return 'it must be an https URL';
  if (url.username || url.password) return 'it must not carry a user name or password';
  if (url.hash || clientId.includes('#')) return 'it must not have a fragment';
  const rawPath = clientId.slice('https://'.length).replace(/^[^/?]*/, '').split('?')[0]!;
  if (rawPath === '' || rawPath === '/') return 'it must have a path (such as /oauth/client.json)';
  if (rawPath.split('/').some((segment) => segment === '.' || segment === '..')) return 'its path must not contain "." or ".." segments';
  return null;
}

const failed = (clientId: string, why: string) =>
  new OAuthError('invalid_client', `The app's client metadata document (its client_id, ${clientId.slice(0, 200)}) cannot be used: ${why}`);

/** Control characters become spaces and the name is cut to length: it is shown, never obeyed. */
const displayName = (name: string) => {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > MAX_NAME_LENGTH ? `${clean.slice(0, MAX_NAME_LENGTH - 1)}…` : clean;
};

const stringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** The document as the client it describes, or why it describes none (draft section 4). */
export function parseClientDocument(clientId: string, body: Buffer): OAuthClientInfo {
  let doc: unknown;
  try {
    doc = JSON.parse(body.toString('utf8'));
  } catch {
    throw failed(clientId, 'it is not valid JSON.');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw failed(clientId, 'it is not a JSON object.');
  const d = doc as Record<string, unknown>;
  // Simple string comparison, no normalisation (draft section 4).
  if (d.client_id !== clientId) throw failed(clientId, 'its "client_id" is not exactly the URL it is served at.');
  if (d.client_secret !== undefined || d.client_secret_expires_at !== undefined) throw failed(clientId, 'a metadata document must not hold a client secret.');
  const method = d.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw failed(clientId, 'Porchlight clients are public: "token_endpoint_auth_method" must be "none" (PKCE stands in for a secret).');
  if (d.grant_types !== undefined && (!stringList(d.grant_types) || !d.grant_types.includes('authorization_code'))) {
    throw failed(clientId, '"grant_types" must include "authorization_code".');
  }
  if (d.response_types !== undefined && (!stringList(d.response_types) || !d.response_types.includes('code'))) {
    throw failed(clientId, '"response_types" must include "code".');
  }
  if (!stringList(d.redirect_uris) || d.redirect_uris.length === 0 || d.redirect_uris.length > MAX_REDIRECT_URIS) {
    throw failed(clientId, `"redirect_uris" must list 1 to ${MAX_REDIRECT_URIS} URIs.`);
  }
  if (d.client_name !== undefined && typeof d.client_name !== 'string') throw failed(clientId, '"client_name" must be text.');
  const name = d.client_name ? displayName(d.client_name) : '';
  // Only addresses a registration would accept may be returned to: https, or http on loopback,
  // in plain text (a control character could never match a request's redirect_uri anyway).
  // eslint-disable-next-line no-control-regex
  const usable = d.redirect_uris.filter((u) => acceptableRedirectUri(u) && !/[\u0000-\u001f\u007f-\u009f]/.test(u));
  return { id: clientId, name: name || null, redirectUris: [...new Set(usable)] };
}

export interface ClientDocuments {
  /** The client a metadata document describes: from the cache while fresh, else fetched. */
  resolve(clientId: string): Promise<OAuthClientInfo>;
  close(): Promise<void>;
}

export function createClientDocuments(fetcher: UrlFetcher, clock: Clock): ClientDocuments {
  const cache = new Map<string, { client: OAuthClientInfo; until: number } | { failure: OAuthError; until: number }>();
  const remember = (clientId: string, entry: { client: OAuthClientInfo } | { failure: OAuthError }, seconds: number) => {
    cache.delete(clientId);
    if (seconds <= 0) return;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(clientId, { ...entry, until: clock.now() + seconds * 1000 });
  };
  // One fetch per document at a time: concurrent sign-ins with the same client share it.
  const pending = new Map<string, Promise<OAuthClientInfo>>();

  async function fetchDocument(clientId: string): Promise<OAuthClientInfo> {
    let fetched;
    try {
      fetched = await fetcher.get(clientId, {
        types: ['application/json', 'application/*+json'],
        maxBytes: MAX_DOCUMENT_BYTES,
        otherwise: 'The client ID metadata document must be served as application/json.',
      });
    } catch (err) {
      if (err instanceof AppError) throw failed(clientId, err.message);
      throw err;
    }
    try {
      const client = parseClientDocument(clientId, fetched.body);
      remember(clientId, { client }, freshFor(fetched.caching, clock.now(), { fallback: FALLBACK_SECONDS, max: MAX_SECONDS }));
      return client;
    } catch (err) {
      if (err instanceof OAuthError) remember(clientId, { failure: err }, FAILED_SECONDS);
      throw err;
    }
  }

  return {
    async resolve(clientId) {
      const problem = clientIdProblem(clientId);
      if (problem) throw failed(clientId, `${problem}.`);
      const cached = cache.get(clientId);
      if (cached && cached.until > clock.now()) {
        if ('failure' in cached) throw cached.failure;
        return cached.client;
      }
      let running = pending.get(clientId);
      if (!running) {
        running = fetchDocument(clientId).finally(() => pending.delete(clientId));
        pending.set(clientId, running);
      }
      return running;
    },
    close: () => fetcher.close(),
  };
}
