/**
 * Moving the owner's existing number to the receptionist. phone_portability only asks the
 * carrier; prepare_number_port, on the owner's explicit request and with an active plan, stores a
 * draft and hands out a link to the dashboard's front-desk page, where the owner, signed in to the
 * dashboard, gives the legal authorisation and the current carrier's details. Those details go straight to the carrier
 * (src/phone/carrier.ts) and are never stored or shown back by Porchlight.
 *
 * A number comes to one business only. One that is already a business's receptionist number, or
 * whose transfer to another business is with the carrier, is refused when a transfer is prepared
 * and again when it is sent; when transfers complete, the unique index on live numbers lets one
 * business hold it and the other transfer is refused, saying why. The carrier's answer must name
 * the transfer's number, and a completed transfer counts once the carrier holds the number. A
 * transfer replaces the business's own number only when the owner asked for it (replace_number);
 * the number replaced is then given back to the carrier.
 */
import { routeNumberOnCommit } from './voice.js';
import type { z } from 'zod';
import type { Services, OwnerContext } from '../context.js';
import type { NumberPort, NumberRelease } from '../generated/prisma/client.js';
import type { Tx } from '../db/transaction.js';
import { isUniqueViolation } from '../db/errors.js';
import { AppError, invalid } from '../errors.js';
import { formatInstant, HOUR, MINUTE } from '../core/time.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { serving } from '../billing/store.js';
import { AREA_CODES, CarrierRefused, CarrierUnavailable, type PortAuthorisation, type PortDocument, type PortStatus } from './carrier.js';
import { lockNumberOf, numberTaken, usNumber } from './numbers.js';
import type { phonePortabilityInput, prepareNumberPortInput } from './inputs.js';
import { businessZone } from '../db/business-zone.js';

/** The page link works this long; asking prepare_number_port again gives a fresh one. */
const PAGE_HOURS = 24;
const OPEN = ['draft', 'submitted'];
/** A transfer being sent whose carrier answer never came (the process stopped) is a draft again after this. */
const IN_FLIGHT = 2 * MINUTE;

const portKey = (portId: string) => `porchlight-port-${portId}`;

/** A draft, or a send that never got its answer: the owner may send the form (again). */
const sendable = (port: Pick<NumberPort, 'status' | 'carrierRef' | 'submittedAt'>, now: number) =>
  port.status === 'draft' || (port.status === 'submitted' && !port.carrierRef && (port.submittedAt?.getTime() ?? 0) < now - IN_FLIGHT);

function carrierFailed(services: Pick<Services, 'logger'>, what: string, err: unknown): Error {
  if (!(err instanceof CarrierUnavailable)) return err as Error;
  services.logger.warn({ err: err.message }, `phone carrier failed while ${what}`);
  return new AppError('provider_unavailable', `The phone carrier did not answer while ${what}. Nothing was submitted; try again in a minute.`);
}

/**
 * Why `number` cannot come to this business now, or null: it is a business's receptionist number
 * already, another business's transfer of it is with the carrier, or it would replace the
 * business's own number without the owner's explicit request (`replace`).
 */
async function refusal(db: Tx, businessId: string, number: string, replace: boolean): Promise<AppError | null> {
  const holder = await db.receptionistNumber.findFirst({ where: { number, status: { not: 'failed' } }, select: { businessId: true } });
  if (holder?.businessId === businessId) return invalid(`${number} is already this business's receptionist number: there is nothing to move.`);
  if (holder) return numberTaken(number, 'it cannot move here');
  if (await db.numberPort.findFirst({ where: { number, status: 'submitted', businessId: { not: businessId } }, select: { id: true } })) {
    return new AppError('number_taken', `A transfer of ${number} to another Porchlight business is already with the carrier, so it cannot move here too. If this number is the owner's own, contact Porchlight support.`);
  }
  const own = await db.receptionistNumber.findUnique({ where: { businessId } });
  if (!own || own.status === 'failed') return null;
  if (!replace) {
    return new AppError(
      'replace_number_required',
      `This business already has the receptionist number ${own.number}, and moving ${number} here would replace it. Send replace_number true only once the owner agrees: when the transfer completes, ${own.number} is given back to the carrier and stops answering calls.`,
      { current_number: own.number },
    );
  }
  if (own.status !== 'active' && own.status !== 'pending') return invalid(`The purchase of ${own.number} is not settled yet, so nothing can replace it now: call receptionist_refresh, then ask again.`);
  return null;
}

