/**
 * Where money moves: one small interface over the payment provider, with two adapters —
 * Stripe (stripe.ts, the official SDK) and the local sandbox (sandbox.ts, hosted pages served by
 * this app). Both speak Stripe's webhook format and signature scheme, so one receiver
 * (webhooks.ts) verifies and reads both.
 *
 * Nothing here changes Porchlight's own state: a checkout or refund only starts at the provider,
 * and the outcome arrives later as a verified webhook event (or by reading the provider), never
 * from a redirect's URL parameters.
 *
 * Subscriptions (the receptionist plan) are checkouts in mode 'subscription' on the platform's own
 * account, managed by the owner in the provider's billing portal; their webhooks are PaymentEvents
 * too. The receiver routes every checkout, payment, refund, subscription and invoice event by its
 * `reference.purpose` to the domain that started it.
 */

/** What a checkout, payment or refund is for: the domain that started it and its record's id. */
export interface PaymentReference {
  /** 'appointment' (src/appointments) or 'receptionist_plan' (src/billing). */
  purpose: string;
  id: string;
  /** Which try of a step that may be repeated (a refund retried after failing is attempt 2), so late news of an earlier try is told apart. */
  attempt?: number;
}

export interface LineItem {
  name: string;
  amountCents: number;
  quantity: number;
}

/** A one-off payment on a business's connected account (direct charge): appointments paid upfront. */
export interface PaymentCheckoutRequest {
  mode: 'payment';
  /** The business's connected account the customer pays into. */
  onAccount: string;
  currency: 'usd';
  lineItems: LineItem[];
  reference: PaymentReference;
  /** Where the provider sends the customer afterwards; pages that only inform, never change state. */
  successUrl: string;
  cancelUrl: string;
  /** When the checkout stops taking payment (epoch ms, service clock). */
  expiresAt: number;
  /** The same key returns the same session (a retried call never opens a second checkout). */
  idempotencyKey: string;
  customerEmail?: string | null;
}

/**
 * A monthly subscription on the platform's own account: a fixed monthly price, and usage past the
 * included minutes billed afterwards through the provider's usage meter (reportUsage).
 */
export interface SubscriptionCheckoutRequest {
  mode: 'subscription';
  currency: 'usd';
  plan: { name: string; monthlyCents: number; includedMinutes: number; overageCentsPerMinute: number };
  reference: PaymentReference;
  successUrl: string;
  cancelUrl: string;
  expiresAt: number;
  idempotencyKey: string;
  /** The provider's customer from an earlier plan, so invoices stay together. */
  customerId?: string | null;
  customerEmail?: string | null;
}

export type CheckoutRequest = PaymentCheckoutRequest | SubscriptionCheckoutRequest;

export interface CheckoutSession {
  sessionId: string;
  /** The provider-hosted page the customer opens to pay. */
  url: string;
  expiresAt: number;
}

export interface RefundRequest {
  onAccount: string;
  paymentIntentId: string;
  amountCents: number;
  reference: PaymentReference;
  idempotencyKey: string;
}

export interface AccountStatus {
  accountId: string;
  /** Customers can pay into it. */
  chargesEnabled: boolean;
  /** The owner finished the provider's onboarding form. */
  detailsSubmitted: boolean;
}

export type SubscriptionState = 'incomplete' | 'active' | 'past_due' | 'cancelled';

/** A subscription as the provider reports it. */
export interface SubscriptionStatus {
  subscriptionId: string;
  customerId: string | null;
  status: SubscriptionState;
  cancelAtPeriodEnd: boolean;
  /** The current billing period (epoch ms). */
  periodStart: number | null;
  periodEnd: number | null;
}

/** A checkout as the provider reports it when read. */
export interface CheckoutStatus {
  status: 'open' | 'complete' | 'expired';
  subscriptionId: string | null;
  customerId: string | null;
}

