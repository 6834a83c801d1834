/**
 * Every operation's documented request example, run as written against a fresh database with
 * the demo data, over REST, with the credential the operation needs (owner examples with the
 * demo business's key, signed-in ones with a customer's personal key): each must succeed (2xx).
 *
 * An example value written "<field> from <operation>" (or "returned by") stands for that field
 * of that operation's result, as the document says: such an example runs after the one it
 * names, with the value from that example's real response. Examples that end something
 * (destructiveHint: cancellations, removals) run last, so the others still find what they use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/operations.js';
import type { Operation } from '../../src/registry/contract.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { credentials, operationDoc, parameterExamples, send } from '../helpers/openapi-requests.js';

const REFERENCE = /^([a-z_]+) (?:from|returned by) ([a-z_]+)$/;

/** The documented example input of an operation, decoded (query lists as arrays). */
function exampleOf(doc: any, op: Operation): Record<string, unknown> | undefined {
  const o = operationDoc(doc, op);
  if (op.method === 'GET') return op.example ? parameterExamples(o) : undefined;
  const media = o.requestBody.content['application/json'];
  return 'example' in media ? (media.example as Record<string, unknown>) : undefined;
}

/** The operations an example's values refer to. */
function referencesOf(value: unknown): string[] {
  if (typeof value === 'string') return REFERENCE.test(value) ? [REFERENCE.exec(value)![2]!] : [];
  if (Array.isArray(value)) return value.flatMap(referencesOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(referencesOf);
  return [];
}

/** The first value of `key` in a result, searched breadth-first. */
function find(body: unknown, key: string): unknown {
  const queue = [body];
  while (queue.length) {
    const node = queue.shift();
    if (!node || typeof node !== 'object') continue;
    if (!Array.isArray(node) && key in node && (node as Record<string, unknown>)[key] !== null) return (node as Record<string, unknown>)[key];
    queue.push(...Object.values(node));
  }
  return undefined;
}

function resolve(value: unknown, results: Map<string, unknown>): unknown {
  if (typeof value === 'string') {
    const m = REFERENCE.exec(value);
    return m ? find(results.get(m[2]!), m[1]!) : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, results));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, results)]));
  return value;
}

/**
 * Examples that replace a whole setup and so need no confirmed visit in the way: the team of
 * update_staff_availability's example is new people, which a confirmed visit of a member who
 * would leave refuses (naming it). They run after the cancellations, as an owner changes the
 * team once the visits are settled.
 */
const AFTER_CANCELLATIONS = ['update_staff_availability'];

/** Operations in an order where each example runs after those it refers to, destructive ones last. */
function runOrder(doc: any): Operation[] {
  const byName = new Map(operations.map((op) => [op.name, op]));
  const done = new Set<string>();
  const out: Operation[] = [];
  const visit = (op: Operation, path: string[]) => {
    if (done.has(op.name)) return;
    if (path.includes(op.name)) throw new Error(`examples refer to each other in a circle: ${[...path, op.name].join(' → ')}`);
    for (const name of referencesOf(exampleOf(doc, op))) {
      const target = byName.get(name);
      if (!target) throw new Error(`${op.name}'s example refers to ${name}, which is not an operation`);
      visit(target, [...path, op.name]);
    }
    done.add(op.name);
    out.push(op);
  };
  const late = (o: Operation) => o.annotations.destructiveHint || AFTER_CANCELLATIONS.includes(o.name);
  for (const op of operations.filter((o) => !late(o))) visit(op, []);
  for (const op of operations.filter((o) => o.annotations.destructiveHint && !AFTER_CANCELLATIONS.includes(o.name))) visit(op, []);
  for (const op of operations.filter((o) => AFTER_CANCELLATIONS.includes(o.name))) visit(op, []);
  return out;
}

let app: TestApp;
let doc: any;

beforeAll(async () => {
  app = await startApp();
  doc = await (await app.get('/openapi.json')).json();
});
afterAll(async () => app?.close());

describe('OpenAPI request examples', () => {
  it('gives every operation an example that succeeds against the demo data as written', async () => {
    const credentialFor = credentials(app);
    const results = new Map<string, unknown>();
    const failures: string[] = [];
    let ran = 0;
    for (const op of runOrder(doc)) {
      const example = exampleOf(doc, op);
      if (!example) {
        failures.push(`${op.name}: no example`);
        continue;
      }
      const input = resolve(example, results) as Record<string, unknown>;
      const { status, body } = await send(app, doc, op, input, await credentialFor(op, input));
      ran++;
      if (status >= 200 && status < 300) results.set(op.name, body);
      else failures.push(`${op.name} ${JSON.stringify(input).slice(0, 300)} → ${status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    console.log(`openapi examples: ${ran} run, ${ran - failures.filter((f) => !f.endsWith('no example')).length} succeeded, ${operations.length} operations`);
    expect(failures).toEqual([]);
    expect(ran).toBe(operations.length);
  });

  it('documents GET /healthz with the answer it gives', async () => {
    const res = await app.get('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(doc.paths['/healthz'].get.responses['200'].content['application/json'].example);
  });
});
