import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, validate } from 'graphql';
import { operations } from '../../src/operations.js';
import { schema } from '../../src/schema.js';
import { demoIds } from '../../src/demo/generate.js';
import { startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

type JsonSchema = { type?: unknown; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema; minimum?: number; maximum?: number; enum?: unknown[] };

describe('MCP', () => {
  it('initializes with a plain JSON response', async () => {
    const res = await app.get('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'vitest', version: '1.0.0' } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body.jsonrpc).toBe('2.0');
    expect(body.id).toBe(1);
    expect(body.result.protocolVersion).toBe('2025-06-18');
    expect(body.result.serverInfo.name).toBe('porchlight');
    expect(body.result.capabilities.tools).toBeDefined();
    expect(typeof body.result.instructions).toBe('string');
  });

  it('lists exactly the registry operations as tools with zod-generated input schemas and annotations', async () => {
    const { status, body } = await app.mcp('tools/list');
    expect(status).toBe(200);
    const tools = body.result.tools as { name: string; description: string; inputSchema: JsonSchema; annotations: Record<string, boolean | string> }[];
    expect(tools.map((t) => t.name).sort()).toEqual(operations.map((o) => o.name).sort());
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    for (const tool of tools) {
      const op = operations.find((o) => o.name === tool.name)!;
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(typeof tool.inputSchema.properties, tool.name).toBe('object');
      expect(Object.keys(tool.inputSchema.properties!).sort(), tool.name).toEqual(Object.keys(op.input.shape).sort());
      expect(tool.description.length, tool.name).toBeGreaterThan(20);
      // Every hint stated, as the registry has it: none left to MCP's defaults.
      expect(tool.annotations, tool.name).toEqual({ title: op.title, ...op.annotations });
      expect(tool.annotations.readOnlyHint, tool.name).toBe(op.method === 'GET');
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    const find = byName.get('find_cleaners')!.inputSchema;
    expect(find.properties!.bedrooms).toMatchObject({ type: 'integer', minimum: 0, maximum: 10 });
    expect(find.properties!.bathrooms).toMatchObject({ type: 'number', minimum: 1, maximum: 10 });
    expect(find.properties!.sqft).toMatchObject({ minimum: 200, maximum: 15000 });
    expect(find.properties!.city).toMatchObject({ type: 'string', maxLength: 60 });
    expect(find.properties!.sort!.enum).toEqual(['soonest', 'price']);
    expect(find.properties!.add_ons!.items!.enum).toEqual(['fridge', 'oven', 'windows', 'cabinets', 'laundry', 'restock']);
    expect(find.required).toEqual(expect.arrayContaining(['bedrooms', 'bathrooms']));
    expect(find.required).not.toContain('zip');
    expect(find.required).not.toContain('sort');
    const book = byName.get('book_cleaning')!.inputSchema;
    expect(book.required).toEqual(expect.arrayContaining(['pro_id', 'bedrooms', 'bathrooms', 'start', 'address', 'zip']));
    expect(book.properties!.add_ons).toMatchObject({ type: 'array', maxItems: 10, items: { maxLength: 40 } });
    expect(book.properties!.visits).toMatchObject({ minimum: 2, maximum: 10 });
    expect(book.properties!.address).toMatchObject({ minLength: 3, maxLength: 300 });
    expect(byName.get('available_times')!.inputSchema.properties!.days).toMatchObject({ type: 'integer', minimum: 1, maximum: 21, default: 7 });
    // A one-character minimum ("not empty") is left out of tools/list; the server still refuses an empty value.
    const message = byName.get('message_about_booking')!.inputSchema.properties!.message;
    expect(message).toMatchObject({ maxLength: 500 });
    expect(message).not.toHaveProperty('minLength');
    expect(byName.get('cancel_booking')!.annotations.destructiveHint).toBe(true);
    expect(byName.get('book_cleaning')!.annotations.readOnlyHint).toBe(false);
    expect(byName.get('find_cleaners')!.annotations.readOnlyHint).toBe(true);
    expect(byName.get('booking_status')!.annotations.readOnlyHint).toBe(true);
  });

  it('keeps every tool definition, output schemas included, within 110 KB (a model reads them on every call)', async () => {
    // As a current (2026-07-28) client receives the list: no annotations.title, which only
    // 2025-03-26 clients get.
    const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const res = await app.mcp('tools/list', { _meta }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    expect(res.body.result.resultType).toBe('complete');
    const bytes = Buffer.byteLength(JSON.stringify(res.body.result.tools));
    expect(bytes, `${res.body.result.tools.length} tools`).toBeLessThanOrEqual(110_000);
  });

  it('answers an unknown tool with an isError result', async () => {
    const r = await app.tool('no_such_tool', {});
    expect(r.isError).toBe(true);
    expect(r.body.code).toBe('not_found');
  });

  it('refuses GET /mcp with 405', async () => {
    const res = await app.get('/mcp');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await res.json()).code).toBe('method_not_allowed');
  });
});

describe('OpenAPI', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await app.get('/openapi.json');
    expect(res.status).toBe(200);
    doc = await res.json();
  });

  it('is an OpenAPI 3.1 document at version 1.0.0 with a path per operation, and /healthz', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.info.title).toBe('Porchlight');
    expect(Object.keys(doc.paths).sort()).toEqual([...operations.map((o) => `/api/v1/${o.name}`), '/healthz'].sort());
    for (const op of operations) {
      const item = doc.paths[`/api/v1/${op.name}`];
      expect(Object.keys(item), op.name).toEqual([op.method.toLowerCase()]);
      const o = item[op.method.toLowerCase()];
      expect(o.operationId).toBe(op.name);
      expect(o.responses['200'].content['application/json'].schema.type, op.name).toBe('object');
      expect(o.responses['400'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      if (op.method === 'GET') {
        expect(o.requestBody, op.name).toBeUndefined();
        expect(o.parameters.map((p: { name: string }) => p.name).sort(), op.name).toEqual(Object.keys(op.input.shape).sort());
        for (const p of o.parameters) expect(p.in).toBe('query');
      } else {
        // A POST's only parameter is the Idempotency-Key header, where it takes a request_key.
        expect(o.parameters, op.name).toEqual('request_key' in op.input.shape ? [expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })] : undefined);
        const body = o.requestBody.content['application/json'].schema;
        expect(body.type, op.name).toBe('object');
        expect(Object.keys(body.properties).sort(), op.name).toEqual(Object.keys(op.input.shape).sort());
      }
    }
  });

  it('describes GET parameters, with lists comma-separated', () => {
    const params = doc.paths['/api/v1/find_cleaners'].get.parameters as { name: string; required: boolean; style?: string; explode?: boolean; schema: JsonSchema }[];
    const p = (name: string) => params.find((x) => x.name === name)!;
    expect(p('add_ons')).toMatchObject({ style: 'form', explode: false, required: false, schema: { type: 'array' } });
    expect(p('bedrooms')).toMatchObject({ required: true, schema: { type: 'integer', minimum: 0, maximum: 10 } });
    expect(p('bathrooms').required).toBe(true);
    expect(p('zip').required).toBe(false);
    expect(p('zip').style).toBeUndefined();
    const status = doc.paths['/api/v1/booking_status'].get.parameters as { name: string; required: boolean }[];
    expect(status.filter((x) => x.required).map((x) => x.name).sort()).toEqual(['booking_id', 'manage_token']);
  });

  it('describes POST bodies and snake_case results', () => {
    const book = doc.paths['/api/v1/book_cleaning'].post;
    expect(book.requestBody.required).toBe(true);
    const body = book.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['pro_id', 'start', 'address', 'zip']));
    expect(body.properties.customer_email).toMatchObject({ type: 'string', maxLength: 200 });

    const found = doc.paths['/api/v1/find_cleaners'].get.responses['200'].content['application/json'].schema;
    const cleaner = found.properties.cleaners.items;
    expect(found.properties.cleaners.type).toBe('array');
    for (const key of ['pro_id', 'name', 'price', 'duration_minutes', 'starts', 'links', 'jobs_confirmed_done']) expect(cleaner.properties, key).toHaveProperty(key);
    expect(cleaner.properties.starts).toMatchObject({ type: 'array', items: { type: 'string' } });
    const booked = doc.paths['/api/v1/book_cleaning'].post.responses['200'].content['application/json'].schema;
    for (const key of ['booking_id', 'status', 'manage_token', 'next', 'price', 'visits']) expect(booked.properties, key).toHaveProperty(key);
    const cancelled = doc.paths['/api/v1/cancel_booking'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(cancelled.properties)).toEqual(expect.arrayContaining(['booking_id', 'status', 'late']));
    // No camelCase key anywhere in the result schemas.
    const keys: string[] = [];
    const walk = (s: any) => {
      if (!s || typeof s !== 'object') return;
      if (s.properties) for (const [k, v] of Object.entries(s.properties)) { keys.push(k); walk(v); }
      if (s.items) walk(s.items);
    };
    for (const item of Object.values(doc.paths) as any[]) for (const o of Object.values(item) as any[]) walk(o.responses['200'].content['application/json'].schema);
    expect(keys.length).toBeGreaterThan(20);
    expect(keys.filter((k) => /[A-Z]/.test(k))).toEqual([]);
    expect(doc.paths['/api/v1/cancel_booking'].post['x-mcp-annotations'].destructiveHint).toBe(true);
  });

  it('gives examples with real demo ids', async () => {
    const params = doc.paths['/api/v1/available_times'].get.parameters as { name: string; example?: unknown }[];
    const proExample = params.find((p) => p.name === 'pro_id')!.example;
    const bookExample = doc.paths['/api/v1/book_cleaning'].post.requestBody.content['application/json'].example;
    expect(proExample).toBe(demoIds.cleanerAustin);
    expect(bookExample.pro_id).toBe(demoIds.cleanerAustin);
    for (const slug of [proExample, bookExample.pro_id] as string[]) {
      const business = await app.services.prisma.business.findUnique({ where: { slug } });
      expect(business, slug).not.toBeNull();
      expect(business!.kind).toBe('cleaning');
    }
    expect(bookExample.zip).toBe(demoIds.austinZip);
    expect(bookExample.start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00-0[56]:00$/);
    expect(bookExample.price).toBeGreaterThan(0);
    // The example start is one the cleaner really offers, at that price.
    const times = await app.rest('available_times', { pro_id: bookExample.pro_id, bedrooms: bookExample.bedrooms, bathrooms: bookExample.bathrooms });
    expect(times.body.starts).toContain(bookExample.start);
    expect(times.body.price).toBe(bookExample.price);
    // No placeholder leaks into the document.
    expect(JSON.stringify(doc)).not.toMatch(/DEMO_(CLEANER|ZIP|START|PRICE)/);
  });
});

describe('GraphQL documents', () => {
  it('has one persisted document per operation, each valid against the schema', () => {
    expect([...app.app.documents.keys()].sort()).toEqual(operations.map((o) => o.name).sort());
    for (const [name, doc] of app.app.documents) {
      const op = operations.find((o) => o.name === name)!;
      const errors = validate(schema, parse(doc));
      expect(errors.map((e) => e.message), name).toEqual([]);
      expect(doc.startsWith(op.method === 'GET' ? 'query ' : 'mutation '), name).toBe(true);
    }
  });
});
