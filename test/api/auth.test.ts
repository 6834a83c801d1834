import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { operations } from '../../src/operations.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { createManageCode } from '../../src/auth/manage-codes.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

const PUBLIC_KEY = 'sk_pub_porchlight_demo';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const challenge = `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource"`;
const mcpChallenge = `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`;
const guarded = operations.filter((op) => op.auth !== 'public');

/** A business key stored the way the connect route stores one. */
async function businessKey(app: TestApp, slug: string, scopes = ['read', 'write']) {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.apiKey.create({
    data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes },
  });
  return key;
}

/** Runs an operation's persisted document over /graphql, as a dashboard would. */
async function graphqlCall(app: TestApp, name: string, headers: Record<string, string> = {}) {
  const res = await app.get('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ documentId: name, variables: { input: {} } }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { errors?: { extensions: { code: string } }[]; data?: unknown } };
}

async function mcpCall(app: TestApp, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await app.get('/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('authorization, the same on REST, MCP and GraphQL', () => {
  let app: TestApp;
  const logs: string[] = [];
  beforeAll(async () => {
    app = await startApp({ logs });
  });
  afterAll(async () => app?.close());

  it('has owner operations to walk', () => {
    expect(guarded.map((op) => op.name)).toEqual(expect.arrayContaining(['my_business', 'set_customer_notes', 'note_to_owner']));
  });

  it('answers 401 with the bearer challenge for every operation that needs a sign-in, on every surface', async () => {
    for (const op of guarded) {
      const rest = await app.rest(op.name, {});
      expect(rest.status, op.name).toBe(401);
      expect(rest.body.code, op.name).toBe('unauthorized');
      expect(rest.body.error, op.name).toMatch(/sign-in|signed-in/);
      expect(rest.headers.get('www-authenticate'), op.name).toBe(challenge);

      const mcp = await mcpCall(app, op.name, {});
      expect(mcp.status, op.name).toBe(401);
      expect(mcp.headers.get('www-authenticate'), op.name).toBe(mcpChallenge);
      expect(mcp.body.result.isError, op.name).toBe(true);
      expect(JSON.parse(mcp.body.result.content[0].text), op.name).toEqual(rest.body);

      const gql = await graphqlCall(app, op.name);
      expect(gql.status, op.name).toBe(401);
      expect(gql.headers.get('www-authenticate'), op.name).toBe(challenge);
      expect(gql.body.errors?.[0]?.extensions.code, op.name).toBe('unauthorized');
    }
  });

  it('refuses an invalid credential even on customer operations, without echoing it', async () => {
    const fake = 'sk_live_not_a_real_key_0123456789';
    const rest = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 }, bearer(fake));
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('unauthorized');
    expect(rest.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${BASE}/.well-known/oauth-protected-resource"`);
    expect(JSON.stringify(rest.body)).not.toContain(fake);

    const mcp = await app.mcp('tools/list', {}, bearer(fake));
    expect(mcp.status).toBe(401);
    expect(JSON.stringify(mcp.body)).not.toContain(fake);

    const gql = await app.graphql('{ __typename }', {}, bearer(fake));
    expect(gql.status).toBe(401);
    expect(gql.body.errors[0].extensions.code).toBe('unauthorized');

    const malformed = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 }, { authorization: 'Basic abc' });
    expect(malformed.status).toBe(401);
  });

  it('lets the shared public key use public operations only', async () => {
    const search = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 }, bearer(PUBLIC_KEY));
    expect(search.status).toBe(200);
    const mine = await app.rest('my_bookings', {}, bearer(PUBLIC_KEY));
    expect(mine.status).toBe(200);
    expect(mine.body.bookings).toEqual([]);
    const owner = await app.rest('my_business', {}, bearer(PUBLIC_KEY));
    expect(owner.status).toBe(403);
    expect(owner.body.code).toBe('insufficient_scope');
    const tool = await app.tool('my_business', {}, bearer(PUBLIC_KEY));
    expect(tool.isError).toBe(true);
    expect(tool.body).toEqual(owner.body);
  });

  it('runs owner operations for the business of the credential only', async () => {
    const key = await businessKey(app, demoIds.cleanerAustin);
    const other = await businessKey(app, demoIds.plumberAustin);

    const mine = await app.rest('my_business', {}, bearer(key));
    expect(mine.status).toBe(200);
    expect(mine.body.pro_id).toBe(demoIds.cleanerAustin);
    expect(mine.body.prices.length).toBeGreaterThan(3);
    expect(mine.body.service_zips).toContain(demoIds.austinZip);
    expect(Object.keys(mine.body.hours)).toHaveLength(7);
    expect(mine.body.pipeline.month).toBe('2026-11');
    const viaMcp = await app.tool('my_business', {}, bearer(key));
    expect(viaMcp.structured).toEqual(mine.body);

    const notes = 'Gate code is on the booking page. <b>Bring</b> your own "supplies".';
    const set = await app.rest('set_customer_notes', { notes }, bearer(key));
    expect(set.status).toBe(200);
    expect(set.body.customer_notes).toBe(notes);
    const again = await app.rest('set_customer_notes', { notes: 'Second' }, bearer(key));
    expect(again.body.previous).toBe(notes);

    const note = await app.rest('note_to_owner', { note: 'Call back Mrs. Lee' }, { ...bearer(key), 'x-client-name': 'Test Assistant' });
    expect(note.status).toBe(200);
    const after = await app.rest('my_business', {}, bearer(key));
    expect(after.body.customer_notes).toBe('Second');
    expect(after.body.owner_notes[0]).toMatchObject({ text: 'Call back Mrs. Lee', client_name: 'Test Assistant' });

    // The plumber's key sees the plumber, never the cleaner's notes.
    const theirs = await app.rest('my_business', {}, bearer(other));
    expect(theirs.body.pro_id).toBe(demoIds.plumberAustin);
    expect(theirs.body.owner_notes).toEqual([]);
    expect(theirs.body.customer_notes).not.toBe('Second');
  });

  it('needs the write scope for changes and read for reads', async () => {
    const readOnly = await businessKey(app, demoIds.hvacSanJose, ['read']);
    expect((await app.rest('my_business', {}, bearer(readOnly))).status).toBe(200);
    const write = await app.rest('set_customer_notes', { notes: 'x' }, bearer(readOnly));
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('insufficient_scope');
    const gql = await app.graphql('mutation { noteToOwner(input: { note: "hi" }) { saved } }', {}, bearer(readOnly));
    expect(gql.status).toBe(403);
    expect(gql.body.errors[0].extensions.code).toBe('insufficient_scope');
  });

  it('checks the sign-in before the input, so a caller without it learns nothing about the fields', async () => {
    const r = await app.rest('set_customer_notes', { notes: 'x'.repeat(5000) });
    expect(r.status).toBe(401);
  });

  it('keeps keys, tokens and codes out of every log line', async () => {
    const key = await businessKey(app, demoIds.cleanerSanFrancisco);
    await app.rest('my_business', {}, bearer(key));
    await app.rest('my_business', {}, bearer(`${key}x`));
    const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, bedrooms: 1, bathrooms: 1 });
    const booked = await app.rest('book_cleaning', {
      pro_id: demoIds.cleanerAustin,
      bedrooms: 1,
      bathrooms: 1,
      start: times.body.starts[0],
      address: '1 Test St, Austin TX',
      zip: demoIds.austinZip,
      customer_name: 'Log Test',
      customer_email: 'log.test@example.com',
    });
    expect(booked.status).toBe(200);
    const token = booked.body.manage_token as string;
    await app.rest('booking_status', { booking_id: booked.body.booking_id, manage_token: token });
    await app.get(`/manage/${token}`);
    // A Manage with AI code and the business key it is exchanged for.
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin } });
    const { code } = await createManageCode(app.services, business.id);
    const connected = await app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    const { key: proKey } = (await connected.json()) as { key: string };
    await app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    // A conversation's reply_token, in a body and in a query string.
    const asked = await app.rest('contact_business', {
      business: demoIds.plumberAustin,
      message: 'Do you fix tankless heaters?',
      customer_name: 'Log Test',
      customer_email: 'log.test@example.com',
    });
    expect(asked.status).toBe(200);
    const replyToken = asked.body.reply_token as string;
    await app.rest('inquiry_status', { inquiry_id: asked.body.inquiry_id, reply_token: replyToken });
    await app.rest('inquiry_status', { inquiry_id: asked.body.inquiry_id, reply_token: `${replyToken}x` });
    expect(logs.length).toBeGreaterThan(5);
    const all = logs.join('\n');
    expect(all).toContain('"route":"/manage/:token"');
    for (const secret of [key, token, PUBLIC_KEY, code, proKey, replyToken]) {
      expect(secret.length).toBeGreaterThan(5);
      expect(all).not.toContain(secret);
    }
  });
});

