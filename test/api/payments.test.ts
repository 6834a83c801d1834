/**
 * The payment provider's side: webhooks (signature, replay, out-of-order delivery, events of
 * other accounts), customer_payment_onboarding and the sandbox's onboarding page, the sandbox's
 * durable webhook queue and unpaid holds across restarts, and the Stripe adapter chosen by
 * configuration, verifying with the SDK.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPorchlight } from '../../main.js';
import { operationByName } from '../../src/operations.js';
import { demoIds } from '../../src/demo/generate.js';
import { sweepAppointments } from '../../src/appointments/payments.js';
import { TEST_CARDS, sandboxWebhookSecret, stripeSignature } from '../../src/payments/sandbox.js';
import { BASE, TEST_NOW, bearer, businessKey, freshDatabase, startApp, type TestApp } from '../helpers/harness.js';

const SALON = 'velvet-hair-studio-san-francisco';
const MINUTE = 60_000;

let app: TestApp;
let secret: string;
let owner: Record<string, string>;
const logs: string[] = [];

/** An upfront appointment awaiting payment, in a new conversation. */
async function awaiting(on: TestApp = app) {
  const c = await on.rest('contact_business', { business: SALON, customer_name: 'Webhook Tester', message: 'Hello' });
  // The first open start: every earlier booking that still holds time is no longer listed.
  const times = await on.rest('appointment_times', { business: SALON, service_id: 'express-blow-dry' });
  expect(times.status, JSON.stringify(times.body)).toBe(200);
  const start = times.body.starts[0];
  const b = await on.rest('book_appointment', { inquiry_id: c.body.inquiry_id, reply_token: c.body.reply_token, service_id: 'express-blow-dry', start, expected_price_cents: times.body.price_cents, customer_authorized: true });
  expect(b.status, JSON.stringify(b.body)).toBe(200);
  const row = await on.services.prisma.appointment.findUniqueOrThrow({ where: { id: b.body.booking_id } });
  return { ...b.body, conversation: { inquiry_id: c.body.inquiry_id, reply_token: c.body.reply_token }, row };
}

/** A Stripe-shaped event, as the sandbox or Stripe would send it. */
function event(type: string, object: Record<string, unknown>, account: string | null, id = `evt_test_${Math.random().toString(36).slice(2)}`) {
  return JSON.stringify({ id, object: 'event', api_version: Stripe.API_VERSION, created: Math.floor(app.services.clock.now() / 1000), livemode: false, type, account, data: { object } });
}

const completed = (a: { booking_id: string; row: { checkoutSessionId: string | null; paymentAccountId: string | null } }, over: Record<string, unknown> = {}, account = a.row.paymentAccountId) =>
  event('checkout.session.completed', {
    id: a.row.checkoutSessionId,
    object: 'checkout.session',
    status: 'complete',
    payment_status: 'paid',
    amount_total: 5400,
    currency: 'usd',
    payment_intent: 'pi_test_made_up',
    client_reference_id: a.booking_id,
    metadata: { purpose: 'appointment', reference_id: a.booking_id },
    ...over,
  }, account);

async function post(raw: string, signature?: string, on: TestApp = app) {
  const res = await on.get('/webhooks/payments', { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body: raw });
  return { status: res.status, body: await res.json() };
}
const sign = (raw: string, key = secret, at = app.services.clock.now()) => stripeSignature(raw, key, Math.floor(at / 1000));
const settle = () => app.services.payments.sandbox!.flush();
const status = async (id: string) => (await app.services.prisma.appointment.findUniqueOrThrow({ where: { id } })).status;

async function pay(checkoutUrl: string, card: string = TEST_CARDS.pays, on: TestApp = app) {
  return on.get(new URL(checkoutUrl).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: card, expiry: '12/30', cvc: '123', name: 'Pat Doe' }),
  });
}

