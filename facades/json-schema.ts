import {
  getNamedType,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { z } from 'zod';
import type { Operation } from '../src/registry/contract.js';
import { toSnake } from '../src/registry/case.js';

// The JSON Schemas of an operation's input and result, shared by the MCP tools and the OpenAPI
// document so both describe the same wire shapes.

const inputs = new WeakMap<Operation, Record<string, unknown>>();

/** The input JSON Schema, generated from the same zod schema REST, MCP and GraphQL validate with. */
export function inputJsonSchema(op: Operation): Record<string, unknown> {
  let s = inputs.get(op);
  if (!s) {
    const { $schema: _drop, ...rest } = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    s = rest;
    inputs.set(op, s);
  }
  return s;
}

/**
 * A schema with what tells a model nothing removed: empty minimums, defaults of an empty list or
 * false (what a left-out optional list or flag means anyway), patterns where a format says the
 * same (zod's e-mail expression), and, when `shapesOnly`, required lists and descriptions (tool
 * definitions are read on every call; OpenAPI keeps them all).
 */
export function compact(schema: unknown, shapesOnly = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => compact(s, shapesOnly));
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  const source = schema as Record<string, unknown>;
  for (const [k, v] of Object.entries(source)) {
    // A one-character minimum says only "not empty", which no model sends on purpose (and is
    // refused saying so); it sat on ninety parameters of the size-budgeted tools/list.
    if (k === 'minLength' && (v === 0 || v === 1)) continue;
    if (k === 'default' && (v === false || (Array.isArray(v) && v.length === 0))) continue;
    if (k === 'pattern' && typeof source.format === 'string') continue;
    if (shapesOnly && (k === 'required' || k === 'description')) continue;
    // Property names are data here, not keywords.
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([name, s]) => [name, compact(s, shapesOnly)])) : compact(v, shapesOnly);
  }
  return out;
}

type Node = Record<string, unknown>;

/**
 * Calls `visit` with each subschema directly inside `node` (under properties, items, anyOf and
 * $defs), the name it sits under (an array's items under the singular of the array's name) and a
 * function that puts another schema in its place.
 */
function eachChild(node: Node, name: string, visit: (child: Node, name: string, put: (s: Node) => void) => void) {
  const props = node.properties as Record<string, Node> | undefined;
  if (props) for (const k of Object.keys(props)) visit(props[k]!, k, (s) => (props[k] = s));
  if (node.items && typeof node.items === 'object') visit(node.items as Node, singular(name), (s) => (node.items = s));
  const any = node.anyOf as Node[] | undefined;
  if (any) any.forEach((child, i) => visit(child, name, (s) => (any[i] = s)));
}

const singular = (name: string) => name.replace(/ies$/, 'y').replace(/(?<=[^s])s$/, '');

/** The length of `{"$ref":"#/$defs/<name>"}`. */
const refLength = (name: string) => 18 + name.length;

/**
 * The schema with each subschema that repeats defined once under $defs and referenced, while
 * that makes the schema shorter: the repeat that saves most goes first, named after the field it
 * describes (an array's items after its singular: `messages` -> `message`), or after its type
 * when it describes fields of different names (`string_or_null`). References point only within
 * the schema itself, as each tool's schema is read on its own.
 */
export function shareRepeats(schema: Record<string, unknown>): Record<string, unknown> {
  const root = structuredClone(schema) as Node;
  const defs: Record<string, Node> = {};
  const walkAll = (visit: (child: Node, name: string, put: (s: Node) => void) => void) => {
    eachChild(root, '', visit);
    for (const [name, def] of Object.entries(defs)) eachChild(def, name, visit);
  };
  for (;;) {
    const seen = new Map<string, { count: number; names: Set<string> }>();
    const count = (child: Node, name: string) => {
      if (child.$ref) return;
      const text = JSON.stringify(child);
      const entry = seen.get(text) ?? { count: 0, names: new Set<string>() };
      entry.count++;
      entry.names.add(name);
      seen.set(text, entry);
      eachChild(child, name, count);
    };
    walkAll(count);
    let best: { text: string; name: string; saved: number } | undefined;
    for (const [text, { count: n, names }] of seen) {
      if (n < 2) continue;
      const name = defName(JSON.parse(text) as Node, names, defs);
      const saved = n * (text.length - refLength(name)) - (text.length + name.length + 4);
      if (saved > 0 && (!best || saved > best.saved)) best = { text, name, saved };
    }
    if (!best) break;
    const ref = { $ref: `#/$defs/${best.name}` };
    const replace = (child: Node, name: string, put: (s: Node) => void) => {
      if (JSON.stringify(child) === best!.text) put(ref);
      else eachChild(child, name, replace);
    };
    walkAll(replace);
    defs[best.name] = JSON.parse(best.text) as Node;
  }
  return Object.keys(defs).length ? { ...root, $defs: defs } : root;
}