export async function phonePortabilityService(input: z.output<typeof phonePortabilityInput>, ctx: OwnerContext) {
  const number = usNumber(input.number, 'number');
  try {
    const answer = await ctx.phone.carrier.portability(number);
    return { number, portable: answer.portable, reason: answer.reason, pinRequired: answer.pinRequired };
  } catch (err) {
    throw carrierFailed(ctx, 'checking portability', err);
  }
}

export async function prepareNumberPortService(input: z.output<typeof prepareNumberPortInput>, ctx: OwnerContext) {
  if (input.owner_requested !== true) throw invalid('owner_requested must be true: prepare a transfer only when the owner asks for one.');
  const businessId = ctx.business.id;
  const number = usNumber(input.number, 'number');
  const replace = input.replace_number === true;
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
  const { port, replaces } = await ctx.transaction(async (tx) => {
    await lockNumberOf(tx, businessId);
    // Before the carrier's own verdict: a number Porchlight already gives someone is refused as such.
    const refused = await refusal(tx, businessId, number, replace);
    if (refused) throw refused;
    const ports = await tx.numberPort.findMany({ where: { businessId, status: { in: OPEN } } });
    const same = ports.find((p) => p.number === number);
    if (!same && ports.length) throw invalid(`A transfer of ${ports[0]!.number} is already under way; one number moves at a time.`);
    if (!same && !portable.portable) throw new AppError('not_portable', `${number} cannot move: ${portable.reason}`);
    const page = { pageTokenHash: hashToken(token), pageExpiresAt, updatedAt: now };
    const port = same
      ? // A transfer already sent keeps what it was sent with.
        await tx.numberPort.update({ where: { id: same.id }, data: same.status === 'draft' ? { ...page, replaceNumber: replace } : page })
      : await tx.numberPort.upsert({
          where: { businessId_number: { businessId, number } },
          create: { businessId, number, status: 'draft', replaceNumber: replace, createdAt: now, ...page },
          // A finished or refused transfer of the same number starts over as a new draft.
          update: { status: 'draft', replaceNumber: replace, carrierRef: null, reason: null, submittedAt: null, createdAt: now, ...page },
        });
    return { port, replaces: await replacedBy(tx, port) };
  });
  return {
    portId: port.id,
    number,
    status: port.status,
    replaces,
    dashboardUrl: ctx.links.portSetup(token),
    expiresAt: formatInstant(pageExpiresAt, await businessZone(ctx.prisma, businessId)),
    next:
      (port.status === 'draft'
        ? 'A draft only: nothing is submitted. Send the owner this link; signed in to their dashboard (e-mail and password), they give the legal authorisation and the current carrier\'s account details there.'
        : 'The transfer is with the carrier; receptionist_refresh shows its progress.') +
      (replaces ? ` When it completes, ${replaces} is given back to the carrier and stops answering calls.` : ''),
  };
}

/** The business's own number an open transfer will replace, or the one a completed transfer replaced. */
async function replacedBy(db: Tx, port: NumberPort): Promise<string | null> {
  if (port.status === 'completed') return (await db.numberRelease.findFirst({ where: { portId: port.id }, select: { number: true } }))?.number ?? null;
  if (!port.replaceNumber || !OPEN.includes(port.status)) return null;
  const own = await db.receptionistNumber.findUnique({ where: { businessId: port.businessId } });
  return own && own.status !== 'failed' && own.number !== port.number ? own.number : null;
}

// ---------------------------------------------------------------------------------------------
// The dashboard's front-desk page (facades/front-desk.ts)

