import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
// ajv arrives with @modelcontextprotocol/sdk; its 2020-12 build matches OpenAPI 3.1's JSON Schema.
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { operations } from '../../src/operations.js';
import type { Operation } from '../../src/registry/contract.js';
import { demoIds } from '../../src/demo/generate.js';
import { responseExamples } from '../../facades/openapi.js';
import { ISSUES, TRADES } from '../../src/pricing/service-call.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

type AjvClass = typeof Ajv2020Module.default;
type AddFormats = typeof addFormatsModule.default;
// CommonJS interop: the export is module.exports.default under Node, the default import under some bundlers.
const Ajv2020: AjvClass = (Ajv2020Module as unknown as { default?: AjvClass }).default ?? (Ajv2020Module as unknown as AjvClass);
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

type Schema = Record<string, any>;

/** A copy of a schema that also refuses keys it does not declare: examples must match exactly. */
function strict(schema: Schema): Schema {
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = { ...schema };
  if (out.properties) {
    out.properties = Object.fromEntries(Object.entries(out.properties as Schema).map(([k, v]) => [k, strict(v as Schema)]));
    out.additionalProperties = false;
  }
  if (out.items) out.items = strict(out.items as Schema);
  return out;
}

let app: TestApp;
let doc: any;
let queries = 0;
const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true, strict: true });
// Full format checks: a `format: date` value must be a real calendar date, as clients check it.
addFormats(ajv);

async function rowCounts(): Promise<Record<string, number>> {
  const tables = await app.services.prisma.$queryRawUnsafe<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await app.services.prisma.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT count(*) AS n FROM "${table_name}"`);
    counts[table_name] = Number(row!.n);
  }
  return counts;
}

let before: Record<string, number>;
beforeAll(async () => {
  app = await startApp({ onQuery: () => void queries++ });
  before = await rowCounts();
  const res = await app.get('/openapi.json');
  expect(res.status).toBe(200);
  doc = await res.json();
});
afterAll(async () => app?.close());

const opDoc = (op: Operation) => doc.paths[`/api/v1/${op.name}`][op.method.toLowerCase()];
const byName = (name: string) => operations.find((o) => o.name === name)!;
/** An operation's input fields as the document states them: query parameters or body properties. */
const inputFields = (op: Operation): Record<string, Schema> =>
  op.method === 'GET'
    ? Object.fromEntries(opDoc(op).parameters.map((p: Schema) => [p.name, p.schema ?? p.content['application/json'].schema]))
    : opDoc(op).requestBody.content['application/json'].schema.properties;
const ok = (op: Operation) => opDoc(op).responses['200'];

describe('OpenAPI response schemas', () => {
  it('gives every operation a snake_case object schema for its 200 result', () => {
    for (const op of operations) {
      const schema = ok(op).content['application/json'].schema;
      expect(schema.type, op.name).toBe('object');
      expect(Object.keys(schema.properties).length, op.name).toBeGreaterThan(0);
      for (const key of schema.required) expect(schema.properties, `${op.name}.${key}`).toHaveProperty(key);
      expect(() => ajv.compile(schema), op.name).not.toThrow();
    }
  });

  it('maps GraphQL nullability, lists, scalars and nested objects', () => {
    const status = ok(operations.find((o) => o.name === 'booking_status')!).content['application/json'].schema;
    expect(status.properties.fee.type).toEqual(['number', 'null']);
    expect(status.required).not.toContain('fee');
    expect(status.properties.late.type).toBe('boolean');
    expect(status.required).toEqual(expect.arrayContaining(['booking_id', 'status', 'visits', 'messages']));
    expect(status.properties.visits).toMatchObject({ type: 'array', items: { type: 'object', required: expect.arrayContaining(['start', 'end']) } });
    expect(status.properties.messages.items.properties).toHaveProperty('from');
    const found = ok(operations.find((o) => o.name === 'find_cleaners')!).content['application/json'].schema;
    expect(found.properties.cleaners.items.properties.duration_minutes.type).toBe('integer');
    expect(found.properties.cleaners.items.properties.price.type).toBe('number');
    expect(found.properties.note.type).toEqual(['string', 'null']);
  });

  it('adds 400, 401, 403 and 429 error responses with the Error schema to every operation', () => {
    const errorSchema = doc.components.schemas.Error;
    const validate = ajv.compile(errorSchema);
    for (const op of operations) {
      const o = opDoc(op);
      const expected = { 400: 'invalid_input', 401: 'unauthorized', 403: 'insufficient_scope', 429: 'rate_limited' } as const;
      for (const [status, code] of Object.entries(expected)) {
        const media = o.responses[status]?.content?.['application/json'];
        expect(media?.schema?.$ref, `${op.name} ${status}`).toBe('#/components/schemas/Error');
        expect(validate(media.example), `${op.name} ${status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        if (status !== '400') expect(media.example.code, `${op.name} ${status}`).toBe(code);
      }
      expect(o.responses['429'].headers['Retry-After']).toBeDefined();
      // Customer operations may be called with no credential; all accept OAuth (scope by method) or a bearer key.
      const signIn = [{ oauth2: [op.method === 'GET' ? 'read' : 'write'] }, { bearerAuth: [] }];
      expect(o.security, op.name).toEqual(op.auth === 'public' ? [{}, ...signIn] : signIn);
    }
  });

  it('uses the error an empty request really gets as the 400 example', async () => {
    const find = operations.find((o) => o.name === 'find_cleaners')!;
    const real = await app.rest('find_cleaners', {});
    expect(real.status).toBe(400);
    expect(opDoc(find).responses['400'].content['application/json'].example).toEqual({ error: real.body.error, code: real.body.code });
  });
});

