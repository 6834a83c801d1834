/**
 * Moving one visit of a cleaning, service call or own job to another start: reschedule_booking
 * (its customer) and reschedule_job (its owner). The visit row moves in place in one transaction,
 * so its calendar event keeps its UID; the exclusion constraint on visits and the blocks trigger
 * (which covers moves since migration 20261126151717) refuse a taken or blocked start whatever the
 * snapshot missed. The customer gets the moved event (.ics REQUEST, higher SEQUENCE), the owner a
 * booking.rescheduled event (and a mail when the customer moved it).
 */
import { moveStart } from '../calendar/moves.js';
import type { z } from 'zod';
import type { Context } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Tx } from '../db/transaction.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid, notFound } from '../errors.js';
import { slotQuery } from '../availability/schedule.js';
import { isOpenStart } from '../core/slots.js';
import { DAY, MINUTE, isoWithOffset, parseStart } from '../core/time.js';
import { priceAt } from '../pricing/quote.js';
import { quoteServiceCall } from '../pricing/service-call.js';
import type { Trade } from '../pricing/service-call.js';
import { inviteAttachment, nextSequence } from '../calendar/invites.js';
import type { QueuedMail } from '../mail/outbox.js';
import { inWords } from '../mail/words.js';
import { dollarsForPeople } from '../core/for-people.js';
import { bookingAccess, NO_MATCH } from './access.js';
import { claimTurn } from './book.js';
import { lapsed } from './service.js';
import type { rescheduleBookingInput } from './inputs.js';
import { customerReach, openChannels, toldBy } from '../mail/reach.js';

const bookingSelect = {
  id: true,
  businessId: true,
  kind: true,
  status: true,
  holdUntil: true,
  priceCents: true,
  bedrooms: true,
  bathrooms: true,
  cleanType: true,
  sqft: true,
  addOns: true,
  pets: true,
  trade: true,
  issue: true,
  address: true,
  customerName: true,
  customerEmail: true,
  customerPhone: true,
  ownJob: { select: { bookingId: true } },
  business: { select: { slug: true, name: true, email: true, phone: true, timeZone: true, textsCustomers: true } },
  visits: { orderBy: { start: 'asc' }, select: { id: true, start: true, end: true, active: true } },
} satisfies Prisma.BookingSelect;

type Found = Prisma.BookingGetPayload<{ select: typeof bookingSelect }>;

export interface BookingMove {
  /** Finds the booking for whoever acts: the customer's access, or the owner's business. */
  where: Prisma.BookingWhereInput;
  by: 'customer' | 'business';
  start: string;
  /** Which visit of a series; default the next upcoming one. */
  visitStart?: string;
  /** The price the customer accepted (USD), when the business's price changed since booking. */
  price?: number;
  notFound: string;
}

export interface MovedBooking {
  bookingId: string;
  kind: 'cleaning' | 'service_call' | 'own_job';
  status: string;
  start: string;
  end: string;
  /** Upcoming visits after the move. */
  starts: string[];
  priceCents: number;
  customerTold: string | null;
  /** Whether what this server sends reaches the customer (the rule booking used: customerReach in mail/reach.ts). */
  customerReached: boolean;
  businessName: string;
  moved: boolean;
}

const jobName = (b: Pick<Found, 'kind' | 'trade'>) => (b.kind === 'service_call' ? `${b.trade === 'hvac' ? 'HVAC' : 'plumbing'} service call` : 'cleaning');

const stateWord = (status: string) =>
  status === 'done' ? 'already done' : status === 'no_show' ? 'closed as a no-show' : status === 'cancelled' ? 'cancelled' : 'lapsed (never confirmed)';

/** The current price of the booked job at this business; null when its list no longer prices it (the booked price stays). */
function currentPriceCents(b: Found, priceList: unknown): number | null {
  if (b.kind === 'service_call') {
    const q = quoteServiceCall(priceList, b.trade as Trade, b.issue ?? '');
    return q.ok ? q.fee_cents : null;
  }
  const q = priceAt({ priceList }, { bedrooms: b.bedrooms ?? 0, bathrooms: b.bathrooms ?? 0, clean_type: b.cleanType as never, sqft: b.sqft ?? undefined, add_ons: b.addOns, pets: b.pets });
  return q.ok ? q.total_cents : null;
}

/** Which visit moves: the one starting at visit_start, else the next upcoming one. */
function visitToMove(b: Found, visitStart: string | undefined, now: number, zone: string) {
  const live = b.visits.filter((v) => v.active);
  const upcoming = live.filter((v) => v.start.getTime() > now);
  if (visitStart === undefined) {
    const next = upcoming[0];
    if (!next) throw invalid('This booking has no upcoming visit left to move.');
    return next;
  }
  const at = parseStart(visitStart);
  const named = at === null ? undefined : live.find((v) => v.start.getTime() === at);
  if (!named) {
    throw invalid(`visit_start must be the start of one of this booking's visits${upcoming.length ? `: ${upcoming.map((v) => isoWithOffset(v.start.getTime(), zone)).join(', ')}` : ''}.`);
  }
  if (named.start.getTime() <= now) throw invalid('That visit has already started; only an upcoming visit can be moved.');
  return named;
}

