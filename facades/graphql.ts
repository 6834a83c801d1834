import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLSchema } from 'graphql';
import type { Context, Services } from '../src/context.js';
import { toGraphQLError } from '../src/errors.js';

export type Yoga = YogaServerInstance<Record<string, unknown>, Context>;

const header = (request: Request, name: string) => request.headers.get(name)?.trim() || undefined;

/**
 * The one GraphQL pipeline. /graphql serves it over HTTP; REST and MCP run their persisted
 * documents through the same instance, so context, masking and plugins apply everywhere.
 */
export function createGraphQL(schema: GraphQLSchema, services: Services, documents: Map<string, string>): Yoga {
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: services.config.development,
    landingPage: false,
    logging: false,
    maskedErrors: { maskError: (error) => toGraphQLError(error) },
    context: ({ request }) => ({
      ...services,
      user: {
        name: header(request, 'x-user-name'),
        email: header(request, 'x-user-email'),
        phone: header(request, 'x-user-phone'),
      },
      clientName: header(request, 'x-client-name'),
      credential: null,
    }),
    plugins: [
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
