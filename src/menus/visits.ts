/**
 * Visits at menu businesses: request_visit and book_visit (customers, no sign-in),
 * cancel_visit_request (the conversation's holder), confirm_visit_request and
 * cancel_business_visit (owners).
 *
 * Every write runs in one transaction under the business's lock, re-reads the menu, the team
 * and the calendars there, and posts the move into the visit's conversation with its event
 * and mail. A customer's request or booking first counts there what its caller and its
 * customer already hold (limits.ts). The lock makes concurrent bookings take turns, so each
 * sees the technicians the others took and can be given another one; the exclusion constraint
 * on confirmed visits has the last word either way (a violation is a time_unavailable, never a
 * 500).
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import type { Tx } from '../db/transaction.js';
import type { Prisma } from '../generated/prisma/client.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid, notFound } from '../errors.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { lockRequester, requesterOf } from '../auth/requester.js';
import { seal, unseal } from '../auth/sealed.js';
import { inviteAttachment, nextSequence } from '../calendar/invites.js';
import { signedIn } from '../auth/credentials.js';
import { contactKey, customerContact, reachableContact } from '../bookings/contact.js';
import { DAY, MINUTE, dateToDayNumber, dayNumberToDate, isoWithOffset, localDate, parseStart } from '../core/time.js';
import { withOpenStarts } from '../availability/nearest-starts.js';
import { closeOtherConversations, openConversation, postToConversation } from '../conversations/conversation.js';
import { answerMail, newMessageMail } from '../conversations/mail.js';
import { estimateVisit, requestOnlyReason, type Estimate, type EstimateItem, type Selection } from './estimate.js';
import { candidates, canTake, qualifiedFor } from './schedule.js';
import { loadMenuState, type MenuState } from './store.js';
import { technicianNamed, visitPlan, visitTimesService } from './service.js';
import { describeItems, describePrice, visitView, type VisitRow } from './views.js';
import { usd } from '../core/money.js';
import { visitBookedCustomerMail, visitNoticeMail } from './mail.js';
import { checkLiveLimits } from './limits.js';
import type { bookVisitInput, cancelBusinessVisitInput, cancelVisitRequestInput, confirmVisitRequestInput, requestVisitInput } from './inputs.js';

/** A confirmed visit closer than this to its start is cancelled by the team, not the customer. */
export const SELF_CANCEL_MS = DAY;

const visitSelect = {
  id: true,
  status: true,
  source: true,
  selections: true,
  estimateCents: true,
  partial: true,
  priceCents: true,
  durationMinutes: true,
  start: true,
  end: true,
  technicianName: true,
  conversationId: true,
  requestFingerprint: true,
  preferredTechnician: true,
  customerName: true,
  serviceIds: true,
  menuRevision: true,
  menu: { select: { business: { select: { id: true, name: true, email: true, timeZone: true } } } },
  conversation: { select: { customerEmail: true } },
} satisfies Prisma.VisitSelect;

type VisitRecord = Prisma.VisitGetPayload<{ select: typeof visitSelect }>;

/** A stored visit with its business at hand and its selections typed. */
type StoredVisit = Omit<VisitRecord, 'menu' | 'selections'> & VisitRow & { business: VisitRecord['menu']['business']; selections: EstimateItem[] };

const stored = ({ menu, selections, ...v }: VisitRecord): StoredVisit => ({ ...v, business: menu.business, selections: selections as unknown as EstimateItem[] });

export async function findVisit(db: Context['prisma'] | Tx, where: Prisma.VisitWhereInput): Promise<StoredVisit | null> {
  const found = await db.visit.findFirst({ where, select: visitSelect });
  return found && stored(found);
}

/**
 * Writes to one business's visits take turns under its lock, so a burst of bookings for one
 * business queues: each waits longer for a connection and for its turn than Prisma's defaults.
 */
export const QUEUED = { maxWait: 15_000, timeout: 30_000 } as const;

/**
 * Takes turns with every other write to this business's visits, menu and team; the write is
 * announced as a change to the business, which customers' cached copies follow once it commits.
 */