/** The customer's copy: the moved visit as a calendar event (by e-mail), or a text. */
async function customerNotice(ctx: Context, tx: Tx, b: Found, f: { visitId: string; start: number; end: number; from: string; to: string; now: number }): Promise<QueuedMail | null> {
  const reach = b.business.phone ? ` Questions: ${b.business.phone}.` : '';
  const what = `Your ${jobName(b)} with ${b.business.name} (booking ${b.id}) moved from ${f.from} to ${f.to}.`;
  if (b.customerEmail) {
    const series = b.visits.length > 1;
    const invite = inviteAttachment(ctx.config, {
      method: 'REQUEST',
      id: b.id,
      series,
      sequence: await nextSequence(tx, 'booking', b.id),
      status: b.status === 'pending' ? 'pending' : 'confirmed',
      business: { name: b.business.name, email: b.business.email },
      customer: { name: b.customerName, email: b.customerEmail },
      summary: `${b.kind === 'service_call' ? jobName(b).replace(/^./, (c) => c.toUpperCase()) : 'Cleaning'} with ${b.business.name}`,
      location: b.address,
      description: what,
      visits: [{ id: f.visitId, start: new Date(f.start), end: new Date(f.end) }],
      now: new Date(f.now),
    });
    return {
      channel: 'email',
      to: b.customerEmail,
      subject: `Moved: your ${jobName(b)} with ${b.business.name} is now ${f.to}`,
      text: [`Hello ${b.customerName},`, '', what, 'The attached calendar event replaces the earlier one.', '', `Nothing else changed.${reach}`].join('\n'),
      bookingId: b.id,
      attachments: [invite],
    };
  }
  if (b.customerPhone) {
    return { channel: 'sms', to: b.customerPhone, subject: `${b.business.name}: booking moved`, text: `${what}${reach}`, bookingId: b.id, businessId: b.businessId };
  }
  return null;
}

