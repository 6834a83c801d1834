/**
 * What the payment provider's events do to appointments (the 'appointment' purpose of
 * src/payments/webhooks.ts), and the sweep that lapses unpaid holds and retries refunds.
 *
 * Events may come late, twice or out of order; each is weighed against the appointment as it is
 * now, under the business's lock:
 * - payment received: confirms an appointment still awaiting payment and holding its time;
 *   for one that lapsed or was cancelled meanwhile (or a payment short of the price) the money
 *   is refunded, never the booking resurrected; a repeat of a known payment changes nothing.
 * - checkout expired: an appointment still awaiting payment lapses.
 * - refund succeeded or failed: settles the appointment's current refund (an earlier refund's
 *   news is ignored; a refund reported failed after succeeding is failed).
 * An event from another account than the one the appointment is paid into is ignored.
 */
import type { Services } from '../context.js';
import type { Tx } from '../db/transaction.js';
import type { PaymentPurposeHandler, ReferencedEvent } from '../payments/payments.js';
import { MAX_REFUND_ATTEMPTS, confirmPaid, lapse, refundSettled, refundUnwanted, startRefund } from './moves.js';
import { QUEUED, findAppointment, lockAppointments, type StoredAppointment } from './store.js';
import { usd } from '../core/money.js';

const SWEEP_BATCH = 100;

async function locked(tx: Tx, id: string): Promise<StoredAppointment | null> {
  const a = await findAppointment(tx, { id });
  if (!a) return null;
  await lockAppointments(tx, a.businessId);
  return findAppointment(tx, { id });
}

export const onAppointmentPayment: PaymentPurposeHandler = async (services: Services, tx: Tx, event: ReferencedEvent) => {
  const a = await locked(tx, event.reference.id);
  if (!a) return;
  if (event.account !== null && event.account !== a.paymentAccountId) {
    services.logger.warn({ event: event.id, appointment: a.id }, 'payment event from an account the appointment is not paid into: ignored');
    return;
  }
  switch (event.kind) {
    case 'checkout.completed': {
      if (a.paymentIntentId === event.paymentIntentId) return;
      if (a.paymentIntentId !== null) {
        services.logger.error({ event: event.id, appointment: a.id }, 'a second payment for an appointment already paid: refund it by hand at the provider');
        return;
      }
      const paid = { paymentIntentId: event.paymentIntentId, amountCents: event.amountCents };
      if (a.status === 'awaiting_payment' && a.holdsTime && event.amountCents >= a.priceCents) return confirmPaid(services, tx, a, paid);
      const why =
        a.status === 'awaiting_payment' && a.holdsTime ? `short of the ${usd(a.priceCents)} price` : a.status === 'cancelled' ? 'after the booking was cancelled' : 'after the booking had lapsed';
      return refundUnwanted(services, tx, a, paid, why);
    }
    case 'checkout.expired':
      if (a.status === 'awaiting_payment' && (a.checkoutSessionId === null || a.checkoutSessionId === event.sessionId)) await lapse(services, tx, a);
      return;
    case 'refund.succeeded':
    case 'refund.failed': {
      // The provider may report the refund before our own call recorded its id: then the
      // reported refund is this round's only if it says so (news of a failed earlier round is not).
      const current = a.refundId === event.refundId || (a.refundId === null && a.status === 'refund_pending' && event.reference.attempt === a.refundRound);
      if (!current) return;
      if (a.refundId === null) await tx.appointment.update({ where: { id: a.id }, data: { refundId: event.refundId } });
      if (event.kind === 'refund.succeeded' && a.status === 'refund_pending') return refundSettled(services, tx, a, 'succeeded');
      if (event.kind === 'refund.failed' && (a.status === 'refund_pending' || a.status === 'refunded')) return refundSettled(services, tx, a, 'failed');
      return;
    }
  }
};

/**
 * Runs on the server's timer (and once at start-up, so holds that ran out while no instance ran
 * lapse first): unpaid holds past their time lapse, and refunds the provider did not take yet
 * are asked for again. Every instance sweeps; the state guards make each move happen once.
 */
export async function sweepAppointments(services: Services): Promise<number> {
  const now = services.clock.date();
  const due = await services.prisma.appointment.findMany({
    where: { status: 'awaiting_payment', holdUntil: { lte: now } },
    select: { id: true },
    orderBy: { holdUntil: 'asc' },
    take: SWEEP_BATCH,
  });
  let lapsed = 0;
  for (const { id } of due) {
    await services.transaction(async (tx) => {
      const a = await locked(tx, id);
      if (a?.status !== 'awaiting_payment' || a.holdUntil!.getTime() > services.clock.now()) return;
      await lapse(services, tx, a);
      lapsed++;
    }, QUEUED);
  }
  const refunds = await services.prisma.appointment.findMany({
    where: { status: 'refund_pending', refundId: null, refundAttempts: { lt: MAX_REFUND_ATTEMPTS } },
    select: { id: true },
    take: SWEEP_BATCH,
  });
  for (const { id } of refunds) await startRefund(services, id);
  return lapsed;
}
