/**
 * Who may call what, and with which credential: the auth vocabulary the registry, the guard and
 * every domain share. It imports nothing, so anyone may import it without a cycle.
 */

export type Scope = 'read' | 'write';

/**
 * Who may call an operation. `public`: anyone (a bearer credential is optional and must be
 * valid when present); `signed_in`: a personal key or connection; `owner`: the business's
 * sign-in.
 */
export type Auth = 'public' | 'signed_in' | 'owner';

/**
 * The bearer credential a request carried, once verified.
 * - `public`: the shared sk_pub_ key; public operations only, user details from X-User-*.
 * - `personal`: a customer's sk_live_ key; bookings and questions made with it belong to it.
 * - `business`: an sk_pro_ business key from POST /app/api/connect.
 * - `oauth`: an access token of the OAuth server, issued to one business's owner.
 * - `session`: the owner signed in to the dashboard at /app. Never a bearer token: only the
 *   dashboard's own requests carry it (auth/credentials.ts actingAs).
 * - `call`: the sk_call_ token of one live receptionist call, for the AI agent answering it
 *   (phone/call-token.ts): call_brief of that business only.
 */
export interface Credential {
  /** ApiKey id, OAuth grant id for access tokens, or OwnerSession id: what bookings record as credentialId. */
  id: string;
  kind: 'public' | 'personal' | 'business' | 'oauth' | 'session' | 'call';
  /** write implies read; holders of it also get read. */
  scopes: ReadonlySet<Scope>;
  /** The business an owner credential acts for (business keys, OAuth tokens, call tokens). */
  businessId?: string;
  /** The only operations it may call, when it is limited to some (a call token: call_brief). */
  operations?: ReadonlySet<string>;
  /** Contact details that come with a personal key. */
  name?: string;
  email?: string;
  /** When it stops being valid (ms, service clock): an OAuth access token's exp, a business key's or a session's end. */
  expiresAt?: number;
  /**
   * The protected resources (RFC 8707 resource URLs: the base URL for REST, GraphQL and
   * WebSocket, `<base>/mcp` for MCP) an OAuth access token is for; it is refused elsewhere.
   * Absent for credentials bound to no resource.
   */
  resources?: readonly string[];
  /**
   * The business's schedule revision, read in the statement that checked this credential (so as
   * current as the check, and checked again on every request): the schedule answers from its
   * cached page when the revision is the page's (owners/schedule-cache.ts). Absent when the
   * check did not read it.
   */
  scheduleRevision?: string;
  /**
   * What the operation's read asked for with the request (auth/read-ahead.ts)
   * read for this credential's business in the statement that checked it; absent when no read
   * was asked or the check made none.
   */
  readAhead?: { read: { key: string }; value: unknown };
}
