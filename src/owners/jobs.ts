/**
 * Jobs on the owner's schedule: cancel_job, confirm_job_done, report_no_show, book_job,
 * open_times and quote_job. Every booking id is looked up within the signed-in business, so
 * another business's id is "not found", never a refusal that would confirm it exists.
 */
import type { z } from 'zod';
import type { OwnerContext } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid, notFound } from '../errors.js';
import { slotQuery } from '../availability/schedule.js';
import { isOpenStart, openStarts } from '../core/slots.js';
import { DAY, MINUTE, isoWithOffset, parseStart } from '../core/time.js';
import { claimVisits } from '../bookings/book.js';
import { cancelledInvite, lapsed } from '../bookings/service.js';
import { priceJob, type JobInput } from './job.js';
import { jobCancelledMail } from './mail.js';
import { phoneInput } from '../sms/phone.js';
import { SERVICE_FEE_CENTS, calendarEntries } from './calendar.js';
import { describeBlock, describeEntry } from './blocks.js';
import { cancelBusinessVisitService, lockBusinessVisits, QUEUED } from '../menus/visits.js';
import { cancelBusinessAppointmentService } from '../appointments/setup.js';
import { lockAppointments } from '../appointments/store.js';
import { moveBookingVisit } from '../bookings/reschedule.js';
import { moveVisit } from '../menus/reschedule.js';
import { moveAppointment } from '../appointments/reschedule.js';
import { startIso } from '../appointments/store.js';
import type { bookJobInput, cancelJobInput, jobIdInput, openTimesInput, quoteJobInput, reportNoShowInput, rescheduleJobInput } from './inputs.js';
import { openChannels, toldBy } from '../mail/reach.js';

const NO_JOB = 'Your business has no schedule entry with that booking_id. Use a booking_id (or a visit\'s visit_id) from schedule or book_job.';

const jobState = {
  id: true,
  businessId: true,
  status: true,
  holdUntil: true,
  customerName: true,
  customerEmail: true,
  customerPhone: true,
  ownJob: { select: { bookingId: true } },
  business: { select: { name: true, phone: true, timeZone: true } },
  visits: { where: { active: true }, orderBy: { start: 'asc' }, select: { start: true, end: true } },
} satisfies Prisma.BookingSelect;

/** The booking, locked until the transaction ends (two owners' devices acting at once change it once); null if it is no booking of this business. */
async function lockedJob(tx: Prisma.TransactionClient, businessId: string, bookingId: string) {
  await tx.$executeRaw`SELECT 1 FROM "Booking" WHERE "id" = ${bookingId} AND "businessId" = ${businessId} FOR UPDATE`;
  return tx.booking.findFirst({ where: { id: bookingId, businessId }, select: jobState });
}

/** Which kind of schedule entry an id names, within the business: a booking, a menu visit or an appointment. */
async function entryKind(ctx: OwnerContext, id: string): Promise<'booking' | 'visit' | 'appointment'> {
  const businessId = ctx.business.id;
  const [booking, visit, appointment] = await Promise.all([
    ctx.prisma.booking.findFirst({ where: { id, businessId }, select: { id: true } }),
    ctx.prisma.visit.findFirst({ where: { id, businessId }, select: { id: true } }),
    ctx.prisma.appointment.findFirst({ where: { id, businessId }, select: { id: true } }),
  ]);
  if (booking) return 'booking';
  if (visit) return 'visit';
  if (appointment) return 'appointment';
  throw notFound(NO_JOB);
}

const closedAs = (status: string) =>
  status === 'done' ? 'already confirmed done' : status === 'no_show' ? 'closed as a no-show' : status === 'cancelled' ? 'cancelled' : 'a booking the customer never confirmed (it lapsed)';

