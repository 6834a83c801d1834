/**
 * The checks every HTTP request meets before a facade sees it, and the headers its answer gets.
 * Each refusal is JSON `{error, code}`.
 */
import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import type { Config } from '../src/config.js';
import { isLoopback, peerOf } from './client-address.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A Host value's lowercase name and port ('' when it names none); undefined when it is not a host. */
function splitHost(value: string): { name: string; port: string } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  return m ? { name: m[1]!.toLowerCase(), port: m[2] ?? '' } : undefined;
}

/** The Host a request was sent to; requests handed to fetch() directly have only their URL's. */
const hostOf = (c: Context) => c.req.header('host') ?? new URL(c.req.url).host;

/**
 * Which Host values this deployment answers: BASE_URL's host, ALLOWED_HOSTS (a name without a
 * port allows any port) and the loopback names on the configured port or the port the request
 * came in on. A page on a hostile name that resolves to this server (DNS rebinding) still sends
 * its own name, so it is refused.
 */
export function hostChecker(config: Config): (host: string | undefined, localPort?: number) => boolean {
  const base = new URL(config.baseUrl);
  const basePort = base.port || (base.protocol === 'https:' ? '443' : '80');
  const allowed = config.allowedHosts.map(splitHost).filter((h) => h !== undefined);
  return (value, localPort) => {
    const host = value === undefined ? undefined : splitHost(value);
    if (!host) return false;
    if (host.name === base.hostname && (host.port || basePort) === basePort) return true;
    if (LOOPBACK_NAMES.has(host.name) && [String(config.port), String(localPort)].includes(host.port || '80')) return true;
    return allowed.some((a) => a.name === host.name && (!a.port || a.port === host.port));
  };
}

export const misdirected = (config: Pick<Config, 'baseUrl'>) => ({
  error: `This server does not answer for that host name: use ${config.baseUrl} (operators add other names to ALLOWED_HOSTS).`,
  code: 'misdirected_request',
});

export function hostGuard(config: Config): MiddlewareHandler {
  const allowed = hostChecker(config);
  return async (c, next) => {
    const localPort = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.localPort;
    if (!allowed(hostOf(c), localPort)) return c.json(misdirected(config), 421);
    await next();
  };
}

const loopbackOrigin = (origin: string) => {
  try {
    return LOOPBACK_NAMES.has(new URL(origin).hostname);
  } catch {
    return false; // "null" (sandboxed frames, files) is no loopback page
  }
};

/**
 * On a loopback deployment any web page the user visits could call MCP on localhost; the MCP
 * transport spec asks servers to refuse an Origin that is not their own. Elsewhere CORS decides.
 */
export function mcpOriginGuard(config: Config): MiddlewareHandler {
  const loopback = LOOPBACK_NAMES.has(new URL(config.baseUrl).hostname);
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (loopback && origin !== undefined && !loopbackOrigin(origin)) {
      return c.json({ error: 'This MCP server runs on this computer and answers only local clients and pages served from localhost.', code: 'forbidden_origin' }, 403);
    }
    await next();
  };
}

/**
 * The caller is on this machine: a loopback Host name, a loopback peer (in-process requests
 * count) and no proxy in between.
 */
export function fromThisMachine(c: Context): boolean {
  const host = splitHost(hostOf(c));
  const peer = peerOf(c);
  return Boolean(host && LOOPBACK_NAMES.has(host.name)) && (peer === undefined || isLoopback(peer)) && !c.req.header('x-forwarded-for');
}

/** The largest body of the OAuth, key, booking-page and webhook forms. */
export const FORM_BODY_BYTES = 64 * 1024;
/** The number transfer form: its fields and a bill of up to 10 MB. */
export const PORT_FORM_BYTES = 11 * 1024 * 1024;
/** The largest payment provider webhook (JSON events). */
export const PAYMENT_WEBHOOK_BYTES = 256 * 1024;

