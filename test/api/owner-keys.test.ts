/**
 * Issue 18 item 3: a connection minted keys that outlived it. Manage with AI codes now come from
 * the owner signed in to the dashboard only; a key bought with a code a connection made dies with
 * that connection; business keys expire; and owners list and revoke keys and connections
 * (api_keys, revoke_api_key) on every surface, a revoked one being refused at once, sockets too.
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
import { hashToken } from '../../src/auth/tokens.js';
import { createManageCode } from '../../src/auth/manage-codes.js';
import { BUSINESS_KEY_DAYS } from '../../src/auth/keys.js';
import { findClient } from '../../src/auth/oauth/clients.js';
import { createAuthorizationCode, exchangeCode } from '../../src/auth/oauth/grants.js';
import { attachWebSockets } from '../../facades/ws.js';
import { bearer, startApp, type TestApp } from '../helpers/harness.js';
import { SURFACES, call, type Surface } from '../helpers/surfaces.js';

const redisUrl = process.env.REDIS_URL;
const REDIRECT = 'http://127.0.0.1:8976/callback';
const OWNER_EVENTS = 'subscription { ownerEvents { type bookingId } }';
const SETTLE = redisUrl ? 500 : 250;
const CREATE_CODE = 'mutation { createManageCode { code expiresAt } }';

let app: TestApp;
let server: ServerType;
let sockets: { close(): Promise<void> };
let wsUrl: string;
let businessId: string;
let otherId: string;
const logs: string[] = [];
/** Every key and code this file made: none may reach a log line. */
const secrets: string[] = [];

beforeAll(async () => {
  app = await startApp({ env: redisUrl ? { REDIS_URL: redisUrl } : {}, logs });
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  sockets = attachWebSockets(server, app);
  wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).id;
  otherId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin } })).id;
});
afterAll(async () => {
  await sockets?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(ready: () => boolean, what: string, ms = 5000) {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** A graphql-ws subscription to the owner's events with `token`; its errors (close codes) are collected. */
function subscribe(token: string) {
  const client: Client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
  const op = { errors: [] as any[], client };
  client.subscribe({ query: OWNER_EVENTS }, { next: (r) => r.errors && op.errors.push(...r.errors), error: (e) => op.errors.push(e), complete: () => {} });
  return op;
}
const closedForbidden = (op: { errors: any[] }) => op.errors.some((e) => e?.code === 4403);

/** An OAuth connection for a business (as the sign-in window makes one): its grant id and tokens. */
async function connection(forBusiness = businessId, scopes: Scope[] = ['read', 'write']) {
  const client = (await findClient(app.services, 'porchlight-public'))!;
  const verifier = oauth.generateRandomCodeVerifier();
  const req = { client, redirectUri: REDIRECT, codeChallenge: await oauth.calculatePKCECodeChallenge(verifier), scopes };
  const code = await app.services.prisma.$transaction((tx) => createAuthorizationCode(app.services, req, { businessId: forBusiness, ownerId: null }, tx));
  const tokens = await exchangeCode(app.services, { code, clientId: client.id, redirectUri: REDIRECT, codeVerifier: verifier });
  const grant = await app.services.prisma.oAuthGrant.findFirstOrThrow({ where: { refreshTokens: { some: { tokenHash: hashToken(tokens.refresh_token) } } } });
  return { grantId: grant.id, access: tokens.access_token, refresh: tokens.refresh_token };
}

/** POST /app/api/connect; its per-address budget of code entries is not the subject here. */
async function connect(code: string) {
  await app.services.rateLimits.code.reset('address:local');
  return app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
}

/** A business key bought at /app/api/connect with a code; `grantId`: the connection that made the code. */
async function keyFromCode(forBusiness = businessId, grantId: string | null = null) {
  const { code } = await createManageCode(app.services, forBusiness, grantId);
  const res = await connect(code);
  expect(res.status).toBe(200);
  const { key } = (await res.json()) as { key: string };
  secrets.push(key, code);
  const row = await app.services.prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashToken(key) } });
  return { key, keyId: row.id };
}

