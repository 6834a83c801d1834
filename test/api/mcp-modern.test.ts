import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { demoIds } from '../../src/demo/generate.js';
import { operations } from '../../src/operations.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

// /mcp speaks MCP 2026-07-28 (no initialize; the version in every request's _meta and header)
// beside the 2025 revisions that open with initialize, on one stateless endpoint.

let app: TestApp;
const clients: Client[] = [];
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await app?.close();
});

const MODERN = '2026-07-28';
const envelope = (version = MODERN) => ({
  'io.modelcontextprotocol/protocolVersion': version,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'vitest-raw', version: '1.0.0' },
});
const serverInfo = { name: 'porchlight', title: 'Porchlight', version: '1.0.0' };
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let rpcId = 0;
async function post(method: string, params: Record<string, unknown> | undefined, headers: Record<string, string>) {
  // An empty value leaves the header out.
  const sent = Object.fromEntries(Object.entries({ ...json, ...headers }).filter(([, v]) => v !== ''));
  const res = await app.get('/mcp', { method: 'POST', headers: sent, body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, ...(params && { params }) }) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** A business key for a demo shop with no receptionist plan, as the Authorization header. */
async function ownerOfShop(): Promise<Record<string, string>> {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'retail', receptionist: null }, orderBy: { slug: 'desc' } });
  await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes: ['read', 'write'] } });
  return { authorization: `Bearer ${key}` };
}

/** A business key for a demo business, as the Authorization header. */
async function ownerOf(slug: string): Promise<Record<string, string>> {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes: ['read', 'write'] } });
  return { authorization: `Bearer ${key}` };
}

/** A 2026-07-28 request as the revision wants it: envelope, version header and Mcp-Method (and Mcp-Name for a call). */
function modern(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const name: Record<string, string> = typeof params.name === 'string' ? { 'mcp-name': params.name } : {};
  return post(method, { ...params, _meta: envelope() }, { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...name, ...headers });
}

/** A 2025-era request after initialize: plain params, the revision in the header (none for 2025-03-26). */
const legacy = (method: string, params: Record<string, unknown> = {}, version?: string, headers: Record<string, string> = {}) =>
  post(method, params, { ...(version && { 'mcp-protocol-version': version }), ...headers });

const job = { bedrooms: 2, bathrooms: 1.5 };

describe('MCP 2026-07-28, raw JSON-RPC', () => {
  it('answers server/discover with its versions, capabilities and identity, cacheable', async () => {
    const { status, body } = await modern('server/discover');
    expect(status).toBe(200);
    expect(body.result.supportedVersions).toEqual([MODERN]);
    expect(body.result.capabilities).toEqual({ tools: { listChanged: false } });
    expect(body.result.resultType).toBe('complete');
    expect(body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual(serverInfo);
    expect(body.result).toMatchObject({ ttlMs: 3_600_000, cacheScope: 'public' });
  });

  it('lists tools in the registry order with ttlMs, cacheScope, resultType and the server identity', async () => {
    const { status, body } = await modern('tools/list');
    expect(status).toBe(200);
    const { tools, ...rest } = body.result;
    expect(tools.map((t: { name: string }) => t.name)).toEqual(operations.map((op) => op.name));
    expect(rest).toEqual({ resultType: 'complete', ttlMs: 3_600_000, cacheScope: 'public', _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo } });
    // The tools themselves are what a 2025-11-25 client gets: title at the tool, not in annotations.
    const current = await legacy('tools/list', {}, '2025-11-25');
    expect(tools).toEqual(current.body.result.tools);
    for (const tool of tools) expect(tool.annotations, tool.name).not.toHaveProperty('title');
  });

  it('keeps tools/list within 110 KB as a current client receives it', async () => {
    const { body } = await modern('tools/list');
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThanOrEqual(110_000);
  });

  it('stamps resultType and the server identity on a tool result', async () => {
    const { status, body } = await modern('tools/call', { name: 'find_cleaners', arguments: { zip: demoIds.austinZip, ...job } });
    expect(status).toBe(200);
    expect(body.result.isError).toBeFalsy();
    expect(body.result.resultType).toBe('complete');
    expect(body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual(serverInfo);
    expect(body.result.structuredContent.cleaners.length).toBeGreaterThan(0);
    expect(body.result).not.toHaveProperty('ttlMs');
  });

  it('refuses an unknown version with -32022 naming the supported ones', async () => {
    const { status, body } = await post('tools/list', { _meta: envelope('2030-01-01') }, { 'mcp-protocol-version': '2030-01-01', 'mcp-method': 'tools/list' });
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32022);
    expect(body.error.data.supported).toEqual([MODERN]);
    expect(body.id).toBe(rpcId);
  });

  it('refuses a version header that disagrees with _meta, or is missing, as HeaderMismatch', async () => {
    for (const headers of [{ 'mcp-protocol-version': '2025-11-25' }, { 'mcp-protocol-version': '' }]) {
      const { status, body } = await post('tools/list', { _meta: envelope() }, { 'mcp-method': 'tools/list', ...headers });
      expect(status, JSON.stringify(headers)).toBe(400);
      expect(body.error.code).toBe(-32020);
    }
    // The header alone, without the envelope, is not a 2026-07-28 request either.
    const bare = await post('tools/list', {}, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' });
    expect(bare.status).toBe(400);
    expect(bare.body.error.code).toBe(-32602);
  });

  it('checks Mcp-Method and Mcp-Name against the body', async () => {
    const cases: [string, Record<string, string>][] = [
      ['Mcp-Method missing', { 'mcp-method': '' }],
      ['Mcp-Method another method', { 'mcp-method': 'tools/list' }],
      ['Mcp-Name missing', { 'mcp-name': '' }],
      ['Mcp-Name another tool', { 'mcp-name': 'book_cleaning' }],
    ];
    for (const [label, headers] of cases) {
      const { status, body } = await modern('tools/call', { name: 'find_cleaners', arguments: { zip: demoIds.austinZip, ...job } }, headers);
      expect(status, label).toBe(400);
      expect(body.error.code, label).toBe(-32020);
    }
  });

  it('lets a browser client send the revision headers (CORS preflight)', async () => {
    const res = await app.get('/mcp', {
      method: 'OPTIONS',
      headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'mcp-protocol-version,mcp-method,mcp-name' },
    });
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(',').map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(['mcp-protocol-version', 'mcp-method', 'mcp-name']));
  });

  it('has no initialize: a 2026-07-28 request for it is an unknown method', async () => {
    const { body } = await modern('initialize', { protocolVersion: MODERN, capabilities: {}, clientInfo: { name: 'x', version: '1' } });
    expect(body.error.code).toBe(-32601);
  });
});

