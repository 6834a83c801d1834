/**
 * Every move of an appointment after it is booked — paid, lapsed, cancelled, refunded — in one
 * place, each inside the caller's transaction: the row changes (guarded by the state it left),
 * the move is posted into the appointment's conversation, the other side is mailed, and an
 * event is emitted for the owner and the conversation's subscribers. Work with the payment
 * provider (refunds, expiring a checkout) runs after commit.
 */
import type { Services } from '../context.js';
import { onCommit, type Tx } from '../db/transaction.js';
import { postToConversation } from '../conversations/conversation.js';
import { answerMail } from '../conversations/mail.js';
import type { EventType } from '../events/kinds.js';
import { ProviderError } from '../payments/provider.js';
import { appointmentNoticeMail } from './mail.js';
import { findAppointment, startIso, type Actor, type StoredAppointment } from './store.js';
import { usd } from '../core/money.js';
import { inviteAttachment, nextSequence } from '../calendar/invites.js';

/** Asking the provider for a refund is retried this often (by the sweep) before it counts as failed. */
export const MAX_REFUND_ATTEMPTS = 5;

type By = 'customer' | 'business';

async function announce(
  actor: Actor,
  tx: Tx,
  a: StoredAppointment,
  f: { type: EventType; author: By; text: string; at: Date; mailBusiness?: boolean; mailCustomer?: boolean; invite?: 'REQUEST' | 'CANCEL'; inviteStatus?: 'confirmed' | 'awaiting_payment' },
) {
  await postToConversation(tx, a.conversationId, f.author, f.text, f.at);
  if (f.mailBusiness && a.business.email) {
    await actor.outbox.enqueue(
      tx,
      appointmentNoticeMail(a.business.email, { subject: `Appointment ${f.type.slice('appointment.'.length).replace('_', ' ')}: ${a.customerName}, ${startIso(a)}`, text: f.text, bookingId: a.id, inquiryId: a.conversationId, zone: a.business.timeZone }),
    );
  }
  const email = a.customerEmail;
  if (f.mailCustomer && email) {
    const mail = answerMail(email, { inquiryId: a.conversationId, businessName: a.business.name, customerName: a.customerName, message: f.text, zone: a.business.timeZone });
    // The appointment's calendar event follows it: confirmed when paid, taken out when it ends unbooked.
    if (f.invite) mail.attachments = [await appointmentInvite(actor, tx, a, f.invite, email, f.text, f.at, f.inviteStatus)];
    await actor.outbox.enqueue(tx, mail);
  }
  await actor.emit(tx, {
    type: f.type,
    businessId: a.businessId,
    bookingId: a.id,
    inquiryId: a.conversationId,
    clientName: actor.clientName,
    data: { customerName: a.customerName, start: startIso(a), text: f.text, ...(f.author === 'business' && (f.type === 'appointment.cancelled' || f.type === 'appointment.rescheduled') ? { by: 'business' as const } : {}) },
  });
}

/** The .ics of an appointment's customer mail, under the UID its booking mail used and a higher SEQUENCE. */
export async function appointmentInvite(
  services: Pick<Services, 'config'>,
  tx: Tx,
  a: Pick<StoredAppointment, 'id' | 'serviceName' | 'customerName' | 'start' | 'end' | 'business'>,
  method: 'REQUEST' | 'CANCEL',
  email: string,
  description: string,
  at: Date,
  status: 'confirmed' | 'awaiting_payment' | 'cancelled' = method === 'CANCEL' ? 'cancelled' : 'confirmed',
  sequence?: number,
) {
  return inviteAttachment(services.config, {
    method,
    id: a.id,
    sequence: sequence ?? (await nextSequence(tx, 'appointment', a.id)),
    status,
    business: a.business,
    customer: { name: a.customerName, email },
    summary: `${a.serviceName} at ${a.business.name}`,
    description,
    visits: [{ id: a.id, start: a.start, end: a.end }],
    now: at,
  });
}

/** A checkout the appointment no longer needs stops taking payment (best effort: one paid late is refunded anyway). */
function expireCheckoutAfterCommit(services: Services, tx: Tx, a: StoredAppointment) {
  if (!a.checkoutSessionId || !a.paymentAccountId) return;
  const input = { onAccount: a.paymentAccountId, sessionId: a.checkoutSessionId };
  onCommit(tx, () =>
    services.payments.provider.expireCheckout(input).catch((err: unknown) => {
      services.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'expiring a checkout failed');
    }),
  );
}

