/**
 * A bounded fuzzer over the OpenAPI document: for every read (GET) operation, requests generated
 * from its parameter schemas alone (fast-check arbitraries built from the JSON Schema, a fixed
 * seed, RUNS per operation), sent over REST with the credential the operation needs. Each answer
 * must be
 *
 * - never a 5xx;
 * - a 200 whose body is valid against the documented response schema (ajv); or
 * - a refusal the document states: a 400 whose code is not invalid_input is about the data
 *   (an unknown id: not_found, a business not set up: not_configured, ...), which the 400
 *   response's description names; an invalid_input for a schema-valid request must be one of
 *   the rules below, each of which the test checks the document states where a client reads it.
 *
 * Parameters take their documented example half of the time (ids that exist, so requests get
 * past the lookup to the rules behind it), a generated value otherwise; the document's own
 * cross-field rules (x-at-least-one-of, x-dependent-required) are honoured, as a client reading
 * the document would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { operations } from '../../src/operations.js';
import type { Operation } from '../../src/registry/contract.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { credentials, operationDoc, parameterExamples, send, type Schema } from '../helpers/openapi-requests.js';

type AjvClass = typeof Ajv2020Module.default;
type AddFormats = typeof addFormatsModule.default;
const Ajv2020: AjvClass = (Ajv2020Module as unknown as { default?: AjvClass }).default ?? (Ajv2020Module as unknown as AjvClass);
const addFormats: AddFormats = (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

/** Requests per read operation. */
const RUNS = 20;
const SEED = 20261126;

/**
 * Data-dependent invalid_input refusals of schema-valid requests, and where the document states
 * each: `states(doc)` must hold, or the refusal is a rule the document does not state.
 */
const STATED: { ops: string[]; error: RegExp; states: (opDoc: Schema) => boolean; why: string }[] = [
  {
    ops: ['available_times', 'open_times', 'quote_job'],
    error: /doesn't offer (the "[a-z_]+" add-on|a [a-z -]+clean)/,
    states: (o) => ['add_ons', 'clean_type'].every((name) => /offers vary/i.test(param(o, name).description)),
    why: "a cleaner's own add-ons and clean types",
  },
  {
    ops: ['find_cleaners', 'find_service_call', 'find_businesses'],
    error: /^We don't serve ".*" yet\. Live cities: /,
    states: (o) => /Austin TX, San Francisco CA or San Jose CA \(live cities; others: 400\)/.test(param(o, 'city').description),
    why: 'the live cities',
  },
  {
    ops: ['find_service_call'],
    error: /^issue ".*" is not a (plumbing|hvac) category/,
    states: (o) => /plumbing: leak.*hvac: no_cool/s.test(param(o, 'issue').description),
    why: "each trade's issue categories",
  },
  {
    ops: ['open_times', 'quote_job'],
    error: /^(issue is for plumbing and HVAC service calls|bedrooms and bathrooms are required to size a cleaning)/,
    states: (o) => /^Cleaners: /.test(param(o, 'bedrooms').description) && /^Service calls: /.test(param(o, 'issue').description),
    why: "which job fields go with the business's kind",
  },
  {
    ops: ['updates'],
    error: /^since is not a cursor returned by updates/,
    states: (o) => /cursor returned by the previous updates call/.test(param(o, 'since').description),
    why: 'cursors come from the previous call',
  },
  {
    ops: ['leads'],
    error: /^cursor must be the next_cursor of the previous leads page/,
    states: (o) => /next_cursor of the previous page/.test(param(o, 'cursor').description),
    why: 'cursors come from the previous page',
  },
];

const param = (o: Schema, name: string): Schema => (o.parameters as Schema[]).find((p) => p.name === name) ?? { description: '' };

/** A fast-check arbitrary of the values a JSON Schema (as the document writes inputs) accepts. */
export function arbitraryOf(schema: Schema): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'string': {
      if (schema.format === 'date') {
        return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      }
      const min = schema.minLength ?? 0;
      const max = schema.maxLength ?? Math.max(min, 40);
      if (schema.pattern) {
        return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => [...s].length >= min && [...s].length <= max);
      }
      if (schema.format === 'email') return fc.emailAddress().filter((s) => s.length <= max);
      // Printable text: control characters are refused, as the document's description says.
      return fc.string({ unit: 'grapheme-ascii', minLength: min, maxLength: Math.min(max, 60) });
    }
    case 'integer': {
      const lo = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? -1000);
      const hi = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : (schema.maximum ?? 100_000);
      return fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) });
    }
    case 'number': {
      const lo = schema.minimum ?? schema.exclusiveMinimum ?? -1000;
      const hi = schema.maximum ?? schema.exclusiveMaximum ?? 100_000;
      const within = (n: number) => (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) && (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum);
      if (schema.multipleOf) {
        const step = schema.multipleOf as number;
        return fc.integer({ min: Math.ceil(lo / step), max: Math.floor(hi / step) }).map((k) => k * step).filter(within);
      }
      return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }).filter(within);
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) });
    case 'object': {
      const props = Object.entries((schema.properties ?? {}) as Record<string, Schema>);
      const required = new Set<string>(schema.required ?? []);
      const shape: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(props.map(([k, s]) => [k, arbitraryOf(s)]));
      return fc.record(shape, { requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)) as never[] });
    }
    default:
      return fc.constant('x');
  }
}

