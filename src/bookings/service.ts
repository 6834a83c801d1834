import type { z } from 'zod';
import type { Context, Services } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../db/transaction.js';
import { AppError, invalid, notFound } from '../errors.js';
import { hashToken } from '../auth/tokens.js';
import { businessBySlug } from '../search/snapshot.js';
import { priceAt } from '../pricing/quote.js';
import { DAY, isoWithOffset, parseStart } from '../core/time.js';
import { DEFAULT_HORIZON_DAYS, seriesStarts } from '../core/recurrence.js';
import { bookingAccess, NO_MATCH } from './access.js';
import { businessMessageMail, cancellationMail } from './mail.js';
import { inviteAttachment, nextSequence } from '../calendar/invites.js';
import type { bookCleaningInput, cancelBookingInput, messageInput } from './inputs.js';
import { book, FREE_CANCEL_MS } from './book.js';
import type { Config } from '../config.js';
import { customerReach, toldBy, unreachable } from '../mail/reach.js';

/** The visit starts a request asks for, before availability is checked. */
function requestedStarts(input: z.output<typeof bookCleaningInput>, zone: string, now: number): number[] {
  if (input.visit_starts) {
    if (input.visits !== undefined) throw invalid('Pass visits (with a recurring frequency) or visit_starts (one start per guest checkout), not both.');
    const horizon = now + DEFAULT_HORIZON_DAYS * DAY;
    const starts = input.visit_starts.map((s) => {
      const at = parseStart(s);
      if (at === null) throw invalid(`visit_starts holds "${s}", which is not a start value; use starts from available_times.`);
      if (at <= now) throw invalid(`visit_starts holds ${s}, which is in the past.`);
      if (at > horizon) throw invalid(`visit_starts holds ${s}; every visit must be within the next ${DEFAULT_HORIZON_DAYS} days.`);
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

export async function bookCleaningService(input: z.output<typeof bookCleaningInput>, ctx: Context) {
  const business = await businessBySlug(ctx.search, input.pro_id, ['cleaning']);
  const quote = priceAt(business, input);
  if (!quote.ok) throw invalid(quote.reason);
  const price = quote.total_cents / 100;
  if (input.price !== undefined && Math.round(input.price * 100) !== quote.total_cents) {
    throw new AppError('price_changed', `The price for this job is now $${price}, not $${input.price}. Show the user the new price and book again with it.`, { price });
  }
  const starts = requestedStarts(input, business.timeZone, ctx.clock.now());
  const booked = await book(ctx, {
    business,
    kind: 'cleaning',
    input,
    starts,
    durationMinutes: quote.duration_minutes,
    priceCents: quote.total_cents,
    fields: {
      frequency: input.visit_starts ? 'turnover_series' : input.frequency,
      bedrooms: input.bedrooms,
      bathrooms: input.bathrooms,
      cleanType: input.clean_type,
      sqft: input.sqft ?? null,
      addOns: [...new Set(input.add_ons)],
      pets: input.pets,
    },
    search: 'available_times',
    searchFor: 'cleaners',
  });
  const series = starts.length > 1 ? ` and ${starts.length - 1} more visit${starts.length > 2 ? 's' : ''}` : '';
  return {
    bookingId: booked.bookingId,
    status: 'pending' as const,
    manageToken: booked.manageToken,
    manageUrl: booked.manageUrl,
    holdUntil: booked.holdUntil,
    price,
    durationMinutes: quote.duration_minutes,
    visits: booked.startsIso.map((start) => ({ start })),
    next:
      `Pending, not booked yet: ${business.name} for ${booked.startsIso[0]}${series}, $${price}${starts.length > 1 ? ' per visit' : ''} with no added fees. ${booked.nextTail}` +
      (starts.length > 1 && input.frequency !== 'once' && !input.visit_starts ? ` ${seriesEnd(input.frequency, booked.startsIso.at(-1)!)}` : ''),
  };
}

/** When a recurring series ends, and how to go on after it (book_cleaning, booking_status). */
export const seriesEnd = (frequency: string, last: string) =>
  `The ${frequency} series ends with the visit on ${last} and does not renew by itself: to go on, book a new ${frequency} series with book_cleaning starting after it.`;

/** What a booking waits for and what to do next (booking_status). */
export function bookingNext(
  b: {
    status: string;
    holdUntil: Date | null;
    frequency: string;
    customerEmail: string | null;
    customerPhone: string | null;
    business: { name: string; timeZone: string; phone: string | null; textsCustomers: boolean };
    visits: { start: Date }[];
  },
  now: number,
  config: Pick<Config, 'development' | 'smtpUrl' | 'twilio'>,
): string {
  const zone = b.business.timeZone;
  const starts = b.visits.map((v) => isoWithOffset(v.start.getTime(), zone));
  const upcoming = b.visits.filter((v) => v.start.getTime() > now).map((v) => isoWithOffset(v.start.getTime(), zone));
  const series = starts.length > 1 && b.frequency !== 'once' && b.frequency !== 'turnover_series' ? ` ${seriesEnd(b.frequency, starts.at(-1)!)}` : '';
  if (lapsed(b, now)) return 'Lapsed: the customer did not confirm in time and the time was released. Nothing is booked; book again if they still want it.';
  if (b.status === 'pending') {
    // As book() chose it: what this server delivers, by the same rule.
    const contact = { email: b.customerEmail, phone: b.customerPhone };
    const reach = customerReach(config, contact, b.business.textsCustomers);
    return (
      (reach
        ? `Waiting for the customer's confirmation: we ${toldBy(reach)} a link, and nothing is booked until they confirm there. `
        : `Waiting for the customer's confirmation. ${unreachable(contact, b.business.textsCustomers, b.business)} `) +
      `The time is held until ${isoWithOffset(b.holdUntil!.getTime(), zone)}; unconfirmed by then, the booking lapses and the time is released.${series}`
    );
  }
  if (b.status === 'confirmed') {
    const next = upcoming[0] ? ` The next visit is ${upcoming[0]}.` : '';
    // As cancel_booking decides: late when the next visit is within 24 hours; once started, only the business can.
    const soonest = b.visits.find((v) => v.start.getTime() > now)?.start.getTime();
    const cancel =
      soonest === undefined ? 'it has started, so cancel_booking no longer cancels: ask the business through message_about_booking'
      : soonest - now < FREE_CANCEL_MS ? 'cancel_booking cancels, but a cancellation now is late (within 24 hours of the visit): the business may charge under its own policy'
      : 'cancel_booking cancels (free until 24 hours before a visit)';
    return `Confirmed with ${b.business.name}.${next} message_about_booking reaches the business; ${cancel}.${series}`;
  }
  if (b.status === 'cancelled') return 'Cancelled: nothing more will happen. Book again to get a new time.';
  if (b.status === 'done') return 'Done: the business marked the work done.';
  return `The business marked it ${b.status.replace('_', '-')}. message_about_booking reaches the business.`;
}

const bookingSummary = {
  id: true,
  businessId: true,
  status: true,
  holdUntil: true,
  customerEmail: true,
  customerName: true,
  business: { select: { name: true, email: true, timeZone: true } },
  visits: { where: { active: true }, orderBy: { start: 'asc' }, select: { start: true } },
} satisfies Prisma.BookingSelect;

/** A pending booking whose hold has passed is lapsed, whether or not the sweep has marked it yet. */
export const lapsed = (b: { status: string; holdUntil: Date | null }, now: number) =>
  b.status === 'lapsed' || (b.status === 'pending' && b.holdUntil !== null && b.holdUntil.getTime() <= now);

/**
 * The .ics that takes a cancelled booking's remaining visits out of its customer's calendar: the
 * same UIDs as the confirmation's, a higher SEQUENCE (raised here, in the cancelling transaction).
 */
export async function cancelledInvite(tx: Tx, ctx: Pick<Context, 'config'>, bookingId: string, email: string, now: number) {
  const sequence = await nextSequence(tx, 'booking', bookingId);
  const b = await tx.booking.findUniqueOrThrow({
    where: { id: bookingId },
    select: {
      kind: true, trade: true, address: true, customerName: true,
      business: { select: { name: true, email: true } },
      visits: { orderBy: { start: 'asc' }, select: { id: true, start: true, end: true } },
    },
  });
  const cancelled = b.visits.filter((v) => v.start.getTime() > now);
  return inviteAttachment(ctx.config, {
    method: 'CANCEL',
    id: bookingId,
    series: b.visits.length > 1,
    sequence,
    status: 'cancelled',
    business: b.business,
    customer: { name: b.customerName, email },
    summary: `${b.kind === 'service_call' ? 'Service call' : 'Cleaning'} with ${b.business.name}`,
    location: b.address,
    description: `Booking ${bookingId} is cancelled.`,
    visits: cancelled,
    now: new Date(now),
  });
}

export async function cancelBookingService(input: z.output<typeof cancelBookingInput>, ctx: Context) {
  const where = bookingAccess(ctx, input.booking_id, input.manage_token);
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    const booking = await tx.booking.findFirst({ where, select: { ...bookingSummary, late: true } });
    if (!booking) throw notFound(NO_MATCH);
    if (booking.status === 'cancelled') return { bookingId: booking.id, status: 'cancelled' as const, late: booking.late };
    if (booking.status === 'done' || booking.status === 'no_show') {
      throw invalid(`This booking is already ${booking.status === 'done' ? 'done' : 'closed as a no-show'} and cannot be cancelled.`);
    }
    if (lapsed(booking, now)) throw invalid('This booking was never confirmed and has lapsed; its time is already released, so there is nothing to cancel.');
    const upcoming = booking.visits.filter((v) => v.start.getTime() > now);
    if (upcoming.length === 0) {
      throw new AppError('too_late_to_cancel', 'This booking has already started; ask the business through message_about_booking.');
    }
    // A booking the customer never confirmed was never the business's to charge for.
    const late = booking.status === 'confirmed' && upcoming[0]!.start.getTime() - now < FREE_CANCEL_MS;
    // Guard on status so that of two concurrent cancellations only one notifies.
    const updated = await tx.booking.updateMany({
      where: { id: booking.id, status: { in: ['pending', 'confirmed'] } },
      data: { status: 'cancelled', cancelledAt: new Date(now), late },
    });
    if (updated.count === 1) {
      await tx.bookingVisit.updateMany({ where: { bookingId: booking.id, start: { gt: new Date(now) } }, data: { active: false } });
      const start = isoWithOffset(upcoming[0]!.start.getTime(), booking.business.timeZone);
      const invite = booking.customerEmail ? await cancelledInvite(tx, ctx, booking.id, booking.customerEmail, now) : null;
      for (const to of [booking.customerEmail, booking.business.email]) {
        if (to) await ctx.outbox.enqueue(tx, cancellationMail(to, { bookingId: booking.id, businessName: booking.business.name, late, start, invite: to === booking.customerEmail ? invite : null, zone: booking.business.timeZone }));
      }
      ctx.search.patchAfterCommit(tx, booking.businessId, { remove: booking.id, after: now });
      await ctx.emit(tx, {
        type: 'booking.cancelled',
        businessId: booking.businessId,
        bookingId: booking.id,
        clientName: ctx.clientName,
        data: { customerName: booking.customerName, start },
      });
    }
    return { bookingId: booking.id, status: 'cancelled' as const, late };
  });
}

export async function messageAboutBookingService(input: z.output<typeof messageInput>, ctx: Context) {
  const where = bookingAccess(ctx, input.booking_id, input.manage_token);
  await ctx.transaction(async (tx) => {
    const booking = await tx.booking.findFirst({ where, select: bookingSummary });
    if (!booking) throw notFound(NO_MATCH);
    await tx.bookingMessage.create({ data: { bookingId: booking.id, author: 'customer', text: input.message, createdAt: ctx.clock.date() } });
    const first = booking.visits[0]?.start.getTime();
    const start = first ? isoWithOffset(first, booking.business.timeZone) : null;
    if (booking.business.email) {
      await ctx.outbox.enqueue(
        tx,
        businessMessageMail(booking.business.email, { bookingId: booking.id, customerName: booking.customerName, message: input.message, start: start ?? 'no upcoming visit', zone: booking.business.timeZone }),
      );
    }
    await ctx.emit(tx, {
      type: 'message.received',
      businessId: booking.businessId,
      bookingId: booking.id,
      clientName: ctx.clientName,
      data: { customerName: booking.customerName, start, text: input.message },
    });
  });
  return { sent: true };
}

/** The booking a confirmation link is for: the first message's link, or the reminder's (bookings/reminders.ts). */
export const byConfirmToken = (token: string) => {
  const hash = hashToken(token);
  return { OR: [{ confirmTokenHash: hash }, { reminderTokenHash: hash }] };
};

/** The customer confirms from the link in the mail (a POST from the confirm page). */
export async function confirmBookingService(confirmToken: string, ctx: Context) {
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    const booking = await tx.booking.findFirst({ where: byConfirmToken(confirmToken), select: bookingSummary });
    if (!booking) throw notFound('This confirmation link is not valid. Use the link from the most recent e-mail.');
    if (lapsed(booking, now)) {
      throw invalid(
        `This booking was not confirmed by ${isoWithOffset(booking.holdUntil!.getTime(), booking.business.timeZone)}, so it lapsed and its time was released. Book again; the time may still be free.`,
      );
    }
    if (booking.status !== 'pending') return { bookingId: booking.id, status: booking.status };
    // Guarded on status: a double click confirms (and announces) once.
    const updated = await tx.booking.updateMany({ where: { id: booking.id, status: 'pending' }, data: { status: 'confirmed', confirmedAt: new Date(now), holdUntil: null } });
    if (updated.count === 1) {
      await tx.bookingVisit.updateMany({ where: { bookingId: booking.id }, data: { holdUntil: null } });
      ctx.search.patchAfterCommit(tx, booking.businessId, { confirm: booking.id });
      const first = booking.visits[0]?.start.getTime();
      await ctx.emit(tx, {
        type: 'booking.confirmed',
        businessId: booking.businessId,
        bookingId: booking.id,
        data: { customerName: booking.customerName, start: first ? isoWithOffset(first, booking.business.timeZone) : null },
      });
    }
    return { bookingId: booking.id, status: 'confirmed' };
  });
}

