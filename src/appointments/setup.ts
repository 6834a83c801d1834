/**
 * The owner's side of appointments: booking_setup (services, hours, payment account, and the
 * appointments), update_booking_setup, and cancel_business_appointment.
 */
import type { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import { AppError, invalid, notFound } from '../errors.js';
import { DAY, isoWithOffset } from '../core/time.js';
import { minuteWindows, outsideView } from '../core/hours.js';
import { loadMenuState } from '../menus/store.js';
import { accountReady, storedAccount, usableAccount } from '../payments/accounts.js';
import { cancel, lapse, retryRefund } from './moves.js';
import { planHours, planServices } from './plan.js';
import { QUEUED, findAppointment, lockAppointments } from './store.js';
import type { cancelBusinessAppointmentInput, updateBookingSetupInput } from './inputs.js';

/** Appointments shown: those ahead, and the last 30 days' (refunds still settling included). */
const RECENT_MS = 30 * DAY;
const LISTED = 200;

async function setupOf(ctx: Context, businessId: string) {
  const now = ctx.clock.now();
  const state = await loadMenuState(ctx.prisma, { id: businessId }, now, now + DAY, 'owner');
  const zone = state.business.timeZone;
  const account = usableAccount(state.appointments.account, ctx.payments.provider);
  const appointments = await ctx.prisma.appointment.findMany({
    where: { businessId, OR: [{ end: { gt: new Date(now - RECENT_MS) } }, { status: { in: ['refund_pending', 'refund_failed'] } }] },
    orderBy: [{ start: 'asc' }, { createdAt: 'asc' }],
    take: LISTED,
    select: { id: true, status: true, start: true, end: true, serviceId: true, serviceName: true, priceCents: true, paidCents: true, customerName: true, conversationId: true, holdUntil: true, cancelledBy: true, clientName: true },
  });
  return {
    services: state.appointments.services.map((s) => ({ serviceId: s.id, name: s.name, priceCents: s.priceCents, durationMinutes: s.durationMinutes, payment: s.payment })),
    hours: state.appointments.hours.map((h) => ({ weekday: h.weekday, startMinute: h.startMinute, endMinute: h.endMinute })),
    outsideOpeningHours: outsideView(state.appointments.hours, state.business.hours),
    paymentAccountReady: accountReady(account),
    paymentProvider: ctx.payments.provider.name,
    appointments: appointments.map((a) => ({
      bookingId: a.id,
      // An unpaid hold that ran out is lapsed whether or not the sweep has marked it yet.
      status: a.status === 'awaiting_payment' && a.holdUntil!.getTime() <= now ? 'lapsed' : a.status,
      start: isoWithOffset(a.start.getTime(), zone),
      end: isoWithOffset(a.end.getTime(), zone),
      serviceId: a.serviceId,
      serviceName: a.serviceName,
      priceCents: a.priceCents,
      paidCents: a.paidCents,
      customerName: a.customerName,
      inquiryId: a.conversationId,
      cancelledBy: a.cancelledBy,
      clientName: a.clientName,
    })),
  };
}

export async function bookingSetupService(ctx: OwnerContext) {
  return setupOf(ctx, ctx.business.id);
}

export async function updateBookingSetupService(input: z.output<typeof updateBookingSetupInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  if (input.services === undefined && input.hours === undefined && input.remove_service_ids === undefined) {
    throw invalid('Send services, remove_service_ids or hours: whatever is left out stays as it is.');
  }
  await ctx.transaction(async (tx) => {
    await lockAppointments(tx, businessId);
    const now = ctx.clock.now();
    const state = await loadMenuState(tx, { id: businessId }, now, now, 'owner');
    const services = planServices(state.appointments.services, input);
    const hours = input.hours === undefined ? null : planHours(minuteWindows(input.hours, state.appointments.hours));
    const newUpfront = (input.services ?? []).filter((s) => s.payment === 'upfront');
    if (newUpfront.length && !accountReady(await storedAccount(tx, businessId, ctx.payments.provider))) {
      throw new AppError(
        'not_configured',
        `Upfront payment needs a ready payment account, and yours is not (${newUpfront.map((s) => `"${s.name}"`).join(', ')}). Run customer_payment_onboarding, finish the provider's form, then send these services again (or use payment none).`,
      );
    }
    // Replaced whole under the lock: a booking sees the old setup or the new, never a mix.
    await tx.appointmentService.deleteMany({ where: { businessId } });
    await tx.appointmentService.createMany({ data: services.map((s, position) => ({ businessId, id: s.id, position, name: s.name, priceCents: s.priceCents, durationMinutes: s.durationMinutes, payment: s.payment })) });
    if (hours) {
      await tx.appointmentHours.deleteMany({ where: { businessId } });
      await tx.appointmentHours.createMany({ data: hours.map((h) => ({ businessId, ...h })) });
    }
    ctx.changes.changed(tx, businessId);
  }, QUEUED);
  return setupOf(ctx, businessId);
}

export async function cancelBusinessAppointmentService(input: z.output<typeof cancelBusinessAppointmentInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  return ctx.transaction(async (tx) => {
    await lockAppointments(tx, businessId);
    const a = await findAppointment(tx, { id: input.booking_id, businessId });
    if (!a) throw notFound('No appointment of your business has that booking_id. Use one from booking_setup.');
    if (a.status === 'awaiting_payment' && a.holdUntil!.getTime() <= ctx.clock.now()) await lapse(ctx, tx, a);
    else if (a.status === 'confirmed' || a.status === 'awaiting_payment') await cancel(ctx, tx, a, 'business', input.message);
    else if (a.status === 'refund_failed') await retryRefund(ctx, tx, a);
    else return { bookingId: a.id, status: a.status };
    return { bookingId: a.id, status: (await findAppointment(tx, { id: a.id }))!.status };
  }, QUEUED);
}
