/**
 * The one booking flow behind book_cleaning and book_service_call: contact rules, the area,
 * open starts, the limit on unconfirmed bookings, and one transaction that writes the booking,
 * its visits, the confirmation and the event. The exclusion constraint on visits settles races
 * the availability check cannot see.
 */
import { createHash } from 'node:crypto';
import type { Context } from '../context.js';
import type { BookingKind } from '../generated/prisma/enums.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../db/transaction.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid } from '../errors.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { signedIn } from '../auth/credentials.js';
import type { SnapshotBusiness } from '../search/snapshot.js';
import { slotQuery } from '../availability/schedule.js';
import { isOpenStart, type Busy } from '../availability/slots.js';
import { DAY, MINUTE, isoWithOffset } from '../availability/time.js';
import { closeConversationsOnBooking } from '../conversations/service.js';
import { customerContact, type ContactInput } from './contact.js';
import { confirmationMail, type ServiceCallMail } from './mail.js';

/** Cancelling is free until this long before the first visit. */
export const FREE_CANCEL_MS = DAY;

export interface BookingPlan {
  business: SnapshotBusiness;
  kind: BookingKind;
  input: ContactInput & { address: string; zip: string; notes?: string };
  /** Visit starts (epoch ms), ascending. */
  starts: number[];
  durationMinutes: number;
  priceCents: number;
  /** The kind's own columns: the cleaning job, or the service call's trade and issue. */
  fields: Partial<Prisma.BookingUncheckedCreateInput>;
  /** The operation that lists current open starts for this kind, named in refusals. */
  search: 'available_times' | 'find_service_call';
  /** Who the business is for the customer: "cleaners" or "pros". */
  searchFor: string;
  serviceCall?: ServiceCallMail;
}

export interface Booked {
  bookingId: string;
  manageToken: string;
  manageUrl: string;
  startsIso: string[];
  /** How the customer was asked to confirm: "e-mailed a@b.c" or "texted +1…". */
  channel: string;
  /** Until when the pending booking holds its time (business-local ISO). */
  holdUntil: string;
  /** The closing sentences every `next` message shares (confirmation, cancellation, notes). */
  nextTail: string;
}

export const unavailable = (start: string, search: BookingPlan['search']) =>
  new AppError('time_unavailable', `The start ${start} is no longer available. Call ${search} for current open starts and pick another.`);

/** Contact details for a booking: a name, and an e-mail (or a phone, for a business that texts). */
function contactOf(input: ContactInput, ctx: Context, business: SnapshotBusiness) {
  const contact = customerContact(input, ctx);
  if (!contact.email) {
    if (!contact.phone) throw invalid('customer_email is required to send the confirmation (or customer_phone, for a business that texts).');
    if (!business.textsCustomers) throw invalid(`${business.name} confirms bookings by e-mail only; customer_email is required.`);
  }
  return contact;
}

const digest = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * Refuses a booking when its customer, or the key or client address it came through, already
 * holds the most unconfirmed bookings allowed. The customer's count runs under an advisory lock
 * on that customer, so two concurrent bookings cannot both take their last place. The requester's
 * count takes no lock: one assistant books for many customers at once, and serialising all of
 * them would cost more than a burst passing that wider limit by a few.
 */