/**
 * Lapses pending bookings whose hold has passed: status lapsed, visits released, owner told.
 * Runs on a timer in every instance; the status guard makes each booking lapse once.
 */
export async function lapseExpiredHolds(services: Services, batch = 200): Promise<number> {
  const now = services.clock.date();
  const due = await services.prisma.booking.findMany({
    where: { status: 'pending', holdUntil: { lte: now } },
    select: { id: true },
    take: batch,
  });
  if (due.length === 0) return 0;
  return services.transaction(async (tx) => {
    const moved = await tx.$queryRaw<{ id: string; businessId: string; customerName: string }[]>`
      UPDATE "Booking" SET "status" = 'lapsed' WHERE "id" = ANY(${due.map((d) => d.id)}) AND "status" = 'pending' AND "holdUntil" <= ${now}
      RETURNING "id", "businessId", "customerName"`;
    if (moved.length === 0) return 0;
    await tx.bookingVisit.updateMany({ where: { bookingId: { in: moved.map((m) => m.id) } }, data: { active: false } });
    for (const m of moved) {
      services.search.patchAfterCommit(tx, m.businessId, { remove: m.id });
      await services.emit(tx, { type: 'booking.lapsed', businessId: m.businessId, bookingId: m.id, data: { customerName: m.customerName } });
    }
    return moved.length;
  });
}