export async function cancelJobService(input: z.output<typeof cancelJobInput>, ctx: OwnerContext) {
  const kind = await entryKind(ctx, input.booking_id);
  if (kind === 'visit') return cancelVisitEntry(input, ctx);
  if (kind === 'appointment') return cancelAppointmentEntry(input, ctx);
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    const job = await lockedJob(tx, businessId, input.booking_id);
    if (!job) throw notFound(NO_JOB);
    const result = { bookingId: job.id, status: 'cancelled' as const, customerTold: null as string | null };
    if (job.status === 'cancelled') return result;
    if (job.status !== 'pending' && job.status !== 'confirmed') throw invalid(`This job is ${closedAs(job.status)}; only upcoming jobs can be cancelled.`);
    if (lapsed(job, now)) throw invalid(`This job is ${closedAs('lapsed')}; its time is already free.`);
    const upcoming = job.visits.filter((v) => v.start.getTime() > now);
    if (upcoming.length === 0) {
      throw new AppError('too_late_to_cancel', 'This job has already started; once it has ended, use confirm_job_done, or report_no_show if the customer did not show.');
    }
    await tx.booking.update({ where: { id: job.id }, data: { status: 'cancelled', cancelledAt: new Date(now) } });
    await tx.bookingVisit.updateMany({ where: { bookingId: job.id, start: { gt: new Date(now) } }, data: { active: false } });
    ctx.search.patchAfterCommit(tx, businessId, { remove: job.id, after: now });
    const start = isoWithOffset(upcoming[0]!.start.getTime(), job.business.timeZone);
    // Customers who booked through the service hear it from us; an own job's customer is the owner's to tell.
    if (!job.ownJob) {
      const mail = jobCancelledMail(
        { email: job.customerEmail, phone: job.customerPhone },
        { bookingId: job.id, businessName: job.business.name, businessPhone: job.business.phone, customerName: job.customerName, start, message: input.message ?? null, zone: job.business.timeZone },
      );
      if (mail) {
        // The customer's calendar drops the booking too (.ics CANCEL, bookings/service.ts).
        if (mail.channel !== 'sms') mail.attachments = [await cancelledInvite(tx, ctx, job.id, mail.to, now)];
        await ctx.outbox.enqueue(tx, { ...mail, businessId });
        // Only what this server delivers is said to have told them (a staging sandbox tells nobody).
        result.customerTold = openChannels(ctx.config)[mail.channel ?? 'email'] ? toldBy({ channel: mail.channel ?? 'email', to: mail.to }) : null;
      }
    }
    await ctx.emit(tx, { type: 'booking.cancelled', businessId, bookingId: job.id, clientName: ctx.clientName, data: { customerName: job.customerName, start, by: 'business' } });
    return result;
  });
}

export async function confirmJobDoneService(input: z.output<typeof jobIdInput>, ctx: OwnerContext) {
  const kind = await entryKind(ctx, input.booking_id);
  if (kind !== 'booking') return closeEntry(kind, input.booking_id, 'done', null, ctx);
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    const job = await lockedJob(tx, businessId, input.booking_id);
    if (!job) throw notFound(NO_JOB);
    const counted = !job.ownJob;
    if (job.status === 'done') return { bookingId: job.id, status: 'done' as const, counted };
    if (job.status !== 'confirmed') throw invalid(`This job is ${job.status === 'pending' ? 'still waiting for the customer to confirm it' : closedAs(job.status)}; only a confirmed job that has ended can be confirmed done.`);
    const last = job.visits.at(-1);
    if (!last || last.end.getTime() > now) {
      throw invalid(`This job ends at ${last ? isoWithOffset(last.end.getTime(), job.business.timeZone) : 'an unknown time'}; confirm it done once it has ended.`);
    }
    await tx.booking.update({ where: { id: job.id }, data: { status: 'done' } });
    // Customers see this count in search; own jobs the customer never confirmed through us are not counted.
    if (counted) {
      await tx.business.update({ where: { id: businessId }, data: { jobsConfirmedDone: { increment: 1 } } });
      ctx.search.reloadAfterCommit(tx, 'catalog', businessId);
    }
    await ctx.emit(tx, {
      type: 'booking.done',
      businessId,
      bookingId: job.id,
      clientName: ctx.clientName,
      data: { customerName: job.customerName, start: isoWithOffset(job.visits[0]!.start.getTime(), job.business.timeZone), by: 'business' },
    });
    return { bookingId: job.id, status: 'done' as const, counted };
  });
}

