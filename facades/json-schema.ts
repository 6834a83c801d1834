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

/** Object schemas of at least this many characters that appear twice are written once, in $defs. */
const SHARED_MIN_CHARS = 120;

/** The schema with every repeated object subschema defined once under $defs and referenced. */
export function shareRepeats(schema: Record<string, unknown>): Record<string, unknown> {
  const seen = new Map<string, number>();
  const count = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    if (!Array.isArray(node) && (node as { type?: unknown }).type === 'object') {
      const text = JSON.stringify(node);
      if (text.length >= SHARED_MIN_CHARS) seen.set(text, (seen.get(text) ?? 0) + 1);
    }
    for (const child of Object.values(node)) count(child);
  };
  for (const child of Object.values(schema)) count(child);
  const names = new Map([...seen].filter(([, n]) => n > 1).map(([text], i) => [text, `s${i}`]));
  if (names.size === 0) return schema;
  const replace = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    const name = Array.isArray(node) ? undefined : names.get(JSON.stringify(node));
    if (name) return { $ref: `#/$defs/${name}` };
    return Array.isArray(node) ? node.map(replace) : Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replace(v)]));
  };
  const body = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, replace(v)]));
  return { ...body, $defs: Object.fromEntries([...names].map(([text, name]) => [name, JSON.parse(text)])) };
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
const SELECTION_DEPTH = 4;

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
