/** What a grant may cover: scopes, and the resources (RFC 8707) a token may be for. */
import type { Services } from '../../context.js';
import type { Scope } from '../vocabulary.js';
import { OAuthError } from './errors.js';

export const SCOPES: readonly Scope[] = ['read', 'write'];

/** Requested scopes; none means both. write implies read, so a write grant holds both. */
export function parseScopes(scope: string | undefined): Scope[] {
  const asked = (scope ?? '').split(' ').filter(Boolean);
  if (asked.length === 0) return [...SCOPES];
  const unknown = asked.find((s) => !SCOPES.includes(s as Scope));
  if (unknown !== undefined) throw new OAuthError('invalid_scope', 'Porchlight grants the scopes "read" and "write" only.');
  return asked.includes('write') ? ['read', 'write'] : ['read'];
}

/**
 * The protected resources (RFC 8707) a token may be for: the API (REST, GraphQL, WebSocket) at
 * the base URL, and the MCP endpoint.
 */
export const resourcesOf = (baseUrl: string): string[] => [baseUrl, `${baseUrl}/mcp`];

/**
 * The resources a request names (the resource parameter, repeated for several), each checked,
 * without repeats; none named is an empty list. Any other value is invalid_target.
 */
export function checkResources(services: Services, asked: readonly string[]): string[] {
  const known = resourcesOf(services.config.baseUrl);
  const named = asked.filter((r) => r !== '');
  const unknown = named.find((r) => !known.includes(r));
  if (unknown !== undefined) throw new OAuthError('invalid_target', `resource must be ${known.join(' or ')} (send the parameter once for each).`);
  return known.filter((r) => named.includes(r));
}