async function checkPendingLimits(tx: Tx, ctx: Context, who: { contactKey: string; requesterHash: string }, now: Date) {
  const { perContact, perRequester } = ctx.config.pendingLimits;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`pending:${who.contactKey}`}))`;
  const [counts] = await tx.$queryRaw<{ contact: bigint; requester: bigint }[]>`
    SELECT count(*) FILTER (WHERE "customerEmail" = ${who.contactKey} OR "customerPhone" = ${who.contactKey}) AS contact,
           count(*) FILTER (WHERE "requesterHash" = ${who.requesterHash}) AS requester
    FROM "Booking"
    WHERE "status" = 'pending' AND "holdUntil" > ${now}
      AND ("customerEmail" = ${who.contactKey} OR "customerPhone" = ${who.contactKey} OR "requesterHash" = ${who.requesterHash})`;
  const byContact = Number(counts!.contact);
  const byRequester = Number(counts!.requester);
  if (byContact >= perContact || byRequester >= perRequester) {
    throw new AppError(
      'too_many_pending',
      `There are already ${Math.max(byContact, byRequester)} bookings waiting for confirmation from this customer or connection. ` +
        'Confirm them from the e-mail or text we sent (or let them lapse) before booking more.',
    );
  }
}

/**
 * Writes a booking's visits in its transaction (every booking flow: customers' and owners').
 * Visits whose hold lapsed still sit in the exclusion constraint until released, so those in the
 * way are released first; an overlap with a live visit or with blocked time then fails with
 * SQLSTATE 23P01 (isExclusionViolation), the constraint's and the blocks trigger's verdict.
 */
export async function claimVisits(
  ctx: Pick<Context, 'search'>,
  tx: Tx,
  v: { bookingId: string; businessId: string; starts: number[]; durationMs: number; holdUntil: Date | null; now: number },
): Promise<void> {
  await tx.bookingVisit.updateMany({
    where: {
      businessId: v.businessId,
      active: true,
      holdUntil: { lte: new Date(v.now) },
      OR: v.starts.map((s) => ({ start: { lt: new Date(s + v.durationMs) }, end: { gt: new Date(s) } })),
    },
    data: { active: false },
  });
  await tx.bookingVisit.createMany({
    data: v.starts.map((s) => ({ bookingId: v.bookingId, businessId: v.businessId, start: new Date(s), end: new Date(s + v.durationMs), holdUntil: v.holdUntil })),
  });
  ctx.search.patchAfterCommit(tx, v.businessId, {
    add: v.starts.map((s) => ({ ref: v.bookingId, start: s, end: s + v.durationMs, ...(v.holdUntil ? { holdUntil: v.holdUntil.getTime() } : {}) })),
  });
}

export async function book(ctx: Context, plan: BookingPlan): Promise<Booked> {
  const { business, input, starts } = plan;
  const contact = contactOf(input, ctx, business);
  if (!business.zips.has(input.zip)) {
    throw invalid(`${business.name} does not serve ZIP ${input.zip}. Search with ${plan.search === 'available_times' ? 'find_cleaners' : plan.search} for ${plan.searchFor} who do.`);
  }
  const now = ctx.clock.now();
  const durationMs = plan.durationMinutes * MINUTE;
  const zone = business.timeZone;
  const startsIso = starts.map((s) => isoWithOffset(s, zone));
  const taken = () => unavailable(startsIso[0]!, plan.search);

  // Each visit must be an open start given the others of the same series (and the snapshot's
  // busy time; what it has not heard of yet, the exclusion constraint refuses).
  const busy = (await ctx.search.busyOf([business.id], starts[0]! - DAY, starts.at(-1)! + 2 * DAY)).get(business.id)!;
  const q = slotQuery(business, busy, plan.durationMinutes, now, {}, 1);
  const series: Busy[] = [];
  for (const [i, start] of starts.entries()) {
    if (!isOpenStart({ ...q, busy: [...busy, ...series] }, start)) throw unavailable(startsIso[i]!, plan.search);
    series.push({ start, end: start + durationMs });
  }

  const manageToken = newToken('mt_');
  const confirmToken = newToken('ct_');
  const manageUrl = ctx.links.manage(manageToken);
  const holdUntil = new Date(now + ctx.config.pendingHoldMinutes * MINUTE);
  const credential = signedIn(ctx.credential);
  const who = {
    contactKey: (contact.email ?? contact.phone!).toLowerCase(),
    // A key or connection is its own requester; anonymous callers are told apart by address.
    requesterHash: digest(credential ? `credential:${credential.id}` : `address:${ctx.clientAddress}`),
  };
  const holdIso = isoWithOffset(holdUntil.getTime(), zone);
  const notes = business.customerNotes.trim() || null;
  let bookingId: string;
  try {
    bookingId = await ctx.transaction(async (tx) => {
      await checkPendingLimits(tx, ctx, who, new Date(now));
      const booking = await tx.booking.create({
        data: {
          ...plan.fields,
          businessId: business.id,
          kind: plan.kind,
          manageTokenHash: hashToken(manageToken),
          confirmTokenHash: hashToken(confirmToken),
          priceCents: plan.priceCents,
          address: input.address,
          zip: input.zip,
          notes: input.notes ?? null,
          customerName: contact.name,
          customerEmail: contact.email?.toLowerCase() ?? null,
          customerPhone: contact.phone,
          clientName: ctx.clientName ?? null,
          credentialId: credential?.id ?? null,
          requesterHash: who.requesterHash,
          holdUntil,
          createdAt: new Date(now),
        },
        select: { id: true },
      });
      await claimVisits(ctx, tx, { bookingId: booking.id, businessId: business.id, starts, durationMs, holdUntil, now });
      await closeConversationsOnBooking(tx, { businessId: business.id, credentialId: credential?.id ?? null, at: now });
      await ctx.outbox.enqueue(
        tx,
        confirmationMail(
          { email: contact.email, phone: contact.phone },
          {
            bookingId: booking.id,
            businessName: business.name,
            businessPhone: business.phone,
            customerName: contact.name,
            address: input.address,
            starts: startsIso,
            price: plan.priceCents / 100,
            confirmUrl: ctx.links.confirm(confirmToken),
            manageUrl,
            holdUntil: holdIso,
            freeCancellation: starts[0]! - now >= FREE_CANCEL_MS,
            customerNotes: notes,
            serviceCall: plan.serviceCall,
          },
        ),
      );
      await ctx.emit(tx, {
        type: 'booking.created',
        businessId: business.id,
        bookingId: booking.id,
        clientName: ctx.clientName,
        data: { customerName: contact.name, start: startsIso[0] },
      });
      return booking.id;
    });
  } catch (err) {
    if (isExclusionViolation(err)) throw taken();
    throw err;
  }

  const channel = contact.email ? `e-mailed ${contact.email}` : `texted ${contact.phone}`;
  const cancellation =
    starts[0]! - now >= FREE_CANCEL_MS
      ? 'Cancellation is free until 24 hours before the start.'
      : 'The start is less than 24 hours away, so cancelling is no longer free: the business may charge under its own policy.';
  return {
    bookingId,
    manageToken,
    manageUrl,
    startsIso,
    channel,
    holdUntil: holdIso,
    nextTail:
      `We ${channel} a link to confirm; the booking stays pending until the customer confirms it there, and if that has not happened by ${holdIso} it lapses and the time is released. ` +
      cancellation +
      (notes ? ` Notes from ${business.name} for customers: ${notes}` : ''),
  };
}