describe('OpenAPI response examples', () => {
  it('validates every 200 example against its schema, with no undeclared keys', () => {
    let checked = 0;
    for (const op of operations) {
      const media = ok(op).content['application/json'];
      if (!('example' in media)) continue;
      const validate = ajv.compile(strict(media.schema));
      expect(validate(media.example), `${op.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(operations.filter((o) => o.auth === 'public' && o.example).length);
  });

  it('runs public reads for real and never runs writes or credentialed operations', () => {
    for (const op of operations) {
      const response = ok(op);
      if (op.method === 'POST' || op.auth !== 'public') expect(response['x-example-source'], op.name).not.toBe('live');
      // Public reads are run for their example; writes show one where the registry declares it.
      if (op.example && op.auth === 'public' && (op.method === 'GET' || op.example.response)) expect(response.content['application/json'], op.name).toHaveProperty('example');
      if (op.example?.response || response['x-example-source']) expect(['live', 'declared'], op.name).toContain(response['x-example-source']);
    }
    for (const name of ['find_cleaners', 'available_times', 'my_bookings']) {
      expect(ok(operations.find((o) => o.name === name)!)['x-example-source'], name).toBe('live');
    }
    // No demo booking's manage_token is known, so booking_status declares its example instead of being run.
    expect(ok(operations.find((o) => o.name === 'booking_status')!)['x-example-source']).toBe('declared');
    expect(ok(operations.find((o) => o.name === 'book_cleaning')!).description).toMatch(/illustrative/);
  });

  it('has live examples equal to what the API answers for the request example', async () => {
    const times = ok(operations.find((o) => o.name === 'available_times')!).content['application/json'].example;
    const fresh = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, days: 7 });
    expect(fresh.status).toBe(200);
    expect(times.pro_id).toBe(demoIds.cleanerAustin);
    expect(times.price).toBe(fresh.body.price);
    expect(times.starts.length).toBeGreaterThan(0);
    expect(fresh.body.starts).toEqual(expect.arrayContaining(times.starts.slice(1, 5)));
    const found = ok(operations.find((o) => o.name === 'find_cleaners')!).content['application/json'].example;
    expect(found.cleaners.length).toBeGreaterThan(0);
    for (const c of found.cleaners) {
      const business = await app.services.prisma.business.findUnique({ where: { slug: c.pro_id } });
      expect(business, c.pro_id).not.toBeNull();
    }
  });

  it('fills declared examples from the demo data, consistent with the request examples', () => {
    const book = opDoc(operations.find((o) => o.name === 'book_cleaning')!);
    const request = book.requestBody.content['application/json'].example;
    const response = book.responses['200'].content['application/json'].example;
    expect(response.price).toBe(request.price);
    expect(response.visits).toEqual([{ start: request.start }]);
    expect(response.next).toContain('Sparkle & Shine Cleaning');
    expect(response.next).toContain(request.start);
    const status = ok(operations.find((o) => o.name === 'booking_status')!).content['application/json'].example;
    expect(status.pro_id).toBe(demoIds.cleanerAustin);
    expect(status.visits[0].start).toBe(request.start);
    expect(Date.parse(status.visits[0].end) - Date.parse(status.visits[0].start)).toBe(response.duration_minutes * 60_000);
    expect(JSON.stringify(doc)).not.toMatch(/DEMO_[A-Z]/);
  });

  it('changes no stored data and is generated once per process', async () => {
    expect(await rowCounts()).toEqual(before);
    const q = queries;
    const again = await (await app.get('/openapi.json')).json();
    expect(queries).toBe(q);
    expect(again).toEqual(doc);
  });
});

// What Redocly CLI (recommended) and Spectral (spectral:oas) check, plus the promise that a request
// valid by the document is never refused for a rule the document does not state.
describe('OpenAPI conformance', () => {
  it('gives info a contact and a 3.1 license, and the servers and security schemes agree', () => {
    expect(doc.info.contact).toEqual({ name: 'Porchlight', url: BASE });
    // OpenAPI 3.1: a license has a name and either an SPDX identifier or a url, never both.
    expect(doc.info.license).toEqual({ name: 'Proprietary', identifier: 'LicenseRef-Proprietary' });
    expect(doc.servers).toEqual([{ url: BASE }]);
    const schemes = doc.components.securitySchemes;
    const scopes = Object.keys(schemes.oauth2.flows.authorizationCode.scopes);
    for (const url of ['authorizationUrl', 'tokenUrl', 'refreshUrl']) expect(schemes.oauth2.flows.authorizationCode[url]).toMatch(/^https?:\/\//);
    for (const op of operations) {
      for (const requirement of opDoc(op).security) {
        for (const [scheme, needed] of Object.entries(requirement as Record<string, string[]>)) {
          expect(schemes, `${op.name} ${scheme}`).toHaveProperty(scheme);
          for (const scope of needed) expect(scopes, `${op.name} ${scope}`).toContain(scope);
        }
      }
    }
  });

  it('gives every operation an id, a summary, its registry tags (each declared with a description) and 4xx responses', () => {
    const declared = new Map<string, string>(doc.tags.map((t: { name: string; description: string }) => [t.name, t.description]));
    const used = new Set<string>();
    for (const op of operations) {
      const o = opDoc(op);
      expect(o.operationId).toBe(op.name);
      expect(o.summary.length, op.name).toBeGreaterThan(10);
      expect(o.tags, op.name).toEqual(op.tags);
      for (const tag of o.tags) {
        expect(declared.get(tag), `${op.name} ${tag}`).toBeTruthy();
        used.add(tag);
      }
      expect(Object.keys(o.responses).filter((s) => /^4\d\d$/.test(s)).length, op.name).toBeGreaterThan(0);
    }
    expect(new Set(operations.map((o) => o.name)).size).toBe(operations.length);
    // GET /healthz, the one path outside the registry, has a tag of its own.
    expect(doc.paths['/healthz'].get.tags).toEqual(['health']);
    used.add('health');
    expect([...declared.keys()].sort()).toEqual([...used].sort());
    expect(used).toContain('customer');
    expect(used).toContain('owner');
  });

  it('gives every input a schema ajv compiles, and every request example validates against it', () => {
    let examples = 0;
    for (const op of operations) {
      const o = opDoc(op);
      if (op.method === 'GET') {
        for (const p of o.parameters) {
          // A JSON parameter (`content`) has its example in the media type, others beside the schema.
          const media = p.content?.['application/json'];
          const validate = ajv.compile(p.schema ?? media.schema);
          const holder = media ?? p;
          if (!('example' in holder)) continue;
          // Comma-separated lists (style form, explode false) are shown as they are sent.
          const value = p.style === 'form' && p.explode === false && typeof holder.example === 'string' ? holder.example.split(',') : holder.example;
          expect(validate(value), `${op.name}.${p.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
          examples++;
        }
      } else {
        const media = o.requestBody.content['application/json'];
        const validate = ajv.compile(media.schema);
        if (!('example' in media)) continue;
        expect(validate(media.example), `${op.name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        examples++;
      }
    }
    expect(examples).toBeGreaterThan(10);
  });

  it('states format: date and multipleOf 0.5 wherever dates and bathrooms are inputs', () => {
    let dates = 0;
    let bathrooms = 0;
    for (const op of operations) {
      for (const [name, schema] of Object.entries(inputFields(op))) {
        if (name === 'date') {
          expect(schema, op.name).toMatchObject({ type: 'string', format: 'date' });
          dates++;
        }
        if (name === 'bathrooms') {
          expect(schema, op.name).toMatchObject({ type: 'number', minimum: 1, maximum: 10, multipleOf: 0.5 });
          bathrooms++;
        }
      }
    }
    expect(dates).toBeGreaterThanOrEqual(3);
    expect(bathrooms).toBeGreaterThanOrEqual(3);
  });

  it('accepts exactly the dates and bathroom counts the document allows', async () => {
    const fields = inputFields(byName('find_cleaners'));
    const validDate = ajv.compile(fields.date!);
    const validBathrooms = ajv.compile(fields.bathrooms!);
    const dates = ['2026-12-01', '2028-02-29', '2099-12-31', '2027-02-29', '2026-02-30', '2026-04-31', '2026-13-45', '2026-02-32', '8140-11-47', '2100-01-01', '1999-12-31', '26-12-01'];
    expect(dates.filter((d) => validDate(d))).toEqual(['2026-12-01', '2028-02-29', '2099-12-31']);
    for (const date of dates) {
      const r = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1, date });
      expect(r.status, `${date}: ${JSON.stringify(r.body)}`).toBe(validDate(date) ? 200 : 400);
      if (r.status === 400) expect(r.body).toEqual({ error: 'date must be a real calendar date YYYY-MM-DD between 2000 and 2099.', code: 'invalid_input' });
    }
    const counts = [1, 1.5, 10, 1.25, 2.1, 0.5, 10.5];
    expect(counts.filter((n) => validBathrooms(n))).toEqual([1, 1.5, 10]);
    for (const n of counts) {
      const r = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 2, bathrooms: n });
      expect(r.status, `${n}: ${JSON.stringify(r.body)}`).toBe(validBathrooms(n) ? 200 : 400);
    }
    expect((await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1.25 })).body.error).toBe('bathrooms may only be whole or half numbers, e.g. 1.5.');
  });

  it('states the zip-or-city rule of the searches in the description and an x- note, and enforces it', async () => {
    const expected: Record<string, string[]> = {
      find_cleaners: ['zip', 'city'],
      find_service_call: ['zip', 'city'],
      find_businesses: ['zip', 'city'],
      edit_receptionist_source: ['text', 'remove', 'shareable'],
      update_receptionist: ['draft', 'instructions', 'publish'],
    };
    const ruled = operations.filter((op) => opDoc(op)['x-at-least-one-of']).map((op) => op.name);
    expect(ruled.sort()).toEqual(Object.keys(expected).sort());
    const tools = (await app.mcp('tools/list')).body.result.tools as { name: string; description: string }[];
    for (const name of ruled) {
      const o = opDoc(byName(name));
      expect(o['x-at-least-one-of']).toEqual(expected[name]);
      expect(o.description.endsWith(`Needs ${expected[name]!.slice(0, -1).join(', ')} or ${expected[name]!.at(-1)}.`)).toBe(true);
      expect(tools.find((t) => t.name === name)!.description).toBe(o.description);
      for (const p of (o.parameters ?? []).filter((x: Schema) => expected[name]!.includes(x.name))) expect(p.required).toBe(false);
    }
    const cleaners = await app.rest('find_cleaners', { bedrooms: 2, bathrooms: 1 });
    expect(cleaners.status).toBe(400);
    expect(cleaners.body).toEqual({ error: 'Pass zip (5 digits) or city (e.g. "Austin TX") so we know where the cleaning is.', code: 'invalid_input' });
    const pros = await app.rest('find_service_call', { trade: 'plumbing', issue: 'leak' });
    expect(pros.status).toBe(400);
    expect(pros.body.error).toBe('Pass zip (5 digits) or city (e.g. "Austin TX") so we know where the visit is.');
    expect((await app.rest('find_service_call', { city: 'Austin TX', trade: 'plumbing', issue: 'leak' })).status).toBe(200);
  });

  it("names each trade's issue categories wherever issue is an input", () => {
    for (const name of ['find_service_call', 'book_service_call']) {
      const issue = inputFields(byName(name)).issue!;
      for (const trade of TRADES) expect(issue.description, `${name} ${trade}`).toContain(`${trade}: ${ISSUES[trade].join(', ')}`);
      expect([...issue.enum].sort(), name).toEqual([...new Set(TRADES.flatMap((t) => ISSUES[t]))].sort());
    }
  });
});

describe('responseExamples', () => {
  const examples = { DEMO_ID: 'real-id', DEMO_PRICE: 120 };
  const make = (name: string, method: 'GET' | 'POST', auth: Operation['auth'], example: Operation['example']): Operation => ({
    name,
    title: name,
    method,
    auth,
    description: 'x',
    input: z.object({ id: z.string() }),
    example,
    field: name,
    tags: ['customer', 'search'],
    annotations: { readOnlyHint: method === 'GET', destructiveHint: false, idempotentHint: method === 'GET', openWorldHint: false },
  });

  it('runs only public reads without a declared response, and never makes one up', async () => {
    const ran: string[] = [];
    const ops = [
      make('read_ok', 'GET', 'public', { input: { id: 'DEMO_ID' } }),
      make('read_fails', 'GET', 'public', { input: { id: 'DEMO_ID' } }),
      make('read_declared', 'GET', 'public', { input: { id: 'DEMO_ID' }, response: { price: 'DEMO_PRICE', note: 'id DEMO_ID costs $DEMO_PRICE' } }),
      make('write', 'POST', 'public', { input: { id: 'DEMO_ID' }, response: { id: 'DEMO_ID' } }),
      make('owner_read', 'GET', 'owner', { input: { id: 'DEMO_ID' } }),
      make('no_example', 'GET', 'public', undefined),
    ];
    const out = await responseExamples(ops, examples, async (op, input) => {
      ran.push(`${op.name}:${String(input.id)}`);
      return op.name === 'read_ok' ? { status: 200, body: { live: true } } : { status: 400, body: { error: 'no', code: 'not_found' } };
    });
    expect(ran).toEqual(['read_ok:real-id', 'read_fails:real-id']);
    expect(out.get('read_ok')).toEqual({ source: 'live', value: { live: true } });
    expect(out.has('read_fails')).toBe(false);
    expect(out.get('read_declared')).toEqual({ source: 'declared', value: { price: 120, note: 'id real-id costs $120' } });
    expect(out.get('write')).toEqual({ source: 'declared', value: { id: 'real-id' } });
    expect(out.has('owner_read')).toBe(false);
    expect(out.has('no_example')).toBe(false);
  });
});
