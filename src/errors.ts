import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';

/** Transport-neutral error codes with the HTTP status each maps to. */
export const errorStatus = {
  invalid_input: 400,
  not_found: 400,
  price_changed: 400,
  time_unavailable: 400,
  stale_menu: 400,
  too_late_to_cancel: 400,
  /** A customer's reschedule within 24 hours of the current start: the business moves it. */
  too_late_to_change: 400,
  conversation_closed: 400,
  not_configured: 400,
  below_committed_charges: 400,
  idempotency_mismatch: 400,
  too_many_pending: 400,
  job_conflict: 400,
  /** The receptionist plan is not active (activating a number, preparing a port). */
  plan_inactive: 400,
  /** The carrier did not sell the number. */
  number_unavailable: 400,
  /** The number cannot move to the carrier. */
  not_portable: 400,
  /** The number is another business's receptionist number (or on its way to one). */
  number_taken: 400,
  /** A transfer would replace the business's own number and replace_number was not sent. */
  replace_number_required: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  forbidden_origin: 403,
  /** The first request with this request_key is still running; retry_after says when to ask again. */
  request_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  misdirected_request: 421,
  rate_limited: 429,
  internal: 500,
  /** The payment provider failed or did not answer; the same call can be retried. */
  provider_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof errorStatus;

/** What a refusal tells the client's sign-in (the WWW-Authenticate challenge); never in a body. */
export interface Challenge {
  /** With `unauthorized`: a credential was sent and refused (RFC 6750 invalid_token). */
  invalidToken?: boolean;
  /** With `insufficient_scope`: the scope to sign in again for (step-up). */
  scope?: 'read' | 'write';
}

/** What services throw. The message is a sentence a person can act on; it never holds secrets. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly challenge: Challenge = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (message: string) => new AppError('invalid_input', message);
export const notFound = (message: string) => new AppError('not_found', message);

/** The first error in a GraphQL error's `originalError` chain that is not itself a GraphQLError. */
export function rootCause(error: unknown): unknown {
  let e = error;
  while (e instanceof GraphQLError && e.originalError) e = e.originalError;
  return e;
}

/** The one place an error becomes a GraphQL error; REST and MCP read its extensions back. */
export function toGraphQLError(error: unknown): GraphQLError {
  const cause = rootCause(error);
  // Already mapped (e.g. by a plugin that stopped execution early): keep it.
  if (cause instanceof GraphQLError && (cause.extensions.code as string) in errorStatus && cause.extensions.http) return cause;
  const where = error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {};
  if (cause instanceof AppError) {
    return new GraphQLError(cause.message, {
      ...where,
      extensions: { code: cause.code, http: { status: errorStatus[cause.code] }, ...cause.extra },
    });
  }
  if (cause instanceof GraphQLError) {
    // Parse, validation and variable-coercion errors (possibly wrapped): the request was malformed.
    // `spec: false` keeps yoga from answering validation errors 200 to application/json clients
    // (GraphQL over HTTP's legacy rule): invalid input is a 400 on every surface. yoga's request
    // errors carry the parser's error (`originalError`, which quotes the body): never sent.
    const { originalError: _, ...extensions } = cause.extensions;
    return new GraphQLError(withoutValues((error as GraphQLError).message), {
      ...where,
      extensions: { ...extensions, code: 'invalid_input', http: { status: 400, spec: false } },
    });
  }
  return new GraphQLError('Something went wrong on our side. Please try again.', {
    path: where.path,
    extensions: { code: 'internal', http: { status: 500 } },
  });
}

/**
 * graphql-js quotes the offending value in coercion and literal errors; that value may be a
 * token or a key, so it is cut out and only the rule it broke is kept.
 */
export function withoutValues(message: string): string {
  return message
    .replace(/^(Variable "\$\w+") got invalid value [\s\S]*?(?:( at "[^"]*")?; )([\s\S]*)$/, '$1 has an invalid value$2: $3')
    .replace(/(cannot represent[^:]*): [\s\S]*$/, '$1.')
    .replace(/(Expected value of type "[^"]*"), found [\s\S]*$/, '$1.')
    .replace(/Value [\s\S]* does not exist in "(\w+)" enum\.[\s\S]*$/, 'it is not one of the $1 values.');
}

/** The text with anything token-shaped removed, for log lines. */
export const scrubSecrets = <T extends string | undefined>(text: T): T => text?.replace(SECRET, '[secret]') as T;

// Tokens and keys by their shapes (every prefix newToken is given, JWTs, Stripe's keys and webhook
// secrets, the sandboxes' onboarding, portal and transfer links); none may reach a log line even
// inside an error message.
const SECRET = /\b(?:sk_(?:live|test|pro|pub)|rk_(?:live|test)|whsec|sbxlink|sbxportal|fdport|ds|mt|ct|rt|kr|pac|prt)_[\w-]+|\beyJ[\w-]+\.[\w-]+\.[\w-]+/g;

/** Logs the cause of a 500 (name, code, message and stack), with anything token-shaped removed. */
export function logInternalError(logger: Logger, error: unknown): void {
  let cause = error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  const e = cause instanceof Error ? cause : new Error(String(cause));
  logger.error(
    { err: { name: e.name, code: (e as { code?: unknown }).code, message: scrubSecrets(e.message), stack: scrubSecrets(e.stack) } },
    'internal error',
  );
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
