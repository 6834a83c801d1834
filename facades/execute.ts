import type { ExecutionResult } from 'graphql';
import type { Operation } from '../src/registry/contract.js';
import { renameKeys, toCamel, toSnake } from '../src/registry/case.js';
import { AppError, errorBody, logInternalError, toGraphQLError } from '../src/errors.js';
import { parseInput } from '../src/registry/validate.js';
import type { Yoga } from './graphql.js';
import type { Services } from '../src/context.js';
import { checkAccess, credentialOf } from '../src/auth/credentials.js';

export interface Outcome {
  status: number;
  body: Record<string, unknown>;
}

/**
 * Runs one registry operation through the GraphQL pipeline with the caller's request (headers
 * and credentials) and returns the transport-neutral outcome with snake_case keys. It never
 * throws: an unexpected error is logged and answered as `internal`, the same on REST and MCP
 * (whose SDK would otherwise answer with the error's own message and log nothing).
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
    checkAccess(op, await credentialOf(services, request, clientAddress));
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
    const result = (await yoga.getResultForParams({ params, request }, { clientAddress, validatedInput })) as ExecutionResult;
    if (result.errors?.length) return errorBody(result.errors[0]!);
    const data = (result.data ?? {})[op.field];
    return { status: 200, body: renameKeys(data, toSnake) as Record<string, unknown> };
  } catch (err) {
    if (!(err instanceof AppError)) logInternalError(services.logger, err);
    return errorBody(toGraphQLError(err));
  }
}
