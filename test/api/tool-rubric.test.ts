import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/harness.js';

// The public MCP directories' rubric for tool definitions, applied to tools/list as clients get
// it: a model chooses and fills a tool from its definition alone.

type Schema = {
  type?: unknown;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  $ref?: string;
  $defs?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
};
type Tool = { name: string; title?: string; description: string; inputSchema: Schema; outputSchema: Schema; annotations?: Record<string, unknown> };

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** A value a model fills in is bounded when its schema says which values are allowed. */
function bounded(s: Schema): boolean {
  if (s.enum) return true;
  switch (s.type) {
    case 'boolean':
    case 'null':
      return true;
    case 'integer':
    case 'number':
      return (s.minimum !== undefined || s.exclusiveMinimum !== undefined) && s.maximum !== undefined;
    case 'string':
      return s.maxLength !== undefined || s.pattern !== undefined || s.format !== undefined;
    case 'array':
      return s.maxItems !== undefined && s.items !== undefined && bounded(s.items);
    case 'object':
      return s.properties !== undefined && Object.values(s.properties).every(bounded);
    default:
      return s.anyOf !== undefined && s.anyOf.every(bounded);
  }
}

const share = (list: boolean[]) => (list.length ? list.filter(Boolean).length / list.length : 1);

/**
 * 0-5, a point each: a title; a description of a useful length (what, when, what next, without
 * filler); every parameter described in words (10+ characters); every parameter bounded (ranges,
 * lengths, patterns, listed enums); every annotation hint stated rather than left to defaults.
 */
function score(tool: Tool): { total: number; parts: Record<string, number> } {
  const params = Object.values(tool.inputSchema.properties ?? {});
  const length = tool.description.length;
  const parts = {
    title: typeof tool.title === 'string' && tool.title.length >= 3 && tool.title.length <= 60 && tool.annotations?.title === tool.title ? 1 : 0,
    description: length >= 50 && length <= 600 ? 1 : length >= 30 && length <= 800 ? 0.5 : 0,
    described: share(params.map((p) => (p.description ?? '').trim().length >= 10)),
    bounded: share(params.map(bounded)),
    annotations: HINTS.filter((h) => typeof tool.annotations?.[h] === 'boolean').length / HINTS.length,
  };
  return { total: Object.values(parts).reduce((a, b) => a + b, 0), parts };
}

/**
 * Every place in an output schema without a type, with a list of types, or with a $ref that does
 * not resolve within the tool's own $defs (clients read each tool's schema on its own); shared
 * definitions are followed. Objects that name no fields (no `properties`, no schema for a map's
 * values) are counted in `open`.
 */
function untyped(s: Schema, path: string, defs: Record<string, Schema>, open: string[], followed = new Set<string>()): string[] {
  if (s.$ref) {
    const name = /^#\/\$defs\/([\w-]+)$/.exec(s.$ref)?.[1];
    if (!name || !defs[name]) return [`${path}: $ref ${s.$ref} is not one of the tool's $defs`];
    if (followed.has(name)) return [];
    return untyped(defs[name], `${path}->${name}`, defs, open, new Set([...followed, name]));
  }
  if (s.anyOf) return s.anyOf.flatMap((b, i) => untyped(b, `${path}|${i}`, defs, open, followed));
  if (Array.isArray(s.type)) return [`${path}: type list ${JSON.stringify(s.type)}`];
  if (typeof s.type !== 'string') return [`${path}: no type`];
  if (s.type === 'array') return s.items ? untyped(s.items, `${path}[]`, defs, open, followed) : [`${path}: array without items`];
  if (s.type !== 'object') return [];
  const values = typeof s.additionalProperties === 'object' ? untyped(s.additionalProperties, `${path}{}`, defs, open, followed) : [];
  if (!s.properties && typeof s.additionalProperties !== 'object') open.push(path);
  return [...values, ...Object.entries(s.properties ?? {}).flatMap(([k, v]) => untyped(v, `${path}.${k}`, defs, open, followed))];
}

let app: TestApp;
let tools: Tool[];
beforeAll(async () => {
  app = await startApp();
  tools = (await app.mcp('tools/list')).body.result.tools;
});
afterAll(async () => app?.close());

