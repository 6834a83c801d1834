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
import type { SqlQuery } from './db/sql.js';
import type { SqlTx } from './db/transaction.js';
import type { MenuCache } from './menus/store.js';
import type { Changes } from './events/changes.js';
import type { SourceReader } from './receptionist/read.js';
import type { Payments } from './payments/payments.js';
import type { Phone } from './phone/phone.js';
import type { Credential } from './auth/vocabulary.js';
import type { ClientDocuments } from './auth/oauth/client-metadata.js';
import type { Jobs } from './jobs/jobs.js';
import type { ProfilePages } from './profile-links/pages.js';

/** Contact details an assistant passes on behalf of its user (X-User-* headers). */
export interface UserHeaders {
  name?: string;
  email?: string;
  phone?: string;
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
  /**
   * One transaction; events and mail queued in it leave only after it commits. `write` runs
   * again if PostgreSQL rolled it back to break a deadlock, so it acts only through `tx`.
   */
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
  /** Announces, once committed, which business a write changed: the caches above follow. */
  changes: Changes;
  /** Reads the receptionist's sources: web pages, PDFs and photos (OCR), links fetched SSRF-safe. */
  reader: SourceReader;
  /** OAuth clients' metadata documents (client_id an https URL), fetched SSRF-safe and cached. */
  clientDocuments: ClientDocuments;
  /** SECRETS_KEY (32 bytes): encrypts the secrets the database must hold readable (the OAuth signing key). */
  secretsKey: Uint8Array;
  /** The payment provider (Stripe or the sandbox) and who handles its events. */
  payments: Payments;
  /** The phone carrier (Twilio or the sandbox): the receptionist's numbers and transfers. */
  phone: Phone;
  /** Durable background jobs: a change enqueues work in its transaction; it runs once that commits. */
  jobs: Jobs;
  /** Reads the pages owners give as profile links (add_profile_link), SSRF-safe; the demo's own pages in process. */
  profilePages: ProfilePages;
}

export interface Context extends Services {
  user: UserHeaders;
  clientName?: string;
  /** The caller's network address (from the socket, or X-Forwarded-For behind TRUST_PROXY). */
  clientAddress: string;
  credential: Credential | null;
  /**
   * The input REST and MCP already validated for the one root field their persisted document
   * calls (facades/execute.ts): that field's resolver takes it as it is, rather than parsing the
   * same values a second time. Only a transport sets it, never a request.
   */
  validatedInput?: { field: string; input: unknown };
  /**
   * Where a resolver whose answer is a frozen value shared by every request that gets it (the
   * schedule's cached page) names that value, so REST and MCP may send what they made from it the
   * last time instead of serialising it again (facades/execute.ts). Only a transport
   * sets the holder, never a request.
   */
  sharedAnswer?: { value?: object };
  /**
   * Set by /graphql for a call of a persisted document by its id (facades/graphql.ts): compiled
   * as REST's and MCP's runs are, answered as graphql-js answers. Only a transport sets it.
   */
  persistedCall?: boolean;
  /** Aborts when the caller abandons the request (HTTP: the client disconnected); long work stops then. */
  signal?: AbortSignal;
}

/** What owner handlers receive (auth/credentials.ts ownerContext): the signed-in business. */
export interface OwnerContext extends Context {
  business: { id: string };
}