/** Starts the refund once the move that asks for it has committed (and the sweep retries it). */
function refundAfterCommit(services: Services, tx: Tx, id: string) {
  onCommit(tx, () => startRefund(services, id));
}

/** Payment arrived for an appointment still holding its time: confirmed. */
export async function confirmPaid(actor: Actor, tx: Tx, a: StoredAppointment, paid: { paymentIntentId: string; amountCents: number }) {
  const at = actor.clock.date();
  await tx.appointment.update({
    where: { id: a.id },
    data: { status: 'confirmed', paymentIntentId: paid.paymentIntentId, paidCents: paid.amountCents, paidAt: at, confirmedAt: at },
  });
  await announce(actor, tx, a, {
    type: 'appointment.confirmed',
    author: 'business',
    text: `Payment of ${usd(paid.amountCents)} received: ${a.serviceName} on ${startIso(a)} is confirmed. Cancel at least 24 hours before the start for a full refund.`,
    at,
    mailBusiness: true,
    mailCustomer: true,
    invite: 'REQUEST',
  });
}

/**
 * A payment for an appointment that no longer holds its time (lapsed, cancelled) or that does
 * not cover its price: nothing is resurrected, the money goes back.
 */
export async function refundUnwanted(actor: Actor, tx: Tx, a: StoredAppointment, paid: { paymentIntentId: string; amountCents: number }, why: string) {
  const at = actor.clock.date();
  await tx.appointment.update({
    where: { id: a.id },
    data: {
      status: 'refund_pending',
      holdsTime: false,
      paymentIntentId: paid.paymentIntentId,
      paidCents: paid.amountCents,
      paidAt: at,
      refundId: null,
      refundRound: { increment: 1 },
      refundAttempts: 0,
      ...(a.status === 'awaiting_payment' ? { cancelledAt: at, cancelledBy: 'lapse' } : {}),
    },
  });
  await announce(actor, tx, a, {
    type: 'appointment.refund_pending',
    author: 'business',
    text: `A payment of ${usd(paid.amountCents)} arrived ${why}, so it is being refunded through the payment provider; the appointment is not booked.`,
    at,
    mailBusiness: true,
    mailCustomer: true,
  });
  refundAfterCommit(actor, tx, a.id);
}

/** The hold ran out (or the provider closed the checkout) before payment: the time is free again. */
export async function lapse(actor: Actor, tx: Tx, a: StoredAppointment) {
  const at = actor.clock.date();
  await tx.appointment.update({ where: { id: a.id }, data: { status: 'lapsed', holdsTime: false, cancelledAt: at, cancelledBy: 'lapse' } });
  await announce(actor, tx, a, {
    type: 'appointment.lapsed',
    author: 'business',
    text: `The payment for ${a.serviceName} on ${startIso(a)} did not arrive in time, so the booking lapsed and the time is free again. Book again if it is still wanted.`,
    at,
    mailCustomer: true,
    invite: 'CANCEL',
  });
  expireCheckoutAfterCommit(actor, tx, a);
}

/**
 * Cancelled by the customer or the business: the time is released; an upfront payment goes back
 * (refund_pending until the provider reports), otherwise the appointment is simply cancelled.
 */
export async function cancel(actor: Actor, tx: Tx, a: StoredAppointment, by: By, message?: string) {
  const at = actor.clock.date();
  const paid = a.paymentIntentId !== null && a.paidCents !== null;
  await tx.appointment.update({
    where: { id: a.id },
    data: paid
      ? { status: 'refund_pending', holdsTime: false, cancelledAt: at, cancelledBy: by, refundId: null, refundRound: { increment: 1 }, refundAttempts: 0 }
      : { status: 'cancelled', holdsTime: false, cancelledAt: at, cancelledBy: by },
  });
  const what = by === 'customer' ? `Cancelled ${a.serviceName} on ${startIso(a)}.` : `${a.business.name} cancelled ${a.serviceName} on ${startIso(a)}.`;
  const refund = paid ? ` The ${usd(a.paidCents!)} paid is being refunded through the payment provider.` : '';
  await announce(actor, tx, a, {
    type: 'appointment.cancelled',
    author: by,
    text: `${what}${refund}${message ? `\n${message}` : ''}`,
    at,
    mailBusiness: by === 'customer',
    mailCustomer: by === 'business',
    invite: 'CANCEL',
  });
  if (paid) refundAfterCommit(actor, tx, a.id);
  else expireCheckoutAfterCommit(actor, tx, a);
}