export async function lockBusinessVisits(ctx: Pick<Context, 'changes'>, tx: Tx, businessId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`visits:${businessId}`}))`;
  ctx.changes.changed(tx, businessId);
}

// ---------------------------------------------------------------------------------------------
// request_key: idempotent retries

/**
 * A request_key is its caller's own: kept only as this digest of the requester (key, connection
 * or address) and the key, so the same key from another caller is another key. It finds no
 * other caller's visit, and a mismatch is only ever its own caller's.
 */
const keyDigest = (requesterHash: string, key: string) => hashToken(`visit-request-key:${requesterHash}:${key}`);

type VisitInput = z.output<typeof requestVisitInput> & { start?: string };

type Contact = { email: string | null; phone: string | null };

/** What a retry must repeat exactly: the operation, the business and every detail sent. */
function fingerprint(operation: 'request_visit' | 'book_visit', businessId: string, input: VisitInput, contact: Contact): string {
  const selections = input.selections.map((s) => [s.service_id, [...s.add_on_ids].sort(), s.scent_id ?? null]);
  const details = [
    operation,
    businessId,
    selections,
    input.customer_name,
    input.preferred_date ?? null,
    input.preferred_time ?? null,
    input.preferred_technician ?? null,
    input.first_visit ?? null,
    input.note ?? null,
    input.menu_revision,
    input.expected_estimate_cents,
    input.customer_authorized,
    input.start ?? null,
    contact.email,
    contact.phone,
  ];
  return createHash('sha256').update(JSON.stringify(details)).digest('hex');
}

const mismatch = () =>
  new AppError(
    'idempotency_mismatch',
    'This request_key was already used for a different request. Reuse a request_key only to retry exactly the same request; choose a new random key for a new or changed one.',
  );

/**
 * The visit an earlier call of this caller made with this key, when the details match, with the
 * reply_token it was given (unsealed: the conversation keeps only the token's hash); a mismatch
 * is refused.
 */
async function replay(ctx: Context, db: Context['prisma'] | Tx, keyHash: string, print: string): Promise<Created | null> {
  const found = await db.visit.findFirst({ where: { requestKeyHash: keyHash }, select: { ...visitSelect, replyTokenSealed: true } });
  if (!found) return null;
  if (found.requestFingerprint !== print) throw mismatch();
  // Every visit made since keys were scoped to their caller has its sealed token; no older one is found by a scoped digest.
  const replyToken = await unseal(ctx.secretsKey, 'visit-reply-token', found.replyTokenSealed!);
  return { visit: stored(found), replyToken, replayed: true };
}

// ---------------------------------------------------------------------------------------------
// Shared checks

/** The selection against the menu as it is now: same revision and same estimate, or stale. */
function currentEstimate(state: MenuState, input: { selections: Selection[]; menu_revision: number; expected_estimate_cents: number }): Estimate {
  if (input.menu_revision !== state.menu.revision) {
    throw new AppError(
      'stale_menu',
      `The menu of ${state.business.name} changed (menu_revision is now ${state.menu.revision}). Call estimate_visit again, show the customer the new estimate, and pass its menu_revision and estimate_cents.`,
    );
  }
  const estimate = estimateVisit(state.menu, input.selections);
  if (estimate.estimateCents !== input.expected_estimate_cents) {
    throw new AppError(
      'stale_menu',
      `The estimate for this selection is ${usd(estimate.estimateCents)} (estimate_cents ${estimate.estimateCents}), not the expected_estimate_cents sent. Show the customer the current estimate from estimate_visit and pass its estimate_cents.`,
    );
  }
  return estimate;
}

function requireAuthorized(input: { customer_authorized: boolean }) {
  if (!input.customer_authorized) {
    throw invalid('Show the customer the itemised estimate from estimate_visit and pass customer_authorized true once they approve it.');
  }
}

const lines = (input: VisitInput) =>
  [
    input.preferred_date !== undefined ? `Preferred date: ${input.preferred_date}` : null,
    input.preferred_time !== undefined ? `Preferred time: ${input.preferred_time}` : null,
    input.preferred_technician !== undefined ? `Preferred technician: ${input.preferred_technician}` : null,
    input.first_visit !== undefined ? `First visit: ${input.first_visit}` : null,
    input.note !== undefined ? `Note: ${input.note}` : null,
  ].filter((l): l is string => l !== null);

async function notifyBusiness(ctx: Context, tx: Tx, business: { email: string | null; timeZone: string }, mail: Omit<Parameters<typeof visitNoticeMail>[1], 'zone'>) {
  if (business.email) await ctx.outbox.enqueue(tx, visitNoticeMail(business.email, { ...mail, zone: business.timeZone }));
}

interface Created {
  visit: StoredVisit;
  replyToken: string;
  replayed: boolean;
  note?: string;
}

/** What a new visit row records of its key, its caller and its customer. */
interface Common {
  keyHash: string;
  print: string;
  replyToken: string;
  replyTokenSealed: string;
  requesterHash: string;
  contactKey: string | null;
}

/**
 * The transaction both customer operations share: the key's turn, a replay when this caller
 * used the key before, then the requester's and the business's turns, the limits on what the
 * caller and the customer hold, and `write` with the business's state as it is now. The
 * reply_token is random (never derived from the key), stored hashed in the conversation and
 * sealed in the visit for a retry.
 */
async function createVisit(
  ctx: Context,
  operation: 'request_visit' | 'book_visit',
  input: VisitInput,
  contact: Contact,
  span: { from: number; to: number },
  write: (tx: Tx, state: MenuState, common: Common) => Promise<{ visitId: string; note?: string }>,
): Promise<Created> {
  requireAuthorized(input);
  const known = await ctx.menus.state(input.business);
  const requesterHash = requesterOf(ctx);
  const keyHash = keyDigest(requesterHash, input.request_key);
  const print = fingerprint(operation, known.business.id, input, contact);
  const earlier = await replay(ctx, ctx.prisma, keyHash, print);
  if (earlier) return earlier;
  const replyToken = newToken('rt_');
  const common: Common = {
    keyHash,
    print,
    replyToken,
    replyTokenSealed: await seal(ctx.secretsKey, 'visit-reply-token', replyToken),
    requesterHash,
    contactKey: contactKey(contact),
  };
  try {
    return await ctx.transaction(async (tx): Promise<Created> => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`visit-key:${keyHash}`}))`;
      const again = await replay(ctx, tx, keyHash, print);
      if (again) return again;
      await lockRequester(tx, requesterHash);
      await lockBusinessVisits(ctx, tx, known.business.id);
      await checkLiveLimits(ctx, tx, 'visit', {
        businessId: known.business.id,
        businessName: known.business.name,
        requesterHash,
        contactKey: common.contactKey,
        now: ctx.clock.now(),
      });
      const state = await loadMenuState(tx, { id: known.business.id }, span.from, span.to);
      const { visitId, note } = await write(tx, state, common);
      const visit = (await findVisit(tx, { id: visitId }))!;
      return { visit, replyToken, replayed: false, note };
    }, QUEUED);
  } catch (err) {
    if (isExclusionViolation(err)) throw taken(input.start ?? '');
    throw err;
  }
}

