/** The contract of an operation: what REST, MCP, OpenAPI and the guard read, without its handler. */
import type { z } from 'zod';
import type { Auth } from '../auth/vocabulary.js';
import type { CredentialRead } from '../auth/read-ahead.js';
import type { Services } from '../context.js';


/** MCP's tool hints, every one stated: MCP's defaults would call a write destructive and open-world. */
export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Sends mail or texts to people, or calls an outside provider (payments, carrier, the web). */
  openWorldHint: boolean;
}

/** The OpenAPI tags: who an operation is for, then its domain (the folder it belongs to). */
export const TAGS = {
  customer: 'For customers and the assistants acting for them; no sign-in unless the operation says so.',
  owner: "For business owners; needs the business's sign-in (OAuth or an sk_pro_ business key).",
  search: 'Find cleaners and plumbing or HVAC pros by ZIP or city, with firm prices and open times.',
  availability: "One business's open start times.",
  bookings: 'Book cleanings and service calls; check, message about and cancel them.',
  conversations: 'Questions to businesses, their replies and follow-ups.',
  owners: "The owner's business, schedule, hours, blocked time, jobs, quotes and the call brief.",
  menus: 'Menu businesses (services, auto repair, beauty, retail, food): information, service menus, estimates, visit times, visit requests and bookings, and their setup.',
  leads: 'Leads from platforms and messages: quotes, reply drafts, follow-ups, lead credits and the monthly pipeline.',
  events: "What changed for the owner's business, read with a cursor.",
  receptionist: "The AI receptionist's knowledge (sources, draft and published page, instructions) and the front desk.",
  appointments: 'Appointments at menu businesses, booked in a conversation, free or paid upfront; their setup and cancellation.',
  payments: "The business's account with the payment provider, for payments customers make upfront.",
  billing: "The AI receptionist's plan, usage, spending limit and billing portal.",
  phone: "The AI receptionist's phone number: search, activation and moving an existing number.",
  calendar: "The business's private calendar feed (iCalendar) for the owner's calendar app.",
  'profile-links': "The business's website and profile pages: checked, then shown in search with the rating the page states.",
  auth: "The business's sk_pro_ keys and connected apps (OAuth): list and revoke them.",
} as const;

export type Audience = 'customer' | 'owner';

export type Domain = Exclude<keyof typeof TAGS, Audience>;

/** One operation of the interface: everything REST, MCP and OpenAPI are generated from. */
export interface Operation<S extends z.ZodObject = z.ZodObject> {
  /** The spec's name: REST path /api/v1/<name>, MCP tool name. */
  name: string;
  /** A short human name for tool pickers (MCP `title`), e.g. "Book cleaning". */
  title: string;
  method: 'GET' | 'POST';
  input: S;
  description: string;
  auth: Auth;
  annotations: Annotations;
  /** Root GraphQL field the persisted document calls. */
  field: string;
  /** OpenAPI tags: the audience (customer or owner) and the domain. */
  tags: [audience: Audience, domain: Domain];
  /**
   * It creates something, so it takes an optional request_key (REST: the Idempotency-Key header):
   * a retry with the same key and input answers the first result (registry/request-keys.ts).
   */
  requestKey?: true;
  /** Example input (and response) using demo data ids, shown in OpenAPI. */
  example?: { input: Record<string, unknown>; response?: Record<string, unknown> };
  /** Its result's Prisma selections are planned from the GraphQL selection (Pothos's `query`). */
  planned?: true;
  /**
   * What it reads in the statement that checks the credential, for the input as sent (before it
   * is validated: undefined for one it would refuse), so the check and the read are one round
   * trip where a transport knows the input first (REST's GET, MCP's tools/call).
   */
  readAhead?: (raw: Record<string, unknown>, services: Services) => CredentialRead | undefined;
}
