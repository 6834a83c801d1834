import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { Kind, NoSchemaIntrospectionCustomRule, type DocumentNode, type FragmentDefinitionNode, type GraphQLError, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { Plugin } from 'graphql-yoga';
import type { Operation } from '../src/registry/contract.js';
import type { Context, Services } from '../src/context.js';
import type { Scope } from '../src/auth/vocabulary.js';
import { AppError, logInternalError, rootCause, toGraphQLError } from '../src/errors.js';
import { checkAccess, credentialOf } from '../src/auth/credentials.js';
import { refusalHttp, scopeOf } from './challenge.js';

/**
 * The GraphQL error for `error`, with the headers yoga sends for it on /graphql
 * (extensions.http.headers): the sign-in challenge, or Retry-After. `scope` is what the refused
 * operation needs, where known.
 */
function withHeaders(error: unknown, baseUrl: string, scope?: Scope): GraphQLError {
  const mapped = toGraphQLError(error);
  const cause = rootCause(error);
  const { code, retry_after } = mapped.extensions;
  const { headers } = refusalHttp(baseUrl, '', cause instanceof AppError ? cause : { code, retry_after }, scope);
  if (Object.keys(headers).length) (mapped.extensions.http as Record<string, unknown>).headers = headers;
  return mapped;
}

/** The root fields an operation selects, through inline fragments and fragment spreads alike. */
export function rootFields(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const names: string[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) names.push(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return names;
}

/**
 * Answers 401/403 before variables are coerced, so a caller without the sign-in learns nothing
 * about input rules, exactly as on REST and MCP. This is only the early answer: every root
 * field's resolver checks access again (registry/guard.ts), and that check decides.
 */
function useEarlyAccessCheck(operations: Operation[], baseUrl: string): Plugin<Context> {
  const byField = new Map(operations.map((op) => [`${op.method === 'GET' ? 'query' : 'mutation'}.${op.field}`, op]));
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as Context;
      for (const def of args.document.definitions) {
        if (def.kind !== Kind.OPERATION_DEFINITION) continue;
        if (args.operationName && def.name?.value !== args.operationName) continue;
        for (const name of rootFields(args.document, def)) {
          const op = byField.get(`${def.operation}.${name}`);
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

/** Parse and validation errors are invalid input, in the same error language as every surface. */
const useInvalidInputCodes: Plugin<Context> = {
  onValidate: () => ({ result, setResult }) => {
    if (result.length) setResult(result.map((e) => toGraphQLError(e)));
  },
};

/**
 * No introspection in production. A validation rule on every document, rather than yoga's plugin,
 * which marks requests as they are parsed from HTTP and so let documents sent over WebSocket through.
 */
const useNoIntrospection: Plugin<Context> = {
  onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule),
};

/** The limits GraphQL Armor enforces per document. */
export const ARMOR = { aliases: 20, depth: 8, tokens: 2000, directives: 10, cost: 5000 } as const;

export type Yoga = YogaServerInstance<Record<string, unknown>, Context>;

const header = (request: Request, name: string) => request.headers.get(name)?.trim() || undefined;

/**
 * The one GraphQL pipeline. /graphql serves it over HTTP; REST and MCP run their persisted
 * documents through the same instance, so context, masking and plugins apply everywhere.
 */
export function createGraphQL(schema: GraphQLSchema, services: Services, documents: Map<string, string>, operations: Operation[]): Yoga {
  const jitted = new Set(operations.filter((op) => !op.planned).map((op) => op.name));
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: services.config.development,
    landingPage: false,
    logging: false,
    maskedErrors: {
      maskError: (error) => {
        const mapped = withHeaders(error, services.config.baseUrl);
        if (mapped.extensions.code === 'internal') logInternalError(services.logger, error);
        return mapped;
      },
    },
    // CORS is the app's one policy (guards.ts apiCors); yoga's own reflects any origin with credentials.
    cors: false,
    context: async ({ request, clientAddress, validatedInput }: { request: Request; clientAddress?: string; validatedInput?: Context['validatedInput'] }) => {
      const address = clientAddress ?? 'local';
      return {
        ...services,
        user: {
          name: header(request, 'x-user-name'),
          email: header(request, 'x-user-email'),
          phone: header(request, 'x-user-phone'),
        },
        clientName: header(request, 'x-client-name'),
        clientAddress: address,
        credential: await credentialOf(services, request, address),
        validatedInput,
        signal: request.signal,
      };
    },
    plugins: [
      // Bounds on what one document may ask for, so cost follows the budget each root field
      // charges (registry/guard.ts); the persisted documents stay well inside them.
      EnvelopArmorPlugin({
        maxAliases: { n: ARMOR.aliases },
        maxDepth: { n: ARMOR.depth },
        maxTokens: { n: ARMOR.tokens },
        maxDirectives: { n: ARMOR.directives },
        costLimit: { maxCost: ARMOR.cost },
        blockFieldSuggestion: { enabled: true },
      }),
      ...(services.config.development ? [] : [useNoIntrospection]),
      useInvalidInputCodes,
      // REST's and MCP's runs of the persisted documents are compiled (graphql-jit): a schedule of
      // 200 entries resolves ~4,000 fields, a third of its CPU under graphql-js. Not /graphql's own
      // documents (its variable errors and subscriptions are graphql-js's), nor operations whose
      // Prisma selections Pothos plans from the resolve info.
      useGraphQlJit({}, { enableIf: ({ contextValue, operationName }) => (contextValue as Context).validatedInput !== undefined && jitted.has(operationName ?? '') }),
      useEarlyAccessCheck(operations, services.config.baseUrl),
      usePersistedOperations({
        // Clients may run an operation's persisted document by its name: {"documentId": "find_cleaners"}.
        getPersistedOperation: (key) => documents.get(key) ?? null,
        extractPersistedOperationId: (params) => {
          const p = params as { documentId?: string; extensions?: { persistedQuery?: { sha256Hash?: string } } };
          return p.documentId ?? p.extensions?.persistedQuery?.sha256Hash ?? null;
        },
        allowArbitraryOperations: true,
        customErrors: {
          notFound: {
            message: 'No persisted document has that id. documentId is an operation name such as find_cleaners (the list is at /openapi.json), or send a query.',
            extensions: { code: 'invalid_input', http: { status: 400 } },
          },
        },
      }),
    ],
  });
}
