import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * The caller's address for rate limits: the socket's peer, or, behind a load balancer
 * (TRUST_PROXY=1), the last address it appended to X-Forwarded-For.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').map((s) => s.trim()).filter(Boolean);
    if (forwarded?.length) return forwarded[forwarded.length - 1]!;
  }
  // Requests handed to fetch() directly (tests, the benchmark) have no socket.
  if (!(c.env as { incoming?: unknown } | undefined)?.incoming) return 'local';
  return getConnInfo(c).remote.address ?? 'unknown';
}
