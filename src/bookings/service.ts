import { z } from 'zod';
import type { Context } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { AppError, invalid, notFound } from '../errors.js';
import { newToken, hashToken } from '../auth/tokens.js';
import { businessBySlug, servesZip, type CatalogBusiness } from '../search/catalog.js';
import { priceAt } from '../search/service.js';
import { busyByBusiness, slotQuery } from '../availability/schedule.js';
import { isOpenStart, type Busy } from '../availability/slots.js';
import { isoWithOffset, parseStart } from '../availability/time.js';
import { seriesStarts } from './recurrence.js';
import { bookingAccess, NO_MATCH } from './access.js';
import { businessMessageMail, cancellationMail, confirmationMail } from './mail.js';
import type { bookCleaning, cancelBooking, messageAboutBooking } from './operations.js';
import { closeConversationsOnBooking } from '../conversations/service.js';
import { publishBookingChange } from '../events/pubsub.js';
import { customerContact, type ContactInput } from './contact.js';
import { signedIn } from '../auth/credentials.js';

const DAY = 86_400_000;
const FREE_CANCEL_MS = DAY;

/** `search` is the operation that lists current open starts for this kind of booking. */
export const unavailable = (start: string, search = 'available_times') =>
  new AppError('time_unavailable', `The start ${start} is no longer available. Call ${search} for current open starts and pick another.`);

/** Contact details for a booking: a name, and an e-mail (or a phone, for a business that texts). */
export function contactOf(input: ContactInput, ctx: Context, business: CatalogBusiness) {
  const contact = customerContact(input, ctx);
  if (!contact.email) {
    if (!contact.phone) throw invalid('customer_email is required to send the confirmation (or customer_phone, for a business that texts).');
    if (!business.textsCustomers) {
      throw invalid(`${business.name} confirms bookings by e-mail only; customer_email is required.`);
    }
  }
  return contact;
}

/** The fields every booking records about who booked, where, and through what. */
export function bookedBy(
  input: { address: string; zip: string; notes?: string },
  contact: ReturnType<typeof customerContact>,
  ctx: Context,
  now: number,
) {
  return {
    address: input.address,
    zip: input.zip,
    notes: input.notes ?? null,
    customerName: contact.name,
    customerEmail: contact.email,
    customerPhone: contact.phone,
    clientName: ctx.clientName?.slice(0, 100) ?? null,
    credentialId: signedIn(ctx.credential)?.id ?? null,
    createdAt: new Date(now),
  };
}

/** The visit starts a request asks for, before availability is checked. */
function requestedStarts(input: z.output<typeof bookCleaning.input>, zone: string, now: number): number[] {
  if (input.visit_starts) {
    const starts = input.visit_starts.map((s) => {
      const at = parseStart(s);
      if (at === null) throw invalid(`visit_starts holds "${s}", which is not a start value; use starts from available_times.`);
      return at;
    });
    if (new Set(starts).size !== starts.length) throw invalid('visit_starts holds the same start twice.');
    return starts.sort((a, b) => a - b);
  }
  const first = parseStart(input.start);
  if (first === null) throw invalid('start must be a start value from find_cleaners or available_times, e.g. 2026-12-01T09:00:00-06:00.');
  if (input.frequency === 'once') {
    if (input.visits !== undefined) throw invalid('visits applies only to a recurring frequency (weekly, biweekly or monthly).');
    return [first];
  }
  const series = seriesStarts({ first, zone, frequency: input.frequency, visits: input.visits, now });
  if (!series.ok) throw invalid(series.reason);
  return series.starts;
}

/** Postgres refused overlapping visits (the exclusion constraint): someone booked first. */
function isOverlap(err: unknown): boolean {
  const text = err instanceof Error ? `${err.message} ${JSON.stringify((err as { meta?: unknown }).meta ?? {})}` : '';
  return /23P01|BookingVisit_no_overlap|exclusion constraint/i.test(text);
}

/**
 * A booking's writes in one transaction. The availability check before it can race another
 * booking; the exclusion constraint settles the race, and the loser gets `taken()`'s error.
 */
export async function bookingTransaction<T>(ctx: Context, taken: () => AppError, write: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  try {
    return await ctx.prisma.$transaction(write);
  } catch (err) {
    if (isOverlap(err)) throw taken();
    throw err;
  }
}

