/**
 * Credentials on open graphql-ws sockets: checked again for every operation, and the socket
 * closed (4403) when its OAuth token expires or its grant or key is revoked. With REDIS_URL the
 * revocation travels through Redis, as it does between instances.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import * as oauth from 'oauth4webapi';
import { Clock } from '../../src/clock.js';
import type { Scope } from '../../src/auth/vocabulary.js';
import { demoIds } from '../../src/demo/generate.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { revokeApiKey } from '../../src/auth/keys.js';
import { findClient } from '../../src/auth/oauth/clients.js';
import { ACCESS_TOKEN_TTL_SECONDS, issueAccessToken } from '../../src/auth/oauth/access-token.js';
import { createAuthorizationCode, exchangeCode } from '../../src/auth/oauth/grants.js';
import { attachWebSockets } from '../../facades/ws.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

const redisUrl = process.env.REDIS_URL;
const REDIRECT = 'http://127.0.0.1:8976/callback';
const OWNER_EVENTS = 'subscription { ownerEvents { type bookingId } }';
const MY_BUSINESS = '{ myBusiness { name } }';
/** Until the subscription (and, through Redis, its revocation listener) is in place. */
const SETTLE = redisUrl ? 500 : 250;

let app: TestApp;
let server: ServerType;
let sockets: { close(): Promise<void> };
let wsUrl: string;
let businessId: string;

beforeAll(async () => {
  app = await startApp({ env: redisUrl ? { REDIS_URL: redisUrl } : {} });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  sockets = attachWebSockets(server, app);
  wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).id;
});
afterAll(async () => {
  await sockets?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One graphql-ws connection; its operations' results and errors are collected as they arrive. */
function connect(token: string) {
  const client: Client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
  return {
    client,
    run(query: string) {
      const op = { data: [] as any[], errors: [] as any[], done: false };
      client.subscribe(
        { query },
        {
          next: (r) => {
            if (r.errors) op.errors.push(...r.errors);
            if (r.data) op.data.push(r.data);
          },
          error: (e) => op.errors.push(e),
          complete: () => (op.done = true),
        },
      );
      return op;
    },
  };
}

async function until(ready: () => boolean, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

const closedForbidden = (op: { errors: any[] }) => op.errors.some((e) => e?.code === 4403);

/** A signed-in connection (as the sign-in window would make it): its access and refresh tokens. */
async function signedIn() {
  const client = (await findClient(app.services, 'porchlight-public'))!;
  const verifier = oauth.generateRandomCodeVerifier();
  const req = { client, redirectUri: REDIRECT, codeChallenge: await oauth.calculatePKCECodeChallenge(verifier), scopes: ['read', 'write'] satisfies Scope[] };
  const code = await app.services.prisma.$transaction((tx) => createAuthorizationCode(app.services, req, { businessId, ownerId: null }, tx));
  return exchangeCode(app.services, { code, clientId: client.id, redirectUri: REDIRECT, codeVerifier: verifier });
}

const form = (path: string, fields: Record<string, string>) =>
  app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });

describe('an OAuth token on an open WebSocket', () => {
  it('closes every socket using the grant when it is revoked at /revoke, and refuses it afterwards', async () => {
    const tokens = await signedIn();
    const bystander = await signedIn();
    const first = connect(tokens.access_token);
    const second = connect(tokens.access_token);
    const other = connect(bystander.access_token);
    const events = first.run(OWNER_EVENTS);
    const more = second.run(OWNER_EVENTS);
    const unrelated = other.run(OWNER_EVENTS);
    const query = first.run(MY_BUSINESS);
    await until(() => query.done, 'the query over the socket');
    expect(query.errors).toEqual([]);
    expect(query.data[0].myBusiness.name).toBeTruthy();
    await sleep(SETTLE);
    expect(events.errors).toEqual([]);

    expect((await form('/revoke', { token: tokens.access_token, client_id: 'porchlight-public' })).status).toBe(200);
    await until(() => closedForbidden(events) && closedForbidden(more), 'both sockets of the grant to close with 4403');
    await sleep(SETTLE);
    expect(unrelated.errors).toEqual([]);

    // A new connection with the token is refused before any operation, and so is HTTP.
    const again = connect(tokens.access_token).run(MY_BUSINESS);
    await until(() => again.errors.length > 0, 'the refusal');
    expect(again.errors[0].code).toBe(4403);
    expect(again.data).toEqual([]);
    expect((await app.graphql(MY_BUSINESS, {}, { authorization: `Bearer ${tokens.access_token}` })).status).toBe(401);
    await Promise.all([first, second, other].map((c) => c.client.dispose()));
  });

  it('closes the socket when a replayed refresh token revokes the grant', async () => {
    const tokens = await signedIn();
    const socket = connect(tokens.access_token);
    const events = socket.run(OWNER_EVENTS);
    await sleep(SETTLE);
    const refresh = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: 'porchlight-public' };
    expect((await form('/token', refresh)).status).toBe(200);
    expect((await form('/token', refresh)).status).toBe(400);
    await until(() => closedForbidden(events), 'the socket to close with 4403');
    await socket.client.dispose();
  });

  it('checks the credential again for every operation on the socket', async () => {
    const tokens = await signedIn();
    const socket = connect(tokens.access_token);
    const events = socket.run(OWNER_EVENTS);
    await sleep(SETTLE);
    // Revoked behind the server's back (no event): the next operation finds out.
    const grant = await app.services.prisma.oAuthGrant.findFirstOrThrow({ where: { refreshTokens: { some: { tokenHash: hashToken(tokens.refresh_token) } } } });
    await app.services.prisma.oAuthGrant.update({ where: { id: grant.id }, data: { revokedAt: app.services.clock.date() } });
    const next = socket.run(MY_BUSINESS);
    await until(() => closedForbidden(events), 'the socket to close with 4403');
    expect(next.data).toEqual([]);
    await socket.client.dispose();
  });

  it('closes the socket when the access token expires', async () => {
    const tokens = await signedIn();
    const grant = await app.services.prisma.oAuthGrant.findFirstOrThrow({ where: { refreshTokens: { some: { tokenHash: hashToken(tokens.refresh_token) } } } });
    // Issued almost a full lifetime ago: two seconds left.
    const past = { ...app.services, clock: new Clock(app.services.clock.now() - (ACCESS_TOKEN_TTL_SECONDS - 2) * 1000) };
    const expiring = await issueAccessToken(past, { id: grant.id, clientId: grant.clientId, businessId, ownerId: null }, ['read', 'write'], BASE);
    const socket = connect(expiring);
    const events = socket.run(OWNER_EVENTS);
    await sleep(SETTLE);
    expect(events.errors).toEqual([]);
    await until(() => closedForbidden(events), 'the socket to close with 4403 at expiry', 6000);
    const again = connect(expiring).run(MY_BUSINESS);
    await until(() => again.errors.length > 0, 'the refusal');
    expect(again.errors[0].code).toBe(4403);
    await socket.client.dispose();
  });
});

describe('an API key on an open WebSocket', () => {
  it('closes the socket when the key is revoked', async () => {
    const key = newToken('sk_pro_');
    const row = await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId, scopes: ['read', 'write'] } });
    const socket = connect(key);
    const events = socket.run(OWNER_EVENTS);
    await sleep(SETTLE);
    expect(events.errors).toEqual([]);
    await revokeApiKey(app.services, row.id);
    await until(() => closedForbidden(events), 'the socket to close with 4403');
    await socket.client.dispose();
  });
});