export async function reportNoShowService(input: z.output<typeof reportNoShowInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const waived = SERVICE_FEE_CENTS / 100;
  const kind = await entryKind(ctx, input.booking_id);
  if (kind !== 'booking') return closeEntry(kind, input.booking_id, 'no_show', input.note ?? null, ctx);
  return ctx.transaction(async (tx) => {
    const job = await lockedJob(tx, businessId, input.booking_id);
    if (!job) throw notFound(NO_JOB);
    if (job.ownJob) throw invalid('This is a job you booked yourself (book_job): it carries no service fee, so there is nothing to report. Cancel it or leave it.');
    if (job.status === 'no_show') return { bookingId: job.id, status: 'no_show' as const, feeWaived: waived };
    if (job.status !== 'confirmed') throw invalid(`This job is ${job.status === 'pending' ? 'still waiting for the customer to confirm it' : closedAs(job.status)}; only a confirmed job can be reported as a no-show.`);
    const first = job.visits[0];
    if (!first || first.start.getTime() > now) {
      throw invalid(`This job starts at ${first ? isoWithOffset(first.start.getTime(), job.business.timeZone) : 'an unknown time'}; report a no-show only after its start.`);
    }
    await tx.booking.update({ where: { id: job.id }, data: { status: 'no_show' } });
    // Later visits of a series are released: the customer did not keep the booking.
    await tx.bookingVisit.updateMany({ where: { bookingId: job.id, start: { gt: new Date(now) } }, data: { active: false } });
    ctx.search.patchAfterCommit(tx, businessId, { remove: job.id, after: now });
    await ctx.emit(tx, {
      type: 'booking.no_show',
      businessId,
      bookingId: job.id,
      clientName: ctx.clientName,
      data: { customerName: job.customerName, start: isoWithOffset(first.start.getTime(), job.business.timeZone), text: input.note ?? null, by: 'business' },
    });
    return { bookingId: job.id, status: 'no_show' as const, feeWaived: waived };
  });
}

/**
 * reschedule_job: any entry of the schedule to another start, by the same moves customers make
 * (bookings/reschedule.ts, menus/reschedule.ts, appointments/reschedule.ts) as the business: no
 * 24-hour rule and no notice, but never into the past, blocked time or another entry.
 */
export async function rescheduleJobService(input: z.output<typeof rescheduleJobInput>, ctx: OwnerContext) {
  const kind = await entryKind(ctx, input.booking_id);
  const where = { id: input.booking_id, businessId: ctx.business.id };
  const move = { by: 'business' as const, start: input.start, notFound: NO_JOB };
  if (kind === 'visit') {
    const r = await moveVisit(ctx, { ...move, where });
    return { bookingId: r.view.visitId, kind: 'visit', status: r.view.status, start: r.view.start!, end: r.view.end!, customerTold: r.moved ? r.customerTold : null };
  }
  if (kind === 'appointment') {
    const { appointment: a, moved } = await moveAppointment(ctx, { ...move, where });
    const told = a.customerEmail && openChannels(ctx.config).email ? `e-mailed ${a.customerEmail} and told in the appointment's conversation` : "told in the appointment's conversation";
    return { bookingId: a.id, kind: 'appointment', status: a.status, start: startIso(a), end: isoWithOffset(a.end.getTime(), a.business.timeZone), customerTold: moved ? told : null };
  }
  const r = await moveBookingVisit(ctx, { ...move, where, visitStart: input.visit_start });
  return { bookingId: r.bookingId, kind: r.kind as string, status: r.status, start: r.start, end: r.end, customerTold: r.customerTold };
}

// ---------------------------------------------------------------------------------------------
// Menu visits and appointments on the same schedule: cancel_job does what cancel_business_visit
// and cancel_business_appointment do (through their services); confirm_job_done and
// report_no_show record the outcome of one that has ended or started.

const TOO_LATE = 'It has already started; once it has ended, use confirm_job_done, or report_no_show if the customer did not show.';

async function cancelVisitEntry(input: z.output<typeof cancelJobInput>, ctx: OwnerContext) {
  const now = ctx.clock.now();
  const visit = await ctx.prisma.visit.findFirstOrThrow({ where: { id: input.booking_id, businessId: ctx.business.id }, select: { status: true, start: true, outcome: true } });
  if (visit.status === 'pending') throw invalid('This is a visit request with no time yet; decline it with cancel_business_visit, or confirm it with confirm_visit_request.');
  if (visit.outcome) throw invalid(`This visit is ${visit.outcome === 'done' ? 'already confirmed done' : 'closed as a no-show'}; only upcoming entries can be cancelled.`);
  if (visit.status === 'confirmed' && visit.start!.getTime() <= now) throw new AppError('too_late_to_cancel', `This visit: ${TOO_LATE}`);
  const r = await cancelBusinessVisitService({ visit_id: input.booking_id, message: input.message || undefined }, ctx);
  return { bookingId: r.visitId, status: r.status as string, customerTold: 'told in the visit\'s conversation' as string | null };
}