export async function bookCleaningService(input: z.output<typeof bookCleaning.input>, ctx: Context) {
  const business = await businessBySlug(ctx.prisma, input.pro_id, ['cleaning']);
  const contact = contactOf(input, ctx, business);
  if (!(await servesZip(ctx.prisma, business.id, input.zip))) {
    throw invalid(`${business.name} does not serve ZIP ${input.zip}. Search with find_cleaners for cleaners who do.`);
  }
  const quote = priceAt(business, input);
  if (!quote.ok) throw invalid(quote.reason);
  const price = quote.total_cents / 100;
  if (input.price !== undefined && Math.round(input.price * 100) !== quote.total_cents) {
    throw new AppError('price_changed', `The price for this job is now $${price}, not $${input.price}. Show the user the new price and book again with it.`, { price });
  }

  const now = ctx.clock.now();
  const starts = requestedStarts(input, business.timeZone, now);
  const durationMs = quote.duration_minutes * 60_000;
  const busy = (await busyByBusiness(ctx.prisma, [business.id], starts[0]! - DAY, starts.at(-1)! + 2 * DAY)).get(business.id)!;
  const q = slotQuery(business, busy, quote.duration_minutes, now, {}, 1);
  const taken: Busy[] = [];
  for (const start of starts) {
    const free = isOpenStart({ ...q, busy: [...busy, ...taken] }, start);
    if (!free) throw unavailable(isoWithOffset(start, business.timeZone));
    taken.push({ start, end: start + durationMs });
  }

  const manageToken = newToken('mt_');
  const confirmToken = newToken('ct_');
  const startsIso = starts.map((s) => isoWithOffset(s, business.timeZone));
  const bookingId = await bookingTransaction(ctx, () => unavailable(startsIso[0]!), async (tx) => {
    const booking = await tx.booking.create({
      data: {
        businessId: business.id,
        kind: 'cleaning',
        manageTokenHash: hashToken(manageToken),
        confirmTokenHash: hashToken(confirmToken),
        priceCents: quote.total_cents,
        frequency: input.visit_starts ? 'turnover_series' : input.frequency,
        bedrooms: input.bedrooms,
        bathrooms: input.bathrooms,
        cleanType: input.clean_type,
        sqft: input.sqft ?? null,
        addOns: [...new Set(input.add_ons)],
        pets: input.pets,
        ...bookedBy(input, contact, ctx, now),
      },
      select: { id: true },
    });
    await tx.bookingVisit.createMany({
      data: starts.map((s) => ({ bookingId: booking.id, businessId: business.id, start: new Date(s), end: new Date(s + durationMs) })),
    });
    await closeConversationsOnBooking(tx, { businessId: business.id, credentialId: signedIn(ctx.credential)?.id ?? null, at: now });
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
          price,
          confirmUrl: `${ctx.config.baseUrl}/confirm/${confirmToken}`,
          manageUrl: `${ctx.config.baseUrl}/manage/${manageToken}`,
        },
      ),
    );
    return booking.id;
  });
  void ctx.outbox.flush();
  ctx.events.publish('ownerEvent', business.id, {
    type: 'booking.created',
    at: new Date(now).toISOString(),
    bookingId,
    ...(ctx.clientName ? { clientName: ctx.clientName.slice(0, 100) } : {}),
  });

  const series = starts.length > 1 ? ` and ${starts.length - 1} more visit${starts.length > 2 ? 's' : ''}` : '';
  const channel = contact.email ? `e-mailed ${contact.email}` : `texted ${contact.phone}`;
  return {
    bookingId,
    status: 'pending' as const,
    manageToken,
    manageUrl: `${ctx.config.baseUrl}/manage/${manageToken}`,
    price,
    durationMinutes: quote.duration_minutes,
    visits: startsIso.map((start) => ({ start })),
    next:
      `Booked with ${business.name} for ${startsIso[0]}${series}, $${price}${starts.length > 1 ? ' per visit' : ''} with no added fees. ` +
      `We ${channel} a link to confirm; the booking stays pending until the customer confirms it there. ` +
      'Cancellation is free until 24 hours before the start.',
  };
}

const bookingSummary = { id: true, businessId: true, status: true, customerEmail: true, customerName: true, business: { select: { name: true, email: true, timeZone: true } }, visits: { where: { active: true }, orderBy: { start: 'asc' }, select: { start: true } } } satisfies Prisma.BookingSelect;

