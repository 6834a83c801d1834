import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { demoIds } from '../../src/demo/generate.js';
import { operations } from '../../src/operations.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

// The official MCP SDK client, as third-party hosts use it: it checks every structuredContent
// against the tool's outputSchema from tools/list and throws on a mismatch.

let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await app?.close();
});

/** An SDK client over the Streamable HTTP transport, served in-process by the app. */
async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers },
    fetch: (url, init) => app.get(new URL(url).pathname, init),
  });
  const client = new Client({ name: 'vitest-sdk', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  // Output validators are cached from tools/list; without it nothing would be checked.
  await client.listTools();
  return client;
}

/** Calls a tool through the SDK (which validates structuredContent) and expects success. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  expect(result.structuredContent, name).toBeDefined();
  return result.structuredContent;
}

async function businessKey(slug: string) {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes: ['read', 'write'] } });
  return key;
}

const job = { bedrooms: 2, bathrooms: 1.5 };
const customer = { customer_name: 'Alex Rivera', customer_email: 'alex@example.com', address: '1100 S Congress Ave, Austin TX', zip: demoIds.austinZip };

describe('MCP output schemas', () => {
  it('declares an object outputSchema for every tool and keeps tool definitions lean', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(operations.map((o) => o.name).sort());
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(Object.keys(tool.outputSchema!.properties ?? {}).length, tool.name).toBeGreaterThan(0);
      // Hosts drop or refuse tools whose input schema root is anything but a plain object.
      for (const key of ['anyOf', 'oneOf', 'allOf', 'if', 'not', '$ref']) expect(tool.inputSchema, `${tool.name} ${key}`).not.toHaveProperty(key);
    }
    // Measured as a current (2026-07-28) client receives it; 2025-03-26 clients also get annotations.title.
    const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    const raw = await app.mcp('tools/list', { _meta }, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    expect(raw.body.result.tools).toHaveLength(tools.length);
    const bytes = Buffer.byteLength(JSON.stringify(raw.body));
    console.log(`tools/list with input and output schemas: ${bytes} bytes for ${tools.length} tools (${Math.round(bytes / tools.length)} per tool)`);
    // A model reads every definition on every call. The budget is ~100 KB for the interface's 72
    // tools; today's tools average more than that allows (see README), and may not grow further.
    expect(bytes / tools.length).toBeLessThan(1_900);
  });

  it('returns structuredContent that validates against outputSchema on customer journeys', async () => {
    const client = await connect();
    const found = await call(client, 'find_cleaners', { zip: demoIds.austinZip, ...job });
    expect(found.cleaners.length).toBeGreaterThan(0);
    await call(client, 'find_cleaners', { city: 'San Jose CA', ...job, sort: 'price' });
    const times = await call(client, 'available_times', { pro_id: demoIds.cleanerAustin, ...job });
    const booked = await call(client, 'book_cleaning', { pro_id: demoIds.cleanerAustin, ...job, start: times.starts[3], price: times.price, ...customer });
    expect(booked.status).toBe('pending');
    const status = await call(client, 'booking_status', { booking_id: booked.booking_id, manage_token: booked.manage_token });
    expect(status.booking_id).toBe(booked.booking_id);

    const pros = await call(client, 'find_service_call', { zip: demoIds.austinZip, trade: 'plumbing', issue: 'leak' });
    const pro = pros.pros[0];
    const call_ = await call(client, 'book_service_call', {
      pro_id: pro.pro_id, trade: 'plumbing', issue: 'leak', start: pro.windows[0].start, price: pro.fee, ...customer,
    });
    await call(client, 'booking_status', { booking_id: call_.booking_id, manage_token: call_.manage_token });

    const asked = await call(client, 'contact_business', { business: demoIds.cleanerAustin, customer_name: 'Alex Rivera', message: 'Do you bring supplies?' });
    expect(asked.status).toBe('waiting_for_response');
    const inquiry = await call(client, 'inquiry_status', { inquiry_id: asked.inquiry_id, reply_token: asked.reply_token });
    expect(inquiry.messages.length).toBe(1);
  });

  it('returns structuredContent that validates on owner tools with a business key', async () => {
    const client = await connect({ authorization: `Bearer ${await businessKey(demoIds.cleanerAustin)}` });
    const business = await call(client, 'my_business', {});
    expect(business).toBeTypeOf('object');
    await call(client, 'inquiries', {});
    await call(client, 'updates', {});
    // Results with objects several levels deep.
    const schedule = await call(client, 'schedule', {});
    expect(schedule).toBeTypeOf('object');
    for (const name of ['pipeline', 'leads', 'follow_ups_due', 'receptionist_service', 'api_keys']) await call(client, name, {});
    await call(client, 'call_brief', { phone: '+14155550100' });
  });

  it("returns structuredContent that validates on the receptionist's tools, before and after publishing", async () => {
    const slug = (await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'retail', receptionist: null }, orderBy: { slug: 'asc' } })).slug;
    const client = await connect({ authorization: `Bearer ${await businessKey(slug)}` });
    expect((await call(client, 'receptionist', {})).published).toBeNull();
    expect((await call(client, 'front_desk', {})).complete).toBe(false);
    for (const name of ['service_setup', 'booking_setup', 'appointment_times']) await call(client, name, name === 'appointment_times' ? { business: slug } : {});
    const added = await call(client, 'add_receptionist_source', { note: 'Gift wrapping is free.' });
    await call(client, 'edit_receptionist_source', { source_id: added.source.source_id, shareable: true });
    const published = await call(client, 'update_receptionist', { instructions: 'Be brief.', publish: true });
    expect(published.published.text).toContain('Gift wrapping is free.');
    expect((await call(client, 'receptionist', {})).sources).toHaveLength(1);
    await call(client, 'update_front_desk', { greeting: 'Hello!', answer_when: 'custom', answer_hours: { saturday: '10:00-14:00' }, complete: true });
    await call(client, 'edit_receptionist_source', { source_id: added.source.source_id, remove: true });
    const info = await call(client, 'business_info', { business: slug });
    expect(info.published_page.text).toContain('Gift wrapping is free.');
    expect((await call(client, 'call_brief', { phone: '+14155550100' })).knowledge).toContain('Gift wrapping');
    expect((await call(client, 'my_business', {})).knowledge_page.text).toContain('Gift wrapping');
  });

  it('leaves errors unvalidated: an isError result carries the error object, not structuredContent', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'booking_status', arguments: { booking_id: 'nope', manage_token: 'nope' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
  });
});

describe('MCP arguments sent as numbers or as text', () => {
  it('accepts a ZIP sent as a JSON number', async () => {
    const client = await connect();
    const found = await call(client, 'find_cleaners', { zip: 78704, ...job });
    expect(found.cleaners.length).toBeGreaterThan(0);
  });

  it('refuses a number that is not a 5-digit ZIP with the zip message', async () => {
    const r = await app.tool('find_cleaners', { zip: 2139, ...job });
    expect(r.isError).toBe(true);
    expect(r.body).toEqual({ error: 'zip must be exactly 5 digits, e.g. 78704.', code: 'invalid_input' });
  });

  it('accepts a whole number sent as text, as it accepts a ZIP sent as a number', async () => {
    const client = await connect();
    const found = await call(client, 'find_cleaners', { zip: demoIds.austinZip, bedrooms: '2', bathrooms: '1.5' });
    expect(found.cleaners.length).toBeGreaterThan(0);
  });

  it('reads them the same way in a REST JSON body, and refuses the same text', async () => {
    const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, days: 14 });
    expect(times.status).toBe(200);
    const booking = { pro_id: demoIds.cleanerAustin, start: times.body.starts[0], ...customer, zip: 78704, bedrooms: '2', bathrooms: '1.5', price: String(times.body.price) };
    const r = await app.rest('book_cleaning', booking);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.booking_id).toBeTruthy();
    const refused = await app.rest('book_cleaning', { ...booking, bedrooms: 'two' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: 'bedrooms must be a whole number.', code: 'invalid_input' });
  });

  it('refuses text that is not plainly a number, naming the type rather than calling it missing', async () => {
    const r = await app.tool('find_cleaners', { zip: demoIds.austinZip, bedrooms: 'two', bathrooms: 1 });
    expect(r.isError).toBe(true);
    expect(r.body.code).toBe('invalid_input');
    expect(r.body.error).toBe('bedrooms must be a whole number.');
    expect(r.body.error).not.toMatch(/required/);
  });
});
