import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { Kind, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Operation } from '../src/registry/operation.js';
import type { Context, Scope, Services } from '../src/context.js';
import { AppError, rootCause, toGraphQLError } from '../src/errors.js';
import { checkAccess, credentialOf } from '../src/auth/credentials.js';
import { bearerChallenge, scopeOf } from './challenge.js';

/**
 * The GraphQL error for `error`, with the headers yoga sends for it on /graphql
 * (extensions.http.headers): the sign-in challenge, or Retry-After. `scope` is what the refused
 * operation needs, where known.
 */
function withHeaders(error: unknown, baseUrl: string, scope?: Scope): GraphQLError {
  const mapped = toGraphQLError(error);
  const cause = rootCause(error);
  const code = mapped.extensions.code;
  const challenge = bearerChallenge(baseUrl, '', cause instanceof AppError ? cause : { code }, scope);
  const headers =
    challenge ? { 'WWW-Authenticate': challenge }
    : code === 'rate_limited' ? { 'Retry-After': String(mapped.extensions.retry_after ?? 60) }
    : undefined;
  if (headers) (mapped.extensions.http as Record<string, unknown>).headers = headers;
  return mapped;
}

/**
 * Checks the caller's access for every registry operation a GraphQL request selects, before
 * variables are coerced, so a caller without the sign-in gets 401 whatever input they sent,
 * exactly as on REST and MCP.
 */
function useOperationAccess(operations: Operation[], baseUrl: string): Plugin<Context> {
  const byField = new Map(operations.map((op) => [`${op.method === 'GET' ? 'query' : 'mutation'}.${op.field}`, op]));
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as Context;
      for (const def of args.document.definitions) {
        if (def.kind !== Kind.OPERATION_DEFINITION) continue;
        if (args.operationName && def.name?.value !== args.operationName) continue;
        for (const sel of def.selectionSet.selections) {
          const op = sel.kind === Kind.FIELD ? byField.get(`${def.operation}.${sel.name.value}`) : undefined;
          if (!op) continue;
          try {
            checkAccess(op, ctx.credential);
          } catch (err) {
            setResultAndStopExecution({ errors: [withHeaders(err, baseUrl, scopeOf(op))] });
            return;
          }
        }
      }
    },
  };
}

export type Yoga = YogaServerInstance<Record<string, unknown>, Context>;

const header = (request: Request, name: string) => request.headers.get(name)?.trim() || undefined;

/**
 * The one GraphQL pipeline. /graphql serves it over HTTP; REST and MCP run their persisted
 * documents through the same instance, so context, masking and plugins apply everywhere.
 */
export function createGraphQL(schema: GraphQLSchema, services: Services, documents: Map<string, string>, operations: Operation[]): Yoga {
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: services.config.development,
    landingPage: false,
    logging: false,
    maskedErrors: { maskError: (error) => withHeaders(error, services.config.baseUrl) },
    // CORS is the app's one policy (guards.ts apiCors); yoga's own reflects any origin with credentials.
    cors: false,
    context: async ({ request, clientAddress }: { request: Request; clientAddress?: string }) => {
      const credential = await credentialOf(services, request);
      const address = clientAddress ?? 'local';
      await services.rateLimits.request.consume(credential ? `credential:${credential.id}` : `address:${address}`);
      return {
        ...services,
        user: {
          name: header(request, 'x-user-name'),
          email: header(request, 'x-user-email'),
          phone: header(request, 'x-user-phone'),
        },
        clientName: header(request, 'x-client-name'),
        clientAddress: address,
        credential,
      };
    },
    plugins: [
      useOperationAccess(operations, services.config.baseUrl),
      usePersistedOperations({
        // Clients may run an operation's persisted document by its name: {"documentId": "find_cleaners"}.
        getPersistedOperation: (key) => documents.get(key) ?? null,
        extractPersistedOperationId: (params) => {
          const p = params as { documentId?: string; extensions?: { persistedQuery?: { sha256Hash?: string } } };
          return p.documentId ?? p.extensions?.persistedQuery?.sha256Hash ?? null;
        },
        allowArbitraryOperations: true,
      }),
    ],
  });
}
