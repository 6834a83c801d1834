import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { demoIds } from '../../src/demo/generate.js';
import { attachWebSockets } from '../../facades/ws.js';
import { startApp, type TestApp } from '../helpers/harness.js';

// GraphQL speaks the error language of REST and MCP: `extensions.code` from the same list, the
// same HTTP statuses, sentences a person can act on, and never an echo of what was sent.

let app: TestApp;
let server: ServerType;
let sockets: { close(): Promise<void> };
let wsUrl: string;

beforeAll(async () => {
  app = await startApp();
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