const taken = (start: string) =>
  new AppError('time_unavailable', `The start ${start} is no longer available. Call visit_times for current starts and pick another.`);

// ---------------------------------------------------------------------------------------------
// Customers

export async function requestVisitService(input: z.output<typeof requestVisitInput>, ctx: Context) {
  const contact = customerContact(input, ctx);
  const now = ctx.clock.now();
  const created = await createVisit(ctx, 'request_visit', input, contact, { from: now, to: now + DAY }, async (tx, state, common) => {
    const estimate = currentEstimate(state, input);
    const at = new Date(now);
    const summary = [`Visit request: ${describeItems(estimate.items)}. Estimate ${describePrice(estimate)}.`, ...lines(input)].join('\n');
    const inquiryId = await openConversation(tx, {
      businessId: state.business.id,
      replyToken: common.replyToken,
      requestType: 'service_visit',
      contact,
      credentialId: signedIn(ctx.credential)?.id ?? null,
      message: summary,
      priceCents: estimate.partial ? null : estimate.estimateCents,
      at,
    });
    const visit = await tx.visit.create({
      data: {
        ...visitData(state, input, estimate, common, inquiryId, contact.name, ctx, at),
        status: 'pending',
        source: 'request_visit',
      },
      select: { id: true },
    });
    await notifyBusiness(ctx, tx, state.business, {
      subject: `Visit request from ${contact.name}`,
      customerName: contact.name,
      lines: [`${contact.name} asks for a visit:`, '', summary],
      inquiryId,
      visitId: visit.id,
      next: 'Confirm a time with confirm_visit_request, answer with message_customer, or decline with cancel_business_visit.',
    });
    await ctx.emit(tx, {
      type: 'visit.requested',
      businessId: state.business.id,
      inquiryId,
      clientName: ctx.clientName,
      data: { customerName: contact.name, text: summary, visitId: visit.id },
    });
    return { visitId: visit.id };
  });
  const { visit } = created;
  const name = visit.business.name;
  return {
    request: visitView(visit, visit.business.timeZone),
    inquiryId: visit.conversationId,
    replyToken: created.replyToken,
    next:
      `This is a REQUEST to ${name}, pending their confirmation: no time is booked and nothing is paid. ` +
      `${name} confirms a time (or answers) in the private conversation; read it with inquiry_status (inquiry_id and reply_token; keep reply_token private). ` +
      'The request can be withdrawn with cancel_visit_request.',
  };
}