export async function cancelBookingService(input: z.output<typeof cancelBooking.input>, ctx: Context) {
  const where = bookingAccess(ctx, input.booking_id, input.manage_token);
  const now = ctx.clock.now();
  // `changedFor` is the business to notify once committed: only the call that cancelled it.
  const { result, changedFor } = await ctx.prisma.$transaction(async (tx) => {
    const booking = await tx.booking.findFirst({ where, select: { ...bookingSummary, late: true } });
    if (!booking) throw notFound(NO_MATCH);
    if (booking.status === 'cancelled') return { result: { bookingId: booking.id, status: 'cancelled' as const, late: booking.late }, changedFor: null };
    if (booking.status === 'done' || booking.status === 'no_show') {
      throw invalid(`This booking is already ${booking.status === 'done' ? 'done' : 'closed as a no-show'} and cannot be cancelled.`);
    }
    const upcoming = booking.visits.filter((v) => v.start.getTime() > now);
    if (upcoming.length === 0) {
      throw new AppError('too_late_to_cancel', 'This booking has already started; ask the business through message_about_booking.');
    }
    const late = upcoming[0]!.start.getTime() - now < FREE_CANCEL_MS;
    // Guard on status so two concurrent cancellations cannot both notify.
    const updated = await tx.booking.updateMany({
      where: { id: booking.id, status: { in: ['pending', 'confirmed'] } },
      data: { status: 'cancelled', cancelledAt: new Date(now), late },
    });
    if (updated.count === 1) {
      await tx.bookingVisit.updateMany({ where: { bookingId: booking.id, start: { gt: new Date(now) } }, data: { active: false } });
      const start = isoWithOffset(upcoming[0]!.start.getTime(), booking.business.timeZone);
      for (const to of [booking.customerEmail, booking.business.email]) {
        if (to) await ctx.outbox.enqueue(tx, cancellationMail(to, { bookingId: booking.id, businessName: booking.business.name, late, start }));
      }
    }
    return { result: { bookingId: booking.id, status: 'cancelled' as const, late }, changedFor: updated.count === 1 ? booking.businessId : null };
  }).finally(() => void ctx.outbox.flush());
  if (changedFor) publishBookingChange(ctx.events, { bookingId: result.bookingId, businessId: changedFor, type: 'booking.cancelled', at: now, clientName: ctx.clientName });
  return result;
}

export async function messageAboutBookingService(input: z.output<typeof messageAboutBooking.input>, ctx: Context) {
  const where = bookingAccess(ctx, input.booking_id, input.manage_token);
  const sent = await ctx.prisma.$transaction(async (tx) => {
    const booking = await tx.booking.findFirst({ where, select: bookingSummary });
    if (!booking) throw notFound(NO_MATCH);
    const message = await tx.bookingMessage.create({
      data: { bookingId: booking.id, author: 'customer', text: input.message, createdAt: ctx.clock.date() },
      select: { createdAt: true },
    });
    if (booking.business.email) {
      const first = booking.visits[0]?.start.getTime();
      await ctx.outbox.enqueue(
        tx,
        businessMessageMail(booking.business.email, {
          bookingId: booking.id,
          customerName: booking.customerName,
          message: input.message,
          start: first ? isoWithOffset(first, booking.business.timeZone) : 'no upcoming visit',
        }),
      );
    }
    return { bookingId: booking.id, businessId: booking.businessId, at: message.createdAt };
  });
  void ctx.outbox.flush();
  ctx.events.publish('ownerEvent', sent.businessId, {
    type: 'message.received',
    at: sent.at.toISOString(),
    bookingId: sent.bookingId,
    ...(ctx.clientName ? { clientName: ctx.clientName.slice(0, 100) } : {}),
  });
  return { sent: true };
}

/** The customer confirms from the link in the mail (a POST from the confirm page). */
export async function confirmBookingService(confirmToken: string, ctx: Context) {
  const booking = await ctx.prisma.booking.findUnique({ where: { confirmTokenHash: hashToken(confirmToken) }, select: { id: true, businessId: true, status: true } });
  if (!booking) throw notFound('This confirmation link is not valid. Use the link from the most recent e-mail.');
  if (booking.status === 'pending') {
    const at = ctx.clock.date();
    const updated = await ctx.prisma.booking.updateMany({ where: { id: booking.id, status: 'pending' }, data: { status: 'confirmed', confirmedAt: at } });
    // Only the request that moved it announces it (a double click confirms once).
    if (updated.count === 1) publishBookingChange(ctx.events, { bookingId: booking.id, businessId: booking.businessId, type: 'booking.confirmed', at });
    return { bookingId: booking.id, status: 'confirmed' };
  }
  return { bookingId: booking.id, status: booking.status };
}
