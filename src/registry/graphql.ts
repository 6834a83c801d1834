import type { z } from 'zod';
import type { InputObjectRef, InputFieldRef } from '@pothos/core';
import { builder } from '../builder.js';
import type { Context } from '../context.js';
import type { Operation } from './operation.js';
import { renameKeys, toCamel, toPascal, toSnake } from './case.js';
import { parseInput } from './validate.js';
import { baseOf, type ZodDef } from './zod-shape.js';

// GraphQL input types are generated from the operations' zod schemas, so bounds and shapes are
// written once. zod still validates inside the resolver: GraphQL types cannot carry bounds.


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
    default:
      throw new Error(`No GraphQL input mapping for zod type ${def.type} (field ${field})`);
  }
}

export function inputObject(name: string, schema: z.ZodObject): InputObjectRef<never, unknown> {
  const existing = objects.get(schema);
  if (existing) return existing;
  const ref = builder.inputType(name, {
    fields: (t) => {
      const fields: Record<string, InputFieldRef<never, 'InputObject'>> = {};
      for (const [key, fieldSchema] of Object.entries(schema.shape)) {
        const shape = shapeOf(fieldSchema as z.ZodType, key, name.replace(/Input$/, ''));
        const description = (fieldSchema as z.ZodType).description;
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
 * The resolver side: camelCase GraphQL input back to the spec's names, validated. (The caller's
 * access was checked before execution, by the facade's access plugin.)
 */
export function operationInput<S extends z.ZodObject>(op: Operation<S>, args: { input?: unknown }): z.output<S> {
  return parseInput(op.input, renameKeys(args.input ?? {}, toSnake));
}

export type Resolver<S extends z.ZodObject, R> = (input: z.output<S>, ctx: Context) => Promise<R> | R;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRef = any;

/**
 * Adds an operation's root field: a query for GET operations, a mutation for POST ones,
 * taking the generated input and validating it before the service runs.
 */
export function operationField<S extends z.ZodObject>(op: Operation<S>, type: AnyRef, resolve: Resolver<S, unknown>) {
  const field = (t: AnyRef) =>
    t.field({
      type,
      description: op.description,
      args: operationArgs(t, op),
      resolve: (_root: unknown, args: { input?: unknown }, ctx: Context) => resolve(operationInput(op, args), ctx),
    });
  if (op.method === 'GET') builder.queryField(op.field, field);
  else builder.mutationField(op.field, field);
}

/**
 * The same for operations answered with Prisma models: the resolver receives Pothos's planned
 * `query` (selects and includes for the requested fields), which it must spread into its call.
 */
export function prismaOperationField<S extends z.ZodObject>(
  op: Operation<S>,
  type: AnyRef,
  resolve: (query: Record<string, unknown>, input: z.output<S>, ctx: Context) => Promise<unknown>,
) {
  const field = (t: AnyRef) =>
    t.prismaField({
      type,
      description: op.description,
      args: operationArgs(t, op),
      resolve: (query: Record<string, unknown>, _root: unknown, args: { input?: unknown }, ctx: Context) =>
        resolve(query, operationInput(op, args), ctx),
    });
  if (op.method === 'GET') builder.queryField(op.field, field);
  else builder.mutationField(op.field, field);
}
