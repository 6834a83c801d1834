import type { ExecutionResult } from 'graphql';
import type { Operation } from '../src/registry/contract.js';
import { renameKeys, toCamel } from '../src/registry/case.js';
import { AppError, errorBody, logInternalError, toGraphQLError } from '../src/errors.js';
import { parseInput } from '../src/registry/validate.js';
import type { Yoga } from './graphql.js';
import type { Context, Services } from '../src/context.js';
import { checkAccess, credentialOf } from '../src/auth/credentials.js';

export interface Outcome {
  status: number;
  body: Record<string, unknown>;
  /** The body as JSON, when it was made once for many requests (answersFrom). */
  json?: string;
}

/**
 * Outcomes made from a value a resolver shares between requests (Context.sharedAnswer), by
 * operation, credential and variables: while the value is the same object, so is the answer, and
 * its serialising (much of a 200-entry schedule's cost) is done once. Entries go
 * with their value.
 */
const answersFrom = new WeakMap<object, Map<string, Outcome>>();

/**
 * Runs one registry operation's snake_case document (facades/documents.ts) through the GraphQL
 * pipeline with the caller's request (headers and credentials) and returns the transport-neutral
 * outcome, its keys in snake_case. It never throws: an unexpected error is logged and answered
 * as `internal`, the same on REST and MCP (whose SDK would otherwise answer with the error's own
 * message and log nothing).
 */
export async function runOperation(
  yoga: Yoga,
  services: Services,
  documents: Map<string, string>,
  op: Operation,
  raw: unknown,
  request: Request,
  clientAddress: string,
): Promise<Outcome> {
  try {
    // Who may call comes before what was sent: a caller without the sign-in learns nothing more.
    // This early answer is a courtesy; the field's resolver decides (registry/guard.ts).
    const credential = await credentialOf(services, request, clientAddress);
    checkAccess(op, credential);
    // Validated here, once: malformed values get our sentences, not GraphQL coercion errors, and
    // the field's resolver takes this input as it is (Context.validatedInput) instead of parsing
    // it again from the GraphQL arguments.
    const input = parseInput(op.input, raw);
    const hasInput = Object.keys(op.input.shape).length > 0;
    const params = {
      query: documents.get(op.name)!,
      operationName: op.name,
      variables: hasInput ? { input: renameKeys(input, toCamel) as Record<string, unknown> } : {},
    };
    const validatedInput = { field: op.field, input };
    const sharedAnswer: Context['sharedAnswer'] = {};
    const result = (await yoga.getResultForParams({ params, request }, { clientAddress, validatedInput, sharedAnswer })) as ExecutionResult;
    if (result.errors?.length) return errorBody(result.errors[0]!);
    const shared = sharedAnswer.value;
    const asked = shared && `${op.name}\0${credential?.id ?? ''}\0${JSON.stringify(params.variables)}`;
    const made = shared && answersFrom.get(shared)?.get(asked!);
    if (made) return made;
    // The document's aliases named the answer's fields in snake_case already.
    const body = (result.data ?? {})[op.field] as Record<string, unknown>;
    if (!shared) return { status: 200, body };
    const outcome = { status: 200, body, json: JSON.stringify(body) };
    const answers = answersFrom.get(shared) ?? new Map<string, Outcome>();
    answers.set(asked!, outcome);
    answersFrom.set(shared, answers);
    return outcome;
  } catch (err) {
    if (!(err instanceof AppError)) logInternalError(services.logger, err);
    return errorBody(toGraphQLError(err));
  }
}