/**
 * Moved to another start by the customer or the business (the row already holds the new time):
 * an upfront payment stays with it, so nothing is refunded and no new checkout opens.
 */
export async function rescheduled(actor: Actor, tx: Tx, a: StoredAppointment, by: By, from: string) {
  const to = startIso(a);
  const what = by === 'customer' ? `Moved ${a.serviceName} from ${from} to ${to}.` : `${a.business.name} moved ${a.serviceName} from ${from} to ${to}.`;
  await announce(actor, tx, a, {
    type: 'appointment.rescheduled',
    author: by,
    text: `${what}${a.paidCents !== null ? ` The ${usd(a.paidCents)} paid stays with it.` : ''}`,
    at: actor.clock.date(),
    mailBusiness: by === 'customer',
    mailCustomer: true,
    invite: 'REQUEST',
    inviteStatus: a.status === 'awaiting_payment' ? 'awaiting_payment' : 'confirmed',
  });
}

/** The business retries a refund that failed: a new refund starts. */
export async function retryRefund(actor: Actor, tx: Tx, a: StoredAppointment) {
  const at = actor.clock.date();
  await tx.appointment.update({ where: { id: a.id }, data: { status: 'refund_pending', refundId: null, refundRound: { increment: 1 }, refundAttempts: 0 } });
  await announce(actor, tx, a, {
    type: 'appointment.refund_pending',
    author: 'business',
    text: `${a.business.name} is refunding the ${usd(a.paidCents!)} paid again through the payment provider.`,
    at,
    mailCustomer: true,
  });
  refundAfterCommit(actor, tx, a.id);
}

/** The provider finished a refund: returned, or failed (then the business follows up). */
export async function refundSettled(actor: Actor, tx: Tx, a: StoredAppointment, outcome: 'succeeded' | 'failed') {
  const at = actor.clock.date();
  if (outcome === 'succeeded') {
    await tx.appointment.update({ where: { id: a.id }, data: { status: 'refunded', refundedAt: at } });
    await announce(actor, tx, a, {
      type: 'appointment.refunded',
      author: 'business',
      text: `The refund of ${usd(a.paidCents!)} is done: the payment provider returned it to the card it was paid with.`,
      at,
      mailCustomer: true,
    });
    return;
  }
  await tx.appointment.update({ where: { id: a.id }, data: { status: 'refund_failed', refundedAt: null } });
  await announce(actor, tx, a, {
    type: 'appointment.refund_failed',
    author: 'business',
    text: `The payment provider could not refund the ${usd(a.paidCents!)}. ${a.business.name} will follow up here to return it another way.`,
    at,
    mailBusiness: true,
    mailCustomer: true,
  });
}

/**
 * Asks the provider to refund an appointment in refund_pending that has no refund yet. The
 * idempotency key is the appointment and its refund round, so a retry after a timeout never
 * refunds twice. A provider that keeps refusing turns it into refund_failed.
 */
export async function startRefund(services: Services, id: string): Promise<void> {
  const a = await findAppointment(services.prisma, { id, status: 'refund_pending', refundId: null });
  if (!a || !a.paymentIntentId || !a.paymentAccountId || a.paidCents === null) return;
  try {
    const { refundId } = await services.payments.provider.refund({
      onAccount: a.paymentAccountId,
      paymentIntentId: a.paymentIntentId,
      amountCents: a.paidCents,
      reference: { purpose: 'appointment', id: a.id, attempt: a.refundRound },
      idempotencyKey: `porchlight-appointment-${a.id}-refund-${a.refundRound}`,
    });
    // The provider's own report may have named the refund already.
    await services.prisma.appointment.updateMany({ where: { id, refundRound: a.refundRound, refundId: null }, data: { refundId } });
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    services.logger.warn({ err: err.message, appointment: id }, 'asking the payment provider for a refund failed');
    await services.transaction(async (tx) => {
      const now = await findAppointment(tx, { id, status: 'refund_pending', refundId: null, refundRound: a.refundRound });
      if (!now) return;
      if (now.refundAttempts + 1 < MAX_REFUND_ATTEMPTS) {
        await tx.appointment.update({ where: { id }, data: { refundAttempts: { increment: 1 } } });
        return;
      }
      await tx.appointment.update({ where: { id }, data: { refundAttempts: { increment: 1 } } });
      await refundSettled(services, tx, now, 'failed');
    });
  }
}
