/**
 * Two Porchlight instances on one PostgreSQL database and one Redis: A in this process, B a
 * real second process (`tsx main.ts`, the production entry point with its WebSockets).
 * Events published on B reach subscribers on A through Redis; `updates` on B sees A's writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { serve, type ServerType } from '@hono/node-server';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.js';
import { createPorchlight, type Porchlight } from '../../main.js';
import { attachWebSockets } from '../../facades/ws.js';
import { demoIds } from '../../src/demo/generate.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';

const base = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** Redis SUBSCRIBE is asynchronous: a subscription hears events once it has been acknowledged. */
const SUBSCRIBED = 500;

describe.skipIf(!base || !redisUrl)('two instances on PostgreSQL and Redis', () => {
  const dbName = `porchlight_test_${randomBytes(6).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-multi-'));
  const secretsKey = randomBytes(32).toString('base64url');
  let url: string;
  let a: Porchlight;
  let aServer: ServerType;
  let aSockets: { close(): Promise<void> };
  let aOrigin: string;
  let b: ChildProcess;
  let bOrigin: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(base!);
    u.pathname = `/${dbName}`;
    url = u.toString();

    // A migrates and seeds first, so B starts on a ready database. Both use the real clock:
    // `updates` compares timestamps written by one instance with the other's clock, and the
    // same SECRETS_KEY, as instances sharing a database must.
    a = await createPorchlight({ ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: url, redisUrl, dataDir, baseUrl: 'http://127.0.0.1', secretsKey });
    aServer = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: a.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    aSockets = attachWebSockets(aServer, a);
    aOrigin = `http://127.0.0.1:${(aServer.address() as AddressInfo).port}`;

    // Vitest puts Vite's BASE_URL ("/") into the environment; B must pick its own public address.
    const { BASE_URL: _vite, ...inherited } = process.env;
    b = spawn(process.execPath, ['--import', 'tsx', 'main.ts'], {
      cwd: process.cwd(),
      env: { ...inherited, DATABASE_URL: url, REDIS_URL: redisUrl, SECRETS_KEY: secretsKey, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'test', LOG_LEVEL: 'info', NOW: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    bOrigin = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`instance B did not start: ${out}`)), 30_000);
      b.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const port = /listening on .*\(port (\d+),/.exec(out)?.[1];
        if (port) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${port}`);
        }
      });
      b.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      b.once('exit', (code) => reject(new Error(`instance B exited (${code}): ${out}`)));
    });
  }, 60_000);

  afterAll(async () => {
    if (b && b.exitCode === null) {
      const exited = new Promise((r) => b.once('exit', r));
      b.kill('SIGTERM');
      await exited;
    }
    await aSockets?.close();
    await new Promise<void>((resolve) => (aServer ? aServer.close(() => resolve()) : resolve()));
    await a?.close();
    rmSync(dataDir, { recursive: true, force: true });
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }, 30_000);

  async function call(origin: string, name: string, input: Record<string, unknown>, headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST') {
    const res =
      method === 'GET'
        ? await fetch(`${origin}/api/v1/${name}?${new URLSearchParams(Object.entries(input).map(([k, v]) => [k, String(v)]))}`, { headers })
        : await fetch(`${origin}/api/v1/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(input) });
    return { status: res.status, body: (await res.json()) as any };
  }

  async function bookOn(origin: string, n: number, headers: Record<string, string> = {}) {
    const t = await call(origin, 'available_times', { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, days: 14 }, {}, 'GET');
    const r = await call(
      origin,
      'book_cleaning',
      {
        pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, start: t.body.starts[n * 6], price: t.body.price, zip: demoIds.austinZip,
        customer_name: 'Alex Rivera', customer_email: 'alex@example.com', address: '1100 S Congress Ave, Austin TX',
      },
      headers,
    );
    expect(r.status).toBe(200);
    return r.body as { booking_id: string; manage_token: string };
  }

  async function ownerKey() {
    const key = newToken('sk_pro_');
    const business = await a.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } });
    await a.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes: ['read', 'write'] } });
    return key;
  }

  /** A graphql-ws subscription on instance A; `arrived` holds each result's arrival time. */
  function subscribeOnA(query: string, variables: Record<string, unknown>, connectionParams: Record<string, unknown> = {}) {
    const client = createClient({ url: `${aOrigin.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
    const data: any[] = [];
    const errors: unknown[] = [];
    const arrived: number[] = [];
    client.subscribe({ query, variables }, {
      next: (r) => {
        if (r.errors) errors.push(...r.errors);
        if (r.data) {
          data.push(r.data);
          arrived.push(performance.now());
        }
      },
      error: (e) => errors.push(e),
      complete: () => {},
    });
    return {
      data,
      errors,
      arrived,
      async until(n: number, ms = 3000) {
        const end = Date.now() + ms;
        while (data.length < n) {
          if (Date.now() > end) throw new Error(`timed out; errors: ${JSON.stringify(errors)}`);
          await sleep(2);
        }
      },
      dispose: () => client.dispose(),
    };
  }

  it('a subscriber on A hears bookingUpdated within 1 s of cancel_booking on B', async () => {
    const booking = await bookOn(aOrigin, 0);
    const sub = subscribeOnA(
      'subscription ($id: ID!, $t: String) { bookingUpdated(bookingId: $id, manageToken: $t) { bookingId status } }',
      { id: booking.booking_id, t: booking.manage_token },
    );
    await sleep(SUBSCRIBED);
    const sent = performance.now();
    const cancelled = await call(bOrigin, 'cancel_booking', { booking_id: booking.booking_id, manage_token: booking.manage_token });
    expect(cancelled.status).toBe(200);
    await sub.until(1);
    const latency = sub.arrived[0]! - sent;
    console.log(`bookingUpdated across instances: ${latency.toFixed(1)} ms from the cancel request on B`);
    expect(latency).toBeLessThan(1000);
    expect(sub.data[0].bookingUpdated).toEqual({ bookingId: booking.booking_id, status: 'cancelled' });
    await sub.dispose();
  });

  it('a subscriber on A hears inquiryReplied within 1 s of the owner answering on B', async () => {
    const asked = await call(aOrigin, 'contact_business', { business: demoIds.cleanerAustin, customer_name: 'Sam', message: 'Do you bring supplies?' });
    expect(asked.status).toBe(200);
    const sub = subscribeOnA(
      'subscription ($id: ID!, $t: String) { inquiryReplied(inquiryId: $id, replyToken: $t) { inquiryId status messages { from text } } }',
      { id: asked.body.inquiry_id, t: asked.body.reply_token },
    );
    await sleep(SUBSCRIBED);
    const sent = performance.now();
    const answered = await call(bOrigin, 'message_customer', { inquiry_id: asked.body.inquiry_id, message: 'Yes.' }, bearer(await ownerKey()));
    expect(answered.body.sent).toBe(true);
    await sub.until(1);
    const latency = sub.arrived[0]! - sent;
    console.log(`inquiryReplied across instances: ${latency.toFixed(1)} ms from message_customer on B`);
    expect(latency).toBeLessThan(1000);
    expect(sub.data[0].inquiryReplied).toMatchObject({ inquiryId: asked.body.inquiry_id, status: 'replied' });
    await sub.dispose();
  });

  it('the owner subscribed on A hears a booking made through B, with the assistant name', async () => {
    const key = await ownerKey();
    const sub = subscribeOnA('subscription { ownerEvents { type bookingId clientName } }', {}, { authorization: `Bearer ${key}` });
    await sleep(SUBSCRIBED);
    const booking = await bookOn(bOrigin, 1, { 'x-client-name': 'Instance B Assistant' });
    await sub.until(1);
    expect(sub.data[0].ownerEvents).toEqual({ type: 'booking.created', bookingId: booking.booking_id, clientName: 'Instance B Assistant' });
    await sub.dispose();
  });

  it('updates on B shows a booking made on A, and its cursor works on A', async () => {
    const key = await ownerKey();
    const before = await call(bOrigin, 'updates', {}, bearer(key), 'GET');
    expect(before.status).toBe(200);
    const booking = await bookOn(aOrigin, 2, { 'x-client-name': 'Instance A Assistant' });
    const onB = await call(bOrigin, 'updates', { since: before.body.cursor }, bearer(key), 'GET');
    expect(onB.body.events).toEqual([expect.objectContaining({ type: 'booking.created', booking_id: booking.booking_id, client_name: 'Instance A Assistant' })]);
    // The cursor is the same on every instance: A has nothing new for it.
    const onA = await call(aOrigin, 'updates', { since: onB.body.cursor }, bearer(key), 'GET');
    expect(onA.body.events).toEqual([]);
  });
});
