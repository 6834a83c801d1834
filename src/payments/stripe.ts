/**
 * The Stripe adapter, over the official SDK: Connect accounts onboarded through Account Links,
 * Checkout Sessions as direct charges on the business's connected account, Refunds there too,
 * and webhook events verified with the SDK's own signature check. The receptionist plan is a
 * subscription on the platform's own account: a monthly price given inline plus a metered price
 * (fed by Billing Meter events) for the minutes past the included ones, managed by the owner in
 * the Customer Portal.
 */
import type Stripe from 'stripe';
import type { Clock } from '../clock.js';
import { readSubscription, referenceMetadata, verifyStripeEvent } from './stripe-events.js';
import { ProviderError, type PaymentCheckoutRequest, type PaymentProvider, type SubscriptionCheckoutRequest } from './provider.js';

export interface StripeSettings {
  secretKey: string;
  /** The signing secrets of the webhook endpoints pointing at /webhooks/payments. */
  webhookSecrets: string[];
  /**
   * The receptionist plan's usage billing: the metered Price (per overage minute, tied to the
   * Billing Meter) and the meter's event name. Without them no plan is sold through Stripe.
   */
  receptionist?: { overagePrice: string; meterEventName: string };
  /** Tests answer the SDK's requests from recorded fixtures instead of the network. */
  httpClient?: ReturnType<typeof Stripe.createFetchHttpClient>;
}

/** Stripe refuses a Checkout Session that expires sooner than 30 minutes after it is made. */
const MIN_CHECKOUT_SECONDS = 30 * 60 + 60;
const MAX_CHECKOUT_SECONDS = 24 * 60 * 60;

const seconds = (ms: number) => Math.ceil(ms / 1000);
/** Stripe does not say how long a portal session lasts unvisited, only that it is short: we promise five minutes. */
const PORTAL_MINUTES = 5;


/** Stripe's error as a retryable provider failure; its message names the problem, never the key. */
async function attempt<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    const e = err as { type?: string; code?: string; message?: string; statusCode?: number };
    throw new ProviderError(`Stripe refused to ${what}${e.statusCode ? ` (HTTP ${e.statusCode}${e.code ? `, ${e.code}` : ''})` : ''}: ${e.message ?? 'no answer'}`);
  }
}

