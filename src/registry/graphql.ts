import { z } from 'zod';
import { valueFromASTUntyped, type ValueNode } from 'graphql';
import type { InputObjectRef, InputFieldRef, OutputRef } from '@pothos/core';
import { builder } from '../builder.js';
import type { Context } from '../context.js';
import type { Operation } from './contract.js';
import { renameKeys, toCamel, toPascal, toSnake } from './case.js';
import { parseInput } from './validate.js';
import { baseOf, type ZodDef } from './zod-shape.js';
import { ownerContext } from '../auth/credentials.js';
import { withRequestKey } from './request-keys.js';

// GraphQL input types are generated from the operations' zod schemas, so bounds and shapes are
// written once. zod still validates inside the resolver: GraphQL types cannot carry bounds. Input
// that REST or MCP validated already reaches it validated (Context.validatedInput), so each
// request's input is parsed once.

const enums = new Map<string, { values: string; ref: unknown }>();
const objects = new Map<z.ZodType, InputObjectRef<never, unknown>>();

function enumRef(field: string, values: string[]) {
  let name = toPascal(field);
  const key = values.join('|');
  for (let i = 2; enums.has(name) && enums.get(name)!.values !== key; i++) name = `${toPascal(field)}${i}`;
  if (!enums.has(name)) enums.set(name, { values: key, ref: builder.enumType(name, { values: values as [string, ...string[]] }) });
  return enums.get(name)!.ref;
}

interface Shape { type: unknown; required: boolean }

function shapeOf(field: z.ZodType, name: string, typeName: string): Shape {
  const { schema, def, optional } = baseOf(field);
  return { type: typeOf(schema, def, name, typeName), required: !optional };
}

function typeOf(schema: z.ZodType, def: ZodDef, field: string, typeName: string): unknown {
  switch (def.type) {
    case 'string':
      return 'String';
    case 'boolean':
      return 'Boolean';
    case 'number': {
      // GraphQL Int is 32-bit; larger integers (menu_revision, cents) travel as Float.
      const num = schema as z.ZodNumber;
      const int = num.isInt || def.format === 'safeint' || def.format === 'int32';
      const max = Math.max(Math.abs(num.maxValue ?? Infinity), Math.abs(num.minValue ?? Infinity));
      return int && max <= 2147483647 ? 'Int' : 'Float';
    }
    case 'enum':
      return enumRef(field, Object.values(def.entries!));
    case 'array':
      return [shapeOf(def.element!, field, typeName).type];
    case 'object':
      return inputObject(`${typeName}${toPascal(field)}`, schema as z.ZodObject);
    case 'union':
      return unionScalar(`${typeName}${toPascal(field)}`);
    default:
      throw new Error(`No GraphQL input mapping for zod type ${def.type} (field ${field})`);
  }
}

const scalars = new Map<string, unknown>();

/**
 * A field that takes one of several shapes (hours as windows or by weekday name): GraphQL input
 * types have no unions, so it travels as a JSON value (keys camelCase like the rest of the input)
 * and zod tells the shapes apart.
 */
function unionScalar(name: string) {
  if (!scalars.has(name)) {
    scalars.set(
      name,
      builder.scalarType(name as never, {
        description: 'One of the shapes the field describes, as a JSON value.',
        serialize: (v: unknown) => v,
        parseValue: (v: unknown) => v,
        parseLiteral: (ast: ValueNode, variables?: Parameters<typeof valueFromASTUntyped>[1]) => valueFromASTUntyped(ast, variables),
      } as never),
    );
  }
  return scalars.get(name);
}

type Bounds = { minLength?: number; maxLength?: number; minimum?: number; exclusiveMinimum?: number; maximum?: number; minItems?: number; maxItems?: number };

/** "1-500 characters", "at most 6 items", "more than 0, at most 1000000": a range in words. */
function range(min: number | undefined, max: number | undefined, unit: string, exclusiveMin?: number): string | undefined {
  const suffix = unit ? ` ${unit}` : '';
  if (exclusiveMin !== undefined) return max === undefined ? `more than ${exclusiveMin}${suffix}` : `more than ${exclusiveMin}, at most ${max}${suffix}`;
  if (max === undefined) return min !== undefined ? `at least ${min}${suffix}` : undefined;
  return min !== undefined ? `${min}-${max}${suffix}` : `at most ${max}${suffix}`;
}

/**
 * A field's limits in words. GraphQL types cannot carry them and descriptions leave them to the
 * JSON Schemas of REST and MCP, so GraphQL's descriptions state them.
 */
function limitsOf(field: z.ZodType): string | undefined {
  const json = z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as Bounds & { type?: string; anyOf?: (Bounds & { type?: string })[] };
  const shapes = json.anyOf?.filter((b) => b.type !== 'null') ?? [json];
  // A field of several shapes describes each in its own words.
  if (shapes.length !== 1) return undefined;
  const s = shapes[0]!;
  // No lower bound for text and lists is 0, which says nothing.
  if (s.type === 'string') return range(s.minLength || undefined, s.maxLength, 'characters');
  if (s.type === 'number' || s.type === 'integer') return range(s.minimum, s.maximum, '', s.exclusiveMinimum);
  if (s.type === 'array') return range(s.minItems || undefined, s.maxItems, 'items');
  return undefined;
}