describe('rate limits', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(async () => app?.close());

  it('answers 429 with Retry-After on every surface once the budget of an address is spent', async () => {
    const query = { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 };
    for (let i = 0; i < 3; i++) expect((await app.rest('find_cleaners', query)).status).toBe(200);
    const rest = await app.rest('find_cleaners', query);
    expect(rest.status).toBe(429);
    expect(rest.body.code).toBe('rate_limited');
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);

    const mcp = await mcpCall(app, 'find_cleaners', query);
    expect(mcp.status).toBe(429);
    expect(Number(mcp.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(mcp.body.result.content[0].text).code).toBe('rate_limited');

    const gql = await graphqlCall(app, 'my_bookings');
    expect(gql.status).toBe(429);
    expect(Number(gql.headers.get('retry-after'))).toBeGreaterThan(0);

    // The same budget covers the routes outside GraphQL: OAuth endpoints, pages, connect.
    for (const [path, init] of [
      ['/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['/token', { method: 'POST' }],
      ['/key', {}],
      ['/manage/mt_unknown', {}],
    ] as const) {
      const res = await app.get(path, init);
      expect(res.status, path).toBe(429);
      expect(Number(res.headers.get('retry-after')), path).toBeGreaterThan(0);
    }
  });

  it('counts a credential apart from the address it calls from', async () => {
    const key = await businessKey(app, demoIds.cleanerAustin);
    expect((await app.rest('my_business', {}, bearer(key))).status).toBe(200);
  });
});
