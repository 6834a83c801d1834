import type { Scope } from '../src/auth/types.js';
import type { Challenge } from '../src/errors.js';

/** What a refusal says about the credential: an AppError, or the `{code}` body REST and MCP got back. */
export interface Refusal {
  code: unknown;
  challenge?: Challenge;
}

/**
 * The WWW-Authenticate challenge for a refused call (RFC 6750 §3, RFC 9728 §5.1), or undefined
 * when the refusal is not about the credential. `resource` is the protected resource's path under
 * the base URL: '' for REST and GraphQL, '/mcp' for MCP. `scope` is what the operation needs; a
 * client that gets insufficient_scope signs in again asking for it (step-up).
 */
export function bearerChallenge(baseUrl: string, resource: '' | '/mcp', refusal: Refusal, scope?: Scope): string | undefined {
  const metadata = `resource_metadata="${baseUrl}/.well-known/oauth-protected-resource${resource}"`;
  if (refusal.code === 'unauthorized') {
    // A missing credential gets no error code (RFC 6750 §3.1): the client has simply not signed in yet.
    return refusal.challenge?.invalidToken ? `Bearer error="invalid_token", ${metadata}` : `Bearer ${metadata}`;
  }
  if (refusal.code === 'insufficient_scope') {
    const needed = refusal.challenge?.scope ?? scope;
    return `Bearer error="insufficient_scope", ${needed ? `scope="${needed}", ` : ''}${metadata}`;
  }
  return undefined;
}

/** The scope an operation needs: reads `read`, changes `write`. */
export const scopeOf = (op: { method: 'GET' | 'POST' }): Scope => (op.method === 'GET' ? 'read' : 'write');