/** `token` is refused (401 unauthorized) on REST, MCP and GraphQL alike, for reads and changes. */
async function refusedEverywhere(token: string) {
  const rest = await app.rest('set_customer_notes', { notes: 'still here?' }, bearer(token));
  expect([rest.status, rest.body.code]).toEqual([401, 'unauthorized']);
  expect((await app.rest('my_business', {}, bearer(token))).status).toBe(401);
  const mcp = await app.mcp('tools/call', { name: 'my_business', arguments: {} }, bearer(token));
  expect(mcp.status).toBe(401);
  const gql = await app.graphql('{ myBusiness { name } }', {}, bearer(token));
  expect([gql.status, gql.body.errors[0].extensions.code]).toEqual([401, 'unauthorized']);
}

describe('item 3: a connection cannot mint keys that outlive it', () => {
  it('an OAuth token with write scope cannot create a Manage with AI code, nor can a key (403, pointing to /app)', async () => {
    const { access } = await connection();
    const { key } = await keyFromCode();
    const before = await app.services.prisma.manageCode.count();
    for (const token of [access, key, app.services.config.publicSharedKey]) {
      for (const doc of [CREATE_CODE, 'mutation { a: createManageCode { code } }', 'mutation { ...F } fragment F on Mutation { createManageCode { code } }']) {
        const r = await app.graphql(doc, {}, bearer(token));
        expect(r.status, doc).toBe(403);
        expect(r.body.data?.createManageCode ?? r.body.data?.a ?? null).toBeNull();
        expect(r.body.errors[0].extensions.code).toBe('insufficient_scope');
        expect(r.body.errors[0].message).toContain('/app');
      }
    }
    const anonymous = await app.graphql(CREATE_CODE);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].message).toContain('/app');
    expect(await app.services.prisma.manageCode.count()).toBe(before);
  });

  it('a key bought with a code a connection made dies with the connection: 401 on REST, MCP and GraphQL, and its socket closes', async () => {
    const conn = await connection();
    const { key, keyId } = await keyFromCode(businessId, conn.grantId);
    expect((await app.rest('set_customer_notes', { notes: 'Please secure pets before we arrive.' }, bearer(key))).status).toBe(200);
    const live = subscribe(key);
    await sleep(SETTLE);
    expect(live.errors).toEqual([]);
    const listed = await call(app, 'rest', 'api_keys', {}, bearer(key));
    expect(listed.body.keys.find((k: any) => k.key_id === keyId)).toMatchObject({ connection_id: conn.grantId, current: true });

    // The owner revokes the connection (RFC 7009, as an assistant's "disconnect" does).
    const revoked = await app.get('/revoke', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: conn.refresh, client_id: 'porchlight-public' }) });
    expect(revoked.status).toBe(200);
    await refusedEverywhere(key);
    await refusedEverywhere(conn.access);
    await until(() => closedForbidden(live), 'the key\'s socket to close with 4403');
    const again = subscribe(key);
    await until(() => again.errors.length > 0, 'a new socket with the key to be refused');
    expect(again.errors[0].code).toBe(4403);
    expect((await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).revokedAt).not.toBeNull();
    await Promise.all([live.client.dispose(), again.client.dispose()]);
  });

  it('the key stays dead even if it was made after the connection was revoked (a race), and the code buys nothing once it is', async () => {
    const conn = await connection();
    const { code } = await createManageCode(app.services, businessId, conn.grantId);
    const late = await createManageCode(app.services, businessId, conn.grantId);
    const { key, keyId } = await keyFromCode(businessId, conn.grantId);
    // Revoked behind the cascade's back (as if the key's transaction committed just after the
    // revocation's): the verifier reads the connection with the key.
    await app.services.prisma.oAuthGrant.update({ where: { id: conn.grantId }, data: { revokedAt: app.services.clock.date() } });
    expect((await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).revokedAt).toBeNull();
    await refusedEverywhere(key);
    expect((await call(app, 'rest', 'api_keys', {}, bearer((await keyFromCode()).key))).body.keys.some((k: any) => k.key_id === keyId)).toBe(false);
    expect(await keyFromCodeRow(code)).toBeNull();
    const res = await connect(late.code);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('invalid_input');
  });

  it('a code a connection made is not accepted at the sign-in window either (it would make a connection that outlives it)', async () => {
    const conn = await connection();
    const { code } = await createManageCode(app.services, businessId, conn.grantId);
    const { approveWithManageCode } = await import('../../src/auth/oauth/authorize.js');
    const client = (await findClient(app.services, 'porchlight-public'))!;
    const req = { client, redirectUri: REDIRECT, codeChallenge: 'a'.repeat(43), scopes: ['read', 'write'] as Scope[] };
    await expect(approveWithManageCode(app.services, req, code, 'window')).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('/app') });
  });

  it(`business keys work ${BUSINESS_KEY_DAYS} days; a socket opened with one stays open until then`, async () => {
    const { key, keyId } = await keyFromCode();
    const row = await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } });
    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBe(BUSINESS_KEY_DAYS * 24 * 3600_000);
    // Months away: longer than setTimeout can wait, which must not close the socket at once.
    const live = subscribe(key);
    await sleep(SETTLE * 2);
    expect(live.errors).toEqual([]);
    await live.client.dispose();
    const realClock = app.services.clock;
    app.services.clock = new Clock(row.expiresAt!.getTime() + 1000);
    try {
      expect((await app.rest('my_business', {}, bearer(key))).status).toBe(401);
    } finally {
      app.services.clock = realClock;
    }
    expect((await app.rest('my_business', {}, bearer(key))).status).toBe(200);
  });

  it('keeps when a key was last used, to the hour, with one write an hour', async () => {
    const { key, keyId } = await keyFromCode();
    expect((await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt).toBeNull();
    const lastUsed = async () => (await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt!;
    await app.rest('my_business', {}, bearer(key));
    const first = await lastUsed();
    expect(Math.abs(first.getTime() - app.services.clock.now())).toBeLessThan(5000);
    await app.rest('my_business', {}, bearer(key));
    expect(await lastUsed()).toEqual(first);
    const realClock = app.services.clock;
    app.services.clock = new Clock(realClock.now() + 3600_000);
    try {
      await app.rest('my_business', {}, bearer(key));
      expect((await lastUsed()).getTime() - first.getTime()).toBeGreaterThanOrEqual(3600_000);
    } finally {
      app.services.clock = realClock;
    }
    const listed = await call(app, 'rest', 'api_keys', {}, bearer(key));
    expect(listed.body.keys.find((k: any) => k.key_id === keyId).last_used_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?-0[56]:00$/);
  });
});