function visitData(
  state: MenuState,
  input: VisitInput,
  estimate: Estimate,
  common: Common,
  conversationId: string,
  customerName: string,
  ctx: Context,
  at: Date,
) {
  return {
    businessId: state.business.id,
    conversationId,
    selections: estimate.items as unknown as Prisma.InputJsonValue,
    serviceIds: estimate.serviceIds,
    menuRevision: estimate.menuRevision,
    estimateCents: estimate.estimateCents,
    partial: estimate.partial,
    durationMinutes: estimate.durationMinutes,
    preferredTechnician: input.preferred_technician ?? null,
    preferredDate: input.preferred_date ?? null,
    preferredTime: input.preferred_time ?? null,
    firstVisit: input.first_visit ?? null,
    note: input.note ?? null,
    customerName,
    requestKeyHash: common.keyHash,
    requestFingerprint: common.print,
    replyTokenSealed: common.replyTokenSealed,
    requesterHash: common.requesterHash,
    contactKey: common.contactKey,
    clientName: ctx.clientName ?? null,
    credentialId: signedIn(ctx.credential)?.id ?? null,
    createdAt: at,
  };
}

/** Open starts for the same selection on the days around `wanted` (a refusal's nearest starts), as visit_times lists them. */
async function visitStartsNear(ctx: Context, input: z.output<typeof bookVisitInput>, wanted: number): Promise<string[]> {
  const { timeZone } = (await ctx.menus.state(input.business)).business;
  const today = dateToDayNumber(localDate(ctx.clock.now(), timeZone))!;
  const day = dateToDayNumber(localDate(wanted, timeZone))!;
  const days = [day - 1, day, day + 1].filter((d) => d >= today).map(dayNumberToDate);
  const lists = await Promise.all(
    days.map((date) => visitTimesService({ business: input.business, selections: input.selections, date, preferred_technician: input.preferred_technician, time_of_day: 'any' }, ctx)),
  );
  return lists.flatMap((l) => l.starts);
}

