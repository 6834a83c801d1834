import type { PrismaClient } from './generated/prisma/client.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from 'pino';
import type { Outbox } from './mail/outbox.js';
import type { RateLimits } from './auth/rate-limit.js';
import type { Events } from './events/pubsub.js';
import type { SearchSnapshot } from './search/snapshot.js';
import type { Links } from './links.js';
import type { Emit } from './events/emit.js';
import type { TransactionOptions, Tx } from './db/transaction.js';
import type { SqlQuery, SqlTx } from './db/sql.js';
import type { MenuCache } from './menus/store.js';
import type { SourceReader } from './receptionist/read.js';
import type { Payments } from './payments/payments.js';
import type { Phone } from './phone/phone.js';

/** Contact details an assistant passes on behalf of its user (X-User-* headers). */
export interface UserHeaders {
  name?: string;
  email?: string;
  phone?: string;
}

export type Scope = 'read' | 'write';

/**
 * The bearer credential a request carried, once verified.
 * - `public`: the shared sk_pub_ key; public operations only, user details from X-User-*.
 * - `personal`: a customer's sk_live_ key; bookings and questions made with it belong to it.
 * - `business`: an sk_pro_ business key from POST /app/api/connect.
 * - `oauth`: an access token of the OAuth server, issued to one business's owner.
 * - `session`: the owner signed in to the dashboard at /app. Never a bearer token: only the
 *   dashboard's own requests carry it (auth/credentials.ts actingAs).
 */
export interface Credential {
  /** ApiKey id, OAuth grant id for access tokens, or OwnerSession id: what bookings record as credentialId. */
  id: string;
  kind: 'public' | 'personal' | 'business' | 'oauth' | 'session';
  /** write implies read; holders of it also get read. */
  scopes: ReadonlySet<Scope>;
  /** The business an owner credential acts for (business keys and OAuth tokens). */
  businessId?: string;
  /** Contact details that come with a personal key. */
  name?: string;
  email?: string;
  /** When it stops being valid (ms, service clock): an OAuth access token's exp, a business key's or a session's end. */
  expiresAt?: number;
}

/** Long-lived services shared by every request. */
export interface Services {
  prisma: PrismaClient;
  clock: Clock;
  config: Config;
  outbox: Outbox;
  logger: Logger;
  rateLimits: RateLimits;
  /** Live pub/sub. Changes announce themselves through `emit`, which publishes after commit. */
  events: Events;
  /** Records an event in the change's transaction and publishes it once that commits. */
  emit: Emit;
  /** One transaction; events and mail queued in it leave only after it commits. */
  transaction: <T>(write: (tx: Tx) => Promise<T>, options?: TransactionOptions) => Promise<T>;
  /** The same in plain SQL, for the hottest writes (a customer's booking; db/sql.ts). */
  sql: <T>(write: (tx: SqlTx) => Promise<T>) => Promise<T>;
  /** One statement in plain SQL, for the hottest reads (db/sql.ts). */
  query: SqlQuery;
  /** Links to the public pages (confirm, manage, business pages). */
  links: Links;
  /** The catalog and busy time searches read, kept fresh by change notifications. */
  search: SearchSnapshot;
  /** Menu businesses' menus, teams and calendars for customers' reads, kept fresh the same way. */
  menus: MenuCache;
  /** Reads the receptionist's sources: web pages, PDFs and photos (OCR), links fetched SSRF-safe. */
  reader: SourceReader;
  /** SECRETS_KEY (32 bytes): encrypts the secrets the database must hold readable (the OAuth signing key). */
  secretsKey: Uint8Array;
  /** The payment provider (Stripe or the sandbox) and who handles its events. */
  payments: Payments;
  /** The phone carrier (Twilio or the sandbox): the receptionist's numbers and transfers. */
  phone: Phone;
}

export interface Context extends Services {
  user: UserHeaders;
  clientName?: string;
  /** The caller's network address (from the socket, or X-Forwarded-For behind TRUST_PROXY). */
  clientAddress: string;
  credential: Credential | null;
  /** Aborts when the caller abandons the request (HTTP: the client disconnected); long work stops then. */
  signal?: AbortSignal;
}
