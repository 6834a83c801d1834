import type { Scope } from '../src/auth/vocabulary.js';
import { errorStatus, type Challenge, type ErrorCode } from '../src/errors.js';

/**
 * A refused call as the transports hold it: an AppError, the `{code, retry_after}` body REST and
 * MCP got back, or a GraphQL error's extensions.
 */
export interface Refusal {
  code: unknown;
  challenge?: Challenge;
  /** Seconds to wait, with rate_limited: in an answer's body or extensions. */
  retry_after?: unknown;
  /** An AppError's extra, which holds its retry_after. */
  extra?: { retry_after?: unknown };
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

/**
 * The one place a refusal becomes HTTP, on REST, MCP, GraphQL and the pages' rate limit alike:
 * its status, the sign-in challenge (WWW-Authenticate) when it is about the credential, and
 * Retry-After when it is a rate limit or a request_key still in progress. `status` overrides the code's own where the answer has
 * one already. Headers are empty for refusals that say nothing to either.
 */
export function refusalHttp(
  baseUrl: string,
  resource: '' | '/mcp',
  refusal: Refusal & { status?: number },
  scope?: Scope,
): { status: number; headers: Record<string, string> } {
  const status = refusal.status ?? errorStatus[refusal.code as ErrorCode] ?? 500;
  const challenge = bearerChallenge(baseUrl, resource, refusal, scope);
  const headers: Record<string, string> =
    challenge ? { 'WWW-Authenticate': challenge }
    : refusal.code === 'rate_limited' || refusal.code === 'request_in_progress'
      ? { 'Retry-After': String(refusal.retry_after ?? refusal.extra?.retry_after ?? 60) }
    : {};
  return { status, headers };
}

/** The scope an operation needs: reads `read`, changes `write`. */
export const scopeOf = (op: { method: 'GET' | 'POST' }): Scope => (op.method === 'GET' ? 'read' : 'write');
