/**
 * The Stripe adapter against the official SDK, without network: the SDK's requests go to a fake
 * fetch that checks each against a fixture (method, path, Stripe-Account and Idempotency-Key
 * headers, form fields) and answers with the fixture's response body, in the shapes of
 * Stripe's API reference. Webhooks are signed with the SDK's own test helper and verified with
 * its constructEvent.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock.js';
import { stripeProvider } from '../../src/payments/stripe.js';
import { ProviderError, WebhookSignatureError } from '../../src/payments/provider.js';
import { stripeSignature } from '../../src/payments/sandbox.js';

interface Fixture {
  request: { method: string; path: string; headers: Record<string, string>; form: Record<string, string> };
  response: { status: number; body: unknown };
}

const dir = join(import.meta.dirname, '../fixtures/stripe');
const fixture = (name: string): Fixture => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
const events = JSON.parse(readFileSync(join(dir, 'webhook-events.json'), 'utf8')) as Record<string, Record<string, unknown>>;

const KEY = 'sk_test_51PorchlightFixtureKey';
const NOW = '2026-11-23T15:00:00Z';

/** The requests the SDK sent, each checked against the next expected fixture. */
function fake(...names: string[]) {
  const queue = names.map(fixture);
  const sent: { method: string; path: string; headers: Headers; form: Record<string, string> }[] = [];
  // A mismatch thrown inside fetch reaches the SDK, not the test: it is kept and checked after.
  const mismatches: unknown[] = [];
  const fetchFn = (async (input: string | URL | Request, init?: RequestInit) => {
    try {
      return await answer(input, init);
    } catch (err) {
      mismatches.push(err);
      throw err;
    }
  }) as typeof fetch;
  const answer = async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? init.body : '';
    const form = Object.fromEntries(new URLSearchParams(url.search || body));
    const request = { method: init?.method ?? 'GET', path: url.pathname, headers, form };
    sent.push(request);
    const next = queue.shift();
    if (!next) throw new Error(`unexpected request ${request.method} ${request.path}`);
    expect(url.origin).toBe('https://api.stripe.com');
    expect(request.method).toBe(next.request.method);
    expect(request.path).toBe(next.request.path);
    expect(headers.get('authorization')).toBe(`Bearer ${KEY}`);
    for (const [name, value] of Object.entries(next.request.headers)) expect(headers.get(name), name).toBe(value);
    if (!('stripe-account' in next.request.headers)) expect(headers.get('stripe-account')).toBeNull();
    const expected = Object.fromEntries(Object.entries(next.request.form).filter(([, v]) => v !== '*'));
    expect(Object.fromEntries(Object.entries(form).filter(([k]) => next.request.form[k] !== '*'))).toEqual(expected);
    return new Response(JSON.stringify(next.response.body), { status: next.response.status, headers: { 'content-type': 'application/json', 'request-id': `req_${sent.length}` } });
  };
  return { httpClient: Stripe.createFetchHttpClient(fetchFn), sent, mismatches, left: () => queue.length };
}

const RECEPTIONIST = { overagePrice: 'price_1QvOverageMinute', meterEventName: 'receptionist_minutes' };
const adapter = (f: ReturnType<typeof fake>, secrets = ['whsec_connect'], receptionist: typeof RECEPTIONIST | null = RECEPTIONIST) =>
  stripeProvider({ secretKey: KEY, webhookSecrets: secrets, httpClient: f.httpClient, receptionist: receptionist ?? undefined }, new Clock(NOW));

