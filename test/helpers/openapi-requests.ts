/**
 * Requests made from the OpenAPI document alone, as a client generated from it would send them:
 * query parameters serialised by their style (comma-separated lists, JSON in `content`
 * parameters), bodies as JSON, with the credential an operation's audience needs.
 */
import type { Operation } from '../../src/registry/contract.js';
import { demoIds } from '../../src/demo/generate.js';
import { businessKey, bearer, personalKey, type TestApp } from './harness.js';

export type Schema = Record<string, any>;

/** The operation object of the document for a registry operation. */
export const operationDoc = (doc: any, op: Operation) => doc.paths[`/api/v1/${op.name}`][op.method.toLowerCase()];

/**
 * The demo business an owner operation's example and requests act for: menu and appointment
 * setup are the salon's (it has a menu, staff scheduling and paid appointments); the
 * receptionist plan and number the San Jose HVAC pro's (a plan bought, no number yet);
 * everything else the Austin cleaner's, whose jobs, hours, leads and conversations the demo
 * data fills.
 */
export async function ownerBusiness(app: TestApp, op: Operation, input: Record<string, unknown> = {}): Promise<string> {
  // An example about a stored booking acts for the business that has it.
  if (typeof input.booking_id === 'string') {
    const booking = await app.services.prisma.booking.findUnique({ where: { id: input.booking_id }, select: { business: { select: { slug: true } } } });
    if (booking) return booking.business.slug;
  }
  // Buying the plan needs a business without one.
  if (op.name === 'receptionist_checkout') return demoIds.cleanerAustin;
  if (op.tags[1] === 'menus' || op.tags[1] === 'appointments') return demoIds.beautySanFrancisco;
  if (op.tags[1] === 'billing' || op.tags[1] === 'phone') {
    const planned = await app.services.prisma.business.findFirstOrThrow({
      where: { city: 'San Jose', kind: 'hvac', receptionistBilling: { planStatus: 'active' } },
      select: { slug: true },
    });
    return planned.slug;
  }
  return demoIds.cleanerAustin;
}

/** Credentials by audience, made once per app: the demo owners' business keys and a customer's personal key. */
export function credentials(app: TestApp) {
  const keys = new Map<string, Promise<string>>();
  const once = (name: string, make: () => Promise<string>) => {
    if (!keys.has(name)) keys.set(name, make());
    return keys.get(name)!;
  };
  return async (op: Operation, input: Record<string, unknown> = {}): Promise<Record<string, string>> => {
    if (op.auth === 'owner') {
      const slug = await ownerBusiness(app, op, input);
      return bearer(await once(slug, () => businessKey(app, slug)));
    }
    if (op.auth === 'signed_in') return bearer(await once('personal', () => personalKey(app)));
    return {};
  };
}

/** The query string of a GET request, each parameter serialised as the document says. */
export function queryOf(opDoc: Schema, input: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const p of (opDoc.parameters ?? []) as Schema[]) {
    if (p.in !== 'query' || !(p.name in input)) continue;
    const value = input[p.name];
    if (p.content) params.set(p.name, JSON.stringify(value));
    else if (Array.isArray(value)) params.set(p.name, value.map(String).join(','));
    else params.set(p.name, String(value));
  }
  return params.toString();
}

/** Sends one request to an operation over REST; `input` holds decoded values (lists as arrays). */
export async function send(app: TestApp, doc: any, op: Operation, input: Record<string, unknown>, headers: Record<string, string>) {
  const o = operationDoc(doc, op);
  const res =
    op.method === 'GET'
      ? await app.get(`/api/v1/${op.name}?${queryOf(o, input)}`, { headers })
      : await app.get(`/api/v1/${op.name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(input) });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

/** A GET operation's documented example as decoded values: lists split at commas, JSON parameters as they are. */
export function parameterExamples(opDoc: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of (opDoc.parameters ?? []) as Schema[]) {
    if (p.in !== 'query') continue;
    const media = p.content?.['application/json'];
    if (media && 'example' in media) out[p.name] = media.example;
    else if ('example' in p) out[p.name] = p.style === 'form' && p.explode === false && typeof p.example === 'string' ? p.example.split(',') : p.example;
  }
  return out;
}
