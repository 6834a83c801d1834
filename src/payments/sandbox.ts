/**
 * The payment sandbox: a local stand-in for Stripe that runs the whole flow on this machine.
 * It keeps its own records (SandboxPaymentObject: accounts, onboarding links, checkout
 * sessions, payment intents, refunds; for the platform's own subscriptions customers,
 * subscriptions, invoices, usage meter events and billing portal sessions), serves the hosted
 * pages a person uses (a checkout page that pays or is left; an onboarding page for the owner's
 * business, bank and identity details; a billing portal where a plan is seen and cancelled:
 * facades/payments.ts), renews subscriptions as their periods end (billing the metered
 * overage of the period past), and reports what happened as Stripe-shaped webhook events signed
 * in Stripe's scheme (`Stripe-Signature: t=…,v1=HMAC-SHA256`). Events are queued in the same
 * transaction as the change (SandboxWebhook) and delivered through the app's own
 * POST /webhooks/payments, retried until it answers 2xx, across restarts.
 *
 * Test cards, as on Stripe: 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined;
 * 4000 0000 0000 5126 pays, and any refund of that payment fails.
 *
 * Its provider calls open their own transactions: never call them inside another one (the
 * embedded database has a single connection).
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import type { Links } from '../links.js';
import { verifyStripeEvent } from './stripe-events.js';
import type { CheckoutRequest, PaymentProvider, RefundRequest } from './provider.js';
import { SandboxStore } from './sandbox/records.js';
import { SandboxWebhooks } from './sandbox/webhooks.js';
import * as api from './sandbox/provider-api.js';
import * as pages from './sandbox/pages.js';
import { tick } from './sandbox/renewals.js';

export { TEST_CARDS, type CheckoutView, type OnboardingView, type PortalView, type PortalOutcome, type PayOutcome, type OnboardOutcome } from './sandbox/records.js';
export { sandboxWebhookSecret, stripeSignature } from './sandbox/webhooks.js';

/** The sandbox as one provider: each job lives in its own file under sandbox/. */
export class PaymentSandbox implements PaymentProvider {
  readonly name = 'sandbox' as const;
  private readonly webhooks: SandboxWebhooks;
  private readonly store: SandboxStore;

  constructor(prisma: PrismaClient, clock: Clock, links: Links, readonly webhookSecret: string, onError: (err: unknown) => void = () => {}) {
    this.webhooks = new SandboxWebhooks(prisma, clock, links, webhookSecret, onError);
    this.store = new SandboxStore(prisma, clock, links, this.webhooks, onError);
  }

  /** Where webhooks go: the app's own fetch handler (so they pass its route and verification). */
  connect(send: (request: Request) => Promise<Response>): void {
    this.webhooks.connect(send);
  }

  // The provider interface (sandbox/provider-api.ts)
  createAccount = (input: { businessName: string; email: string | null; idempotencyKey: string }) => api.createAccount(this.store, input);
  accountLink = (input: { accountId: string; returnUrl: string; refreshUrl: string }) => api.accountLink(this.store, input);
  accountStatus = (accountId: string) => api.accountStatus(this.store, accountId);
  createCustomer = (input: { name: string; email: string | null; idempotencyKey: string }) => api.createCustomer(this.store, input);
  createCheckout = (request: CheckoutRequest) => api.createCheckout(this.store, request);
  checkoutStatus = (sessionId: string) => api.checkoutStatus(this.store, sessionId);
  subscriptionStatus = (subscriptionId: string) => api.subscriptionStatus(this.store, subscriptionId);
  billingPortal = (input: { customerId: string; returnUrl: string }) => api.billingPortal(this.store, input);
  reportUsage = (input: { customerId: string; minutes: number; identifier: string; at: number }) => api.reportUsage(this.store, input);
  expireCheckout = (input: { onAccount: string; sessionId: string }) => api.expireCheckout(this.store, input);
  refund = (request: RefundRequest) => api.refund(this.store, request);

  verifyWebhook(rawBody: string, signature: string | undefined, receivedAt: number) {
    return verifyStripeEvent(rawBody, signature, [this.webhookSecret], receivedAt);
  }

  // The hosted pages (sandbox/pages.ts)
  checkout = (sessionId: string) => pages.checkout(this.store, sessionId);
  pay = (sessionId: string, form: Record<string, unknown>) => pages.pay(this.store, sessionId, form);
  onboarding = (token: string) => pages.onboarding(this.store, token);
  submitOnboarding = (token: string, form: Record<string, unknown>) => pages.submitOnboarding(this.store, token, form);
  portal = (token: string) => pages.portal(this.store, token);
  portalAction = (token: string, form: Record<string, unknown>) => pages.portalAction(this.store, token, form);

  /** Time passing (sandbox/renewals.ts), then the webhooks due are delivered. Run by the server's sweep. */
  tick = () => tick(this.store);

  /** Delivers what is due, including what was queued before this call; calls made meanwhile share one run. */
  flush(): Promise<void> {
    return this.webhooks.flush();
  }

  /** No more deliveries; waits for one under way. */
  stop(): Promise<void> {
    return this.webhooks.stop();
  }
}