describe('the Stripe adapter', () => {
  it('creates one connected account per business (idempotency key), links to its onboarding, reads its status', async () => {
    const f = fake('accounts-create', 'account-links-create', 'accounts-retrieve');
    const stripe = adapter(f);
    expect(await stripe.createAccount({ businessName: 'Velvet Hair Studio', email: 'hello@velvet.example', idempotencyKey: 'porchlight-business-biz_velvet' })).toEqual({ accountId: 'acct_1QvSalonTest001' });
    expect(
      await stripe.accountLink({ accountId: 'acct_1QvSalonTest001', returnUrl: 'https://porchlight.example/payments/onboarding/done', refreshUrl: 'https://porchlight.example/payments/onboarding/expired' }),
    ).toEqual({ url: 'https://connect.stripe.com/setup/s/acct_1QvSalonTest001/0mZDDrFzWe4Q', expiresAt: 1795000400_000 });
    expect(await stripe.accountStatus('acct_1QvSalonTest001')).toEqual({ accountId: 'acct_1QvSalonTest001', chargesEnabled: true, detailsSubmitted: true });
    expect(f.left()).toBe(0);
    expect(f.mismatches).toEqual([]);
  });

  it('opens a Checkout Session as a direct charge on the connected account, expiring no sooner than Stripe allows', async () => {
    const f = fake('checkout-sessions-create');
    const now = Date.parse(NOW);
    const session = await adapter(f).createCheckout({
      mode: 'payment',
      onAccount: 'acct_1QvSalonTest001',
      currency: 'usd',
      lineItems: [{ name: "Women's cut at Velvet Hair Studio, 2026-12-01T10:00:00-08:00", amountCents: 6500, quantity: 1 }],
      reference: { purpose: 'appointment', id: 'cm_appt_1' },
      successUrl: 'https://porchlight.example/payments/checkout/done',
      cancelUrl: 'https://porchlight.example/payments/checkout/left',
      // The hold is 30 minutes from booking; by the time Stripe is asked, a little of it is gone.
      expiresAt: now + 30 * 60_000 - 5_000,
      idempotencyKey: 'porchlight-appointment-cm_appt_1-checkout',
      customerEmail: 'pat@example.com',
    });
    expect(session).toEqual({ sessionId: 'cs_test_a1SalonCut0001', url: 'https://checkout.stripe.com/c/pay/cs_test_a1SalonCut0001#fidkdWxOYHwnPyd1blpxYHZxWjA0', expiresAt: 1795003700_000 });
    const expiresAt = Number(f.sent[0]!.form.expires_at) * 1000;
    expect(expiresAt - now).toBeGreaterThanOrEqual(30 * 60_000);
    expect(expiresAt - now).toBeLessThan(33 * 60_000);
    expect(f.mismatches).toEqual([]);
  });

  it('expires an open checkout, and leaves a completed one alone', async () => {
    const open = fake('checkout-sessions-retrieve-open', 'checkout-sessions-expire');
    await adapter(open).expireCheckout({ onAccount: 'acct_1QvSalonTest001', sessionId: 'cs_test_a1SalonCut0001' });
    expect(open.left()).toBe(0);
    const complete = fake('checkout-sessions-retrieve-complete');
    await adapter(complete).expireCheckout({ onAccount: 'acct_1QvSalonTest001', sessionId: 'cs_test_a1SalonCut0001' });
    expect(complete.sent).toHaveLength(1);
    expect([...open.mismatches, ...complete.mismatches]).toEqual([]);
  });

  it('refunds on the connected account with the appointment in the metadata; a refusal is a ProviderError without the key', async () => {
    const f = fake('refunds-create', 'refunds-create-refused');
    const stripe = adapter(f);
    const request = { onAccount: 'acct_1QvSalonTest001', paymentIntentId: 'pi_3QvSalonCut0001', amountCents: 6500 };
    const reference = (attempt: number) => ({ purpose: 'appointment', id: 'cm_appt_1', attempt });
    expect(await stripe.refund({ ...request, reference: reference(1), idempotencyKey: 'porchlight-appointment-cm_appt_1-refund-1' })).toEqual({ refundId: 're_3QvSalonCut0001' });
    const refused = await stripe.refund({ ...request, reference: reference(2), idempotencyKey: 'porchlight-appointment-cm_appt_1-refund-2' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect((refused as Error).message).toBe('Stripe refused to start a refund (HTTP 400, charge_already_refunded): Charge ch_3QvSalonCut0001 has already been refunded.');
    expect((refused as Error).message).not.toContain(KEY);
    expect(f.mismatches).toEqual([]);
  });
});

describe('the receptionist plan through Stripe', () => {
  const plan = { name: 'Porchlight AI receptionist', monthlyCents: 4900, includedMinutes: 300, overageCentsPerMinute: 20 };
  const request = {
    mode: 'subscription' as const,
    currency: 'usd' as const,
    plan,
    reference: { purpose: 'receptionist_plan', id: 'biz_sparkle' },
    successUrl: 'https://porchlight.example/payments/plan/done',
    cancelUrl: 'https://porchlight.example/payments/plan/left',
    expiresAt: Date.parse(NOW) + 60 * 60_000,
  };

  it('opens a subscription checkout on the platform account: the monthly price inline, the metered overage price, the reference on the subscription', async () => {
    const f = fake('checkout-sessions-create-subscription', 'checkout-sessions-create-subscription-customer');
    const stripe = adapter(f);
    expect(await stripe.createCheckout({ ...request, idempotencyKey: 'porchlight-plan-biz_sparkle-1', customerEmail: 'owner@sparkle.example' })).toEqual({
      sessionId: 'cs_test_b1PlanCheckout001',
      url: 'https://checkout.stripe.com/c/pay/cs_test_b1PlanCheckout001#fidkdWxOYHwnPyd1blpxYHZxWjA0',
      expiresAt: 1795005000_000,
    });
    // A returning customer keeps their Stripe customer (and gives no e-mail to make another).
    expect((await stripe.createCheckout({ ...request, idempotencyKey: 'porchlight-plan-biz_sparkle-2', customerId: 'cus_QvSparkle0001', customerEmail: 'owner@sparkle.example' })).sessionId).toBe('cs_test_b1PlanCheckout002');
    expect(f.left()).toBe(0);
    expect(f.mismatches).toEqual([]);
  });

  it('makes the plan customer once per business (idempotency key), with the reference, before any checkout is paid', async () => {
    const f = fake('customers-create', 'checkout-sessions-create-subscription-customer');
    const stripe = adapter(f);
    const { customerId } = await stripe.createCustomer({ name: 'Sparkle Home Cleaning', email: 'owner@sparkle.example', reference: request.reference, idempotencyKey: 'porchlight-plan-customer-biz_sparkle' });
    expect(customerId).toBe('cus_QvSparkle0001');
    // The checkout then names that customer, so the billing portal opens for it before payment.
    expect((await stripe.createCheckout({ ...request, idempotencyKey: 'porchlight-plan-biz_sparkle-2', customerId, customerEmail: 'owner@sparkle.example' })).sessionId).toBe('cs_test_b1PlanCheckout002');
    expect(f.left()).toBe(0);
    expect(f.mismatches).toEqual([]);
  });

  it('refuses to sell the plan without the metered overage price configured, asking Stripe nothing', async () => {
    const f = fake();
    const refused = await adapter(f, ['whsec_connect'], null).createCheckout({ ...request, idempotencyKey: 'k' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderError);
    expect(f.sent).toHaveLength(0);
  });

  it('reads a checkout and a subscription (its period from the items), opens the billing portal, reports metered minutes once by identifier', async () => {
    const f = fake('checkout-sessions-retrieve-subscription', 'subscriptions-retrieve', 'billing-portal-sessions-create', 'billing-meter-events-create');
    const stripe = adapter(f);
    expect(await stripe.checkoutStatus('cs_test_b1PlanCheckout001')).toEqual({ status: 'complete', subscriptionId: 'sub_1QvSparklePlan01', customerId: 'cus_QvSparkle0001' });
    expect(await stripe.subscriptionStatus('sub_1QvSparklePlan01')).toEqual({
      subscriptionId: 'sub_1QvSparklePlan01', customerId: 'cus_QvSparkle0001', status: 'active', cancelAtPeriodEnd: true, periodStart: 1795001000_000, periodEnd: 1797679400_000,
    });
    // Stripe says only that portal sessions are short-lived: five minutes is promised.
    expect(await stripe.billingPortal({ customerId: 'cus_QvSparkle0001', returnUrl: 'https://porchlight.example/payments/portal/return' })).toEqual({
      url: 'https://billing.stripe.com/p/session/test_YWNjdF8xUXZQb3JjaGxpZ2h0',
      expiresAt: (1795002000 + 300) * 1000,
    });
    await stripe.reportUsage({ customerId: 'cus_QvSparkle0001', minutes: 12, identifier: 'porchlight-usage-cm_usage_1', at: 1795001600_000 });
    for (const sent of f.sent.slice(0, 3)) expect(sent.headers.get('stripe-account')).toBeNull();
    expect(f.left()).toBe(0);
    expect(f.mismatches).toEqual([]);
  });
});

describe("the Stripe adapter's webhooks", () => {
  const stripe = adapter(fake(), ['whsec_rotated_old', 'whsec_connect']);
  const at = (e: Record<string, unknown>) => Number(e.created) * 1000;
  const signed = (e: Record<string, unknown>, secret = 'whsec_connect') => {
    const payload = JSON.stringify(e);
    return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Number(e.created) }) };
  };
  const read = (name: string) => {
    const { payload, header } = signed(events[name]!);
    return stripe.verifyWebhook(payload, header, at(events[name]!) + 2_000);
  };

  it('reads the events Porchlight acts on', async () => {
    const base = { account: 'acct_1QvSalonTest001' };
    expect(await read('checkout.session.completed')).toEqual({
      id: 'evt_1QvCompleted0001', type: 'checkout.session.completed', createdAt: 1795001000_000, kind: 'checkout.completed', sessionId: 'cs_test_a1SalonCut0001',
      paymentIntentId: 'pi_3QvSalonCut0001', amountCents: 6500, ...base, reference: { purpose: 'appointment', id: 'cm_appt_1' },
    });
    expect((await read('checkout.session.completed (bank debit, still processing)')).kind).toBe('ignored');
    expect(await read('checkout.session.async_payment_succeeded')).toMatchObject({ kind: 'checkout.completed', paymentIntentId: 'pi_3QvSalonCut0002', reference: { purpose: 'appointment', id: 'cm_appt_2' } });
    // No purpose in the metadata: no reference, so no domain acts on it.
    expect(await read('checkout.session.expired')).toMatchObject({ kind: 'checkout.expired', sessionId: 'cs_test_a1SalonCut0003', reference: null });
    expect(await read('refund.updated')).toMatchObject({ kind: 'refund.succeeded', refundId: 're_3QvSalonCut0001', paymentIntentId: 'pi_3QvSalonCut0001', ...base, reference: { purpose: 'appointment', id: 'cm_appt_1', attempt: 1 } });
    expect(await read('refund.failed')).toMatchObject({ kind: 'refund.failed', refundId: 're_3QvSalonCut0001' });
    expect((await read('refund.created (pending)')).kind).toBe('ignored');
    expect(await read('account.updated')).toMatchObject({ kind: 'account.updated', account: { accountId: 'acct_1QvSalonTest001', chargesEnabled: true, detailsSubmitted: true } });
    expect(await read('payment_intent.succeeded')).toMatchObject({ kind: 'ignored', type: 'payment_intent.succeeded' });
  });

  it("reads the plan's events: its checkout paid, the subscription's changes and end, its invoices", async () => {
    const reference = { purpose: 'receptionist_plan', id: 'biz_sparkle' };
    expect(await read('checkout.session.completed (subscription)')).toEqual({
      id: 'evt_1QvPlanPaid0001', type: 'checkout.session.completed', createdAt: 1795001000_000, kind: 'subscription.checkout_completed',
      sessionId: 'cs_test_b1PlanCheckout001', subscriptionId: 'sub_1QvSparklePlan01', customerId: 'cus_QvSparkle0001', account: null, reference,
    });
    const subscription = { subscriptionId: 'sub_1QvSparklePlan01', customerId: 'cus_QvSparkle0001', cancelAtPeriodEnd: false };
    expect(await read('customer.subscription.created')).toMatchObject({ kind: 'subscription.updated', account: null, reference, subscription: { ...subscription, status: 'active', periodStart: 1795001000_000, periodEnd: 1797679400_000 } });
    expect(await read('customer.subscription.deleted')).toMatchObject({ kind: 'subscription.updated', subscription: { ...subscription, status: 'cancelled' } });
    // Objects from before API version 2025-03-31 carry the period on the subscription itself.
    expect(await read('customer.subscription.updated (past due, legacy period fields)')).toMatchObject({ kind: 'subscription.updated', subscription: { ...subscription, status: 'past_due', periodStart: 1797679400_000, periodEnd: 1800271400_000 } });
    expect(await read('invoice.paid')).toEqual({
      id: 'evt_1QvInvoicePaid01', type: 'invoice.paid', createdAt: 1797679450_000, kind: 'invoice.paid', invoiceId: 'in_1QvSparkle0002',
      subscriptionId: 'sub_1QvSparklePlan01', amountCents: 5700, periodStart: 1797679400_000, periodEnd: 1800271400_000, account: null, reference,
    });
    expect((await read('invoice.paid (one-off, no subscription)')).kind).toBe('ignored');
  });

  it('verifies with the SDK: any configured secret, nothing else, nothing tampered or stale', async () => {
    const e = events['checkout.session.completed']!;
    const { payload, header } = signed(e, 'whsec_rotated_old');
    expect((await stripe.verifyWebhook(payload, header, at(e))).kind).toBe('checkout.completed');
    const other = signed(e, 'whsec_someone_else');
    await expect(stripe.verifyWebhook(other.payload, other.header, at(e))).rejects.toThrow(WebhookSignatureError);
    await expect(stripe.verifyWebhook(payload.replace('6500', '1'), header, at(e))).rejects.toThrow(WebhookSignatureError);
    await expect(stripe.verifyWebhook(payload, undefined, at(e))).rejects.toThrow(WebhookSignatureError);
    // Older than five minutes by the service clock: a replay.
    await expect(stripe.verifyWebhook(payload, header, at(e) + 301_000)).rejects.toThrow(WebhookSignatureError);
    // The sandbox's own signature helper produces exactly Stripe's scheme.
    const ours = stripeSignature(payload, 'whsec_connect', Number(e.created));
    expect(ours).toBe(Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_connect', timestamp: Number(e.created) }));
    expect((await stripe.verifyWebhook(payload, ours, at(e))).kind).toBe('checkout.completed');
  });
});