export async function bookVisitService(input: z.output<typeof bookVisitInput>, ctx: Context) {
  const start = parseStart(input.start);
  if (start === null) throw invalid('start must be an ISO 8601 timestamp with its offset, exactly as visit_times returned it.');
  const contact = customerContact(input, ctx);
  reachableContact(contact, 'book_visit books the time at once with nothing paid');
  const now = ctx.clock.now();
  const created = await createVisit(ctx, 'book_visit', input, contact, { from: start - 2 * DAY, to: start + 2 * DAY }, async (tx, state, common) => {
    const estimate = currentEstimate(state, input);
    const reason = requestOnlyReason(estimate, state.menu, state.team);
    if (reason !== null) {
      throw new AppError('not_configured', `${state.business.name} cannot book this selection at once: ${reason} Use request_visit instead; staff confirm a time.`);
    }
    const plan = visitPlan(state, estimate, now);
    const preferred = technicianNamed(state.team, input.preferred_technician);
    const tech = candidates(plan, state.team, start, preferred?.id)[0];
    if (!tech) throw taken(input.start);
    const at = new Date(now);
    const zone = state.business.timeZone;
    const startIso = isoWithOffset(start, zone);
    const end = start + estimate.durationMinutes! * MINUTE;
    const summary = [`Booked a visit: ${describeItems(estimate.items)} on ${startIso}. Price ${usd(estimate.estimateCents)}.`, ...lines(input)].join('\n');
    const inquiryId = await openConversation(tx, {
      businessId: state.business.id,
      replyToken: common.replyToken,
      requestType: 'service_visit',
      contact,
      credentialId: signedIn(ctx.credential)?.id ?? null,
      message: summary,
      priceCents: estimate.estimateCents,
      at,
    });
    const visit = await tx.visit.create({
      data: {
        ...visitData(state, input, estimate, common, inquiryId, contact.name, ctx, at),
        status: 'confirmed',
        source: 'book_visit',
        priceCents: estimate.estimateCents,
        start: new Date(start),
        end: new Date(end),
        busyUntil: new Date(end + state.menu.bufferMinutes * MINUTE),
        technicianId: tech.id,
        technicianName: tech.name,
        confirmedAt: at,
      },
      select: { id: true },
    });
    await closeOtherConversations(tx, { businessId: state.business.id, credentialId: signedIn(ctx.credential)?.id ?? null, keep: inquiryId, at });
    // Staff scheduling confirmed it: the conversation shows the business's side at once.
    const confirmation = `Confirmed for ${startIso} with ${tech.name} (booked through staff scheduling).`;
    await postToConversation(tx, inquiryId, 'business', confirmation, at);
    await notifyBusiness(ctx, tx, state.business, {
      subject: `New visit booked by ${contact.name}: ${startIso}`,
      customerName: contact.name,
      lines: [`${contact.name} booked a visit with ${tech.name}:`, '', summary],
      inquiryId,
      visitId: visit.id,
      next: 'Message the customer with message_customer, or cancel with cancel_business_visit.',
    });
    if (contact.email) {
      await ctx.outbox.enqueue(
        tx,
        visitBookedCustomerMail(contact.email, {
          businessName: state.business.name,
          customerName: contact.name,
          summary: `${summary}\n${confirmation}`,
          inquiryId,
          page: ctx.links.conversation(inquiryId, common.replyToken),
          zone,
          invite: inviteAttachment(ctx.config, {
            method: 'REQUEST',
            id: visit.id,
            sequence: 0,
            status: 'confirmed',
            business: state.business,
            customer: { name: contact.name, email: contact.email },
            summary: `Visit with ${state.business.name}`,
            description: `${summary}\n${confirmation}`,
            visits: [{ id: visit.id, start: new Date(start), end: new Date(end) }],
            now: at,
          }),
        }),
      );
    }
    await ctx.emit(tx, {
      type: 'visit.booked',
      businessId: state.business.id,
      inquiryId,
      clientName: ctx.clientName,
      data: { customerName: contact.name, start: startIso, text: summary, visitId: visit.id },
    });
    const replaced = input.preferred_technician !== undefined && preferred?.id !== tech.id;
    return { visitId: visit.id, note: replaced ? `${input.preferred_technician} was not available for the whole visit then; ${tech.name} will do it.` : undefined };
  }).catch(async (err: unknown) => {
    throw await withOpenStarts(err, start, () => visitStartsNear(ctx, input, start));
  });
  const { visit } = created;
  const view = visitView(visit, visit.business.timeZone);
  return {
    visit: view,
    inquiryId: visit.conversationId,
    replyToken: created.replyToken,
    next:
      `Booked: ${describeItems(view.items)} at ${visit.business.name} on ${view.start} with ${view.technician}, ${usd(visit.priceCents ?? visit.estimateCents)}; ` +
      'nothing was collected, the business charges for its work itself. ' +
      (created.note ? `${created.note} ` : '') +
      'Cancel free with cancel_visit_request (visit_id, inquiry_id, reply_token; keep reply_token private) until 24 hours before the start; later, ask the team in the conversation.',
  };
}