async function cancelAppointmentEntry(input: z.output<typeof cancelJobInput>, ctx: OwnerContext) {
  const now = ctx.clock.now();
  const a = await ctx.prisma.appointment.findFirstOrThrow({ where: { id: input.booking_id, businessId: ctx.business.id }, select: { status: true, start: true, outcome: true } });
  if (a.status === 'refund_failed') throw invalid('This appointment is cancelled and its refund failed; retry the refund with cancel_business_appointment.');
  if (a.outcome) throw invalid(`This appointment is ${a.outcome === 'done' ? 'already confirmed done' : 'closed as a no-show'}; only upcoming entries can be cancelled.`);
  if ((a.status === 'confirmed' || a.status === 'awaiting_payment') && a.start.getTime() <= now) throw new AppError('too_late_to_cancel', `This appointment: ${TOO_LATE}`);
  const r = await cancelBusinessAppointmentService({ booking_id: input.booking_id, message: input.message || undefined }, ctx);
  return { bookingId: r.bookingId, status: r.status as string, customerTold: 'told in the appointment\'s conversation' as string | null };
}

/** confirm_job_done / report_no_show of a menu visit or an appointment: its outcome, once it has ended (done) or started (no-show). */
async function closeEntry(kind: 'visit' | 'appointment', id: string, outcome: 'done' | 'no_show', note: string | null, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const op = outcome === 'done' ? 'confirm_job_done' : 'report_no_show';
  return ctx.transaction(
    async (tx) => {
      if (kind === 'visit') await lockBusinessVisits(ctx, tx, businessId);
      else await lockAppointments(tx, businessId);
      const select = { id: true, status: true, outcome: true, start: true, end: true, customerName: true, conversationId: true } as const;
      const row = kind === 'visit' ? await tx.visit.findFirstOrThrow({ where: { id, businessId }, select }) : await tx.appointment.findFirstOrThrow({ where: { id, businessId }, select });
      const { timeZone: zone } = await tx.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
      const what = kind === 'visit' ? 'visit' : 'appointment';
      const result = { bookingId: row.id, status: outcome, counted: outcome === 'done', feeWaived: 0 };
      if (row.outcome === outcome) return result;
      if (row.outcome) throw invalid(`This ${what} is already ${row.outcome === 'done' ? 'confirmed done' : 'closed as a no-show'}.`);
      if (row.status !== 'confirmed' || !row.start || !row.end) {
        const fix = kind === 'visit' ? 'a request waits for confirm_visit_request or cancel_business_visit' : 'see booking_setup, or cancel_business_appointment';
        throw invalid(`This ${what} is ${row.status === 'awaiting_payment' ? 'still awaiting payment' : row.status === 'pending' ? 'a request with no time yet' : row.status.replace('_', ' ')}; only a confirmed ${what} can be closed with ${op} (${fix}).`);
      }
      if (outcome === 'done' && row.end.getTime() > now) throw invalid(`This ${what} ends at ${isoWithOffset(row.end.getTime(), zone)}; confirm it done once it has ended.`);
      if (outcome === 'no_show' && row.start.getTime() > now) throw invalid(`This ${what} starts at ${isoWithOffset(row.start.getTime(), zone)}; report a no-show only after its start.`);
      const data = { outcome, outcomeAt: new Date(now) };
      if (kind === 'visit') await tx.visit.update({ where: { id }, data });
      else await tx.appointment.update({ where: { id }, data });
      // Customers see this count in search, as for bookings made through the service.
      if (outcome === 'done') {
        await tx.business.update({ where: { id: businessId }, data: { jobsConfirmedDone: { increment: 1 } } });
        ctx.search.reloadAfterCommit(tx, 'catalog', businessId);
      }
      await ctx.emit(tx, {
        type: `${kind}.${outcome}`,
        businessId,
        ...(kind === 'appointment' ? { bookingId: id } : {}),
        inquiryId: row.conversationId,
        clientName: ctx.clientName,
        data: { customerName: row.customerName, start: isoWithOffset(row.start.getTime(), zone), text: note, by: 'business', ...(kind === 'visit' ? { visitId: id } : {}) },
      });
      return result;
    },
    QUEUED,
  );
}

