import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { startApp, type TestApp } from '../helpers/harness.js';

// Well-formed MCP tool calls and persisted GraphQL calls are answered without the SDK's server
// and yoga's HTTP layer (facades/mcp.ts directCall, facades/graphql.ts persistedCall). A field
// the SDK and yoga ignore sends the same call through them: both answers must be the same bytes.

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  await app?.close();
});

const MODERN = '2026-07-28';
const envelope = (capabilities: object = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'vitest', version: '1.0.0' },
});
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const search = { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1.5 };

async function answer(path: string, headers: Record<string, string>, body: unknown) {
  const res = await app.get(path, { method: 'POST', headers, body: JSON.stringify(body) });
  // Header names are case-insensitive (yoga's own Headers keep the case they were given).
  return { status: res.status, headers: [...res.headers].map(([name, value]) => [name.toLowerCase(), value]).sort(), body: await res.text() };
}

/** A 2025 call, and the same call through the SDK (an empty `_meta`, which it ignores). */
async function legacyPair(params: Record<string, unknown>, id: string | number = 1, headers: Record<string, string> = {}) {
  const send = (p: Record<string, unknown>) => answer('/mcp', { ...json, ...headers }, { jsonrpc: '2.0', id, method: 'tools/call', params: p });
  return [await send(params), await send({ ...params, _meta: {} })];
}

/** A 2026-07-28 call, and the same call through the SDK (a params field it ignores). */
async function modernPair(params: Record<string, unknown>, headers: Record<string, string> = {}, capabilities: object = {}) {
  const sent = { ...json, 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': String(params.name), ...headers };
  const send = (p: Record<string, unknown>) => answer('/mcp', sent, { jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { ...p, _meta: envelope(capabilities) } });
  return [await send(params), await send({ ...params, unread: true })];
}

describe('MCP tool calls answered directly', () => {
  it('answers a 2025 call as the SDK does: result, tool error and refusal with its challenge', async () => {
    for (const [params, id, headers] of [
      [{ name: 'find_cleaners', arguments: search }, 1, {}],
      [{ name: 'find_cleaners', arguments: search }, 'abc', { 'mcp-protocol-version': '2025-06-18' }],
      [{ name: 'find_cleaners', arguments: { ...search, bedrooms: 'two' } }, 0, {}],
      [{ name: 'find_cleaners' }, 7, { accept: 'application/json' }],
      [{ name: 'my_business', arguments: {} }, 2, {}],
      [{ name: 'my_business', arguments: {} }, 3, { authorization: 'Bearer sk_pro_not_a_real_key' }],
    ] as const) {
      const [direct, sdk] = await legacyPair(params, id, headers);
      expect(direct, JSON.stringify(params)).toEqual(sdk);
    }
  });

  it('answers a 2026-07-28 call as the SDK does, with resultType and the server identity', async () => {
    for (const [params, headers, capabilities] of [
      [{ name: 'find_cleaners', arguments: search }, {}, {}],
      [{ name: 'find_cleaners', arguments: search }, {}, { roots: { listChanged: true } }],
      [{ name: 'find_cleaners', arguments: { zip: demoIds.austinZip } }, {}, {}],
      [{ name: 'my_business', arguments: {} }, {}, {}],
      [{ name: 'booking_status', arguments: { booking_id: 'nope', manage_token: 'nope' } }, {}, {}],
    ] as const) {
      const [direct, sdk] = await modernPair(params, headers, capabilities);
      expect(direct, JSON.stringify(params)).toEqual(sdk);
      expect(JSON.parse(direct.body).result.resultType).toBe('complete');
    }
  });
});

describe('persisted GraphQL calls answered directly', () => {
  it('answers as yoga does (an empty extensions sends the call through yoga), data and errors alike', async () => {
    for (const [body, accept] of [
      [{ documentId: 'find_cleaners', variables: { input: search } }, undefined],
      [{ documentId: 'find_cleaners', variables: { input: search } }, 'application/graphql-response+json, application/json'],
      [{ documentId: 'find_cleaners', variables: { input: { ...search, bedrooms: 'two' } } }, 'application/json'],
      [{ documentId: 'find_cleaners', operationName: 'find_cleaners' }, '*/*'],
      [{ documentId: 'find_cleaners', variables: { input: { ...search, bedrooms: 200 } } }, undefined],
      [{ documentId: 'my_business' }, 'application/graphql-response+json'],
      // Errors a resolver throws: located in the document, `errors` before `data`.
      [{ documentId: 'booking_status', variables: { input: { bookingId: 'nope', manageToken: 'nope' } } }, undefined],
      [{ documentId: 'business_info', variables: { input: { business: 'no-such-business' } } }, 'application/json'],
      [{ documentId: 'cancel_booking', variables: { input: { bookingId: 'nope', manageToken: 'nope' } } }, undefined],
      // Variables refused before anything runs, and an operation name the document lacks.
      [{ documentId: 'find_cleaners', variables: { input: { ...search, unknownField: 1 } } }, undefined],
      [{ documentId: 'find_cleaners', variables: { input: { zip: null } } }, undefined],
      [{ documentId: 'find_cleaners', variables: { input: search }, operationName: 'book_cleaning' }, undefined],
    ] as const) {
      const headers = { 'content-type': 'application/json', ...(accept && { accept }) };
      const direct = await answer('/graphql', headers, body);
      const yoga = await answer('/graphql', headers, { ...body, extensions: {} });
      expect(direct, JSON.stringify(body)).toEqual(yoga);
    }
    // An operation name a document lacks compiles nothing that REST's run of it would then reuse.
    const rest = await app.get(`/api/v1/find_cleaners?zip=${search.zip}&bedrooms=2&bathrooms=1.5`);
    expect(rest.status).toBe(200);
  });
});
