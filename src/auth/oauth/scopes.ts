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

/** RFC 8707: the only resources are the API itself and its MCP endpoint. */
export function checkResource(services: Services, resource: string | undefined): string | undefined {
  if (resource === undefined || resource === '') return undefined;
  const base = services.config.baseUrl;
  if (resource !== base && resource !== `${base}/mcp`) throw new OAuthError('invalid_target', `resource must be ${base} or ${base}/mcp.`);
  return resource;
}