const businessSelect = {
  id: true,
  name: true,
  kind: true,
  timeZone: true,
  priceList: true,
  minNoticeMinutes: true,
  hours: { select: { weekday: true, startMinute: true, endMinute: true } },
} satisfies Prisma.BusinessSelect;

const ownBusiness = (ctx: OwnerContext) => ctx.prisma.business.findUniqueOrThrow({ where: { id: ctx.business.id }, select: businessSelect });

/** quote_job: the same engines customers' searches use, so the quote is the bookable price. */
export async function quoteJobService(input: z.output<typeof quoteJobInput>, ctx: OwnerContext) {
  const business = await ownBusiness(ctx);
  return quoteView(priceJob(business, input));
}

export function quoteView(priced: ReturnType<typeof priceJob>) {
  const amount = priced.priceCents / 100;
  return {
    total: priced.kind === 'cleaning' ? amount : null,
    fee: priced.kind === 'service_call' ? amount : null,
    lineItems: priced.lines.map((l) => ({ label: l.label, amount: l.cents / 100 })),
    estimatedHours: Math.round((priced.minutes / 60) * 100) / 100,
    durationMinutes: priced.minutes,
    job: priced.summary,
  };
}

const OPEN_STEP_MINUTES = 30;

/** Minutes a job takes: the owner's own figure, or the price list's for the described job. */
function jobMinutes(business: Parameters<typeof priceJob>[0], input: JobInput & { duration_minutes?: number }) {
  if (input.duration_minutes !== undefined) return { minutes: input.duration_minutes, priced: null };
  const priced = priceJob(business, input);
  return { minutes: priced.minutes, priced };
}

/** open_times: the owner's own view, so no customer notice applies, only the future. */
export async function openTimesService(input: z.output<typeof openTimesInput>, ctx: OwnerContext) {
  const business = await ownBusiness(ctx);
  const { minutes, priced } = jobMinutes(business, input);
  const now = ctx.clock.now();
  const from = now - DAY;
  const to = (input.date ? Math.max(now, Date.parse(`${input.date}T00:00:00Z`)) : now) + (input.days + 2) * DAY;
  const busy = (await ctx.search.busyOf([business.id], from, to)).get(business.id)!;
  const q = { ...slotQuery({ ...business, minNoticeMinutes: 0 }, busy, minutes, now, input, input.days), stepMinutes: OPEN_STEP_MINUTES };
  return {
    starts: openStarts(q).map((s) => isoWithOffset(s, business.timeZone)),
    durationMinutes: minutes,
    job: priced?.summary ?? null,
  };
}

/** book_job's refusal: it names each entry and block in [from, to), so the owner knows what to move or unblock. */
async function inTheWay(ctx: OwnerContext, zone: string, from: number, to: number, now: number): Promise<AppError> {
  const businessId = ctx.business.id;
  const [entries, blocks] = await Promise.all([
    calendarEntries(ctx.prisma, businessId, zone, from, to, now),
    ctx.prisma.block.findMany({
      where: { businessId, start: { lt: new Date(to) }, end: { gt: new Date(from) } },
      orderBy: [{ start: 'asc' }, { id: 'asc' }],
      select: { id: true, start: true, end: true, label: true },
    }),
  ]);
  const named = [...entries.map((e) => describeEntry(e, zone)), ...blocks.map((b) => describeBlock(b, zone))];
  const span = `${isoWithOffset(from, zone)} to ${isoWithOffset(to, zone)}`;
  const ways = [
    'call open_times for open starts',
    ...(entries.length ? ['move the entry with reschedule_job'] : []),
    ...(blocks.length ? ['free the time with unblock_time'] : []),
  ];
  const list = ways.length > 2 ? `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}` : ways.join(' or ');
  return new AppError(
    'time_unavailable',
    `${span} overlaps ${named.length ? named.join('; ') : 'another job or blocked time'} on your schedule. ${list[0]!.toUpperCase()}${list.slice(1)}.`,
  );
}

/** A ZIP at the end of an address ("…, Austin TX 78704"), for owners who type the address only. */
const zipOfAddress = (address: string) => /\b(\d{5})(?:-\d{4})?\s*$/.exec(address)?.[1] ?? '';

