/**
 * Moving an appointment to another start: reschedule_appointment (its customer, by the
 * conversation's tokens) and reschedule_job (its owner). Under the business's appointment lock
 * the start is asked exactly as book_appointment asks it (owners without the notice), with the
 * appointment's own time free to it, and the row moves in place: its payment, checkout and price
 * stay with it. The one-at-a-time exclusion constraint and the blocks trigger refuse what the
 * check missed. The move is told through moves.ts (conversation, mails with the moved .ics, event).
 */
import { moveStart } from '../calendar/moves.js';
import type { z } from 'zod';
import type { Context } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid, notFound } from '../errors.js';
import { hashToken } from '../auth/tokens.js';
import { DAY, isoWithOffset } from '../core/time.js';
import { loadMenuState } from '../menus/store.js';
import { rescheduled } from './moves.js';
import { SELF_CANCEL_MS, appointmentEnd, canBook, takesTime, type AppointmentPlan } from './schedule.js';
import { QUEUED, findAppointment, heldAppointments, lockAppointments, startIso } from './store.js';
import type { rescheduleAppointmentInput } from './inputs.js';

export interface AppointmentMove {
  where: Prisma.AppointmentWhereInput;
  by: 'customer' | 'business';
  start: string;
  notFound: string;
}

export async function moveAppointment(ctx: Context, m: AppointmentMove) {
  const now = ctx.clock.now();
  const start = moveStart(m.start, now, 'appointment_times');
  const found = await ctx.prisma.appointment.findFirst({ where: m.where, select: { id: true, businessId: true } });
  if (!found) throw notFound(m.notFound);
  const customer = m.by === 'customer';
  const taken = (to: string) =>
    new AppError('time_unavailable', `${to} is not open for this appointment (hours, blocked time, another appointment${customer ? ', notice' : ''}). ${customer ? 'Call appointment_times' : 'Check booking_setup and schedule'} for open starts.`);
  try {
    return await ctx.transaction(async (tx) => {
      await lockAppointments(tx, found.businessId);
      const a = (await findAppointment(tx, { id: found.id }))!;
      const { outcome } = await tx.appointment.findUniqueOrThrow({ where: { id: a.id }, select: { outcome: true } });
      const zone = a.business.timeZone;
      const name = a.business.name;
      if (outcome || !takesTime({ ...a, holdUntil: a.holdUntil?.getTime() ?? null }, now)) {
        const state = outcome === 'done' ? 'done' : outcome ? 'closed as a no-show' : a.status === 'awaiting_payment' ? 'lapsed (not paid in time)' : a.status.replace('_', ' ');
        throw invalid(`This appointment is ${state}; only an upcoming one can be moved.${customer ? ' Book again with book_appointment.' : ''}`);
      }
      const from = startIso(a);
      const to = isoWithOffset(start, zone);
      if (a.start.getTime() <= now) throw invalid(`This appointment started at ${from}; only an upcoming one can be moved.`);
      if (customer && a.start.getTime() - now < SELF_CANCEL_MS) {
        throw new AppError(
          'too_late_to_change',
          `This appointment starts ${from}, less than 24 hours from now, so it can no longer be moved here. Ask ${name} in the conversation (follow_up_business with the inquiry_id and reply_token); they can move it.`,
        );
      }
      // A retry of a move already made changes nothing and tells nobody again.
      if (a.start.getTime() === start) return { appointment: a, moved: false };
      const state = await loadMenuState(tx, { id: a.businessId }, start - 2 * DAY, start + 2 * DAY);
      // Its own time is free to it.
      const held = (await heldAppointments(tx, a.businessId, start - DAY, start + DAY)).filter((h) => !(h.start === a.start.getTime() && h.end === a.end.getTime()));
      const plan: AppointmentPlan = {
        zone,
        openingHours: state.business.hours,
        hours: state.appointments.hours,
        blocks: state.blocks,
        appointments: held,
        minNoticeMinutes: customer ? state.business.minNoticeMinutes : 0,
        now,
        durationMinutes: a.durationMinutes,
      };
      if (!canBook(plan, start)) throw taken(to);
      const end = appointmentEnd(start, a.durationMinutes);
      // Holds whose payment time ran out give way, as they do to a new appointment (the insert trigger).
      await tx.$executeRaw`
        UPDATE "Appointment" SET "holdsTime" = false
        WHERE "businessId" = ${a.businessId} AND "holdsTime" AND "status" = 'awaiting_payment' AND "holdUntil" <= ${new Date(now)} AND "id" <> ${a.id}
          AND tstzrange("start", "end", '[)') && tstzrange(${new Date(start)}, ${new Date(end)}, '[)')`;
      await tx.appointment.update({ where: { id: a.id }, data: { start: new Date(start), end: new Date(end) } });
      const moved = (await findAppointment(tx, { id: a.id }))!;
      await rescheduled(ctx, tx, moved, m.by, from);
      ctx.search.reloadAfterCommit(tx, 'schedule', a.businessId);
      return { appointment: moved, moved: true };
    }, QUEUED);
  } catch (err) {
    if (isExclusionViolation(err)) throw taken(m.start);
    throw err;
  }
}

export async function rescheduleAppointmentService(input: z.output<typeof rescheduleAppointmentInput>, ctx: Context) {
  const r = await moveAppointment(ctx, {
    where: { id: input.booking_id, conversationId: input.inquiry_id, conversation: { replyTokenHash: hashToken(input.reply_token) } },
    by: 'customer',
    start: input.start,
    notFound: 'No appointment matches that booking_id, inquiry_id and reply_token. Use the values returned by book_appointment and contact_business.',
  });
  const a = r.appointment;
  const start = startIso(a);
  return {
    bookingId: a.id,
    status: a.status,
    start,
    end: isoWithOffset(a.end.getTime(), a.business.timeZone),
    next:
      `${r.moved ? 'Moved to' : 'Already at'} ${start}${a.paidCents !== null ? '; the upfront payment stays with it' : ''}; the customer's calendar event moves with it. ` +
      'Move or cancel until 24 hours before the start (reschedule_appointment, cancel_appointment); later, ask the business in the conversation.',
  };
}
