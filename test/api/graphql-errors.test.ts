import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { demoIds } from '../../src/demo/generate.js';
import { attachWebSockets } from '../../facades/ws.js';
import { startApp, type TestApp, templateSecretsKey } from '../helpers/harness.js';

// GraphQL speaks the error language of REST and MCP: `extensions.code` from the same list, the
// same HTTP statuses, sentences a person can act on, and never an echo of what was sent.

let app: TestApp;
/** The same app as deployed (NODE_ENV=production): no GraphiQL, no introspection. */
let prod: TestApp;
let server: ServerType;
let sockets: { close(): Promise<void> };
let wsUrl: string;

beforeAll(async () => {
  app = await startApp();
  prod = await startApp({ env: { NODE_ENV: 'production', SECRETS_KEY: templateSecretsKey() } });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  sockets = attachWebSockets(server, app);
  wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  await sockets?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.close();
  await prod?.close();
});

async function post(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await app.get('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { data?: unknown; errors?: { message: string; extensions: Record<string, unknown> }[] } };
}

/** The first error a subscription gets, over graphql-ws. */
function firstError(query: string, variables: Record<string, unknown>, connectionParams: Record<string, unknown> = {}) {
  const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
  return new Promise<any>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no error within 5 s')), 5000);
    client.subscribe(
      { query, variables },
      {
        next: (r) => r.errors && resolve(r.errors[0]),
        error: (e) => resolve(Array.isArray(e) ? e[0] : e),
        complete: () => undefined,
      },
    );
  }).finally(() => client.dispose());
}

describe('GraphQL errors over HTTP', () => {
  it('answers a validation error with code invalid_input and HTTP 400, whatever the client accepts', async () => {
    for (const accept of [undefined, 'application/json', 'application/graphql-response+json']) {
      const r = await post({ query: '{ findCleaners(input: {zip: "78704", bedrooms: 2, bathrooms: 1}) { noSuchField } }' }, accept ? { accept } : {});
      expect(r.status, accept).toBe(400);
      expect(r.body.errors?.[0]?.extensions.code, accept).toBe('invalid_input');
      expect(r.body.errors![0]!.message).toMatch(/noSuchField/);
    }
  });

  it('answers a syntax error with code invalid_input and HTTP 400', async () => {
    const r = await post({ query: '{ findCleaners(' });
    expect(r.status).toBe(400);
    expect(r.body.errors?.[0]?.extensions.code).toBe('invalid_input');
  });

  it('answers an unknown documentId with a sentence saying what to send, code invalid_input', async () => {
    const r = await post({ documentId: 'find_cleanerz', variables: {} });
    expect(r.status).toBe(400);
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors![0]!.extensions.code).toBe('invalid_input');
    expect(r.body.errors![0]!.message).toMatch(/documentId is an operation name such as find_cleaners/);
    expect(r.body.errors![0]!.message).toMatch(/\/openapi\.json/);
  });

  it('never echoes a variable of the wrong type, even one shaped like a key', async () => {
    const secret = 'sk_live_SECRET123';
    const query = 'query ($days: Int!) { availableTimes(input: {proId: "x", bedrooms: 1, bathrooms: 1, days: $days}) { price } }';
    const r = await post({ query, variables: { days: secret } });
    expect(r.status).toBe(400);
    const error = r.body.errors![0]!;
    expect(error.extensions.code).toBe('invalid_input');
    expect(error.message).toMatch(/\$days/);
    expect(error.message).toMatch(/Int/);
    expect(JSON.stringify(r.body)).not.toContain('SECRET123');
  });

  it('never echoes a wrong-typed field inside an input variable either', async () => {
    const secret = 'sk_live_SECRET123';
    const r = await post({ documentId: 'find_cleaners', variables: { input: { zip: demoIds.austinZip, bedrooms: secret, bathrooms: 1 } } });
    expect(r.status).toBe(400);
    expect(r.body.errors![0]!.extensions.code).toBe('invalid_input');
    expect(r.body.errors![0]!.message).toMatch(/bedrooms/);
    expect(JSON.stringify(r.body)).not.toContain('SECRET123');
  });

  it('never echoes a value that is not one of an enum\'s, as a variable or inside one', async () => {
    const secret = 'sk_live_SECRET321';
    const top = await post({ query: 'query ($s: Sort) { findCleaners(input: {zip: "78704", bedrooms: 1, bathrooms: 1, sort: $s}) { nextPage } }', variables: { s: secret } });
    const nested = await post({ documentId: 'find_cleaners', variables: { input: { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1, sort: secret } } });
    for (const r of [top, nested]) {
      expect(r.status).toBe(400);
      expect(r.body.errors![0]!.extensions.code).toBe('invalid_input');
      expect(r.body.errors![0]!.message).toMatch(/not one of the Sort values/);
      expect(JSON.stringify(r.body)).not.toContain('SECRET321');
    }
    expect(nested.body.errors![0]!.message).toMatch(/sort/);
  });

  it('answers input the registry refuses with the same sentence as REST', async () => {
    const r = await post({ documentId: 'find_cleaners', variables: { input: { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1.25 } } });
    const rest = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1.25 });
    expect(r.status).toBe(400);
    expect(r.body.errors![0]!.extensions.code).toBe('invalid_input');
    expect(r.body.errors![0]!.message).toBe(rest.body.error);
  });
});