describe('2025 clients on the same endpoint', () => {
  it.each(['2025-11-25', '2025-06-18', '2025-03-26'])('initializes a %s client statelessly in plain JSON', async (version) => {
    const { status, headers, body } = await legacy('initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'old', version: '1' } });
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('mcp-session-id')).toBeNull();
    expect(body.result.protocolVersion).toBe(version);
    expect(body.result.serverInfo).toEqual(serverInfo);
    expect(body.result).not.toHaveProperty('resultType');
  });

  it('gives annotations.title only to 2025-03-26 clients, which have no tool title', async () => {
    const old = (await legacy('tools/list')).body.result;
    const newer = (await legacy('tools/list', {}, '2025-06-18')).body.result;
    expect(old).not.toHaveProperty('ttlMs');
    for (const [i, tool] of old.tools.entries()) {
      expect(tool.annotations.title, tool.name).toBe(tool.title);
      const { title: _, ...annotations } = tool.annotations;
      expect(newer.tools[i]).toEqual({ ...tool, annotations });
    }
  });

  it('answers a 2025-11-25 tool call without the 2026-07-28 fields', async () => {
    const { body } = await legacy('tools/call', { name: 'find_cleaners', arguments: { zip: demoIds.austinZip, ...job } }, '2025-11-25');
    expect(body.result.structuredContent.cleaners.length).toBeGreaterThan(0);
    expect(body.result).not.toHaveProperty('resultType');
    expect(body.result).not.toHaveProperty('_meta');
  });
});