beforeAll(async () => {
  app = await startApp({ logs, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  secret = sandboxWebhookSecret(app.services.secretsKey);
  owner = bearer(await businessKey(app, SALON));
});
afterAll(async () => app?.close());

describe('payment webhooks', () => {
  it('refuses unsigned, wrongly signed, tampered and stale events with 400, changing nothing', async () => {
    const a = await awaiting();
    const raw = completed(a);
    const handled = await app.services.prisma.paymentWebhookEvent.count();
    const attempts: [string, string | undefined][] = [
      ['unsigned', undefined],
      ['another secret', sign(raw, 'whsec_not_the_secret')],
      ['a garbage header', 'v1=abc'],
      ['a tampered body', sign(raw.replace('5400', '1'))],
      ['ten minutes old', sign(raw, secret, app.services.clock.now() - 10 * MINUTE)],
    ];
    for (const [why, signature] of attempts) {
      const r = await post(raw, signature);
      expect(r.status, why).toBe(400);
      expect(r.body).toEqual({ error: 'The webhook signature is missing or not valid.', code: 'invalid_signature' });
    }
    expect(await app.services.prisma.paymentWebhookEvent.count()).toBe(handled);
    expect(await status(a.booking_id)).toBe('awaiting_payment');
    // The secret and the signatures sent never reach a log line.
    const logged = logs.join('\n');
    expect(logged).not.toContain(secret);
    for (const [, signature] of attempts) if (signature) expect(logged).not.toContain(signature.split('v1=')[1]!);
  });

  it('refuses a body over 256 KiB before reading it', async () => {
    const huge = JSON.stringify({ id: 'evt_huge', object: 'event', type: 'account.updated', padding: 'x'.repeat(300 * 1024) });
    const r = await post(huge, sign(huge));
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
    expect(await app.services.prisma.paymentWebhookEvent.count({ where: { id: 'evt_huge' } })).toBe(0);
  });

  it('handles each event id once: a replayed event (freshly signed) changes nothing', async () => {
    const a = await awaiting();
    expect((await pay(a.checkout_url)).status).toBe(303);
    await settle();
    expect(await status(a.booking_id)).toBe('confirmed');
    const delivered = await app.services.prisma.sandboxWebhook.findFirstOrThrow({ where: { type: 'checkout.session.completed', payload: { contains: a.booking_id } } });
    expect(delivered).toMatchObject({ deliveredAt: expect.any(Date), lastStatus: 200 });
    const messages = await app.services.prisma.conversationMessage.count({ where: { conversationId: a.inquiry_id } });
    const replays = await Promise.all([1, 2, 3].map(() => post(delivered.payload, sign(delivered.payload))));
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(replays.map((r) => r.body.outcome)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    expect(await app.services.prisma.event.count({ where: { bookingId: a.booking_id, type: 'appointment.confirmed' } })).toBe(1);
    expect(await app.services.prisma.conversationMessage.count({ where: { conversationId: a.inquiry_id } })).toBe(messages);

    // A new event id delivered twice at once: one handles it, the other sees it handled.
    const fresh = completed(a, { payment_intent: (await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.booking_id } })).paymentIntentId });
    const both = await Promise.all([post(fresh, sign(fresh)), post(fresh, sign(fresh))]);
    expect(both.map((r) => r.body.outcome).sort()).toEqual(['duplicate', 'handled']);
    expect(await status(a.booking_id)).toBe('confirmed');
  });

  it('out of order: a payment reported after its checkout expired refunds it and never resurrects the booking', async () => {
    const sandbox = app.services.payments.sandbox!;
    const a = await awaiting();
    // The payment goes through, but its webhook cannot be delivered for now.
    sandbox.connect(async () => new Response('unavailable', { status: 503 }));
    try {
      expect((await pay(a.checkout_url)).status).toBe(303);
      await settle();
      expect(await status(a.booking_id)).toBe('awaiting_payment');
      // Meanwhile the provider reports the checkout expired (events may come in any order).
      const expired = event('checkout.session.expired', { id: a.row.checkoutSessionId, object: 'checkout.session', status: 'expired', payment_status: 'unpaid', metadata: { purpose: 'appointment', reference_id: a.booking_id } }, a.row.paymentAccountId);
      expect((await post(expired, sign(expired))).body.outcome).toBe('handled');
      expect(await status(a.booking_id)).toBe('lapsed');
      // The freed time is booked by someone else.
      const c = await app.rest('contact_business', { business: SALON, customer_name: 'Next Customer', customer_email: 'next@example.com', message: 'Hi' });
      const other = await app.rest('book_appointment', { inquiry_id: c.body.inquiry_id, reply_token: c.body.reply_token, service_id: 'style-consultation', start: a.start, expected_price_cents: 0, customer_authorized: true });
      expect(other.body.status).toBe('confirmed');
    } finally {
      sandbox.connect(async (request) => app.fetch(request));
    }
    await app.services.prisma.sandboxWebhook.updateMany({ where: { deliveredAt: null }, data: { nextAttemptAt: new Date(0) } });
    await settle();
    const row = await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.booking_id } });
    expect(row).toMatchObject({ status: 'refunded', holdsTime: false, paidCents: 5400 });
    const texts = (await app.rest('inquiry_status', a.conversation)).body.messages.map((m: { text: string }) => m.text);
    expect(texts).toContain('A payment of $54.00 arrived after the booking had lapsed, so it is being refunded through the payment provider; the appointment is not booked.');
    expect(texts.at(-1)).toMatch(/refund of \$54\.00 is done/);
  });

  it('ignores events about an appointment from an account it is not paid into', async () => {
    const a = await awaiting();
    const forged = completed(a, {}, 'acct_someone_else');
    expect((await post(forged, sign(forged))).body.outcome).toBe('handled');
    expect(await status(a.booking_id)).toBe('awaiting_payment');
    // And events for no known purpose or appointment are acknowledged and dropped.
    const stray = completed({ booking_id: 'nope', row: a.row }, {}, a.row.paymentAccountId);
    expect((await post(stray, sign(stray))).status).toBe(200);
    const unknown = event('invoice.paid', { id: 'in_1', object: 'invoice' }, null);
    expect((await post(unknown, sign(unknown))).body.outcome).toBe('ignored');
  });

  it('asks again for a refund the provider refused, and calls it failed after five tries', async () => {
    const a = await awaiting();
    const expired = event('checkout.session.expired', { id: a.row.checkoutSessionId, object: 'checkout.session', metadata: { purpose: 'appointment', reference_id: a.booking_id } }, a.row.paymentAccountId);
    await post(expired, sign(expired));
    // A payment the sandbox never took cannot be refunded there.
    const late = completed(a, { payment_intent: 'pi_sbx_unknown' });
    await post(late, sign(late));
    expect(await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.booking_id } })).toMatchObject({ status: 'refund_pending', refundAttempts: 1 });
    for (let i = 0; i < 4; i++) await sweepAppointments(app.services);
    expect(await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.booking_id } })).toMatchObject({ status: 'refund_failed', refundAttempts: 5 });
  });

  it("settles a refund only with news of the current refund, not a late report of an earlier one", async () => {
    const a = await awaiting();
    await pay(a.checkout_url, TEST_CARDS.refundFails);
    await settle();
    expect(await app.rest('cancel_appointment', { booking_id: a.booking_id, ...a.conversation })).toMatchObject({ status: 200 });
    await settle();
    const first = await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.booking_id } });
    expect(first).toMatchObject({ status: 'refund_failed', refundRound: 1 });
    // A second refund was asked for, and the provider has not answered yet.
    await app.services.prisma.appointment.update({ where: { id: a.booking_id }, data: { status: 'refund_pending', refundId: null, refundRound: 2, refundAttempts: 5 } });
    const news = (refundId: string, attempt: number, status: string) =>
      event('refund.updated', { id: refundId, object: 'refund', amount: 5400, payment_intent: first.paymentIntentId, status, metadata: { purpose: 'appointment', reference_id: a.booking_id, attempt: String(attempt) } }, a.row.paymentAccountId);
    const stale = news(first.refundId!, 1, 'succeeded');
    await post(stale, sign(stale));
    expect(await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.booking_id } })).toMatchObject({ status: 'refund_pending', refundId: null });
    const current = news('re_second_round', 2, 'succeeded');
    await post(current, sign(current));
    expect(await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: a.booking_id } })).toMatchObject({ status: 'refunded', refundId: 're_second_round' });
  });

  it('account updates: an older report arriving late does not undo a newer one', async () => {
    const salon = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: SALON }, include: { paymentAccount: true } });
    const account = salon.paymentAccount!.accountId;
    const report = (ready: boolean, at: number) =>
      JSON.stringify({ id: `evt_acct_${at}`, object: 'event', created: Math.floor(at / 1000), type: 'account.updated', account, data: { object: { id: account, object: 'account', charges_enabled: ready, details_submitted: true } } });
    const now = app.services.clock.now();
    const newer = report(false, now);
    const older = report(true, now - 60 * MINUTE);
    await post(newer, sign(newer));
    await post(older, sign(older));
    expect((await app.rest('booking_setup', {}, owner)).body.payment_account_ready).toBe(false);
    const ready = report(true, now + 1000);
    await post(ready, sign(ready));
    expect((await app.rest('booking_setup', {}, owner)).body.payment_account_ready).toBe(true);
  });
});

