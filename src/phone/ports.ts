/**
 * Moving the owner's existing number to the receptionist. phone_portability only asks the
 * carrier; prepare_number_port, on the owner's explicit request and with an active plan, stores a
 * draft and hands out a link to the dashboard's front-desk page, where the owner, signed in to the
 * dashboard, gives the legal authorisation and the current carrier's details. Those details go straight to the carrier
 * (src/phone/carrier.ts) and are never stored or shown back by Porchlight.
 */
import type { z } from 'zod';
import type { Context, Services } from '../context.js';
import { ownBusinessId } from '../auth/credentials.js';
import { AppError, invalid } from '../errors.js';
import { HOUR } from '../availability/time.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { serving } from '../billing/store.js';
import { AREA_CODES, CarrierRefused, CarrierUnavailable, type PortAuthorisation, type PortStatus } from './carrier.js';
import { usNumber } from './numbers.js';
import type { phonePortabilityInput, prepareNumberPortInput } from './operations.js';

/** The page link works this long; asking prepare_number_port again gives a fresh one. */
const PAGE_HOURS = 24;
const OPEN = ['draft', 'submitted'];

function carrierFailed(services: Pick<Services, 'logger'>, what: string, err: unknown): Error {
  if (!(err instanceof CarrierUnavailable)) return err as Error;
  services.logger.warn({ err: err.message }, `phone carrier failed while ${what}`);
  return new AppError('provider_unavailable', `The phone carrier did not answer while ${what}. Nothing was submitted; try again in a minute.`);
}

export async function phonePortabilityService(input: z.output<typeof phonePortabilityInput>, ctx: Context) {
  ownBusinessId(ctx.credential);
  const number = usNumber(input.number, 'number');
  try {
    const answer = await ctx.phone.carrier.portability(number);
    return { number, portable: answer.portable, reason: answer.reason, pinRequired: answer.pinRequired };
  } catch (err) {
    throw carrierFailed(ctx, 'checking portability', err);
  }
}