const size = (bytes: number) => (bytes % 1048576 === 0 ? `${bytes / 1048576} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

/**
 * Refuses bodies over `maxSize` with 413, whether announced by Content-Length or streamed. GET and
 * HEAD bodies are never read, so they are not looked at; a Content-Length (without
 * Transfer-Encoding) is judged as hono's check judges it, but without touching the body first:
 * on @hono/node-server that builds a whole fetch Request from Node's message (a tenth of a
 * search's CPU), and the facade's read of the body then goes through web streams instead of
 * straight from the message. `shape` answers the refusal in an endpoint's own error shape
 * (GraphQL's `errors`).
 */
export const limitBody = (maxSize: number, shape?: (refusal: { error: string; code: string }, status: 413) => Response): MiddlewareHandler => {
  const refusal = { error: `The request body is larger than the ${size(maxSize)} this endpoint accepts; send a smaller one.`, code: 'payload_too_large' };
  const refuse = (c: Context) => (shape ? shape(refusal, 413) : c.json(refusal, 413));
  const limit = bodyLimit({ maxSize, onError: refuse });
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const headers = c.req.raw.headers;
    const length = headers.get('content-length');
    if (length === null || headers.has('transfer-encoding')) return limit(c, next);
    if (parseInt(length, 10) > maxSize) return refuse(c);
    await next();
  };
};

/** application/json, with or without parameters such as charset. */
export const isJson = (type: string) => type.split(';')[0]!.trim().toLowerCase() === 'application/json';

export const notJson = { error: 'Send the request body as JSON with "Content-Type: application/json".', code: 'unsupported_media_type' };

const EXPOSED = ['WWW-Authenticate', 'Retry-After'];

const preflight = cors({
  origin: '*',
  allowMethods: ['GET', 'POST', 'OPTIONS'],
  allowHeaders: ['Authorization', 'Content-Type', 'Accept', 'MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name', 'X-Client-Name', 'X-User-Name', 'X-User-Email', 'X-User-Phone', 'Idempotency-Key'],
  exposeHeaders: EXPOSED,
});

/**
 * One CORS policy for the API surfaces: any origin, no credentials. Credentials travel in the
 * Authorization header, never in cookies, so a page on another site gains nothing it could not
 * do from a server; reflecting its origin with credentials would add nothing but risk.
 * Preflights are hono's; other answers get their two headers once they exist (hono's middleware
 * makes an empty response first, which every answer then has to be copied into).
 */
export const apiCors: MiddlewareHandler = async (c, next) => {
  if (c.req.method === 'OPTIONS') return preflight(c, next);
  await next();
  c.res.headers.set('Access-Control-Allow-Origin', '*');
  c.res.headers.set('Access-Control-Expose-Headers', EXPOSED.join(','));
};

const PAGE_POLICY = {
  defaultSrc: ["'none'"],
  styleSrc: ["'unsafe-inline'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/**
 * The HTML pages: never framed (clickjacking), no scripts or other loads (the shell inlines one
 * style block), forms post to this origin only, and links that hold tokens send no Referer.
 * A page may set its own Content-Security-Policy (the sign-in window: signInPolicy).
 */
export const pageHeaders = secureHeaders({
  xFrameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
  // The sign-in window may be a popup whose opener waits for the redirect back to it.
  crossOriginOpenerPolicy: false,
  contentSecurityPolicy: PAGE_POLICY,
  overwrite: false,
});

/**
 * The sign-in window's policy: its forms end in a redirect to the client, and browsers apply
 * form-action to that redirect too, so the client's (validated) redirect origin is allowed.
 */
export const signInPolicy = (redirectUri: string) =>
  Object.entries({ ...PAGE_POLICY, formAction: [...PAGE_POLICY.formAction, new URL(redirectUri).origin] })
    .map(([directive, sources]) => `${directive.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} ${sources.join(' ')}`)
    .join('; ');