/** The description, from the field or a schema it wraps (optional, default, nullable). */
function descriptionOf(field: z.ZodType): string | undefined {
  for (let s: z.ZodType | undefined = field; s; ) {
    if (s.description) return s.description;
    const def: ZodDef = (s as unknown as { _zod: { def: ZodDef } })._zod.def;
    s = def.type === 'optional' || def.type === 'default' || def.type === 'prefault' || def.type === 'nullable' ? def.innerType : undefined;
  }
  return undefined;
}

function withLimits(field: z.ZodType): string | undefined {
  const limits = limitsOf(field);
  const text = descriptionOf(field);
  if (!limits) return text;
  const sentence = `${limits.charAt(0).toUpperCase()}${limits.slice(1)}.`;
  return text ? `${text} ${sentence}` : sentence;
}

export function inputObject(name: string, schema: z.ZodObject): InputObjectRef<never, unknown> {
  const existing = objects.get(schema);
  if (existing) return existing;
  const ref = builder.inputType(name, {
    fields: (t) => {
      const fields: Record<string, InputFieldRef<never, 'InputObject'>> = {};
      for (const [key, fieldSchema] of Object.entries(schema.shape)) {
        const shape = shapeOf(fieldSchema as z.ZodType, key, name.replace(/Input$/, ''));
        const description = withLimits(fieldSchema as z.ZodType);
        fields[toCamel(key)] = t.field({ type: shape.type as never, required: shape.required, description }) as never;
      }
      return fields;
    },
  }) as unknown as InputObjectRef<never, unknown>;
  objects.set(schema, ref);
  return ref;
}

export const inputTypeName = (op: Operation) => `${toPascal(op.field)}Input`;

/** GraphQL args of an operation's root field: one `input` object generated from its schema. */
export function operationArgs(t: { arg: (o: { type: never; required: boolean }) => unknown }, op: Operation) {
  const hasFields = Object.keys(op.input.shape).length > 0;
  return hasFields ? { input: t.arg({ type: inputObject(inputTypeName(op), op.input) as never, required: true }) } : {};
}

/**
 * The resolver side: camelCase GraphQL input back to the spec's names, validated; or the input
 * its transport validated already, for the field its persisted document calls.
 */
export function operationInput<S extends z.ZodObject>(op: Operation<S>, args: { input?: unknown }, ctx: Context): z.output<S> {
  if (ctx.validatedInput?.field === op.field) return ctx.validatedInput.input as z.output<S>;
  return parseInput(op.input, renameKeys(args.input ?? {}, toSnake));
}

/** Owner handlers get the signed-in business with their context (`ctx.business`). */
const handlerContext = (op: Operation, ctx: Context): Context => (op.auth === 'owner' ? ownerContext(ctx) : ctx);

type FieldBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0];

function addRootField(op: Operation, field: (t: FieldBuilder) => unknown) {
  if (op.method === 'GET') builder.queryField(op.field, field as never);
  else builder.mutationField(op.field, field as never);
}

/**
 * An operation's root field: a query for GET operations, a mutation for POST ones. Its resolver
 * is the one door to the handler, whatever the transport: the access plugin's guard (budget,
 * access) runs first, then the input is validated.
 */
export function registerOperationField<S extends z.ZodObject, R>(
  op: Operation<S>,
  result: OutputRef<R>,
  resolve: (input: z.output<S>, ctx: Context) => R | Promise<R>,
) {
  addRootField(op, (t) =>
    t.field({
      type: result as OutputRef<unknown>,
      description: op.description,
      access: { auth: op.auth, name: op.name },
      args: operationArgs(t as never, op) as never,
      resolve: (_root: unknown, args: { input?: unknown }, ctx: Context) => {
        const input = operationInput(op, args, ctx);
        const context = handlerContext(op, ctx);
        // An operation that creates something runs under its caller's request_key, if one was sent.
        if (!op.requestKey) return resolve(input, context);
        return withRequestKey(op.name, input as { request_key?: string }, context, resolve as (input: object, ctx: Context) => R | Promise<R>);
      },
    } as never),
  );
}

export function registerPrismaOperationField<S extends z.ZodObject>(
  op: Operation<S>,
  model: string,
  resolve: (query: never, input: z.output<S>, ctx: Context) => Promise<unknown>,
) {
  addRootField(op, (t) =>
    t.prismaField({
      type: model as never,
      description: op.description,
      access: { auth: op.auth, name: op.name },
      args: operationArgs(t as never, op) as never,
      resolve: (query: never, _root: unknown, args: { input?: unknown }, ctx: Context) =>
        resolve(query, operationInput(op, args, ctx), handlerContext(op, ctx)),
    } as never),
  );
}