/** A name for a shared subschema that no other definition of the schema has. */
function defName(schema: Node, names: Set<string>, taken: Record<string, unknown>): string {
  const nullable = Array.isArray(schema.anyOf) ? (schema.anyOf as Node[]).find((s) => s.type !== 'null') : undefined;
  const type = (nullable ?? schema).type;
  const first = [...names].find(Boolean) ?? 'shape';
  const base = names.size === 1 || !nullable || typeof type !== 'string' ? first : `${type}_or_null`;
  let name = base;
  for (let i = 2; name in taken; i++) name = `${base}_${i}`;
  return name;
}

/**
 * The schema with every `type: [t, "null"]` written as `anyOf: [{type: t}, {type: "null"}]`:
 * function-calling mappers (Gemini's among them) refuse a list as `type`, while both forms are
 * standard JSON Schema that the SDK's validators (Ajv, cfworker) read alike.
 */
export function nullAsAnyOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullAsAnyOf);
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(source)) out[k] = k === 'enum' ? v : nullAsAnyOf(v);
  if (!Array.isArray(out.type)) return out;
  const types = (out.type as string[]).filter((t) => t !== 'null');
  if (types.length !== 1 || types.length === out.type.length) return out;
  const { type: _list, ...rest } = out;
  const value = { type: types[0], ...rest, ...(Array.isArray(rest.enum) ? { enum: rest.enum.filter((e) => e !== null) } : {}) };
  return { anyOf: [value, { type: 'null' }] };
}

const scalarSchema: Record<string, Record<string, unknown>> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
};

/** How deep facades/documents.ts selects below a root result type (its `selection(named, 4)`). */
export const SELECTION_DEPTH = 4;

function allowNull(schema: Record<string, unknown>): Record<string, unknown> {
  if (typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  if (Array.isArray(schema.enum)) schema.enum = [...schema.enum, null];
  return schema;
}

/**
 * JSON Schema of a GraphQL result type, with the snake_case keys REST and MCP return. It follows
 * the persisted documents' selection exactly (leaf fields, object fields while depth lasts,
 * no fields with required arguments), so it describes what the REST body really holds. With
 * `open`, objects below `depth` are still named, as objects whose fields are not described.
 */
export function outputSchema(type: GraphQLOutputType, depth = SELECTION_DEPTH, open = false): Record<string, unknown> {
  const nullable = !isNonNullType(type);
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: Record<string, unknown>;
  if (isListType(inner)) schema = { type: 'array', items: outputSchema(inner.ofType, depth, open) };
  else if (isScalarType(inner)) schema = { ...(scalarSchema[inner.name] ?? {}) };
  else if (isEnumType(inner)) schema = { type: 'string', enum: inner.getValues().map((v) => v.value) };
  else if (isObjectType(inner) && depth < 0) schema = { type: 'object' };
  else if (isObjectType(inner)) {
    const fields = Object.values(inner.getFields()).filter((f) => {
      if (f.args.some((a) => isNonNullType(a.type))) return false;
      const named = getNamedType(f.type);
      return isLeafType(named) || (isObjectType(named) && (depth > 0 || open));
    });
    schema = {
      type: 'object',
      properties: Object.fromEntries(
        fields.map((f) => [toSnake(f.name), { ...outputSchema(f.type, depth - 1, open), ...(f.description ? { description: f.description } : {}) }]),
      ),
      required: fields.filter((f) => isNonNullType(f.type)).map((f) => toSnake(f.name)),
    };
  } else schema = {};
  return nullable ? allowNull(schema) : schema;
}

/** The operation's root field in the schema: a query for GET operations, a mutation for POST ones. */
export function rootField(schema: GraphQLSchema, op: Operation) {
  const root = op.method === 'GET' ? schema.getQueryType()! : schema.getMutationType()!;
  return root.getFields()[op.field]!;
}