describe('tool definitions', () => {
  it('score at least 4.7 on average and 4 each on the directory rubric', () => {
    const scored = tools.map((t) => ({ name: t.name, ...score(t) }));
    const average = scored.reduce((a, s) => a + s.total, 0) / scored.length;
    const low = scored.filter((s) => s.total < 4);
    console.log(`rubric: average ${average.toFixed(2)}, minimum ${Math.min(...scored.map((s) => s.total)).toFixed(2)} over ${scored.length} tools`);
    expect(low, JSON.stringify(low)).toEqual([]);
    expect(average).toBeGreaterThanOrEqual(4.7);
  });

  it('scores a tool down for each missing part, so the rubric can fail', () => {
    const good: Tool = {
      name: 'x',
      title: 'Do x',
      description: 'Does x for a customer; call y next with the id it returns.',
      inputSchema: { type: 'object', properties: { n: { type: 'integer', minimum: 1, maximum: 9, description: 'How many to do.' } } },
      outputSchema: { type: 'object', properties: {} },
      annotations: { title: 'Do x', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    };
    expect(score(good).total).toBe(5);
    expect(score({ ...good, title: undefined }).total).toBe(4);
    expect(score({ ...good, description: 'Does x.' }).total).toBe(4);
    expect(score({ ...good, inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }).total).toBe(3);
    expect(score({ ...good, annotations: { title: 'Do x', readOnlyHint: true } }).total).toBe(4.25);
  });

  it('state every annotation hint and a title on the wire, honestly', () => {
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const t of tools) {
      for (const h of HINTS) expect(typeof t.annotations?.[h], `${t.name} ${h}`).toBe('boolean');
      expect(t.title, t.name).toBeTruthy();
      if (t.annotations!.readOnlyHint) expect([t.annotations!.destructiveHint, t.annotations!.idempotentHint], t.name).toEqual([false, true]);
    }
    for (const name of ['close_inquiry', 'update_lead', 'cancel_booking', 'set_customer_notes']) expect(byName.get(name)!.annotations!.destructiveHint, name).toBe(true);
    // Sends mail or texts to people, or calls a provider.
    for (const name of ['book_cleaning', 'cancel_booking', 'message_about_booking', 'contact_business', 'message_customer', 'cancel_job', 'activate_phone_number', 'add_receptionist_source'])
      expect(byName.get(name)!.annotations!.openWorldHint, name).toBe(true);
    for (const name of ['find_cleaners', 'schedule', 'set_hours']) expect(byName.get(name)!.annotations!.openWorldHint, name).toBe(false);
    // What buys or charges says so.
    expect(byName.get('activate_phone_number')!.description).toMatch(/\bbuy/i);
    expect(byName.get('book_cleaning')!.description).toMatch(/\$5 service fee/);
  });

  it('describe every parameter in words', () => {
    const missing = tools.flatMap((t) => Object.entries(t.inputSchema.properties ?? {}).filter(([, p]) => (p.description ?? '').trim().length < 10).map(([k]) => `${t.name}.${k}`));
    expect(missing).toEqual([]);
  });

  it('type every output value, never as a list of types with null (function-calling mappers refuse those)', () => {
    const open: string[] = [];
    const wrong = tools.flatMap((t) => untyped(t.outputSchema, t.name, t.outputSchema.$defs ?? {}, open));
    console.log(`output schemas: ${open.length} nested objects left open`);
    expect(wrong).toEqual([]);
    expect(JSON.stringify(tools.map((t) => t.outputSchema))).not.toMatch(/"type":\[/);
    // Each result names its own fields; only objects within those may be left open.
    expect(open.filter((path) => path.split('.').length !== 2)).toEqual([]);
  });

  it('finds what the output check is for: an open object, a type list, a $ref leaving the tool', () => {
    const open: string[] = [];
    const bad: Schema = {
      type: 'object',
      properties: { a: { type: ['string', 'null'] }, b: { $ref: '#/$defs/gone' }, c: { type: 'array', items: { $ref: '#/$defs/c' } } },
      $defs: { c: { type: 'object', properties: { d: { type: 'object' } } } },
    };
    expect(untyped(bad, 'x', bad.$defs!, open)).toEqual(['x.a: type list ["string","null"]', 'x.b: $ref #/$defs/gone is not one of the tool\'s $defs']);
    expect(open).toEqual(['x.c[]->c.d']);
  });
});

