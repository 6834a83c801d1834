/**
 * Stripe's webhook events, verified with the SDK's own signature check and read into
 * PaymentEvents. The sandbox sends events of the same shape, signed the same way, so both
 * adapters verify and read through here.
 */
import type Stripe from 'stripe';
import { WebhookSignatureError, type PaymentEvent, type PaymentReference, type SubscriptionState, type SubscriptionStatus } from './provider.js';

/** Stripe's default: a signature older than five minutes is refused (replays). */
const TOLERANCE_SECONDS = 300;
const EVENT_ID = /^[A-Za-z0-9_-]{1,255}$/;

type Obj = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 && v.length <= 500 ? v : null);
const idOf = (v: unknown): string | null => str(v) ?? (v && typeof v === 'object' ? str((v as Obj).id) : null);

/** Our reference travels in the metadata of every checkout and refund, and comes back in its events. */
export const referenceMetadata = (ref: PaymentReference): Record<string, string> => ({
  purpose: ref.purpose,
  reference_id: ref.id,
  ...(ref.attempt !== undefined ? { attempt: String(ref.attempt) } : {}),
});

/** Our reference, read back from an object's metadata. */
function referenceOf(object: Obj): PaymentReference | null {
  const metadata = (object.metadata ?? {}) as Obj;
  const purpose = str(metadata.purpose);
  const id = str(metadata.reference_id) ?? str(object.client_reference_id);
  const attempt = Number(metadata.attempt);
  if (!purpose || !id) return null;
  return Number.isSafeInteger(attempt) && attempt > 0 ? { purpose, id, attempt } : { purpose, id };
}

const epochMs = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v * 1000 : null);

/** Stripe's subscription statuses as Porchlight's plan knows them: only active (or trialing) serves. */
function subscriptionState(status: unknown): SubscriptionState {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'incomplete':
      return 'incomplete';
    case 'canceled':
    case 'incomplete_expired':
      return 'cancelled';
    default:
      // past_due, unpaid, paused: not serving until paid.
      return 'past_due';
  }
}

/**
 * A Stripe subscription object read into its status. Since API version 2025-03-31 the billing
 * period lives on the subscription's items; older objects carry it on the subscription.
 */
export function readSubscription(object: Obj): SubscriptionStatus | null {
  const subscriptionId = str(object.id);
  if (!subscriptionId) return null;
  const item = (((object.items as Obj | undefined)?.data as Obj[] | undefined) ?? [])[0] ?? {};
  return {
    subscriptionId,
    customerId: idOf(object.customer),
    status: subscriptionState(object.status),
    cancelAtPeriodEnd: object.cancel_at_period_end === true,
    periodStart: epochMs(item.current_period_start ?? object.current_period_start),
    periodEnd: epochMs(item.current_period_end ?? object.current_period_end),
  };
}

/** An invoice's subscription and our reference from its metadata snapshot (parent.subscription_details since 2025-03-31). */
function invoiceSubscription(object: Obj): { subscriptionId: string | null; reference: PaymentReference | null } {
  const details = (((object.parent as Obj | undefined)?.subscription_details ?? object.subscription_details) ?? {}) as Obj;
  return {
    subscriptionId: idOf(details.subscription) ?? idOf(object.subscription),
    reference: referenceOf({ metadata: details.metadata ?? {} }),
  };
}

/** Reads a verified Stripe event into what Porchlight acts on. */
export function readStripeEvent(event: Stripe.Event): PaymentEvent {
  if (typeof event.id !== 'string' || !EVENT_ID.test(event.id)) throw new WebhookSignatureError();
  const base = { id: event.id, type: String(event.type), createdAt: Number(event.created) * 1000 };
  const object = (event.data?.object ?? {}) as unknown as Obj;
  const account = str((event as { account?: unknown }).account);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      if (object.mode === 'subscription') {
        const sessionId = str(object.id);
        const subscriptionId = idOf(object.subscription);
        if (!sessionId || !subscriptionId || (object.payment_status !== 'paid' && object.payment_status !== 'no_payment_required')) return { ...base, kind: 'ignored' };
        return { ...base, kind: 'subscription.checkout_completed', sessionId, subscriptionId, customerId: idOf(object.customer), account, reference: referenceOf(object) };
      }
      // Paid now; an asynchronous method (bank debit) completes the session unpaid and reports later.
      if (object.payment_status !== 'paid') return { ...base, kind: 'ignored' };
      const sessionId = str(object.id);
      const paymentIntentId = idOf(object.payment_intent);
      if (!sessionId || !paymentIntentId) return { ...base, kind: 'ignored' };
      return { ...base, kind: 'checkout.completed', sessionId, paymentIntentId, amountCents: Number(object.amount_total ?? 0), account, reference: referenceOf(object) };
    }
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const sessionId = str(object.id);
      return sessionId ? { ...base, kind: 'checkout.expired', sessionId, account, reference: referenceOf(object) } : { ...base, kind: 'ignored' };
    }
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated': {
      const refundId = str(object.id);
      const status = object.status;
      if (!refundId || (status !== 'succeeded' && status !== 'failed' && status !== 'canceled')) return { ...base, kind: 'ignored' };
      return {
        ...base,
        kind: status === 'succeeded' ? 'refund.succeeded' : 'refund.failed',
        refundId,
        paymentIntentId: idOf(object.payment_intent),
        account,
        reference: referenceOf(object),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = readSubscription(object);
      if (!subscription) return { ...base, kind: 'ignored' };
      if (event.type === 'customer.subscription.deleted') subscription.status = 'cancelled';
      return { ...base, kind: 'subscription.updated', subscription, account, reference: referenceOf(object) };
    }
    case 'invoice.paid': {
      const invoiceId = str(object.id);
      const { subscriptionId, reference } = invoiceSubscription(object);
      if (!invoiceId || !subscriptionId) return { ...base, kind: 'ignored' };
      // A subscription invoice's line carries the period it pays for.
      const line = (((object.lines as Obj | undefined)?.data as Obj[] | undefined) ?? [])[0];
      const period = (line?.period ?? {}) as Obj;
      return {
        ...base,
        kind: 'invoice.paid',
        invoiceId,
        subscriptionId,
        amountCents: Number(object.amount_paid ?? 0),
        periodStart: epochMs(period.start),
        periodEnd: epochMs(period.end),
        account,
        reference,
      };
    }
    case 'account.updated': {
      const accountId = str(object.id);
      if (!accountId) return { ...base, kind: 'ignored' };
      return { ...base, kind: 'account.updated', account: { accountId, chargesEnabled: object.charges_enabled === true, detailsSubmitted: object.details_submitted === true } };
    }
    default:
      return { ...base, kind: 'ignored' };
  }
}

/**
 * The SDK's signature check against each secret (an endpoint's secret while it rotates, or
 * several endpoints pointing here), then the event read. `receivedAt` is the service clock (ms).
 */
export async function verifyStripeEvent(rawBody: string, signature: string | undefined, secrets: readonly string[], receivedAt: number): Promise<PaymentEvent> {
  if (!signature) throw new WebhookSignatureError();
  // Loaded at the first webhook: a server that takes no payments never needs the SDK.
  const { webhooks } = (await import('stripe')).default;
  for (const secret of secrets) {
    let event: Stripe.Event;
    try {
      event = webhooks.constructEvent(rawBody, signature, secret, TOLERANCE_SECONDS, undefined, receivedAt);
    } catch {
      continue;
    }
    return readStripeEvent(event);
  }
  throw new WebhookSignatureError();
}
