/**
 * The HTTP holes found when the service was attacked (issue 8): Host checks (DNS rebinding), the
 * development outbox, body sizes, content types, CORS, page headers, proxies, MCP's Accept and
 * Origin, and the bearer challenges for missing, invalid and insufficient credentials.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { demoIds } from '../../src/demo/generate.js';
import { attachWebSockets } from '../../facades/ws.js';
import { addressBehindProxies } from '../../facades/client-address.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

const MiB = 1024 * 1024;
const PUBLIC_KEY = 'sk_pub_porchlight_demo';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const metadata = `resource_metadata="${BASE}/.well-known/oauth-protected-resource"`;
const mcpMetadata = `resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`;
const json = { 'content-type': 'application/json' };
const mcpBody = (method: string, params: Record<string, unknown> = {}) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });

interface Served {
  port: number;
  close(): Promise<void>;
}

/** The app on a real port of 127.0.0.1, with its WebSockets, as `npm start` serves it. */
async function serveApp(app: TestApp): Promise<Served> {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const sockets = attachWebSockets(server, app);
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      await sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A request over a socket with exactly these headers (fetch will not send a Host of our choosing).
 * A body given as chunks is streamed without Content-Length (chunked transfer encoding).
 */
function raw(port: number, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer[] } = {}) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; text: string }>((resolve, reject) => {
    // A connection per request: one the server closes after a refused body is not reused.
    const req = httpRequest({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    });
    // The server may answer (413) and close before a large body is written: the answer counts.
    req.on('error', (err) => (req.writableEnded ? undefined : reject(err)));
    if (Array.isArray(opts.body)) {
      (async () => {
        for (const chunk of opts.body as Buffer[]) if (!req.destroyed && !req.write(chunk)) await new Promise((r) => req.once('drain', r));
        req.end();
      })().catch(() => {});
    } else req.end(opts.body);
  });
}

async function businessKey(app: TestApp, slug: string, scopes: string[]) {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes } });
  return key;
}

/** The body of a refusal: exactly `{error, code}`, the error a sentence for a person. */
function expectRefusal(body: Record<string, unknown>, code: string) {
  expect(body.code).toBe(code);
  expect(Object.keys(body).sort()).toEqual(['code', 'error']);
  expect(body.error).toMatch(/ .*\.$/);
}

/** The same refusal at /graphql, in GraphQL's error shape: exactly `{errors: [{message, extensions: {code}}]}`. */
function expectGraphQLRefusal(body: Record<string, unknown>, code: string) {
  expect(Object.keys(body)).toEqual(['errors']);
  const errors = body.errors as { message: string; extensions: Record<string, unknown> }[];
  expect(errors).toHaveLength(1);
  expect(errors[0]!.extensions).toEqual({ code });
  expect(errors[0]!.message).toMatch(/ .*\.$/);
}

// One deployment as in the tests elsewhere (BASE_URL http://porchlight.test), and one on loopback
// with the development outbox on, an extra allowed host, two proxies and a small body limit.
let app: TestApp;
let served: Served;
let local: TestApp;
let localServed: Served;

beforeAll(async () => {
  [app, local] = await Promise.all([
    startApp(),
    startApp({
      baseUrl: 'http://localhost',
      env: { DEV_OUTBOX: '1', ALLOWED_HOSTS: 'Booking.example, api.example:8443', TRUST_PROXY: '127.0.0.1, 10.0.0.0/8', MAX_BODY_BYTES: '4096', SEED_DEMO: 'false' },
    }),
  ]);
  [served, localServed] = await Promise.all([serveApp(app), serveApp(local)]);
});
afterAll(async () => {
  await served?.close();
  await localServed?.close();
  await app?.close();
  await local?.close();
});