/** A provider's event, verified and read into what Porchlight acts on. */
export type PaymentEvent = { id: string; type: string; createdAt: number } & (
  | { kind: 'checkout.completed'; sessionId: string; paymentIntentId: string; amountCents: number; account: string | null; reference: PaymentReference | null }
  /** A subscription checkout was paid: the subscription exists now. */
  | { kind: 'subscription.checkout_completed'; sessionId: string; subscriptionId: string; customerId: string | null; account: string | null; reference: PaymentReference | null }
  /** A subscription was created, changed or ended (deleted: status cancelled). */
  | { kind: 'subscription.updated'; subscription: SubscriptionStatus; account: string | null; reference: PaymentReference | null }
  /** A subscription's invoice was paid: a period is paid for. */
  | { kind: 'invoice.paid'; invoiceId: string; subscriptionId: string; amountCents: number; periodStart: number | null; periodEnd: number | null; account: string | null; reference: PaymentReference | null }
  | { kind: 'checkout.expired'; sessionId: string; account: string | null; reference: PaymentReference | null }
  | { kind: 'refund.succeeded' | 'refund.failed'; refundId: string; paymentIntentId: string | null; account: string | null; reference: PaymentReference | null }
  | { kind: 'account.updated'; account: AccountStatus }
  /** Verified, but nothing Porchlight follows (another event type, or a payment still processing). */
  | { kind: 'ignored' }
);

export class WebhookSignatureError extends Error {
  constructor() {
    super('The webhook signature is missing or not valid.');
    this.name = 'WebhookSignatureError';
  }
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'sandbox';
  /** A connected account for a business, created once (idempotencyKey: the business). */
  createAccount(input: { businessName: string; email: string | null; idempotencyKey: string }): Promise<{ accountId: string }>;
  /** A private, short-lived link to the provider's own onboarding, where the owner gives business, bank and identity details. */
  accountLink(input: { accountId: string; returnUrl: string; refreshUrl: string }): Promise<{ url: string; expiresAt: number }>;
  /** The account as the provider sees it now. */
  accountStatus(accountId: string): Promise<AccountStatus>;
  /**
   * A customer on the platform's own account (the receptionist plan's payer), made once per
   * idempotency key: made with the first plan checkout, so the billing portal opens before any payment.
   */
  createCustomer(input: { name: string; email: string | null; reference: PaymentReference; idempotencyKey: string }): Promise<{ customerId: string }>;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Stops an open checkout taking payment (an abandoned or cancelled booking); a completed one is left alone. */
  expireCheckout(input: { onAccount: string; sessionId: string }): Promise<void>;
  /** Starts returning a payment; the outcome arrives as a refund.succeeded or refund.failed event. */
  refund(request: RefundRequest): Promise<{ refundId: string }>;
  /** The checkout as it is now (a subscription checkout's subscription, once paid). */
  checkoutStatus(sessionId: string): Promise<CheckoutStatus>;
  /** The subscription as it is now. */
  subscriptionStatus(subscriptionId: string): Promise<SubscriptionStatus>;
  /** A private, short-lived link to the provider's billing portal for a customer; opening it changes nothing. */
  billingPortal(input: { customerId: string; returnUrl: string }): Promise<{ url: string; expiresAt: number }>;
  /** Reports metered usage (overage minutes) for a customer; `identifier` makes a repeat count once. */
  reportUsage(input: { customerId: string; minutes: number; identifier: string; at: number }): Promise<void>;
  /**
   * Verifies a webhook's signature against the raw body and reads the event; throws
   * WebhookSignatureError when it is unsigned, wrongly signed or older than five minutes by
   * `receivedAt` (the service clock, epoch ms).
   */
  verifyWebhook(rawBody: string, signature: string | undefined, receivedAt: number): Promise<PaymentEvent>;
}

/** A provider call that failed (network, provider outage, refused request): worth retrying later. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface AccountState {
  provider: string;
  accountId: string;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
}