describe('customer_payment_onboarding', () => {
  it('gives a private onboarding link; the owner finishes on the provider page; upfront payment then works', async () => {
    const account = await app.services.prisma.paymentAccount.findFirstOrThrow({ where: { chargesEnabled: false, provider: 'sandbox' }, include: { business: true } });
    const unfinished = bearer(await businessKey(app, account.business.slug));
    const upfront = { services: [{ service_id: 'deposit', name: 'Deposit visit', price_cents: 2500, duration_minutes: 30, payment: 'upfront' }] };
    expect((await app.rest('update_booking_setup', upfront, unfinished)).body.code).toBe('not_configured');
    for (const via of ['rest', 'mcp', 'graphql'] as const) {
      const r =
        via === 'rest'
          ? (await app.rest('customer_payment_onboarding', {}, unfinished)).body
          : via === 'mcp'
            ? (await app.tool('customer_payment_onboarding', {}, unfinished)).structured
            : (await app.graphql(app.app.documents.get('customer_payment_onboarding')!, {}, unfinished)).body.data.customerPaymentOnboarding;
      expect(r.url ?? r.url).toMatch(/^http:\/\/porchlight\.test\/sandbox\/onboarding\/sbxlink_/);
      expect(r.provider).toBe('sandbox');
      expect(r.account_ready ?? r.accountReady).toBe(false);
      expect(Date.parse(r.expires_at ?? r.expiresAt)).toBeGreaterThan(app.services.clock.now());
    }
    const link = (await app.rest('customer_payment_onboarding', {}, unfinished)).body.url as string;
    // The same account every time.
    expect(await app.services.prisma.paymentAccount.count({ where: { businessId: account.businessId } })).toBe(1);
    const page = await app.get(new URL(link).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain(account.business.name.replace(/&/g, '&amp;').replace(/'/g, '&#39;'));

    const submit = (fields: Record<string, string>) =>
      app.get(new URL(link).pathname, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    const good = { business_name: account.business.name, tax_id: '000000000', routing_number: '110000000', account_number: '000123456789', representative_name: 'Alex Owner', date_of_birth: '1980-01-15', ssn_last4: '0000' };
    const bad = await submit({ ...good, routing_number: '123456789', representative_name: '<b>Alex</b>' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Not a valid US routing number');
    expect(badHtml).toContain('&lt;b&gt;Alex&lt;/b&gt;');
    expect(badHtml).not.toMatch(/value="(000123456789|110000000|123456789|0000|000000000)"/); // bank and identity details are never shown back
    expect((await app.rest('booking_setup', {}, unfinished)).body.payment_account_ready).toBe(false);

    const done = await submit(good);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('http://porchlight.test/payments/onboarding/done');
    await settle();
    expect((await app.rest('booking_setup', {}, unfinished)).body.payment_account_ready).toBe(true);
    const sandboxAccount = await app.services.prisma.sandboxPaymentObject.findUniqueOrThrow({ where: { id: account.accountId } });
    expect(JSON.stringify(sandboxAccount.data)).not.toMatch(/000123456789|110000000|000000000/);
    // The link worked once.
    const again = await app.get(new URL(link).pathname);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('http://porchlight.test/payments/onboarding/expired');
    const updated = await app.rest('update_booking_setup', upfront, unfinished);
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect((await app.rest('customer_payment_onboarding', {}, unfinished)).body.account_ready).toBe(true);
  });

  it('creates one account for a business without one, however many calls race', async () => {
    const garage = await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'auto_repair', paymentAccount: null }, orderBy: { slug: 'asc' } });
    const key = bearer(await businessKey(app, garage.slug));
    const results = await Promise.all([1, 2, 3].map(() => app.rest('customer_payment_onboarding', {}, key)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const accounts = await app.services.prisma.paymentAccount.findMany({ where: { businessId: garage.id } });
    expect(accounts).toHaveLength(1);
    expect(await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'account', idempotencyKey: `account:porchlight-business-${garage.id}` } })).toBe(1);
  });

  it('return pages only inform: their URL parameters change nothing', async () => {
    const before = await app.services.prisma.paymentAccount.findMany({ orderBy: { businessId: 'asc' } });
    for (const path of ['/payments/onboarding/done?account=acct_x&ready=true', '/payments/onboarding/expired', '/payments/checkout/left?paid=1']) {
      const res = await app.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
    expect(await app.services.prisma.paymentAccount.findMany({ orderBy: { businessId: 'asc' } })).toEqual(before);
    expect((await app.get('/sandbox/checkout/cs_sbx_nope')).status).toBe(404);
  });
});

describe('across restarts', () => {
  it('delivers a webhook queued before a restart, and lapses holds that ran out while down', async () => {
    // A copy of the run's seeded template, on the run's kind of database: restarts meet the same rows.
    const db = await freshDatabase(true);
    const config = (minutes: number) => ({ ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: db.url, dataDir: db.dataDir, now: new Date(Date.parse(TEST_NOW) + minutes * MINUTE).toISOString(), baseUrl: BASE });
    const status = async (p: Awaited<ReturnType<typeof createPorchlight>>, id: string) => (await p.services.prisma.appointment.findUniqueOrThrow({ where: { id } })).status;
    try {
      const first = await createPorchlight(config(0));
      const run = async (name: string, input: Record<string, unknown>) => (await first.app.run(operationByName.get(name)!, input, new Request(BASE, { method: 'POST' }), 'restart-test')).body;
      const book = async (service: string, start: string) => {
        const c = await run('contact_business', { business: SALON, customer_name: 'Restart', message: 'Hi' });
        return run('book_appointment', { inquiry_id: c.inquiry_id, reply_token: c.reply_token, service_id: service, start, expected_price_cents: service === 'express-blow-dry' ? 5400 : 1800, customer_authorized: true });
      };
      const times = (await run('appointment_times', { business: SALON, service_id: 'express-blow-dry' })) as { starts: string[] };
      const paid = await book('express-blow-dry', times.starts[0]);
      const unpaid = await book('fringe-trim', times.starts[8]);
      expect([paid.status, unpaid.status]).toEqual(['awaiting_payment', 'awaiting_payment']);
      // Paid while webhooks cannot get through; the server stops before any retry.
      first.services.payments.sandbox!.connect(async () => new Response('down', { status: 503 }));
      const res = await first.fetch(new Request(new URL(paid.checkout_url as string).href, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ card_number: TEST_CARDS.pays, expiry: '12/30', cvc: '123', name: 'Pat Doe' }),
      }));
      expect(res.status).toBe(303);
      await first.services.payments.sandbox!.flush();
      expect(await status(first, paid.booking_id as string)).toBe('awaiting_payment');
      await first.close();

      // Five minutes later the queued webhook is delivered by the next start.
      const second = await createPorchlight(config(5));
      try {
        await second.services.payments.sandbox!.flush();
        expect(await status(second, paid.booking_id as string)).toBe('confirmed');
        expect(await second.services.prisma.sandboxWebhook.count({ where: { deliveredAt: null } })).toBe(0);
        expect(await status(second, unpaid.booking_id as string)).toBe('awaiting_payment');
      } finally {
        await second.close();
      }
      // 31 minutes after booking: the unpaid hold ran out while no instance ran, and lapses at start-up.
      const third = await createPorchlight(config(31));
      try {
        expect(await status(third, unpaid.booking_id as string)).toBe('lapsed');
        expect(await status(third, paid.booking_id as string)).toBe('confirmed');
      } finally {
        await third.close();
      }
    } finally {
      await db.drop();
    }
  });
});

