/** What the authorization server knows of a client, whichever way it made itself known. */
export interface OAuthClientInfo {
  id: string;
  name: string | null;
  redirectUris: string[];
}

const MAX_URI_LENGTH = 2000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** https anywhere, or http on the loopback interface (native apps, RFC 8252); never a fragment. */
export function acceptableRedirectUri(uri: string): boolean {
  if (uri.length > MAX_URI_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.hash || uri.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** Whether this client_id names a client ID metadata document (rather than a registered client). */
export const isMetadataClientId = (clientId: string) => clientId.startsWith('https://');