describe('error shapes, one rule per case', () => {
  it('answers invalid tool arguments as a tool result with our sentence, in both eras', async () => {
    const args = { zip: demoIds.austinZip, bedrooms: 'two', bathrooms: 1 };
    for (const { body } of [await modern('tools/call', { name: 'find_cleaners', arguments: args }), await legacy('tools/call', { name: 'find_cleaners', arguments: args })]) {
      expect(body.result.isError).toBe(true);
      expect(JSON.parse(body.result.content[0].text)).toEqual({ error: 'bedrooms must be a whole number.', code: 'invalid_input' });
    }
  });

  it('answers a call without a tool name, or with arguments that are not an object, with -32602 and a sentence', async () => {
    const cases: [Record<string, unknown> | undefined, string][] = [
      [undefined, 'tools/call needs params.name: the name of a tool from tools/list.'],
      [{ arguments: {} }, 'tools/call needs params.name: the name of a tool from tools/list.'],
      [{ name: 7 }, 'tools/call needs params.name: the name of a tool from tools/list.'],
      [{ name: 'find_cleaners', arguments: [78704] }, "params.arguments must be an object holding find_cleaners's arguments, or left out."],
    ];
    for (const [params, message] of cases) {
      const { status, body } = await legacy('tools/call', params);
      expect(status).toBe(200);
      expect(body.error).toEqual({ code: -32602, message });
      expect(body.id).toBe(rpcId);
    }
    const { body } = await post('tools/call', { _meta: envelope() }, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' });
    expect(body.error).toEqual({ code: -32602, message: 'tools/call needs params.name: the name of a tool from tools/list.' });
  });

  it('answers malformed params of other methods with -32602 and a sentence, never the schema\'s issue list', async () => {
    // The SDK sent these as -32603 (internal error) with zod's issues as the message.
    const cases: [Awaited<ReturnType<typeof post>>, string][] = [
      [await post('initialize', undefined, {}), 'initialize: params is required (an object).'],
      [await legacy('initialize', { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'x', version: '1' } }), 'initialize: params.protocolVersion must be a string, not a number.'],
      [await legacy('tools/list', { cursor: 5 }, '2025-11-25'), 'tools/list: params.cursor must be a string, not a number.'],
      [await modern('tools/list', { cursor: 5 }), 'tools/list: params.cursor must be a string, not a number.'],
    ];
    for (const [{ status, body }, message] of cases) {
      expect(status).toBe(200);
      expect(body.error).toEqual({ code: -32602, message });
      expect(body.id).toBeTypeOf('number');
    }
    // A well-formed list is untouched.
    expect((await modern('tools/list')).body.result.tools.length).toBe(operations.length);
  });

  it('answers a protected tool alike with no credential and a bad one: 401, the challenge, the refusal as a tool result', async () => {
    const metadata = `resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`;
    for (const send of [legacy, (m: string, p: Record<string, unknown>, _v?: string, h?: Record<string, string>) => modern(m, p, h)]) {
      const none = await send('tools/call', { name: 'my_business', arguments: {} }, undefined, {});
      const bad = await send('tools/call', { name: 'my_business', arguments: {} }, undefined, { authorization: 'Bearer sk_pro_not_a_real_key' });
      for (const r of [none, bad]) {
        expect(r.status).toBe(401);
        expect(r.headers.get('www-authenticate')).toContain(metadata);
        expect(r.body.result.isError).toBe(true);
        expect(JSON.parse(r.body.result.content[0].text).code).toBe('unauthorized');
      }
      // RFC 6750: only the credential that was sent is called invalid.
      expect(none.headers.get('www-authenticate')).toBe(`Bearer ${metadata}`);
      expect(bad.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", ${metadata}`);
    }
  });

  it('refuses a bad credential on any other method with 401 and the challenge', async () => {
    const { status, headers, body } = await modern('tools/list', {}, { authorization: 'Bearer sk_pro_not_a_real_key' });
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(body.error.data.code).toBe('unauthorized');
    expect(body.id).toBe(rpcId);
  });

  it('accepts a whole number sent as text as it accepts a ZIP sent as a number', async () => {
    for (const args of [{ zip: 78704, ...job }, { zip: demoIds.austinZip, bedrooms: '2', bathrooms: '1.5' }]) {
      for (const { body } of [await modern('tools/call', { name: 'find_cleaners', arguments: args }), await legacy('tools/call', { name: 'find_cleaners', arguments: args })]) {
        expect(body.result.isError, JSON.stringify(args)).toBeFalsy();
        expect(body.result.structuredContent.cleaners.length).toBeGreaterThan(0);
      }
    }
    // Text that is not plainly a number is still judged by the field's own rule.
    const { body } = await legacy('tools/call', { name: 'find_cleaners', arguments: { zip: demoIds.austinZip, bedrooms: '2.0.1', bathrooms: 1 } });
    expect(JSON.parse(body.result.content[0].text).error).toBe('bedrooms must be a whole number.');
  });
});

describe("asking for a person's go-ahead (elicitation)", () => {
  const asking = { elicitation: { form: {} } };
  const withCapabilities = (capabilities: object, extra: Record<string, unknown> = {}) => ({
    name: 'receptionist_checkout',
    arguments: {},
    ...extra,
    _meta: { ...envelope(), 'io.modelcontextprotocol/clientCapabilities': capabilities },
  });
  const call = (params: Record<string, unknown>, owner: Record<string, string>) =>
    post('tools/call', params, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'receptionist_checkout', ...owner });

  it('asks a client that can ask its user, and runs the call once the owner approves', async () => {
    const owner = await ownerOfShop();
    const first = await call(withCapabilities(asking), owner);
    expect(first.status).toBe(200);
    expect(first.body.result.resultType).toBe('input_required');
    const question = first.body.result.inputRequests.go_ahead;
    expect(question.method).toBe('elicitation/create');
    expect(question.params.message).toContain("needs the owner's go-ahead");
    expect(question.params.requestedSchema.properties.approve.type).toBe('boolean');

    const approved = await call(withCapabilities(asking, { inputResponses: { go_ahead: { action: 'accept', content: { approve: true } } } }), owner);
    expect(approved.body.result.resultType).toBe('complete');
    expect(approved.body.result.isError).toBeFalsy();
    expect(approved.body.result.structuredContent.url).toMatch(/^http/);
  });

  it('refuses as before when the owner declines or says no', async () => {
    const owner = await ownerOfShop();
    for (const go_ahead of [{ action: 'decline' }, { action: 'accept', content: { approve: false } }]) {
      const { body } = await call(withCapabilities(asking, { inputResponses: { go_ahead } }), owner);
      expect(body.result.isError, JSON.stringify(go_ahead)).toBe(true);
      expect(JSON.parse(body.result.content[0].text).error).toMatch(/owner_approved must be true/);
    }
  });

  it('keeps the plain argument for clients that cannot ask, and for 2025 clients', async () => {
    const owner = await ownerOfShop();
    const modernRefused = await call(withCapabilities({}), owner);
    expect(modernRefused.body.result.isError).toBe(true);
    expect(JSON.parse(modernRefused.body.result.content[0].text).error).toBe('owner_approved is required.');
    const legacyRefused = await legacy('tools/call', { name: 'receptionist_checkout', arguments: {} }, '2025-11-25', owner);
    expect(JSON.parse(legacyRefused.body.result.content[0].text).error).toBe('owner_approved is required.');
    // Sent as an argument, the go-ahead needs no question.
    const given = await call(withCapabilities(asking, { arguments: { owner_approved: true } }), owner);
    expect(given.body.result.structuredContent.url).toMatch(/^http/);
  });
});