/** Spends a code the way /app/api/connect does; the key, or null when refused. */
async function keyFromCodeRow(code: string): Promise<string | null> {
  const res = await connect(code);
  return res.status === 200 ? ((await res.json()) as { key: string }).key : null;
}

describe('api_keys and revoke_api_key', () => {
  it('lists the live keys and connections, the same on REST, MCP and GraphQL, marking the caller and never showing a key', async () => {
    const conn = await connection();
    const { key, keyId } = await keyFromCode();
    const other = await keyFromCode(otherId);
    const seen = [];
    for (const via of SURFACES) {
      const r = await call(app, via, 'api_keys', {}, bearer(conn.access));
      expect(r.ok, via).toBe(true);
      seen.push(r.body);
      expect(r.body.connections.find((c: any) => c.connection_id === conn.grantId)).toMatchObject({ client_id: 'porchlight-public', client_name: 'Porchlight public client', scopes: ['read', 'write'], current: true });
      expect(r.body.keys.find((k: any) => k.key_id === keyId)).toMatchObject({ hint: key.slice(0, 12), connection_id: null, current: false, last_used_at: null });
      expect(r.body.keys.some((k: any) => k.key_id === other.keyId)).toBe(false);
      const text = JSON.stringify(r.body);
      expect(text).not.toContain(key);
      expect(text).not.toContain(hashToken(key));
    }
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  const revokes: [Surface, string][] = SURFACES.map((via) => [via, via]);
  it.each(revokes)('revokes a key over %s: it is refused at once everywhere, its socket closes', async (via) => {
    const owner = await connection();
    const { key, keyId } = await keyFromCode();
    const live = subscribe(key);
    await sleep(SETTLE);
    expect(live.errors).toEqual([]);
    const r = await call(app, via as Surface, 'revoke_api_key', { id: keyId }, bearer(owner.access));
    expect(r.ok).toBe(true);
    expect(r.body).toEqual({ id: keyId, kind: 'key', keys_revoked: [], current: false });
    await refusedEverywhere(key);
    await until(() => closedForbidden(live), 'the socket to close with 4403');
    await live.client.dispose();
    // Again: nothing more to do, no error.
    expect((await call(app, via as Surface, 'revoke_api_key', { id: keyId }, bearer(owner.access))).ok).toBe(true);
    expect((await call(app, 'rest', 'api_keys', {}, bearer(owner.access))).body.keys.some((k: any) => k.key_id === keyId)).toBe(false);
  });

  it('revoking a connection takes the keys it made with it; a key revoking its own connection is refused next call', async () => {
    const conn = await connection();
    const a = await keyFromCode(businessId, conn.grantId);
    const b = await keyFromCode(businessId, conn.grantId);
    const r = await call(app, 'mcp', 'revoke_api_key', { id: conn.grantId }, bearer(a.key));
    expect(r.ok).toBe(true);
    expect(r.body).toMatchObject({ id: conn.grantId, kind: 'connection', current: true });
    expect([...r.body.keys_revoked].sort()).toEqual([a.keyId, b.keyId].sort());
    await refusedEverywhere(a.key);
    await refusedEverywhere(b.key);
    await refusedEverywhere(conn.access);
  });

  it('lets a connection revoke itself, and a key itself', async () => {
    const conn = await connection();
    expect((await call(app, 'graphql', 'revoke_api_key', { id: conn.grantId }, bearer(conn.access))).body).toMatchObject({ kind: 'connection', current: true });
    await refusedEverywhere(conn.access);
    const { key, keyId } = await keyFromCode();
    expect((await call(app, 'rest', 'revoke_api_key', { id: keyId }, bearer(key))).body).toMatchObject({ kind: 'key', current: true });
    await refusedEverywhere(key);
  });

  it("answers another business's key or connection exactly like an unknown id (400 not_found), and leaves it working", async () => {
    const owner = await connection();
    const theirs = await keyFromCode(otherId);
    const theirConnection = await connection(otherId);
    const answers = [];
    for (const via of SURFACES) {
      for (const id of [theirs.keyId, theirConnection.grantId, 'no-such-id', 'sk_pro_looks-like-a-key']) {
        const r = await call(app, via, 'revoke_api_key', { id }, bearer(owner.access));
        expect(r.ok, `${via} ${id}`).toBe(false);
        expect(r.code).toBe('not_found');
        expect(r.error).not.toContain(id);
        answers.push(r.error);
      }
    }
    expect(new Set(answers).size).toBe(1);
    expect((await app.rest('revoke_api_key', { id: theirs.keyId }, bearer(owner.access))).status).toBe(400);
    expect((await app.rest('my_business', {}, bearer(theirs.key))).status).toBe(200);
    expect((await app.rest('my_business', {}, bearer(theirConnection.access))).status).toBe(200);
  });

  it('needs the sign-in: read to list, write to revoke; customers and anonymous callers are refused', async () => {
    const reader = await connection(businessId, ['read']);
    const { keyId } = await keyFromCode();
    expect((await call(app, 'rest', 'api_keys', {}, bearer(reader.access))).ok).toBe(true);
    for (const via of SURFACES) {
      expect((await call(app, via, 'revoke_api_key', { id: keyId }, bearer(reader.access))).code).toBe('insufficient_scope');
      expect((await call(app, via, 'api_keys', {})).code).toBe('unauthorized');
      expect((await call(app, via, 'api_keys', {}, bearer(app.services.config.publicSharedKey))).code).toBe('insufficient_scope');
    }
    expect((await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).revokedAt).toBeNull();
  });

  it('never logs a key or code', async () => {
    const text = logs.join('\n');
    expect(secrets.length).toBeGreaterThan(10);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