export interface PortPageView {
  portId: string;
  number: string;
  businessName: string;
  status: string;
  reason: string | null;
  /** The business's own number this transfer replaces (the owner asked for it), or null. */
  replaces: string | null;
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
  if (!port) return null;
  return {
    portId: port.id,
    number: port.number,
    businessName: port.business.name,
    status: sendable(port, services.clock.now()) ? 'draft' : port.status,
    reason: port.reason,
    replaces: await replacedBy(services.prisma, port),
    carrier: services.phone.carrier.name,
  };
}

const CONTROL = /[\u0000-\u001F\u007F]/;
const FIELDS = ['customer_name', 'authorised_person', 'authorised_email', 'street', 'city', 'state', 'zip', 'account_number', 'pin'] as const;

export type PortForm = Record<(typeof FIELDS)[number], string> & { consent: boolean; bill: PortDocument | null };

/** Twilio's limit for an uploaded document. */
export const BILL_BYTES = 10 * 1024 * 1024;

/** What a file is, by its first bytes (never by the name or type the browser gave it). */
function documentType(bytes: Uint8Array): PortDocument['contentType'] | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  return null;
}

/** The uploaded bill, or why it cannot be sent. */
async function readBill(value: unknown): Promise<PortDocument | string> {
  if (!(value instanceof Blob) || value.size === 0) return 'Attach a recent bill from the current carrier (PDF, PNG or JPEG): the carrier needs it to prove the account holds the number.';
  if (value.size > BILL_BYTES) return 'The bill is larger than 10 MB: send a smaller scan or a PDF.';
  const bytes = new Uint8Array(await value.arrayBuffer());
  const contentType = documentType(bytes);
  if (!contentType) return 'The bill must be a PDF, PNG or JPEG file (not password protected).';
  const ext = { 'application/pdf': 'pdf', 'image/png': 'png', 'image/jpeg': 'jpg' }[contentType];
  // The owner's file name is not passed on: the carrier sees a plain one.
  return { fileName: `bill.${ext}`, contentType, bytes };
}
export type PortPageOutcome = { ok: true; view: PortPageView } | { ok: false; errors: Record<string, string>; view: PortPageView | null };

/** The form's values checked as a carrier would want them; a refusal names each field. */
export async function readPortForm(form: Record<string, unknown>): Promise<{ values: PortForm; errors: Record<string, string> }> {
  const get = (k: string) => (typeof form[k] === 'string' ? (form[k] as string).trim() : '');
  const bill = await readBill(form.bill);
  const values = { ...Object.fromEntries(FIELDS.map((k) => [k, get(k)])), consent: form.consent === 'yes', bill: typeof bill === 'string' ? null : bill } as PortForm;
  const errors: Record<string, string> = {};
  if (typeof bill === 'string') errors.bill = bill;
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

/**
 * The owner sent the form: with a valid one and an active plan, the transfer goes to the carrier.
 * It is marked sent under the business's number lock first, after the same refusals as
 * prepare_number_port, so no purchase and no transfer of the number elsewhere slips in between;
 * if the carrier does not take it, it is a draft again.
 */
export async function submitPortPage(services: Services, token: string, ownerId: string, form: Record<string, unknown>): Promise<PortPageOutcome> {
  const port = await byToken(services, token, ownerId);
  if (!port) return { ok: false, errors: { link: 'This link has expired. Ask for a new one (prepare_number_port).' }, view: null };
  const view = (await portPage(services, token, ownerId))!;
  if (!sendable(port, services.clock.now())) return { ok: true, view };
  const { values, errors } = await readPortForm(form);
  if (Object.keys(errors).length || !values.bill) return { ok: false, errors, view };
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
    bill: values.bill,
  };
  const claim = await services.transaction(async (tx) => {
    await lockNumberOf(tx, port.businessId);
    const now = services.clock.date();
    const current = await tx.numberPort.findUniqueOrThrow({ where: { id: port.id } });
    if (!sendable(current, now.getTime())) return 'sent' as const;
    const refused = await refusal(tx, port.businessId, port.number, current.replaceNumber);
    if (refused?.code === 'number_taken') await tx.numberPort.update({ where: { id: port.id }, data: { status: 'rejected', reason: refused.message, updatedAt: now } });
    if (refused) return refused;
    await tx.numberPort.update({ where: { id: port.id }, data: { status: 'submitted', carrierRef: null, reason: null, submittedAt: now, updatedAt: now } });
    return 'claimed' as const;
  });
  if (claim === 'sent') return { ok: true, view: (await portPage(services, token, ownerId))! };
  if (claim !== 'claimed') {
    const message =
      claim.code === 'replace_number_required'
        ? `${claim.extra.current_number} is this business's receptionist number now, and this transfer was not asked to replace it, so nothing was sent. To replace it, ask your assistant to prepare the transfer again with replace_number.`
        : claim.message;
    return { ok: false, errors: { number: message }, view: (await portPage(services, token, ownerId))! };
  }
  let sent: { carrierRef: string; status: PortStatus };
  try {
    sent = await services.phone.carrier.submitPort({ number: port.number, idempotencyKey: portKey(port.id), authorisation });
  } catch (err) {
    // Not taken (or not known to be): the owner may send the form again.
    await services.prisma.numberPort.updateMany({ where: { id: port.id, status: 'submitted', carrierRef: null }, data: { status: 'draft', submittedAt: null, updatedAt: services.clock.date() } });
    if (err instanceof CarrierRefused || err instanceof CarrierUnavailable) {
      services.logger.warn({ err: err.message, port: port.id }, 'the phone carrier did not take a transfer');
      return { ok: false, errors: { carrier: err instanceof CarrierRefused ? err.message : 'The carrier did not answer. Nothing was submitted; send the form again in a minute.' }, view };
    }
    throw err;
  }
  await services.prisma.numberPort.updateMany({ where: { id: port.id, status: 'submitted' }, data: { carrierRef: sent.carrierRef, updatedAt: services.clock.date() } });
  await applyPortStatus(services, port.id, sent.status);
  return { ok: true, view: (await portPage(services, token, ownerId))! };
}