describe('the Host header (DNS rebinding)', () => {
  it('answers 421 misdirected_request for a host name that is not BASE_URL, loopback or allowed, on every route', async () => {
    const routes: [string, RequestInit?][] = [
      ['/healthz'],
      ['/api/v1/find_cleaners?zip=78704&bedrooms=1&bathrooms=1'],
      ['/mcp', { method: 'POST', headers: { ...json, accept: 'application/json' }, body: mcpBody('tools/list') }],
      ['/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query: '{ __typename }' }) }],
      ['/openapi.json'],
      ['/.well-known/oauth-protected-resource'],
      ['/authorize?client_id=porchlight-public'],
      ['/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) }],
      ['/key'],
      ['/manage/anything'],
      ['/nothing-here'],
    ];
    for (const [path, init] of routes) {
      const res = await app.get(path, { ...init, headers: { ...(init?.headers as Record<string, string>), host: 'rebind.attacker.example' } });
      expect(res.status, path).toBe(421);
      expectRefusal((await res.json()) as Record<string, unknown>, 'misdirected_request');
    }
    // Over a socket too, where the Host header is all the server knows.
    const viaSocket = await raw(served.port, '/healthz', { headers: { host: 'rebind.attacker.example' } });
    expect(viaSocket.status).toBe(421);
    expect(JSON.parse(viaSocket.text).code).toBe('misdirected_request');
  });

  it("serves BASE_URL's host, the loopback names on the configured or connected port, and ALLOWED_HOSTS", async () => {
    expect((await app.get('/healthz')).status).toBe(200);
    expect((await app.get('/healthz', { headers: { host: 'porchlight.test:80' } })).status).toBe(200);
    expect((await app.get('/healthz', { headers: { host: 'porchlight.test:8080' } })).status).toBe(421);
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000']) expect((await app.get('/healthz', { headers: { host } })).status, host).toBe(200);
    expect((await app.get('/healthz', { headers: { host: 'localhost.attacker.example:3000' } })).status).toBe(421);
    for (const host of ['localhost', '127.0.0.1', '[::1]'].map((h) => `${h}:${served.port}`)) {
      expect((await raw(served.port, '/healthz', { headers: { host } })).status, host).toBe(200);
    }
    // A name without a port is allowed on any port; one with a port on that port only.
    for (const [host, status] of [['booking.example', 200], ['BOOKING.EXAMPLE:444', 200], ['api.example:8443', 200], ['api.example', 421], ['other.example', 421]] as const) {
      expect((await raw(localServed.port, '/healthz', { headers: { host } })).status, host).toBe(status);
    }
  });

  it('refuses the WebSocket upgrade for another host with 421 and JSON', async () => {
    const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${served.port}/graphql`, 'graphql-transport-ws', { headers: { host: 'rebind.attacker.example' } });
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      ws.on('open', () => reject(new Error('the upgrade was accepted')));
      ws.on('error', () => {});
    });
    expect(refused.status).toBe(421);
    expectRefusal(JSON.parse(refused.body), 'misdirected_request');
  });
});

describe('MCP on a loopback deployment', () => {
  it('refuses a browser Origin that is not loopback with 403, and serves local pages and clients', async () => {
    const call = (headers: Record<string, string>) =>
      raw(localServed.port, '/mcp', { method: 'POST', headers: { ...json, accept: 'application/json, text/event-stream', ...headers }, body: mcpBody('tools/list') });
    const foreign = await call({ origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expectRefusal(JSON.parse(foreign.text), 'forbidden_origin');
    expect((await call({ origin: 'null' })).status).toBe(403);
    expect((await call({ origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await call({ origin: `http://127.0.0.1:${localServed.port}` })).status).toBe(200);
    expect((await call({})).status).toBe(200);
  });

  it('leaves Origin to CORS on a public deployment', async () => {
    const res = await app.get('/mcp', { method: 'POST', headers: { ...json, accept: 'application/json', origin: 'https://assistant.example' }, body: mcpBody('tools/list') });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('the development outbox', () => {
  const outbox = (port: number, headers: Record<string, string> = {}) => raw(port, '/dev/outbox.json', { headers });

  it('is off unless DEV_OUTBOX=1: 404 like any unknown path, even from this machine', async () => {
    for (const path of ['/dev/outbox', '/dev/outbox.json']) {
      const res = await app.get(path, { headers: { host: 'localhost:3000' } });
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
    }
    expect((await outbox(served.port)).status).toBe(404);
  });

  it('with DEV_OUTBOX=1 answers a loopback host name from a loopback peer only', async () => {
    const mine = await outbox(localServed.port);
    expect(mine.status).toBe(200);
    expect(JSON.parse(mine.text).messages).toEqual(expect.any(Array));
    const page = await raw(localServed.port, '/dev/outbox');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");

    // An allowed public name, or a request that came through a proxy: not this machine's browser.
    expect((await outbox(localServed.port, { host: 'booking.example' })).status).toBe(404);
    expect((await outbox(localServed.port, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(404);
    // A peer elsewhere that names localhost (@hono/node-server hands the socket over as env.incoming).
    const remote = await local.app.fetch(new Request('http://localhost:3000/dev/outbox.json'), { incoming: { socket: { remoteAddress: '198.51.100.7', localPort: 3000 } } });
    expect(remote.status).toBe(404);
  });

  it('is never on in production, whatever DEV_OUTBOX says', () => {
    expect(loadConfig({ NODE_ENV: 'production', DEV_OUTBOX: '1' }).devOutbox).toBe(false);
    expect(loadConfig({ DEV_OUTBOX: '1' }).devOutbox).toBe(true);
    expect(loadConfig({}).devOutbox).toBe(false);
  });
});

describe('body size limits', () => {
  const big = (bytes: number) => JSON.stringify({ notes: 'x'.repeat(bytes) });

  it('refuses REST, MCP and GraphQL bodies over 1 MiB with 413 payload_too_large', async () => {
    const rest = await raw(served.port, '/api/v1/book_cleaning', { method: 'POST', headers: json, body: big(2 * MiB) });
    expect(rest.status).toBe(413);
    expectRefusal(JSON.parse(rest.text), 'payload_too_large');
    expect(JSON.parse(rest.text).error).toContain('1 MiB');

    const mcp = await app.get('/mcp', { method: 'POST', headers: { ...json, accept: 'application/json' }, body: big(2 * MiB) });
    expect(mcp.status).toBe(413);
    expectRefusal((await mcp.json()) as Record<string, unknown>, 'payload_too_large');

    const graphql = await app.get('/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(2 * MiB) } }) });
    expect(graphql.status).toBe(413);
    expectGraphQLRefusal((await graphql.json()) as Record<string, unknown>, 'payload_too_large');

    // Just under the limit is read as usual.
    const fits = await app.get('/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(MiB - 100) } }) });
    expect(fits.status).toBe(200);
  });

  it('reads a body within the limit over HTTP, its Content-Length judged without buffering it first', async () => {
    const search = { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1.5 };
    const headers = { ...json, accept: 'application/json' };
    const mcp = await raw(served.port, '/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_cleaners', arguments: search } }) });
    expect(mcp.status).toBe(200);
    expect(JSON.parse(mcp.text).result.structuredContent.cleaners.length).toBeGreaterThan(0);
    const graphql = await raw(served.port, '/graphql', { method: 'POST', headers, body: JSON.stringify({ documentId: 'find_cleaners', variables: { input: search } }) });
    expect(graphql.status).toBe(200);
    expect(JSON.parse(graphql.text).data.findCleaners.cleaners.length).toBeGreaterThan(0);
  });

  it('counts a streamed body without Content-Length as it arrives', async () => {
    const chunks = Array.from({ length: 32 }, () => Buffer.alloc(64 * 1024, 'x'));
    const streamed = await raw(served.port, '/api/v1/book_cleaning', { method: 'POST', headers: json, body: chunks });
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.text).code).toBe('payload_too_large');
    // In-process, a stream has no length either.
    const body = new ReadableStream({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('x'.repeat(256 * 1024)));
      },
    });
    const res = await app.get('/mcp', { method: 'POST', headers: { ...json, accept: 'application/json' }, body, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  });

  it('caps the OAuth, key, page and webhook forms at 64 KiB', async () => {
    const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x'.repeat(100 * 1024) }).toString();
    const token = await raw(served.port, '/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(token.status).toBe(413);
    expectRefusal(JSON.parse(token.text), 'payload_too_large');
    expect(JSON.parse(token.text).error).toContain('64 KiB');
    for (const path of ['/authorize', '/register', '/revoke', '/key', '/app/api/connect', '/webhooks/sms', '/confirm/x', '/manage/x/message']) {
      const res = await app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
      expect(res.status, path).toBe(413);
    }
  });

  it('follows MAX_BODY_BYTES', async () => {
    const res = await raw(localServed.port, '/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(5000) } }) });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.text).errors[0].message).toContain('4 KiB');
  });

  it('closes a WebSocket whose message is over the limit with 1009', async () => {
    const code = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${served.port}/graphql`, 'graphql-transport-ws');
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { pad: 'x'.repeat(MiB) } })));
      ws.on('close', (closeCode) => resolve(closeCode));
      ws.on('error', () => {});
      setTimeout(() => reject(new Error('still open')), 10_000);
    });
    expect(code).toBe(1009);
  });
});

describe('REST and GraphQL request bodies', () => {
  const post = (headers: Record<string, string>, body?: string) => app.get('/api/v1/book_cleaning', { method: 'POST', headers, body });
  const booking = JSON.stringify({ pro_id: demoIds.cleanerAustin });

  it('refuses text/plain and form bodies with 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await post({ 'content-type': type }, booking);
      expect(res.status, type).toBe(415);
      expectRefusal((await res.json()) as Record<string, unknown>, 'unsupported_media_type');
    }
    // A body without any Content-Type is not JSON either.
    const untyped = await app.get('/api/v1/book_cleaning', { method: 'POST', body: new TextEncoder().encode(booking) });
    expect(untyped.status).toBe(415);
  });

  it('are JSON at /graphql too, refused in GraphQL\'s error shape: yoga read form and multipart bodies, which any page can send unasked', async () => {
    const before = await app.services.prisma.conversation.count();
    const mutation = `mutation { contactBusiness(input: {business: "${demoIds.cleanerAustin}", customerName: "Al", message: "From a form"}) { inquiryId } }`;
    const form = new URLSearchParams({ query: mutation });
    const multipart = new FormData();
    multipart.set('query', mutation);
    for (const body of [form, multipart]) {
      const res = await app.get('/graphql', { method: 'POST', body });
      expect(res.status).toBe(415);
      expectGraphQLRefusal((await res.json()) as Record<string, unknown>, 'unsupported_media_type');
    }
    expect(await app.services.prisma.conversation.count()).toBe(before);
    const json = await app.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(json.status).toBe(200);
  });

  it('reads application/json with or without a charset, and an empty untyped body as {}', async () => {
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON;charset=UTF-8']) {
      const res = await post({ 'content-type': type }, booking);
      expect(res.status, type).toBe(400);
      expect(((await res.json()) as { code: string }).code, type).toBe('invalid_input');
    }
    const empty = await app.get('/api/v1/book_cleaning', { method: 'POST' });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as { code: string }).code).toBe('invalid_input');
  });
});

describe('CORS', () => {
  const allowed = ['authorization', 'content-type', 'accept', 'mcp-protocol-version', 'x-client-name', 'x-user-name', 'x-user-email', 'x-user-phone'];
  const preflight = (path: string) =>
    app.get(path, {
      method: 'OPTIONS',
      headers: { origin: 'https://assistant.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type,mcp-protocol-version' },
    });
  const list = (value: string | null) => (value ?? '').split(',').map((s) => s.trim().toLowerCase());

  it('answers preflights on REST, MCP, GraphQL, OpenAPI and metadata for any origin, without credentials', async () => {
    for (const path of ['/api/v1/book_cleaning', '/mcp', '/graphql', '/openapi.json', '/.well-known/oauth-protected-resource', '/token']) {
      const res = await preflight(path);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
      expect(list(res.headers.get('access-control-allow-headers')), path).toEqual(expect.arrayContaining(allowed));
      expect(list(res.headers.get('access-control-allow-methods')), path).toEqual(expect.arrayContaining(['get', 'post']));
    }
  });

  it('lets pages on other sites read answers and the WWW-Authenticate and Retry-After headers', async () => {
    const origin = { origin: 'https://assistant.example' };
    const answers = [
      await app.get('/api/v1/my_business', { headers: origin }),
      await app.get('/api/v1/find_cleaners?zip=78704&bedrooms=2&bathrooms=1', { headers: origin }),
      await app.get('/graphql', { method: 'POST', headers: { ...json, ...origin }, body: JSON.stringify({ query: '{ __typename }' }) }),
      await app.get('/mcp', { method: 'POST', headers: { ...json, ...origin, accept: 'application/json' }, body: mcpBody('tools/list') }),
      await app.get('/openapi.json', { headers: origin }),
    ];
    for (const res of answers) {
      expect(res.headers.get('access-control-allow-origin'), res.url).toBe('*');
      expect(res.headers.get('access-control-allow-credentials'), res.url).toBeNull();
      expect(list(res.headers.get('access-control-expose-headers')), res.url).toEqual(expect.arrayContaining(['www-authenticate', 'retry-after']));
    }
  });
});

describe('security headers of the HTML pages', () => {
  it('forbid framing, scripts and foreign form targets, sniffing and the Referer on every page', async () => {
    const business = `/b/${demoIds.cleanerAustin}`;
    const contact = (body: string) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    const pages: [string, RequestInit?][] = [
      ['/key'], ['/key/confirm/not-a-token'], ['/manage/not-a-token'], ['/confirm/not-a-token'], ['/authorize?client_id=nobody'],
      [business], ['/b/no-such-business'], [`${business}/contact`],
      [`${business}/contact`, contact('customer_name=Al&customer_email=al%40example.com&message=Hello')],
      [`${business}/contact`, contact('customer_name=Al&customer_email=not-an-address&message=Hello')],
    ];
    for (const [path, init] of pages) {
      const res = await app.get(path, init);
      expect(res.headers.get('content-type'), path).toContain('text/html');
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const directive of ["default-src 'none'", "style-src 'unsafe-inline'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) {
        expect(csp, `${path}: ${directive}`).toContain(directive);
      }
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
  });

  it("let the sign-in window's forms end in the redirect to the client, and nowhere else", async () => {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'porchlight-public',
      redirect_uri: 'http://127.0.0.1:9/callback',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const res = await app.get(`/authorize?${query}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:9; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('TRUST_PROXY', () => {
  it('is a list of proxy addresses and CIDRs; the old TRUST_PROXY=1 is refused rather than trusting everyone', () => {
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/addresses or CIDRs/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/addresses or CIDRs/);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.1, ::1, fd00::/8' }).trustProxy.map(([a, bits]) => `${a.toString()}/${bits}`)).toEqual([
      '10.0.0.0/8',
      '192.168.1.1/32',
      '::1/128',
      'fd00::/8',
    ]);
    expect(loadConfig({}).trustProxy).toEqual([]);
  });

  it('takes the rightmost X-Forwarded-For entry that is not a listed proxy, and only from a listed proxy', () => {
    const proxies = loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy;
    expect(addressBehindProxies('127.0.0.1', '203.0.113.9, 198.51.100.7, 10.1.2.3', proxies)).toBe('198.51.100.7');
    expect(addressBehindProxies('::ffff:10.0.0.5', '198.51.100.7', proxies)).toBe('198.51.100.7');
    expect(addressBehindProxies('127.0.0.1', undefined, proxies)).toBe('127.0.0.1');
    expect(addressBehindProxies('127.0.0.1', '10.0.0.1, 10.0.0.2', proxies)).toBe('10.0.0.1');
    // A client talking to us directly writes what it likes into X-Forwarded-For: it is ignored.
    expect(addressBehindProxies('198.51.100.7', '127.0.0.1', proxies)).toBe('198.51.100.7');
    expect(addressBehindProxies('198.51.100.7', '1.2.3.4', [])).toBe('198.51.100.7');
  });

  it('rate-limits HTTP and WebSocket callers by that address', async () => {
    const consume = vi.spyOn(local.services.rateLimits.request, 'consume');
    try {
      await raw(localServed.port, '/key', { headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7, 10.1.2.3' } });
      expect(consume).toHaveBeenLastCalledWith('address:198.51.100.7');
      // From a peer that is not a listed proxy, its X-Forwarded-For is the client's own invention.
      await local.app.fetch(new Request('http://localhost/key', { headers: { 'x-forwarded-for': '127.0.0.1' } }), { incoming: { socket: { remoteAddress: '198.51.100.8', localPort: 80 } } });
      expect(consume).toHaveBeenLastCalledWith('address:198.51.100.8');

      const ws = new WebSocket(`ws://127.0.0.1:${localServed.port}/graphql`, 'graphql-transport-ws', { headers: { 'x-forwarded-for': '198.51.100.9, 10.0.0.7' } });
      const done = new Promise<void>((resolve, reject) => {
        ws.on('message', (data: Buffer) => {
          const message = JSON.parse(data.toString()) as { type: string };
          // A guarded root field: each one executed is charged to the caller's budget.
          if (message.type === 'connection_ack') ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ businessPage(slug: "no-such-business") { name } }' } }));
          if (message.type === 'complete') resolve();
        });
        ws.on('close', (code) => reject(new Error(`closed ${code}`)));
      });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
      await done;
      ws.close();
      expect(consume).toHaveBeenLastCalledWith('address:198.51.100.9');
    } finally {
      consume.mockRestore();
    }
  });
});

describe('MCP for plain JSON clients', () => {
  it('answers POSTs that accept only application/json, or send no Accept, with plain JSON', async () => {
    for (const accept of ['application/json', undefined, '*/*']) {
      const res = await app.get('/mcp', { method: 'POST', headers: { ...json, ...(accept ? { accept } : {}) }, body: mcpBody('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } }) });
      expect(res.status, String(accept)).toBe(200);
      expect(res.headers.get('content-type'), String(accept)).toContain('application/json');
      const body = (await res.json()) as { result: { serverInfo: { name: string } } };
      expect(body.result.serverInfo.name).toBe('porchlight');
    }
    const tool = await app.get('/mcp', {
      method: 'POST',
      headers: { ...json, accept: 'application/json' },
      body: mcpBody('tools/call', { name: 'find_cleaners', arguments: { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 } }),
    });
    expect(tool.status).toBe(200);
    expect(((await tool.json()) as { result: { structuredContent: { cleaners: unknown[] } } }).result.structuredContent.cleaners.length).toBeGreaterThan(0);
  });

  it('still answers 406 to a client that accepts neither JSON nor event streams', async () => {
    const res = await app.get('/mcp', { method: 'POST', headers: { ...json, accept: 'text/html' }, body: mcpBody('tools/list') });
    expect(res.status).toBe(406);
  });
});

describe('bearer challenges and step-up authorisation', () => {
  let readOnly: string;
  beforeAll(async () => {
    readOnly = await businessKey(app, demoIds.hvacSanJose, ['read']);
  });
  const mcpTool = (name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.get('/mcp', { method: 'POST', headers: { ...json, accept: 'application/json', ...headers }, body: mcpBody('tools/call', { name, arguments: args }) });

  it('names the MCP resource metadata in the 401 challenge of /mcp, and the base one elsewhere', async () => {
    const mcp = await mcpTool('my_business', {});
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(`Bearer ${mcpMetadata}`);
    const rest = await app.rest('my_business');
    expect(rest.headers.get('www-authenticate')).toBe(`Bearer ${metadata}`);
  });

  it('says invalid_token when a credential is sent and refused, and nothing more in the body', async () => {
    const fake = bearer('sk_live_not_a_real_key_0123456789');
    const rest = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 }, fake);
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", ${metadata}`);
    expectRefusal(rest.body, 'unauthorized');

    const mcp = await app.get('/mcp', { method: 'POST', headers: { ...json, accept: 'application/json', ...fake }, body: mcpBody('tools/list') });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", ${mcpMetadata}`);
    const mcpText = await mcp.text();
    expect(mcpText).not.toMatch(/invalidToken|invalid_token/);

    const gql = await app.get('/graphql', { method: 'POST', headers: { ...json, ...fake }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(gql.status).toBe(401);
    expect(gql.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", ${metadata}`);
    const gqlBody = (await gql.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(Object.keys(gqlBody.errors[0]!.extensions)).toEqual(['code']);

    // A scheme other than Bearer is no token at all: the challenge carries no error code.
    const basic = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 }, { authorization: 'Basic abc' });
    expect(basic.headers.get('www-authenticate')).toBe(`Bearer ${metadata}`);
  });

  it('challenges a valid credential without the scope with insufficient_scope and the scope to ask for, on every surface', async () => {
    const write = `Bearer error="insufficient_scope", scope="write"`;
    const rest = await app.rest('set_customer_notes', { notes: 'x' }, bearer(readOnly));
    expect(rest.status).toBe(403);
    expect(rest.headers.get('www-authenticate')).toBe(`${write}, ${metadata}`);
    expectRefusal(rest.body, 'insufficient_scope');

    const mcp = await mcpTool('set_customer_notes', { notes: 'x' }, bearer(readOnly));
    expect(mcp.status).toBe(403);
    expect(mcp.headers.get('www-authenticate')).toBe(`${write}, ${mcpMetadata}`);
    const result = ((await mcp.json()) as { result: { isError: boolean; content: { text: string }[] } }).result;
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0]!.text)).toEqual(rest.body);

    const gql = await app.get('/graphql', { method: 'POST', headers: { ...json, ...bearer(readOnly) }, body: JSON.stringify({ documentId: 'set_customer_notes', variables: { input: { notes: 'x' } } }) });
    expect(gql.status).toBe(403);
    expect(gql.headers.get('www-authenticate')).toBe(`${write}, ${metadata}`);

    // A read needs "read": the shared public key has it but acts for no business.
    const owner = await app.rest('my_business', {}, bearer(PUBLIC_KEY));
    expect(owner.status).toBe(403);
    expect(owner.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="read", ${metadata}`);
    const ownerTool = await mcpTool('my_business', {}, bearer(PUBLIC_KEY));
    expect(ownerTool.status).toBe(403);
    expect(ownerTool.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="read", ${mcpMetadata}`);
  });
});