describe('GraphQL subscription refusals', () => {
  const BOOKING_UPDATED = 'subscription ($id: ID!, $token: String) { bookingUpdated(bookingId: $id, manageToken: $token) { bookingId status } }';

  it('refuses an owner subscription without a sign-in with code unauthorized', async () => {
    const error = await firstError('subscription { ownerEvents { type at } }', {});
    expect(error.extensions.code).toBe('unauthorized');
    expect(error.message).toMatch(/sign-in/);
  });

  it('refuses an unknown booking with code not_found, without echoing the token', async () => {
    const error = await firstError(BOOKING_UPDATED, { id: 'no-such-booking', token: 'mt_SECRET456' });
    expect(error.extensions.code).toBe('not_found');
    expect(JSON.stringify(error)).not.toContain('SECRET456');
  });

  it('refuses control characters in subscription arguments with invalid_input, as in every operation\'s input', async () => {
    // They reached PostgreSQL, which refuses NUL: a 500.
    const booking = await firstError(BOOKING_UPDATED, { id: 'booking\u0000', token: 'mt_x' });
    expect(booking.extensions.code).toBe('invalid_input');
    expect(booking.message).toBe('bookingId must not contain control characters (such as NUL); send plain text.');
    const inquiry = await firstError('subscription ($id: ID!, $token: String) { inquiryReplied(inquiryId: $id, replyToken: $token) { inquiryId } }', { id: 'x', token: 'rt_\u0000' });
    expect(inquiry.extensions.code).toBe('invalid_input');
    expect(inquiry.message).toMatch(/^replyToken must not contain control characters/);
  });

  it('refuses a subscription variable of the wrong type with invalid_input, without echoing it', async () => {
    const error = await firstError(BOOKING_UPDATED, { id: 'x', token: { key: 'sk_live_SECRET789' } });
    expect(error.extensions?.code).toBe('invalid_input');
    expect(JSON.stringify(error)).not.toContain('SECRET789');
  });
});