/** Requests for one GET operation: each parameter its example or a generated value, the document's cross-field rules kept. */
function requestsFor(opDoc: Schema, runs: number, seed: number): Record<string, unknown>[] {
  const params = (opDoc.parameters as Schema[]).filter((p) => p.in === 'query');
  const examples = parameterExamples(opDoc);
  const field = (p: Schema): fc.Arbitrary<unknown> => {
    const generated = arbitraryOf(p.schema ?? p.content['application/json'].schema);
    return p.name in examples ? fc.oneof(fc.constant(examples[p.name]), generated) : generated;
  };
  const fields: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(params.map((p) => [p.name, field(p)]));
  const record = fc.record(fields, { requiredKeys: params.filter((p) => p.required).map((p) => p.name) as never[] });
  const oneOf: string[] | undefined = opDoc['x-at-least-one-of'];
  const dependent: Record<string, string[]> | undefined = opDoc['x-dependent-required'];
  const fill = fc.record(fields);
  return fc.sample(fc.tuple(record, fill), { numRuns: runs, seed }).map(([input, spare]) => {
    const out = { ...(input as Record<string, unknown>) };
    const extra = spare as Record<string, unknown>;
    if (oneOf && !oneOf.some((f) => f in out)) out[oneOf[0]!] = extra[oneOf[0]!];
    for (const [f, needs] of Object.entries(dependent ?? {})) if (f in out) for (const n of needs) if (!(n in out)) out[n] = extra[n];
    return out;
  });
}

let app: TestApp;
let doc: any;
let credentialFor: (op: Operation) => Promise<Record<string, string>>;
const ajv = new Ajv2020({ allErrors: true, allowUnionTypes: true, strict: false });
addFormats(ajv);

beforeAll(async () => {
  // Hundreds of requests from one address: the rate limit is not what is tested here.
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  doc = await (await app.get('/openapi.json')).json();
  credentialFor = credentials(app);
});
afterAll(async () => app?.close());

const reads = operations.filter((op) => op.method === 'GET');

describe('OpenAPI fuzzing of every read', () => {
  it('states each data-dependent refusal the fuzzer accepts', () => {
    for (const rule of STATED) for (const name of rule.ops) expect(rule.states(operationDoc(doc, operations.find((o) => o.name === name)!)), `${name}: ${rule.why}`).toBe(true);
  });

  const figures = { requests: 0, ok: 0, refusedForData: 0, refusedStated: 0 };
  it.each(reads.map((op) => [op.name, op] as const))('%s: no 5xx, no unstated refusal, every 200 as documented', async (_name, op) => {
    const o = operationDoc(doc, op);
    const validate = ajv.compile(o.responses['200'].content['application/json'].schema);
    const headers = await credentialFor(op);
    const problems: string[] = [];
    for (const input of requestsFor(o, RUNS, SEED)) {
      const { status, body } = await send(app, doc, op, input, headers);
      figures.requests++;
      const shown = `${JSON.stringify(input)} → ${status} ${JSON.stringify(body).slice(0, 300)}`;
      if (status >= 500) problems.push(`5xx: ${shown}`);
      else if (status === 200) {
        if (!validate(body)) problems.push(`200 not as documented (${ajv.errorsText(validate.errors)}): ${shown}`);
        else figures.ok++;
      } else if (status === 400 && body?.code !== 'invalid_input') figures.refusedForData++;
      else if (status === 400 && STATED.some((r) => r.ops.includes(op.name) && r.error.test(body.error))) figures.refusedStated++;
      else problems.push(`refused for a rule the document does not state: ${shown}`);
    }
    expect(problems).toEqual([]);
  });

  it('sent the bounded number of requests', () => {
    // Printed for the record: how many answers were 200s and how many refusals were about the data.
    console.log(`openapi fuzz: ${JSON.stringify(figures)}`);
    expect(figures.requests).toBe(reads.length * RUNS);
    expect(figures.ok).toBeGreaterThan(reads.length * 2);
  });
});