describe('the official SDK v2 client', () => {
  type Negotiation = NonNullable<NonNullable<ConstructorParameters<typeof Client>[1]>['versionNegotiation']>;
  async function connect(versionNegotiation: Negotiation, headers: Record<string, string> = {}, capabilities = {}) {
    const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), { requestInit: { headers }, fetch: (url, init) => app.get(new URL(url).pathname, init) });
    const client = new Client({ name: 'vitest-sdk-v2', version: '1.0.0' }, { versionNegotiation, capabilities });
    clients.push(client);
    return { client, transport };
  }

  it.each([['pinned to 2026-07-28', { mode: { pin: MODERN } }], ['in auto mode', { mode: 'auto' }]] as const)('works %s', async (_, negotiation) => {
    const { client, transport } = await connect(negotiation);
    await client.connect(transport);
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(operations.map((op) => op.name));
    // The client checks structuredContent against the outputSchema it listed.
    const found = await client.callTool({ name: 'find_cleaners', arguments: { zip: demoIds.austinZip, ...job } });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent as { cleaners: unknown[] }).cleaners.length).toBeGreaterThan(0);
    const refused = await client.callTool({ name: 'booking_status', arguments: { booking_id: 'nope', manage_token: 'nope' } });
    expect(refused.isError).toBe(true);
  });

  it('validates results with nested objects against their output schemas, pinned to 2026-07-28', async () => {
    const { client, transport } = await connect({ mode: { pin: MODERN } });
    await client.connect(transport);
    await client.listTools();
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      return result.structuredContent as any;
    };
    const times = await call('available_times', { pro_id: demoIds.cleanerAustin, ...job });
    const customer = { customer_name: 'Alex Rivera', customer_email: 'alex@example.com', address: '1100 S Congress Ave, Austin TX', zip: demoIds.austinZip };
    const booked = await call('book_cleaning', { pro_id: demoIds.cleanerAustin, ...job, start: times.starts[2], price: times.price, ...customer });
    expect((await call('booking_status', { booking_id: booked.booking_id, manage_token: booked.manage_token })).booking_id).toBe(booked.booking_id);
    expect((await call('find_businesses', { zip: demoIds.austinZip })).businesses.length).toBeGreaterThan(0);

    const owner = await connect({ mode: { pin: MODERN } }, await ownerOf(demoIds.cleanerAustin));
    await owner.client.connect(owner.transport);
    await owner.client.listTools();
    for (const name of ['schedule', 'my_business', 'pipeline']) {
      const result = await owner.client.callTool({ name, arguments: {} });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    }
  });

  it("asks its user for the owner's go-ahead through its elicitation handler", async () => {
    const { client, transport } = await connect({ mode: { pin: MODERN } }, await ownerOfShop(), { elicitation: { form: {} } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    await client.connect(transport);
    await client.listTools();
    const result = await client.callTool({ name: 'receptionist_checkout', arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("owner's go-ahead");
    expect(result.isError).toBeFalsy();
    expect((result.structuredContent as { url: string }).url).toMatch(/^http/);
  });
});