/** Moves one visit of a booking (see the file's comment); the caller checked who may. */
export async function moveBookingVisit(ctx: Context, m: BookingMove): Promise<MovedBooking> {
  const now = ctx.clock.now();
  const start = moveStart(m.start, now, 'available_times or find_service_call');
  const b = await ctx.prisma.booking.findFirst({ where: m.where, select: bookingSelect });
  if (!b) throw notFound(m.notFound);
  const zone = b.business.timeZone;
  const customer = m.by === 'customer';
  if (b.status !== 'pending' && b.status !== 'confirmed') throw invalid(`This booking is ${stateWord(b.status)}; only an upcoming booking can be moved.`);
  if (lapsed(b, now)) throw invalid(`This booking is ${stateWord('lapsed')}; its time is already released. Book again instead.`);
  const visit = visitToMove(b, m.visitStart, now, zone);
  const from = isoWithOffset(visit.start.getTime(), zone);
  if (customer && visit.start.getTime() - now < DAY) {
    throw new AppError(
      'too_late_to_change',
      `This visit starts ${from}, less than 24 hours from now, so it can no longer be moved here. Ask ${b.business.name} with message_about_booking${b.business.phone ? ` or call ${b.business.phone}` : ''}; they can move it.`,
    );
  }
  const durationMs = visit.end.getTime() - visit.start.getTime();
  const to = isoWithOffset(start, zone);
  const search = customer ? (b.kind === 'service_call' ? 'find_service_call' : 'available_times') : 'open_times';
  const taken = () => new AppError('time_unavailable', `${to} is not open for this ${jobName(b)}: it overlaps another job or blocked time, or falls outside the business's hours${customer ? ' or notice' : ''}. Call ${search} for open starts.`);
  const result = (s: number, status: string, priceCents: number, starts: number[], customerTold: string | null, moved: boolean): MovedBooking => ({
    bookingId: b.id,
    kind: b.ownJob ? 'own_job' : b.kind,
    status,
    start: isoWithOffset(s, zone),
    end: isoWithOffset(s + durationMs, zone),
    starts: starts.map((x) => isoWithOffset(x, zone)),
    priceCents,
    customerTold,
    customerReached: customerReach(ctx.config, { email: b.customerEmail, phone: b.customerPhone }, b.business.textsCustomers) !== null,
    businessName: b.business.name,
    moved,
  });
  const upcomingStarts = (moved: number) =>
    b.visits.filter((v) => v.active && v.start.getTime() > now).map((v) => (v.id === visit.id ? moved : v.start.getTime())).sort((x, y) => x - y);
  // A retry of a move already made changes nothing and tells nobody again.
  if (start === visit.start.getTime()) return result(start, b.status, b.priceCents, upcomingStarts(start), null, false);

  const business = await ctx.search.business(b.business.slug);
  if (!business) throw notFound(m.notFound);
  let priceCents = b.priceCents;
  if (customer && !b.ownJob) {
    const current = currentPriceCents(b, business.priceList);
    const field = b.kind === 'service_call' ? 'fee' : 'price';
    const offered = m.price === undefined ? undefined : Math.round(m.price * 100);
    if (current !== null && current !== b.priceCents) {
      if (offered !== current) {
        throw new AppError(
          'price_changed',
          `${b.business.name}'s ${field} for this job is now $${current / 100} (booked at $${b.priceCents / 100}). Show the user the new ${field} and pass price ${current / 100} to move the booking at it.`,
          { [field]: current / 100 },
        );
      }
      priceCents = current;
    }
  }
  // The time must be open without the visit being moved (the busy time it leaves is free to it).
  const busy = (await ctx.search.busyOf([b.businessId], start - DAY, start + durationMs + DAY)).get(b.businessId)!
    .filter((x) => !(x.start === visit.start.getTime() && x.end === visit.end.getTime()));
  const q = customer
    ? slotQuery(business, busy, durationMs / MINUTE, now, {}, 1)
    : { ...slotQuery({ ...business, minNoticeMinutes: 0 }, busy, durationMs / MINUTE, now, {}, 1), stepMinutes: 5 };
  if (!isOpenStart(q, start)) throw taken();

  try {
    return await ctx.transaction(async (tx) => {
      // Two moves (or a move and a cancellation) of one booking take turns.
      await tx.$executeRaw`SELECT 1 FROM "Booking" WHERE "id" = ${b.id} FOR UPDATE`;
      const locked = await tx.booking.findUniqueOrThrow({ where: { id: b.id }, select: { status: true, visits: { where: { id: visit.id }, select: { start: true, active: true } } } });
      const row = locked.visits[0]!;
      if (locked.status !== b.status || !row.active || row.start.getTime() !== visit.start.getTime()) {
        throw invalid('This booking changed while moving it; read it again (booking_status or schedule) and retry.');
      }
      await tx.$executeRaw(claimTurn({ businessId: b.businessId, starts: [start], durationMs, now }));
      await tx.bookingVisit.update({ where: { id: visit.id }, data: { start: new Date(start), end: new Date(start + durationMs) } });
      if (priceCents !== b.priceCents) await tx.booking.update({ where: { id: b.id }, data: { priceCents } });
      ctx.search.reloadAfterCommit(tx, 'schedule', b.businessId);
      let customerTold: string | null = null;
      // An own job's customer is the owner's to tell (as cancel_job); everyone else hears it from us.
      if (!b.ownJob) {
        const mail = await customerNotice(ctx, tx, b, { visitId: visit.id, start, end: start + durationMs, from, to, now });
        if (mail) {
          await ctx.outbox.enqueue(tx, inWords(mail, b.business.timeZone));
          // Only what this server delivers is said to have told them (a staging sandbox tells nobody).
          customerTold = openChannels(ctx.config)[mail.channel ?? 'email'] ? toldBy({ channel: mail.channel ?? 'email', to: mail.to }) : null;
        }
      }
      if (customer && b.business.email) {
        await ctx.outbox.enqueue(tx, inWords({
          to: b.business.email,
          subject: `Moved by the customer: ${b.customerName}, now ${to}`,
          text: `${b.customerName} moved booking ${b.id} (${jobName(b)}) from ${from} to ${to}.${priceCents !== b.priceCents ? ` They accepted the current price, ${dollarsForPeople(priceCents / 100)}.` : ''}`,
          bookingId: b.id,
        }, b.business.timeZone));
      }
      await ctx.emit(tx, {
        type: 'booking.rescheduled',
        businessId: b.businessId,
        bookingId: b.id,
        clientName: ctx.clientName,
        data: { customerName: b.customerName, start: to, text: `from ${from} to ${to}`, ...(customer ? {} : { by: 'business' as const }) },
      });
      return result(start, b.status, priceCents, upcomingStarts(start), customerTold, true);
    });
  } catch (err) {
    if (isExclusionViolation(err)) throw taken();
    throw err;
  }
}

export async function rescheduleBookingService(input: z.output<typeof rescheduleBookingInput>, ctx: Context) {
  const moved = await moveBookingVisit(ctx, {
    where: bookingAccess(ctx, input.booking_id, input.manage_token),
    by: 'customer',
    start: input.start,
    visitStart: input.visit_start,
    price: input.price,
    notFound: NO_MATCH,
  });
  const amount = moved.priceCents / 100;
  const serviceCall = moved.kind === 'service_call';
  const pending = moved.status === 'pending';
  return {
    bookingId: moved.bookingId,
    status: moved.status,
    visits: serviceCall ? null : moved.starts.map((start) => ({ start })),
    window: serviceCall ? { start: moved.start, end: moved.end } : null,
    price: serviceCall ? null : amount,
    fee: serviceCall ? amount : null,
    next:
      `${moved.moved ? 'Moved to' : 'Already at'} ${moved.start} with ${moved.businessName}${moved.moved && moved.customerTold ? `; we ${moved.customerTold} the updated calendar event` : ''}. ` +
      (pending
        ? moved.customerReached
          ? 'The booking still waits for the customer to confirm it from the link we sent. '
          : "The booking still waits for the customer's confirmation; nothing this server sends reaches them, so the business will contact them. "
        : '') +
      'Moving or cancelling is free until 24 hours before the start (reschedule_booking, cancel_booking).',
  };
}
