import type { z } from 'zod';
import type { OutputRef } from '@pothos/core';
import type PrismaTypes from '../generated/pothos-types.js';
import type { Context, OwnerContext } from '../context.js';
import type { Auth } from '../auth/vocabulary.js';
import { toCamel } from './case.js';
import { registerOperationField, registerPrismaOperationField } from './graphql.js';
import { needsOneOf } from './fields.js';
import { requestKeyField } from './request-keys.js';
import type { Annotations, Domain, Operation } from './contract.js';

type Resolved<T> = T | Promise<T>;

/** The selection Pothos plans for a Prisma-model result, to spread into the Prisma call. */
export type PrismaQuery<M extends keyof PrismaTypes> = { include?: PrismaTypes[M]['Include']; select?: PrismaTypes[M]['Select'] };

/** What a handler receives: owner operations' handlers get the signed-in business (`ctx.business`). */
export type ContextFor<A extends Auth> = A extends 'owner' ? OwnerContext : Context;

/** What a domain writes for an operation; the registry adds the rest. */
export type OperationSpec<S extends z.ZodObject> = Omit<Operation<S>, 'field' | 'annotations' | 'tags' | 'title'> & {
  /** The domain folder it belongs to (its OpenAPI tag). */
  domain: Domain;
  /** Defaults to the name in words ("book_cleaning" → "Book cleaning"). */
  title?: string;
  field?: string;
  annotations?: Partial<Annotations>;
};

/** The description with the input's cross-field rule, which no JSON Schema of the tool carries. */
function withRules(description: string, input: z.ZodObject): string {
  const oneOf = needsOneOf.get(input)?.fields;
  return oneOf ? `${description} Needs ${oneOf.slice(0, -1).join(', ')} or ${oneOf.at(-1)}.` : description;
}

/** Spellings a title writes otherwise than the name. */
const TITLE_WORDS: [RegExp, string][] = [[/\bapi\b/, 'API'], [/ ups\b/, '-ups'], [/\bno show\b/, 'no-show']];

/** The operation's name as a title: "follow_ups_due" → "Follow-ups due", "api_keys" → "API keys". */
export function titleOf(name: string): string {
  const text = TITLE_WORDS.reduce((t, [from, to]) => t.replace(from, to), name.replaceAll('_', ' '));
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The input with request_key added (its cross-field rule carried over), for operations that take one. */
function withRequestKey<S extends z.ZodObject>(input: S): S {
  // safeExtend: inputs with a cross-field rule (requireOneOf) may not be extended otherwise.
  const out = input.safeExtend({ request_key: requestKeyField });
  const oneOf = needsOneOf.get(input);
  if (oneOf) needsOneOf.add(out, oneOf);
  // Typed as the domain's own input: the handler receives it without request_key.
  return out as unknown as S;
}

function complete<S extends z.ZodObject>({ domain, ...spec }: OperationSpec<S>): Operation<S> {
  const read = spec.method === 'GET';
  return {
    ...spec,
    input: spec.requestKey ? withRequestKey(spec.input) : spec.input,
    description: withRules(spec.description, spec.input),
    title: spec.title ?? titleOf(spec.name),
    field: spec.field ?? toCamel(spec.name),
    tags: [spec.auth === 'owner' ? 'owner' : 'customer', domain],
    annotations: {
      readOnlyHint: read,
      destructiveHint: false,
      idempotentHint: read,
      openWorldHint: false,
      ...spec.annotations,
      // With a key, a retry makes nothing new.
      ...(spec.requestKey ? { idempotentHint: true } : {}),
    },
  };
}

/**
 * Defines an operation and registers its GraphQL root field, whose resolver checks access,
 * charges the request budget and validates the input before `resolve` runs (registry/graphql.ts).
 * The handler's return type must match the result type's shape.
 */
export function defineOperation<S extends z.ZodObject, R, A extends Auth>(
  spec: OperationSpec<S> & { auth: A; result: OutputRef<R>; resolve: (input: z.output<S>, ctx: ContextFor<A>) => Resolved<R> },
): Operation<S> {
  const { result, resolve, ...rest } = spec;
  const op = complete(rest);
  registerOperationField(op, result, resolve as (input: z.output<S>, ctx: Context) => Resolved<R>);
  return op;
}

/**
 * The same for operations answering with a Prisma model: `resolve` receives Pothos's planned
 * `query` (the selects for the requested fields), which it must spread into its Prisma call.
 */
export function definePrismaOperation<S extends z.ZodObject, M extends keyof PrismaTypes, A extends Auth>(
  // No request keys: the answer is a row Pothos plans per query, which a retry could not replay.
  spec: Omit<OperationSpec<S>, 'requestKey'> & {
    auth: A;
    result: M;
    resolve: (query: PrismaQuery<M>, input: z.output<S>, ctx: ContextFor<A>) => Promise<PrismaTypes[M]['Shape']>;
  },
): Operation<S> {
  const { result, resolve, ...rest } = spec;
  const op: Operation<S> = { ...complete(rest), planned: true };
  registerPrismaOperationField(op, result, resolve as never);
  return op;
}

/** An older name of an operation: the same field, input and result under another name. */
export function aliasOperation<S extends z.ZodObject>(op: Operation<S>, name: string, description: string): Operation<S> {
  return { ...op, name, title: `${titleOf(name)} (older name)`, description: withRules(description, op.input) };
}