export async function prepareNumberPortService(input: z.output<typeof prepareNumberPortInput>, ctx: Context) {
  if (input.owner_requested !== true) throw invalid('owner_requested must be true: prepare a transfer only when the owner asks for one.');
  const businessId = ownBusinessId(ctx.credential);
  const number = usNumber(input.number, 'number');
  if (!serving(await ctx.prisma.receptionistBilling.findUnique({ where: { businessId } }))) {
    throw new AppError('plan_inactive', 'Moving a number needs an active receptionist plan: buy one with receptionist_checkout first.');
  }
  let portable;
  try {
    portable = await ctx.phone.carrier.portability(number);
  } catch (err) {
    throw carrierFailed(ctx, 'checking portability', err);
  }
  const token = newToken('fdport_');
  const now = ctx.clock.date();
  const pageExpiresAt = new Date(now.getTime() + PAGE_HOURS * HOUR);
  const port = await ctx.transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`number-port:${businessId}`}))`;
    const ports = await tx.numberPort.findMany({ where: { businessId, status: { in: OPEN } } });
    const same = ports.find((p) => p.number === number);
    if (!same && ports.length) throw invalid(`A transfer of ${ports[0]!.number} is already under way; one number moves at a time.`);
    if (!same && !portable.portable) throw new AppError('not_portable', `${number} cannot move: ${portable.reason}`);
    const page = { pageTokenHash: hashToken(token), pageExpiresAt, updatedAt: now };
    return same
      ? tx.numberPort.update({ where: { id: same.id }, data: page })
      : tx.numberPort.upsert({
          where: { businessId_number: { businessId, number } },
          create: { businessId, number, status: 'draft', createdAt: now, ...page },
          // A finished or refused transfer of the same number starts over as a new draft.
          update: { status: 'draft', carrierRef: null, reason: null, submittedAt: null, createdAt: now, ...page },
        });
  });
  return {
    portId: port.id,
    number,
    status: port.status,
    dashboardUrl: ctx.links.portSetup(token),
    expiresAt: pageExpiresAt.toISOString(),
    next:
      port.status === 'draft'
        ? 'A draft only: nothing is submitted. Send the owner this link; signed in to their dashboard (e-mail and password), they give the legal authorisation and the current carrier\'s account details there.'
        : 'The transfer is with the carrier; receptionist_refresh shows its progress.',
  };
}

// ---------------------------------------------------------------------------------------------
// The dashboard's front-desk page (facades/front-desk.ts)

export interface PortPageView {
  portId: string;
  number: string;
  businessName: string;
  status: string;
  reason: string | null;
  carrier: string;
}

/**
 * The transfer a page link names, for the owner signed in to the dashboard; another owner gets
 * null, as for a link that never existed: holding the link alone moves nothing.
 */
async function byToken(services: Services, token: string, ownerId: string) {
  if (!token.startsWith('fdport_') || token.length > 100) return null;
  const port = await services.prisma.numberPort.findUnique({ where: { pageTokenHash: hashToken(token) }, include: { business: { select: { name: true, ownerId: true } } } });
  if (!port || !port.pageExpiresAt || port.pageExpiresAt.getTime() <= services.clock.now() || port.business.ownerId !== ownerId) return null;
  return port;
}

export async function portPage(services: Services, token: string, ownerId: string): Promise<PortPageView | null> {
  const port = await byToken(services, token, ownerId);
  return port && { portId: port.id, number: port.number, businessName: port.business.name, status: port.status, reason: port.reason, carrier: services.phone.carrier.name };
}

const CONTROL = /[\u0000-\u001F\u007F]/;
const FIELDS = ['customer_name', 'authorised_person', 'authorised_email', 'street', 'city', 'state', 'zip', 'account_number', 'pin'] as const;

export type PortForm = Record<(typeof FIELDS)[number], string> & { consent: boolean };
export type PortPageOutcome = { ok: true; view: PortPageView } | { ok: false; errors: Record<string, string>; view: PortPageView | null };

/** The form's values checked as a carrier would want them; a refusal names each field. */
export function readPortForm(form: Record<string, unknown>): { values: PortForm; errors: Record<string, string> } {
  const get = (k: string) => (typeof form[k] === 'string' ? (form[k] as string).trim() : '');
  const values = { ...Object.fromEntries(FIELDS.map((k) => [k, get(k)])), consent: form.consent === 'yes' } as PortForm;
  const errors: Record<string, string> = {};
  for (const k of FIELDS) if (CONTROL.test(values[k])) errors[k] = 'Use plain text.';
  const need = (k: (typeof FIELDS)[number], ok: boolean, message: string) => {
    if (!errors[k] && !ok) errors[k] = message;
  };
  need('customer_name', values.customer_name.length >= 1 && values.customer_name.length <= 100, 'The name on the current account (1-100 characters).');
  need('authorised_person', values.authorised_person.length >= 1 && values.authorised_person.length <= 100, 'The full name of the person allowed to move the number.');
  need('authorised_email', /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,}$/.test(values.authorised_email), 'An e-mail address for the authorised person.');
  need('street', values.street.length >= 3 && values.street.length <= 200, 'The service address on the current account.');
  need('city', values.city.length >= 1 && values.city.length <= 60, 'The city.');
  need('state', /^[A-Za-z]{2}$/.test(values.state), 'The two-letter state, e.g. TX.');
  need('zip', /^\d{5}$/.test(values.zip), 'The 5-digit ZIP.');
  need('account_number', /^[A-Za-z0-9-]{4,30}$/.test(values.account_number), 'The account number with the current carrier (4-30 letters or digits).');
  need('pin', /^\d{4,10}$/.test(values.pin), 'The transfer PIN from the current carrier (4-10 digits).');
  if (!values.consent) errors.consent = 'Confirm that you are authorised to move this number.';
  return { values, errors };
}

/** The owner sent the form: with a valid one and an active plan, the transfer goes to the carrier. */
export async function submitPortPage(services: Services, token: string, ownerId: string, form: Record<string, unknown>): Promise<PortPageOutcome> {
  const port = await byToken(services, token, ownerId);
  if (!port) return { ok: false, errors: { link: 'This link has expired. Ask for a new one (prepare_number_port).' }, view: null };
  const view = (await portPage(services, token, ownerId))!;
  if (port.status !== 'draft') return { ok: true, view };
  const { values, errors } = readPortForm(form);
  if (Object.keys(errors).length) return { ok: false, errors, view };
  if (!serving(await services.prisma.receptionistBilling.findUnique({ where: { businessId: port.businessId } }))) {
    return { ok: false, errors: { plan: 'The receptionist plan is not active, so the transfer was not sent.' }, view };
  }
  const authorisation: PortAuthorisation = {
    customerName: values.customer_name,
    authorisedPerson: values.authorised_person,
    authorisedEmail: values.authorised_email,
    address: { street: values.street, city: values.city, state: values.state.toUpperCase(), zip: values.zip },
    accountNumber: values.account_number,
    pin: values.pin,
  };
  let sent: { carrierRef: string; status: PortStatus };
  try {
    sent = await services.phone.carrier.submitPort({ number: port.number, idempotencyKey: `porchlight-port-${port.id}`, authorisation });
  } catch (err) {
    if (err instanceof CarrierRefused || err instanceof CarrierUnavailable) {
      services.logger.warn({ err: err.message, port: port.id }, 'the phone carrier did not take a transfer');
      return { ok: false, errors: { carrier: err instanceof CarrierRefused ? err.message : 'The carrier did not answer. Nothing was submitted; send the form again in a minute.' }, view };
    }
    throw err;
  }
  await services.prisma.numberPort.updateMany({
    where: { id: port.id, status: 'draft' },
    data: { status: 'submitted', carrierRef: sent.carrierRef, submittedAt: services.clock.date(), updatedAt: services.clock.date() },
  });
  await applyPortStatus(services, port.id, sent.status);
  return { ok: true, view: (await portPage(services, token, ownerId))! };
}

/** A transfer's progress as the carrier reports it; a completed one gives the business its number. */
async function applyPortStatus(services: Services, portId: string, status: PortStatus): Promise<void> {
  if (status.status === 'submitted') return;
  await services.transaction(async (tx) => {
    const port = await tx.numberPort.findUniqueOrThrow({ where: { id: portId } });
    if (port.status !== 'submitted') return;
    const now = services.clock.date();
    await tx.numberPort.update({ where: { id: portId }, data: { status: status.status, reason: status.reason, updatedAt: now } });
    if (status.status !== 'completed') return;
    // Where it is, as far as its area code says (unknown outside the live cities).
    const phone = AREA_CODES[port.number.slice(2, 5)] ?? { locality: '', region: '' };
    const fields = { number: port.number, ...phone, status: 'active', carrierRef: port.carrierRef, idempotencyKey: `porchlight-port-${port.id}`, failure: null, requestedAt: port.createdAt, activatedAt: now, updatedAt: now };
    await tx.receptionistNumber.upsert({ where: { businessId: port.businessId }, create: { businessId: port.businessId, ...fields }, update: fields });
    await services.emit(tx, { type: 'receptionist.number_active', businessId: port.businessId, data: { change: port.number } });
  });
}

/** Asks the carrier about a submitted transfer (receptionist_refresh). */
export async function refreshPort(services: Services, businessId: string): Promise<void> {
  const port = await services.prisma.numberPort.findFirst({ where: { businessId, status: 'submitted' } });
  if (!port?.carrierRef) return;
  await applyPortStatus(services, port.id, await services.phone.carrier.portStatus(port.carrierRef));
}