export async function cancelVisitRequestService(input: z.output<typeof cancelVisitRequestInput>, ctx: Context) {
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    const found = await tx.visit.findFirst({
      where: { id: input.visit_id, conversationId: input.inquiry_id, conversation: { replyTokenHash: hashToken(input.reply_token) } },
      select: { businessId: true },
    });
    if (!found) throw notFound('No visit matches that visit_id, inquiry_id and reply_token. Use the values returned by request_visit or book_visit.');
    await lockBusinessVisits(ctx, tx, found.businessId);
    const visit = (await findVisit(tx, { id: input.visit_id }))!;
    if (visit.status === 'cancelled') return { visitId: visit.id, status: 'cancelled' as const };
    const zone = visit.business.timeZone;
    if (visit.status === 'confirmed' && visit.start!.getTime() - now < SELF_CANCEL_MS) {
      throw new AppError(
        'too_late_to_cancel',
        `This visit starts ${isoWithOffset(visit.start!.getTime(), zone)}, less than 24 hours from now, so only the team can cancel it. Ask ${visit.business.name} in the conversation (follow_up_business).`,
      );
    }
    const at = new Date(now);
    await tx.visit.update({ where: { id: visit.id }, data: { status: 'cancelled', cancelledAt: at, cancelledBy: 'customer' } });
    const what =
      visit.status === 'confirmed'
        ? `Cancelled the visit on ${isoWithOffset(visit.start!.getTime(), zone)} (${describeItems(visit.selections)}).`
        : `Withdrew the visit request (${describeItems(visit.selections)}).`;
    await postToConversation(tx, visit.conversationId, 'customer', what, at);
    if (visit.business.email) {
      await ctx.outbox.enqueue(
        tx,
        newMessageMail(visit.business.email, { inquiryId: visit.conversationId, from: visit.customerName, message: what, requestType: 'service_visit', viaText: false, zone: visit.business.timeZone }),
      );
    }
    await ctx.emit(tx, {
      type: 'visit.cancelled',
      businessId: visit.business.id,
      inquiryId: visit.conversationId,
      clientName: ctx.clientName,
      data: { customerName: visit.customerName, start: visit.start ? isoWithOffset(visit.start.getTime(), zone) : null, text: what, visitId: visit.id },
    });
    return { visitId: visit.id, status: 'cancelled' as const };
  }, QUEUED);
}

// ---------------------------------------------------------------------------------------------
// Owners

const NOT_OURS = 'No visit of your business has that visit_id. Use a visit_id from service_setup.';

/**
 * The customer hears the business's move in the conversation, and by e-mail when they left one;
 * the mail carries the visit's calendar event, confirmed (REQUEST) or cancelled (CANCEL), under
 * the UID the booking mail used and a higher SEQUENCE.
 */
async function answerCustomer(ctx: Context, tx: Tx, visit: StoredVisit, text: string, at: Date, event?: { method: 'REQUEST' | 'CANCEL'; start: number; end: number }) {
  await postToConversation(tx, visit.conversationId, 'business', text, at);
  const email = visit.conversation.customerEmail;
  if (!email) return;
  const mail = answerMail(email, { inquiryId: visit.conversationId, businessName: visit.business.name, customerName: visit.customerName, message: text, zone: visit.business.timeZone });
  if (event) {
    mail.attachments = [
      inviteAttachment(ctx.config, {
        method: event.method,
        id: visit.id,
        sequence: await nextSequence(tx, 'visit', visit.id),
        status: event.method === 'CANCEL' ? 'cancelled' : 'confirmed',
        business: visit.business,
        customer: { name: visit.customerName, email },
        summary: `Visit with ${visit.business.name}`,
        description: text,
        visits: [{ id: visit.id, start: new Date(event.start), end: new Date(event.end) }],
        now: at,
      }),
    ];
  }
  await ctx.outbox.enqueue(tx, mail);
}

/**
 * A request is confirmed at the estimate its customer authorised. When the menu has changed its
 * price since, the owner must name the new estimate (new_estimate_cents) to confirm at it; the
 * sentence returned then tells the customer the old and the new price.
 */
