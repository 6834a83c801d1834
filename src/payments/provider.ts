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
 * Growing it: a subscription checkout is another `CheckoutRequest` variant (mode 'subscription',
 * on the platform's own account), a billing portal another method beside `accountLink`, and
 * their webhooks more `PaymentEvent` variants; the receiver routes every checkout, payment and
 * refund event by its `reference.purpose` to the domain that started it.
 */

/** What a checkout, payment or refund is for: the domain that started it and its record's id. */
export interface PaymentReference {
  /** 'appointment' (src/appointments); later e.g. 'receptionist_subscription'. */
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

export type CheckoutRequest = PaymentCheckoutRequest;

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

/** A provider's event, verified and read into what Porchlight acts on. */
export type PaymentEvent = { id: string; type: string; createdAt: number } & (
  | { kind: 'checkout.completed'; sessionId: string; paymentIntentId: string; amountCents: number; account: string | null; reference: PaymentReference | null }
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
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
  /** Stops an open checkout taking payment (an abandoned or cancelled booking); a completed one is left alone. */
  expireCheckout(input: { onAccount: string; sessionId: string }): Promise<void>;
  /** Starts returning a payment; the outcome arrives as a refund.succeeded or refund.failed event. */
  refund(request: RefundRequest): Promise<{ refundId: string }>;
  /**
   * Verifies a webhook's signature against the raw body and reads the event; throws
   * WebhookSignatureError when it is unsigned, wrongly signed or older than five minutes by
   * `receivedAt` (the service clock, epoch ms).
   */
  verifyWebhook(rawBody: string, signature: string | undefined, receivedAt: number): PaymentEvent;
}

/** A provider call that failed (network, provider outage, refused request): worth retrying later. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}
