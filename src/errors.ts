import { GraphQLError } from 'graphql';

/** Transport-neutral error codes with the HTTP status each maps to. */
export const errorStatus = {
  invalid_input: 400,
  not_found: 400,
  price_changed: 400,
  time_unavailable: 400,
  stale_menu: 400,
  too_late_to_cancel: 400,
  conversation_closed: 400,
  not_configured: 400,
  below_committed_charges: 400,
  idempotency_mismatch: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  rate_limited: 429,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof errorStatus;

/** What services throw. The message is a sentence a person can act on; it never holds secrets. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (message: string) => new AppError('invalid_input', message);
export const notFound = (message: string) => new AppError('not_found', message);

/** The one place an error becomes a GraphQL error; REST and MCP read its extensions back. */
export function toGraphQLError(error: unknown): GraphQLError {
  const original = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  if (original instanceof AppError) {
    return new GraphQLError(original.message, {
      nodes: error instanceof GraphQLError ? error.nodes : undefined,
      path: error instanceof GraphQLError ? error.path : undefined,
      extensions: { code: original.code, http: { status: errorStatus[original.code] }, ...original.extra },
    });
  }
  if (error instanceof GraphQLError && !error.originalError) {
    // Parse, validation and variable-coercion errors: the request was malformed.
    return new GraphQLError(error.message, {
      nodes: error.nodes,
      path: error.path,
      extensions: { ...error.extensions, code: 'invalid_input', http: { status: 400 } },
    });
  }
  return new GraphQLError('Something went wrong on our side. Please try again.', {
    path: error instanceof GraphQLError ? error.path : undefined,
    extensions: { code: 'internal', http: { status: 500 } },
  });
}

/** Reads a GraphQL error's code and status back (for REST and MCP bodies). */
export function errorBody(error: { message: string; extensions?: Record<string, unknown> }) {
  const code = (error.extensions?.code as string | undefined) ?? 'internal';
  const status = (error.extensions?.http as { status?: number } | undefined)?.status ?? errorStatus[code as ErrorCode] ?? 500;
  const extra = Object.fromEntries(
    Object.entries(error.extensions ?? {}).filter(([k]) => k !== 'code' && k !== 'http'),
  );
  return { status, body: { error: error.message, code, ...extra } };
}