export async function bookJobService(input: z.output<typeof bookJobInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  if (!input.customer_phone && !input.customer_email) throw invalid('customer_phone or customer_email is required, so the job has a way to reach the customer.');
  const customerPhone = input.customer_phone ? phoneInput(input.customer_phone, 'customer_phone') : null;
  const business = await ownBusiness(ctx);
  const priced = priceJob(business, input);
  const minutes = input.duration_minutes ?? priced.minutes;
  const priceCents = input.price === undefined ? priced.priceCents : Math.round(input.price * 100);
  const start = parseStart(input.start);
  if (start === null) throw invalid('start must be an ISO 8601 time with its UTC offset in the years 2000-2099, e.g. a start from open_times such as 2026-12-01T09:00:00-06:00.');
  const now = ctx.clock.now();
  if (start <= now) throw invalid('start is in the past; book a job from now on (open_times lists open starts).');
  const startIso = isoWithOffset(start, business.timeZone);
  const durationMs = minutes * MINUTE;
  const taken = () => inTheWay(ctx, business.timeZone, start, start + durationMs, now);

  const busy = (await ctx.search.busyOf([businessId], start - DAY, start + durationMs + DAY)).get(businessId)!;
  if (busy.some((b) => b.start < start + durationMs && b.end > start)) throw await taken();
  if (!input.outside_hours) {
    const q = { ...slotQuery({ ...business, minNoticeMinutes: 0 }, [], minutes, now, {}, 1), stepMinutes: 5 };
    if (!isOpenStart(q, start)) {
      throw invalid(`${startIso} to ${isoWithOffset(start + durationMs, business.timeZone)} is outside your hours (or not on a 5-minute mark). Pass outside_hours true to book it anyway, or change your hours with set_hours.`);
    }
  }
  if (input.lead_id) {
    const lead = await ctx.prisma.lead.findFirst({ where: { id: input.lead_id, businessId }, select: { id: true, ownJob: { select: { bookingId: true } } } });
    if (!lead) throw notFound('Your business has no lead with that lead_id. Use a lead_id from log_lead or follow_ups_due.');
    if (lead.ownJob) throw invalid(`That lead is already booked as job ${lead.ownJob.bookingId}.`);
  }

  try {
    const bookingId = await ctx.transaction(async (tx) => {
      const booking = await tx.booking.create({
        data: {
          ...priced.bookingFields,
          businessId,
          kind: priced.kind,
          status: 'confirmed',
          // Own jobs have no customer links; the token columns must still be unique.
          manageTokenHash: hashToken(newToken('mt_')),
          confirmTokenHash: hashToken(newToken('ct_')),
          priceCents,
          address: input.address,
          zip: input.zip ?? zipOfAddress(input.address),
          notes: input.notes ?? null,
          customerName: input.customer_name,
          customerEmail: input.customer_email?.toLowerCase() ?? null,
          customerPhone,
          clientName: ctx.clientName ?? null,
          createdAt: new Date(now),
          confirmedAt: new Date(now),
        },
        select: { id: true },
      });
      await claimVisits(ctx, tx, { bookingId: booking.id, businessId, starts: [start], durationMs, holdUntil: null, now });
      await tx.ownJob.create({ data: { bookingId: booking.id, businessId, leadId: input.lead_id ?? null } });
      if (input.lead_id) await tx.lead.update({ where: { id: input.lead_id }, data: { status: 'booked', updatedAt: new Date(now) } });
      await ctx.emit(tx, {
        type: 'booking.created',
        businessId,
        bookingId: booking.id,
        clientName: ctx.clientName,
        data: { customerName: input.customer_name, start: startIso, by: 'business' },
      });
      return booking.id;
    });
    const amount = priceCents / 100;
    return {
      bookingId,
      status: 'confirmed' as const,
      start: startIso,
      end: isoWithOffset(start + durationMs, business.timeZone),
      kind: priced.kind,
      price: priced.kind === 'cleaning' ? amount : null,
      fee: priced.kind === 'service_call' ? amount : null,
      serviceFee: 0,
      job: priced.summary,
      customerName: input.customer_name,
      address: input.address,
      leadId: input.lead_id ?? null,
    };
  } catch (err) {
    if (isExclusionViolation(err)) throw await taken();
    throw err;
  }
}
