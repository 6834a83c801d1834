/**
 * The Stripe adapter, over the official SDK: Connect accounts onboarded through Account Links,
 * Checkout Sessions as direct charges on the business's connected account, Refunds there too,
 * and webhook events verified with the SDK's own signature check.
 */
import Stripe from 'stripe';
import type { Clock } from '../clock.js';
import { referenceMetadata, verifyStripeEvent } from './stripe-events.js';
import { ProviderError, type PaymentProvider } from './provider.js';

export interface StripeSettings {
  secretKey: string;
  /** The signing secrets of the webhook endpoints pointing at /webhooks/payments. */
  webhookSecrets: string[];
  /** Tests answer the SDK's requests from recorded fixtures instead of the network. */
  httpClient?: ReturnType<typeof Stripe.createFetchHttpClient>;
}

/** Stripe refuses a Checkout Session that expires sooner than 30 minutes after it is made. */
const MIN_CHECKOUT_SECONDS = 30 * 60 + 60;
const MAX_CHECKOUT_SECONDS = 24 * 60 * 60;

const seconds = (ms: number) => Math.ceil(ms / 1000);


/** Stripe's error as a retryable provider failure; its message names the problem, never the key. */
async function call<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    const e = err as { type?: string; code?: string; message?: string; statusCode?: number };
    throw new ProviderError(`Stripe refused to ${what}${e.statusCode ? ` (HTTP ${e.statusCode}${e.code ? `, ${e.code}` : ''})` : ''}: ${e.message ?? 'no answer'}`);
  }
}

export function stripeProvider(settings: StripeSettings, clock: Clock): PaymentProvider {
  const stripe = new Stripe(settings.secretKey, {
    httpClient: settings.httpClient,
    maxNetworkRetries: 2,
    timeout: 15_000,
    appInfo: { name: 'Porchlight' },
  });
  return {
    name: 'stripe',

    async createAccount(input) {
      const account = await call('create a connected account', () =>
        stripe.accounts.create(
          { type: 'standard', country: 'US', email: input.email ?? undefined, business_profile: { name: input.businessName } },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return { accountId: account.id };
    },

    async accountLink(input) {
      const link = await call('create an onboarding link', () =>
        stripe.accountLinks.create({ account: input.accountId, refresh_url: input.refreshUrl, return_url: input.returnUrl, type: 'account_onboarding' }),
      );
      return { url: link.url, expiresAt: link.expires_at * 1000 };
    },

    async accountStatus(accountId) {
      const account = await call('read the connected account', () => stripe.accounts.retrieve(accountId));
      return { accountId: account.id, chargesEnabled: account.charges_enabled === true, detailsSubmitted: account.details_submitted === true };
    },

    async createCheckout(request) {
      const now = seconds(clock.now());
      const expiresAt = Math.min(Math.max(seconds(request.expiresAt), now + MIN_CHECKOUT_SECONDS), now + MAX_CHECKOUT_SECONDS);
      const metadata = referenceMetadata(request.reference);
      const session = await call('open a checkout', () =>
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
      if (!session.url) throw new ProviderError('Stripe opened a checkout without a page to pay on.');
      return { sessionId: session.id, url: session.url, expiresAt: (session.expires_at ?? expiresAt) * 1000 };
    },

    async expireCheckout(input) {
      const session = await call('read the checkout', () => stripe.checkout.sessions.retrieve(input.sessionId, {}, { stripeAccount: input.onAccount }));
      // Only an open session can be expired; a paid or expired one reports through its webhook.
      if (session.status !== 'open') return;
      await call('expire the checkout', () => stripe.checkout.sessions.expire(input.sessionId, {}, { stripeAccount: input.onAccount }));
    },

    async refund(request) {
      const refund = await call('start a refund', () =>
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