/** A transfer the carrier or Porchlight refused: its reason is what the owner sees. */
async function refusePort(services: Services, portId: string, reason: string): Promise<void> {
  await services.prisma.numberPort.updateMany({ where: { id: portId, status: 'submitted' }, data: { status: 'rejected', reason, updatedAt: services.clock.date() } });
}

/**
 * A transfer's progress as the carrier reports it. The answer must name the transfer's number,
 * and "completed" counts once the carrier holds the number for us; then the number becomes the
 * business's, unless the unique index finds it live for another business (this transfer is then
 * refused). A number it replaces, on the owner's request, is given back to the carrier after commit.
 */
async function applyPortStatus(services: Services, portId: string, status: PortStatus): Promise<void> {
  if (status.status === 'submitted') {
    // Still under way: what it waits for (the authorised person's signature …) is what the owner sees.
    await services.prisma.numberPort.updateMany({ where: { id: portId, status: 'submitted' }, data: { reason: status.reason, updatedAt: services.clock.date() } });
    return;
  }
  const port = await services.prisma.numberPort.findUniqueOrThrow({ where: { id: portId } });
  if (port.status !== 'submitted') return;
  if (status.number !== port.number) {
    services.logger.error({ port: port.id, asked: port.number, answered: status.number }, 'the phone carrier answered a transfer with another number');
    return refusePort(services, port.id, `The carrier's answer named ${status.number}, not ${port.number}, so nothing was made active. Porchlight support will look into it.`);
  }
  if (status.status === 'rejected') return refusePort(services, port.id, status.reason ?? 'The carrier refused the transfer.');
  const held = await services.phone.carrier.findNumber({ number: port.number, idempotencyKey: portKey(port.id) });
  if (held?.number !== port.number || held.status !== 'active') {
    services.logger.warn({ port: port.id }, 'the phone carrier reports a transfer completed but does not hold the number yet');
    return;
  }
  let release: NumberRelease | null;
  try {
    release = await services.transaction(async (tx) => {
      await lockNumberOf(tx, port.businessId);
      if ((await tx.numberPort.findUniqueOrThrow({ where: { id: port.id } })).status !== 'submitted') return null;
      const now = services.clock.date();
      const own = await tx.receptionistNumber.findUnique({ where: { businessId: port.businessId } });
      const replaced = own && own.status !== 'failed' && own.number !== port.number ? own : null;
      const replacedRef = replaced?.carrierRef;
      if (replaced && (!port.replaceNumber || !replacedRef)) {
        // Only a transfer sent before replacing needed the owner's request gets here: nothing is swapped.
        const reason = `${port.number} moved to Porchlight's carrier, but ${replaced.number} stays the receptionist's number: the transfer did not ask to replace it. Contact Porchlight support to swap them.`;
        await tx.numberPort.update({ where: { id: port.id }, data: { status: 'completed', reason, updatedAt: now } });
        return null;
      }
      await tx.numberPort.update({ where: { id: port.id }, data: { status: 'completed', reason: null, updatedAt: now } });
      // Where it is, as far as its area code says (unknown outside the live cities).
      const phone = AREA_CODES[port.number.slice(2, 5)] ?? { locality: '', region: '' };
      const fields = { number: port.number, ...phone, status: 'active', carrierRef: held.carrierRef, idempotencyKey: portKey(port.id), failure: null, requestedAt: port.createdAt, activatedAt: now, updatedAt: now };
      await tx.receptionistNumber.upsert({ where: { businessId: port.businessId }, create: { businessId: port.businessId, ...fields }, update: fields });
      await services.emit(tx, { type: 'receptionist.number_active', businessId: port.businessId, data: { change: port.number } });
      routeNumberOnCommit(services, tx, { number: port.number, carrierRef: held.carrierRef });
      return replaced && replacedRef ? tx.numberRelease.create({ data: { businessId: port.businessId, number: replaced.number, carrierRef: replacedRef, portId: port.id, createdAt: now } }) : null;
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    return refusePort(services, port.id, numberTaken(port.number, "it was not made this business's").message);
  }
  if (release) await releaseReplaced(services, release);
}

/** Gives a replaced number back to the carrier; one that does not get through is tried again by receptionist_refresh. */
async function releaseReplaced(services: Services, row: NumberRelease): Promise<void> {
  try {
    await services.phone.carrier.releaseNumber({ number: row.number, carrierRef: row.carrierRef });
  } catch (err) {
    if (!(err instanceof CarrierUnavailable || err instanceof CarrierRefused)) throw err;
    services.logger.warn({ err: err.message, business: row.businessId }, 'the phone carrier did not release a replaced number');
    return;
  }
  await services.prisma.numberRelease.update({ where: { id: row.id }, data: { releasedAt: services.clock.date() } });
}

/**
 * receptionist_refresh: numbers still to give back, a send whose answer never came (a draft
 * again), and a submitted transfer's progress.
 */
export async function refreshPort(services: Services, businessId: string): Promise<void> {
  const now = services.clock.now();
  for (const row of await services.prisma.numberRelease.findMany({ where: { businessId, releasedAt: null } })) await releaseReplaced(services, row);
  await services.prisma.numberPort.updateMany({
    where: { businessId, status: 'submitted', carrierRef: null, submittedAt: { lt: new Date(now - IN_FLIGHT) } },
    data: { status: 'draft', submittedAt: null, updatedAt: new Date(now) },
  });
  const port = await services.prisma.numberPort.findFirst({ where: { businessId, status: 'submitted', carrierRef: { not: null } } });
  if (!port?.carrierRef) return;
  await applyPortStatus(services, port.id, await services.phone.carrier.portStatus(port.carrierRef));
}

/**
 * The carrier's webhook named a transfer (facades/carrier-webhook.ts): its status is read back
 * from the carrier, never taken from the message, and applied as receptionist_refresh would.
 * False when no transfer under way has that carrier id (nothing to do).
 */
export async function carrierPortChanged(services: Services, carrierRef: string): Promise<boolean> {
  const port = await services.prisma.numberPort.findFirst({ where: { carrierRef, status: 'submitted' }, select: { id: true } });
  if (!port) return false;
  let status: PortStatus;
  try {
    status = await services.phone.carrier.portStatus(carrierRef);
  } catch (err) {
    throw carrierFailed(services, 'reading a transfer', err);
  }
  await applyPortStatus(services, port.id, status);
  return true;
}