describe('with Stripe configured', () => {
  let stripeApp: TestApp;
  beforeAll(async () => {
    stripeApp = await startApp({ env: { STRIPE_SECRET_KEY: 'sk_test_porchlight', STRIPE_WEBHOOK_SECRET: 'whsec_connect_endpoint, whsec_platform_endpoint' } });
  });
  afterAll(async () => stripeApp?.close());

  it('verifies webhooks with the SDK against each endpoint secret, and serves no sandbox', async () => {
    expect(stripeApp.services.payments.provider.name).toBe('stripe');
    expect(stripeApp.services.payments.sandbox).toBeNull();
    expect((await stripeApp.get('/sandbox/checkout/cs_anything')).status).toBe(404);
    const business = await stripeApp.services.prisma.business.findUniqueOrThrow({ where: { slug: SALON } });
    const at = new Date(stripeApp.services.clock.now() - MINUTE);
    await stripeApp.services.prisma.paymentAccount.update({ where: { businessId: business.id }, data: { provider: 'stripe', accountId: 'acct_1StripeTest', chargesEnabled: false, statusAt: at } });
    const payload = JSON.stringify({
      id: 'evt_1StripeAccount',
      object: 'event',
      created: Math.floor(stripeApp.services.clock.now() / 1000),
      type: 'account.updated',
      account: 'acct_1StripeTest',
      data: { object: { id: 'acct_1StripeTest', object: 'account', charges_enabled: true, details_submitted: true } },
    });
    const timestamp = Math.floor(stripeApp.services.clock.now() / 1000);
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other', timestamp });
    expect((await post(payload, wrong, stripeApp)).status).toBe(400);
    const right = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_platform_endpoint', timestamp });
    expect((await post(payload, right, stripeApp)).body).toEqual({ received: true, outcome: 'handled' });
    const owner = bearer(await businessKey(stripeApp, SALON));
    expect((await stripeApp.rest('booking_setup', {}, owner)).body).toMatchObject({ payment_account_ready: true, payment_provider: 'stripe' });
  });

  it('does not use an account made with the sandbox', async () => {
    const info = await stripeApp.rest('business_info', { business: 'fog-city-maids-san-francisco' });
    expect(info.body.booking.appointments).toBe('none');
    const austinSalon = await stripeApp.services.prisma.paymentAccount.findFirstOrThrow({ where: { provider: 'sandbox', chargesEnabled: true }, include: { business: true } });
    expect((await stripeApp.rest('business_info', { business: austinSalon.business.slug })).body.booking.appointments).toBe('book');
  });

  it('sells no receptionist plan without its metered overage price, and leaves plans bought in the sandbox alone', async () => {
    const owner = bearer(await businessKey(stripeApp, demoIds.cleanerAustin));
    const r = await stripeApp.rest('receptionist_checkout', { owner_approved: true }, owner);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('not_configured');
    const sandboxPlan = await stripeApp.services.prisma.receptionistBilling.findFirstOrThrow({ where: { provider: 'sandbox' }, include: { business: true } });
    const planOwner = bearer(await businessKey(stripeApp, sandboxPlan.business.slug));
    expect((await stripeApp.rest('receptionist_billing_portal', {}, planOwner)).body.code).toBe('invalid_input');
    // Reading the provider skips a plan another provider sold; the rest of the view answers.
    expect((await stripeApp.rest('receptionist_refresh', {}, planOwner)).body.plan.status).toBe('active');
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_RECEPTIONIST_METER: 'receptionist_minutes' })).toThrow(/both STRIPE_RECEPTIONIST_OVERAGE_PRICE and STRIPE_RECEPTIONIST_METER/);
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_RECEPTIONIST_OVERAGE_PRICE: 'price_1', STRIPE_RECEPTIONIST_METER: 'm' }).stripe?.receptionist).toEqual({ overagePrice: 'price_1', meterEventName: 'm' });
  });

  it('needs both settings or neither', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(/both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_x' })).toThrow(/both/);
    expect(loadConfig({}).stripe).toBeUndefined();
  });
});