function repricing(visit: StoredVisit, estimate: Estimate, accepted: number | undefined): string | null {
  const was = (cents: number, partial: boolean) => (partial ? `from ${usd(cents)}` : usd(cents));
  const before = was(visit.estimateCents, visit.partial);
  const now = was(estimate.estimateCents, estimate.partial);
  if (estimate.estimateCents === visit.estimateCents && estimate.partial === visit.partial) {
    if (accepted !== undefined && accepted !== visit.estimateCents) {
      throw invalid(`The menu still prices this request at ${before} (estimate_cents ${visit.estimateCents}), as the customer authorised; leave new_estimate_cents out.`);
    }
    return null;
  }
  const figures = { old_estimate_cents: visit.estimateCents, new_estimate_cents: estimate.estimateCents };
  if (accepted === undefined) {
    throw new AppError(
      'stale_menu',
      `The menu changed since the customer authorised ${before} (estimate_cents ${visit.estimateCents}, menu_revision ${visit.menuRevision}): the same selection is now ${now} (estimate_cents ${estimate.estimateCents}). ` +
        `Agree the new price with the customer (message_customer), then confirm with new_estimate_cents ${estimate.estimateCents}; or decline with cancel_business_visit.`,
      figures,
    );
  }
  if (accepted !== estimate.estimateCents) {
    throw new AppError(
      'stale_menu',
      `The estimate for this request is now ${now} (estimate_cents ${estimate.estimateCents}), not the new_estimate_cents sent; the customer authorised ${before}. Confirm with new_estimate_cents ${estimate.estimateCents}.`,
      figures,
    );
  }
  return `The menu changed since your request: the estimate was ${before}, it is now ${now}.`;
}

export async function confirmVisitRequestService(input: z.output<typeof confirmVisitRequestInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const start = parseStart(input.start);
  if (start === null) throw invalid('start must be an ISO 8601 timestamp with an offset (or Z) in the years 2000-2099, e.g. 2026-12-01T10:00:00-06:00.');
  const now = ctx.clock.now();
  if (start <= now) throw invalid('start is in the past; confirm a time that is still ahead.');
  try {
    return await ctx.transaction(async (tx) => {
      await lockBusinessVisits(ctx, tx, businessId);
      const visit = await findVisit(tx, { id: input.visit_id, businessId });
      if (!visit) throw notFound(NOT_OURS);
      const zone = visit.business.timeZone;
      if (visit.status === 'confirmed' && visit.start?.getTime() === start) {
        return { visit: visitView(visit, zone) };
      }
      if (visit.status !== 'pending') throw invalid(`This visit is ${visit.status}; only a pending visit request can be confirmed.`);
      const state = await loadMenuState(tx, { id: businessId }, start - 2 * DAY, start + 2 * DAY, 'owner');
      if (!state.menu.schedulingEnabled) {
        throw new AppError('not_configured', 'Staff scheduling is off, so no time can be confirmed: turn it on and set the team with update_staff_availability first.');
      }
      // The request's selections against the menu as it is now: its current price is the price.
      const selections = visit.selections.map((i) => ({ service_id: i.serviceId, add_on_ids: i.addOns.map((a) => a.addOnId), scent_id: i.scent?.scentId }));
      const estimate = estimateVisit(state.menu, selections);
      if (estimate.durationMinutes === null) {
        throw new AppError('not_configured', 'The duration of part of this visit is not known, so no time can be confirmed: set duration_minutes with update_service_menu first.');
      }
      const repriced = repricing(visit, estimate, input.new_estimate_cents);
      let priceCents = estimate.estimateCents;
      if (estimate.partial) {
        if (input.price_cents === undefined) {
          throw invalid(`Part of this visit is priced by staff (known part ${usd(estimate.estimateCents)}): pass the total agreed with the customer as price_cents.`);
        }
        priceCents = input.price_cents;
      } else if (input.price_cents !== undefined && input.price_cents !== estimate.estimateCents) {
        throw invalid(`The menu prices this visit at ${usd(estimate.estimateCents)} (fixed prices); leave price_cents out, or change the menu with update_service_menu first.`);
      }
      const plan = visitPlan(state, estimate, now, { minNoticeMinutes: 0, stepMinutes: 1 });
      const startIso = isoWithOffset(start, zone);
      let tech;
      if (input.technician !== undefined) {
        tech = state.team.find((t) => t.id === input.technician) ?? technicianNamed(state.team, input.technician);
        if (!tech) throw notFound(`Your team has no technician "${input.technician}". Use a staff_id or name from service_setup.`);
        if (!qualifiedFor(tech, estimate.serviceIds)) {
          const missing = estimate.items.filter((i) => !tech!.serviceIds.includes(i.serviceId)).map((i) => `"${i.serviceId}"`);
          throw invalid(`${tech.name} is not set up for ${missing.join(', ')}; choose another technician or change their services with update_staff_availability.`);
        }
        if (!canTake(plan, tech, start)) {
          throw new AppError('time_unavailable', `${tech.name} cannot take the whole visit at ${startIso}: it must fit business hours and their hours, outside time off, other visits and buffers. Check service_setup.`);
        }
      } else {
        tech = candidates(plan, state.team, start, technicianNamed(state.team, visit.preferredTechnician ?? undefined)?.id)[0];
        if (!tech) {
          throw new AppError('time_unavailable', `No technician set up for this visit can take all of it at ${startIso} (business hours, their hours, time off, other visits and buffers). Check service_setup for another time.`);
        }
      }
      const end = start + estimate.durationMinutes * MINUTE;
      const at = new Date(now);
      await tx.visit.update({
        where: { id: visit.id },
        data: {
          status: 'confirmed',
          start: new Date(start),
          end: new Date(end),
          busyUntil: new Date(end + state.menu.bufferMinutes * MINUTE),
          technicianId: tech.id,
          technicianName: tech.name,
          priceCents,
          durationMinutes: estimate.durationMinutes,
          confirmedAt: at,
        },
      });
      const confirmed = `Confirmed: ${describeItems(estimate.items)} on ${startIso} with ${tech.name}. Price ${usd(priceCents)}.`;
      await answerCustomer(ctx, tx, visit, repriced ? `${confirmed}\n${repriced}` : confirmed, at, { method: 'REQUEST', start, end });
      await ctx.emit(tx, {
        type: 'visit.confirmed',
        businessId,
        inquiryId: visit.conversationId,
        clientName: ctx.clientName,
        data: { customerName: visit.customerName, start: startIso, visitId: visit.id, by: 'business' },
      });
      const updated = (await findVisit(tx, { id: visit.id }))!;
      return { visit: visitView(updated, zone) };
    }, QUEUED);
  } catch (err) {
    if (isExclusionViolation(err)) throw new AppError('time_unavailable', 'That technician was just given another visit at that time. Check service_setup and pick another time or technician.');
    throw err;
  }
}