export function stripeProvider(settings: StripeSettings, clock: Clock): PaymentProvider {
  // The SDK is a module of its own (~20 MB resident); only this adapter, made when payments are live, loads it.
  const sdk = import('stripe').then(
    ({ default: Sdk }) =>
      new Sdk(settings.secretKey, {
        httpClient: settings.httpClient,
        maxNetworkRetries: 2,
        timeout: 15_000,
        appInfo: { name: 'Porchlight' },
      }),
  );
  const call = <T>(what: string, request: (stripe: Stripe) => Promise<T>) => attempt(what, async () => request(await sdk));
  const paymentCheckout = (request: PaymentCheckoutRequest, expiresAt: number) => {
    const metadata = referenceMetadata(request.reference);
    return call('open a checkout', (stripe) =>
      stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: request.lineItems.map((item) => ({
            quantity: item.quantity,
            price_data: { currency: request.currency, unit_amount: item.amountCents, product_data: { name: item.name } },
          })),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          expires_at: expiresAt,
          client_reference_id: request.reference.id,
          metadata,
          payment_intent_data: { metadata },
          ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
        },
        { stripeAccount: request.onAccount, idempotencyKey: request.idempotencyKey },
      ),
    );
  };

  const subscriptionCheckout = (request: SubscriptionCheckoutRequest, expiresAt: number) => {
    const meter = settings.receptionist;
    if (!meter) throw new ProviderError('No Stripe price is configured for receptionist overage minutes (STRIPE_RECEPTIONIST_OVERAGE_PRICE).');
    const metadata = referenceMetadata(request.reference);
    return call('open a subscription checkout', (stripe) =>
      stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [
            {
              quantity: 1,
              price_data: { currency: request.currency, unit_amount: request.plan.monthlyCents, recurring: { interval: 'month' }, product_data: { name: request.plan.name } },
            },
            // Metered: no quantity; billed from the meter events reportUsage sends.
            { price: meter.overagePrice },
          ],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          expires_at: expiresAt,
          client_reference_id: request.reference.id,
          metadata,
          // The subscription and its invoices carry the reference, so their events route back here.
          subscription_data: { metadata },
          ...(request.customerId ? { customer: request.customerId } : request.customerEmail ? { customer_email: request.customerEmail } : {}),
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
  };

  return {
    name: 'stripe',

    async createAccount(input) {
      const account = await call('create a connected account', (stripe) =>
        stripe.accounts.create(
          { type: 'standard', country: 'US', email: input.email ?? undefined, business_profile: { name: input.businessName } },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { accountId: account.id };
    },

    async accountLink(input) {
      const link = await call('create an onboarding link', (stripe) =>
        stripe.accountLinks.create({ account: input.accountId, refresh_url: input.refreshUrl, return_url: input.returnUrl, type: 'account_onboarding' }),
      );
      return { url: link.url, expiresAt: link.expires_at * 1000 };
    },

    async accountStatus(accountId) {
      const account = await call('read the connected account', (stripe) => stripe.accounts.retrieve(accountId));
      return { accountId: account.id, chargesEnabled: account.charges_enabled === true, detailsSubmitted: account.details_submitted === true };
    },

    async createCustomer(input) {
      const customer = await call('create a customer', (stripe) =>
        stripe.customers.create(
          { name: input.name, ...(input.email ? { email: input.email } : {}), metadata: referenceMetadata(input.reference) },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { customerId: customer.id };
    },

    async createCheckout(request) {
      const now = seconds(clock.now());
      const expiresAt = Math.min(Math.max(seconds(request.expiresAt), now + MIN_CHECKOUT_SECONDS), now + MAX_CHECKOUT_SECONDS);
      const session = request.mode === 'subscription' ? await subscriptionCheckout(request, expiresAt) : await paymentCheckout(request, expiresAt);
      if (!session.url) throw new ProviderError('Stripe opened a checkout without a page to pay on.');
      return { sessionId: session.id, url: session.url, expiresAt: (session.expires_at ?? expiresAt) * 1000 };
    },

    async checkoutStatus(sessionId) {
      const session = await call('read the checkout', (stripe) => stripe.checkout.sessions.retrieve(sessionId));
      const id = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' ? ((v as { id?: string }).id ?? null) : null);
      const status: 'open' | 'complete' | 'expired' = session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open';
      return { status, subscriptionId: id(session.subscription), customerId: id(session.customer) };
    },

    async subscriptionStatus(subscriptionId) {
      const subscription = await call('read the subscription', (stripe) => stripe.subscriptions.retrieve(subscriptionId));
      const status = readSubscription(subscription as unknown as Record<string, unknown>);
      if (!status) throw new ProviderError('Stripe answered without the subscription.');
      return status;
    },

    async billingPortal(input) {
      const session = await call('open the billing portal', (stripe) => stripe.billingPortal.sessions.create({ customer: input.customerId, return_url: input.returnUrl }));
      return { url: session.url, expiresAt: (session.created + PORTAL_MINUTES * 60) * 1000 };
    },

    async reportUsage(input) {
      const meter = settings.receptionist;
      if (!meter) throw new ProviderError('No Stripe meter is configured for receptionist minutes (STRIPE_RECEPTIONIST_METER).');
      await call('report usage', (stripe) =>
        stripe.billing.meterEvents.create({
          event_name: meter.meterEventName,
          payload: { stripe_customer_id: input.customerId, value: String(input.minutes) },
          identifier: input.identifier,
          timestamp: Math.floor(input.at / 1000),
        }),
      );
    },

    async expireCheckout(input) {
      const session = await call('read the checkout', (stripe) => stripe.checkout.sessions.retrieve(input.sessionId, {}, { stripeAccount: input.onAccount }));
      // Only an open session can be expired; a paid or expired one reports through its webhook.
      if (session.status !== 'open') return;
      await call('expire the checkout', (stripe) => stripe.checkout.sessions.expire(input.sessionId, {}, { stripeAccount: input.onAccount }));
    },

    async refund(request) {
      const refund = await call('start a refund', (stripe) =>
        stripe.refunds.create(
          {
            payment_intent: request.paymentIntentId,
            amount: request.amountCents,
            reason: 'requested_by_customer',
            metadata: referenceMetadata(request.reference),
          },
          { stripeAccount: request.onAccount, idempotencyKey: request.idempotencyKey },
        ),
      );
      return { refundId: refund.id };
    },

    verifyWebhook(rawBody, signature, receivedAt) {
      return verifyStripeEvent(rawBody, signature, settings.webhookSecrets, receivedAt);
    },
  };
}