describe('/graphql over HTTP, beyond a well-formed POST', () => {
  const both = () => [['development', app], ['production', prod]] as const;
  const send = (on: TestApp, body: string, type = 'application/json') => on.get('/graphql', { method: 'POST', headers: { 'content-type': type }, body });

  it('never sends originalError or a stack in an error, in development or production', async () => {
    const secret = 'sk_live_SECRET654';
    for (const [mode, on] of both()) {
      const answers = [
        await send(on, `{"query": "{ __typename }", "variables": {"key": "${secret}"`),
        await send(on, JSON.stringify({ query: 5 })),
        await send(on, JSON.stringify({ query: '{ findCleaners(' })),
        await send(on, JSON.stringify({ query: 'query ($d: Int!) { __typename }', variables: { d: secret } })),
        await on.get(`/graphql?query=${encodeURIComponent('mutation { __typename }')}`),
      ];
      for (const res of answers) {
        const text = await res.text();
        expect(res.status, `${mode}: ${text}`).toBe(400);
        const body = JSON.parse(text) as { errors: { message: string; extensions: Record<string, unknown> }[] };
        expect(body.errors[0]!.extensions.code, mode).toBe('invalid_input');
        for (const error of body.errors) expect(Object.keys(error.extensions), `${mode}: ${text}`).toEqual(['code']);
        expect(text, mode).not.toMatch(/originalError|stack|SECRET654/);
      }
    }
  });

  it('answers form and multipart bodies in GraphQL\'s error shape, 415', async () => {
    const multipart = new FormData();
    multipart.set('query', '{ __typename }');
    for (const [mode, on] of both()) {
      for (const body of [new URLSearchParams({ query: '{ __typename }' }), multipart]) {
        const res = await on.get('/graphql', { method: 'POST', body });
        expect(res.status, mode).toBe(415);
        expect(await res.json()).toEqual({
          errors: [{ message: 'Send the request body as JSON with "Content-Type: application/json".', extensions: { code: 'unsupported_media_type' } }],
        });
      }
    }
  });

  it('tells a GET or POST that asks nothing how to use the endpoint, outside GraphiQL', async () => {
    const requests: [string, TestApp, RequestInit][] = [
      ['production, a browser', prod, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } }],
      ['production, curl', prod, { headers: { accept: '*/*' } }],
      ['production, no Accept', prod, {}],
      ['development, a JSON client', app, { headers: { accept: 'application/json' } }],
      ['development, POST {}', app, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['production, POST {}', prod, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [label, on, init] of requests) {
      const res = await on.get('/graphql', init);
      expect(res.status, label).toBe(400);
      const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors, label).toHaveLength(1);
      expect(body.errors[0]!.extensions.code).toBe('invalid_input');
      expect(body.errors[0]!.message, label).toMatch(/^This is the GraphQL endpoint\. POST \{"query"/);
      expect(body.errors[0]!.message).toMatch(/documentId/);
      expect(body.errors[0]!.message).not.toMatch(/PersistedQuery/);
    }
  });

  it('answers HEAD as it answers GET, without a body, never a 500', async () => {
    for (const [mode, on] of both()) {
      for (const path of ['/graphql', `/graphql?query=${encodeURIComponent('{ __typename }')}`, '/graphql?query=%7B']) {
        const get = await on.get(path, { headers: { accept: 'application/json' } });
        const head = await on.get(path, { method: 'HEAD', headers: { accept: 'application/json' } });
        expect(head.status, `${mode} ${path}`).toBe(get.status);
        expect(head.status).toBeLessThan(500);
        expect(await head.text()).toBe('');
      }
    }
    expect((await app.get(`/graphql?query=${encodeURIComponent('{ __typename }')}`, { method: 'HEAD' })).status).toBe(200);
  });

  it('answers other methods 405 in GraphQL\'s error shape, naming the ones it serves', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await app.get('/graphql', { method, headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0]!.extensions.code).toBe('method_not_allowed');
      expect(body.errors[0]!.message).toMatch(new RegExp(`^${method} is not served at /graphql`));
    }
  });

  it('serves GraphiQL in development from its own files, under a policy that loads nothing from elsewhere', async () => {
    const page = await app.get('/graphql', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>Porchlight GraphQL</title>');
    expect(html).not.toMatch(/(src|href)="?(https?:)?\/\//);
    expect(html).not.toMatch(/<script>|<style>/);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/unsafe-eval|https?:/);
    expect(policy.split(';').find((d) => d.trim().startsWith('script-src'))).not.toContain('unsafe-inline');

    const assets = [...html.matchAll(/(?:src|href)="(\/graphql\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.sort()).toEqual(['/graphql/assets/favicon.ico', '/graphql/assets/graphiql.css', '/graphql/assets/graphiql.js']);
    const types: Record<string, RegExp> = { 'favicon.ico': /^image\//, 'graphiql.css': /^text\/css/, 'graphiql.js': /^text\/javascript/, 'graphql.worker.js': /^text\/javascript/ };
    for (const [file, type] of Object.entries(types)) {
      const res = await app.get(`/graphql/assets/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toMatch(type);
      expect((await res.arrayBuffer()).byteLength, file).toBeGreaterThan(1000);
    }
    // The bundle's script asks for its editor workers here too.
    const script = await (await app.get('/graphql/assets/graphiql.js')).text();
    expect(script).toContain('"/graphql/assets/"');
    expect((await app.get('/graphql/assets/nothing.js')).status).toBe(404);

    // Not in production: neither the page nor its files.
    expect((await prod.get('/graphql', { headers: { accept: 'text/html' } })).headers.get('content-type')).not.toMatch(/html/);
    expect((await prod.get('/graphql/assets/graphiql.js')).status).toBe(404);
  });
});