export async function cancelBusinessVisitService(input: z.output<typeof cancelBusinessVisitInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    await lockBusinessVisits(ctx, tx, businessId);
    const visit = await findVisit(tx, { id: input.visit_id, businessId });
    if (!visit) throw notFound(NOT_OURS);
    if (visit.status === 'cancelled') return { visitId: visit.id, status: 'cancelled' as const };
    const zone = visit.business.timeZone;
    const at = new Date(now);
    await tx.visit.update({ where: { id: visit.id }, data: { status: 'cancelled', cancelledAt: at, cancelledBy: 'business' } });
    const what =
      visit.status === 'confirmed'
        ? `${visit.business.name} cancelled the visit on ${isoWithOffset(visit.start!.getTime(), zone)} (${describeItems(visit.selections)}).`
        : `${visit.business.name} declined the visit request (${describeItems(visit.selections)}).`;
    await answerCustomer(
      ctx, tx, visit, input.message ? `${what}\n${input.message}` : what, at,
      visit.status === 'confirmed' ? { method: 'CANCEL', start: visit.start!.getTime(), end: visit.end!.getTime() } : undefined,
    );
    await ctx.emit(tx, {
      type: 'visit.cancelled',
      businessId,
      inquiryId: visit.conversationId,
      clientName: ctx.clientName,
      data: { customerName: visit.customerName, start: visit.start ? isoWithOffset(visit.start.getTime(), zone) : null, visitId: visit.id, by: 'business' },
    });
    return { visitId: visit.id, status: 'cancelled' as const };
  }, QUEUED);
}
