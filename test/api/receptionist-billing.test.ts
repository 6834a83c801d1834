/**
 * The receptionist's plan, phone number, number transfer and spending limit end to end, through
 * REST, MCP and GraphQL, on the payment and carrier sandboxes: the plan bought on the sandbox's
 * checkout page and known only from its signed webhooks (or by reading the provider), the billing
 * portal, numbers searched, bought once however often asked (a lost answer looked up, never
 * bought again), portability and draft transfers finished on the dashboard page, the limit held
 * where usage is recorded, and the attacks.
 */
import { DateTime } from 'luxon';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { errorStatus, type ErrorCode } from '../../src/errors.js';
import { recordUsage } from '../../src/billing/usage.js';
import { TEST_CARDS, sandboxWebhookSecret, stripeSignature } from '../../src/payments/sandbox.js';
import { PENDING_MINUTES } from '../../src/phone/sandbox.js';
import { BASE, bearer, businessKey, personalKey, startApp, type TestApp } from '../helpers/harness.js';
import { cookiesOf, csrfIn, formPost, signInToDashboard, testBill } from '../helpers/dashboard.js';
import { call, SURFACES, type Surface } from '../helpers/surfaces.js';

const MINUTE = 60_000;
let app: TestApp;
let secret: string;
/** A cleaner without a plan: buys one in these tests. */
const BUYER = demoIds.cleanerAustin;
let buyer: Record<string, string>;
let buyerId: string;
let readOnly: Record<string, string>;
let other: Record<string, string>;
const logs: string[] = [];

beforeAll(async () => {
  app = await startApp({ logs, env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  secret = sandboxWebhookSecret(app.services.secretsKey);
  buyer = bearer(await businessKey(app, BUYER));
  buyerId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: BUYER } })).id;
  readOnly = bearer(await businessKey(app, BUYER, ['read']));
  other = bearer(await businessKey(app, demoIds.plumberAustin));
});
afterAll(async () => app?.close());

async function ok(via: Surface, name: string, input: Record<string, unknown> = {}, headers = buyer) {
  const r = await call(app, via, name, input, headers);
  expect(r.ok, `${name} via ${via}: ${JSON.stringify(r.body)}`).toBe(true);
  return r.body;
}

/** The same refusal on every surface: REST answers the code's status, MCP and GraphQL carry the code. */
async function refused(name: string, input: Record<string, unknown>, code: ErrorCode, message?: RegExp, headers = buyer, surfaces: readonly Surface[] = SURFACES) {
  for (const via of surfaces) {
    let r: { ok: boolean; body: unknown; code?: string; error?: string };
    if (via === 'rest') {
      const res = await app.rest(name, input, headers);
      expect(res.status, `${name} via rest: ${JSON.stringify(res.body)}`).toBe(errorStatus[code]);
      r = { ok: false, body: res.body, code: res.body.code, error: res.body.error };
    } else r = await call(app, via, name, input, headers);
    expect(r.ok, `${name} via ${via} should be refused: ${JSON.stringify(r.body)}`).toBe(false);
    expect(r.code, `${name} via ${via}: ${r.error}`).toBe(code);
    if (message) expect(r.error).toMatch(message);
  }
}

const settle = () => app.services.payments.sandbox!.flush();
const billing = (businessId = buyerId) => app.services.prisma.receptionistBilling.findUnique({ where: { businessId } });
const sign = (raw: string, key = secret, at = app.services.clock.now()) => stripeSignature(raw, key, Math.floor(at / 1000));
async function post(raw: string, signature?: string) {
  const res = await app.get('/webhooks/payments', { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) }, body: raw });
  return { status: res.status, body: await res.json() };
}

/** Pays a sandbox checkout with a card, as the form on its page does. */
async function pay(checkoutUrl: string, card: string = TEST_CARDS.pays) {
  return app.get(new URL(checkoutUrl).pathname, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card_number: card, expiry: '12/30', cvc: '123', name: 'Owner Pays' }),
  });
}

/** A business of the demo with a plan bought in the test: a fresh key and an active sandbox plan. */
async function withPlan(slug: string) {
  const key = bearer(await businessKey(app, slug));
  const { url } = await ok('rest', 'receptionist_checkout', { owner_approved: true }, key);
  expect((await pay(url)).status).toBe(303);
  await settle();
  expect((await ok('rest', 'receptionist_service', {}, key)).plan.status).toBe('active');
  return key;
}

const NO_SECRETS = /acct_|cus_|sub_|card|bank|pin|account_number|4242|000123456789/i;

describe('receptionist_service and the plan', () => {
  it('shows the private view on every surface, with every field the contract names and nothing secret', async () => {
    for (const via of SURFACES) {
      const v = await ok(via, 'receptionist_service');
      expect(v).toMatchObject({
        plan: { status: 'none', monthly_dollars: 49 },
        phone: { status: 'none', number: null },
        customer_payments: { status: 'none' },
        usage: { included_minutes: 300, used_minutes: 0, overage_dollars: 0 },
        spending_limit: { monthly_dollars: 49, at_limit: 'ask', committed_dollars: 0 },
      });
      expect(Object.keys(v).join(',')).not.toMatch(NO_SECRETS);
    }
    // A business with a payment account shows its state, still without account details.
    const salon = bearer(await businessKey(app, demoIds.beautySanFrancisco));
    const v = await ok('rest', 'receptionist_service', {}, salon);
    expect(v.customer_payments.status).toBe('ready');
    expect(JSON.stringify(v)).not.toMatch(NO_SECRETS);
  });

  it('receptionist_checkout needs owner_approved true: false or missing is refused, nothing is opened', async () => {
    await refused('receptionist_checkout', { owner_approved: false }, 'invalid_input', /owner_approved must be true/);
    await refused('receptionist_checkout', {}, 'invalid_input');
    expect((await billing())?.checkouts ?? 0).toBe(0);
    expect(await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'checkout_session', accountId: null } })).toBe(0);
  });

  it('a number or a transfer needs an active plan', async () => {
    const shown = await ok('rest', 'phone_numbers', { area_code: '512' });
    await refused('activate_phone_number', { number: shown.numbers[0].number, owner_approved: true }, 'plan_inactive', /active receptionist plan/);
    await refused('prepare_number_port', { number: '(512) 555-0142', owner_requested: true }, 'plan_inactive');
    expect(await app.services.prisma.receptionistNumber.count({ where: { businessId: buyerId } })).toBe(0);
    expect(await app.services.prisma.numberPort.count({ where: { businessId: buyerId } })).toBe(0);
  });

  it('is refused below the plan price: the limit comes first', async () => {
    await ok('rest', 'receptionist_limits', { monthly_dollars: 20, at_limit: 'ask' });
    await refused('receptionist_checkout', { owner_approved: true }, 'invalid_input', /below the plan's \$49/);
    await ok('rest', 'receptionist_limits', { monthly_dollars: 100, at_limit: 'ask' });
  });

  it('hands out one checkout link; paying it activates the plan only through the signed webhook', async () => {
    const links = [];
    for (const via of SURFACES) links.push(await ok(via, 'receptionist_checkout', { owner_approved: true }));
    // The same open checkout every time, on the platform's own account.
    expect(new Set(links.map((l) => l.url)).size).toBe(1);
    expect(links[0]).toMatchObject({ monthly_dollars: 49, included_minutes: 300, overage_dollars_per_minute: 0.2 });
    expect(Date.parse(links[0].expires_at)).toBeGreaterThan(app.services.clock.now() + 50 * MINUTE);
    const url: string = links[0].url;
    expect(url).toMatch(/^http:\/\/porchlight\.test\/sandbox\/checkout\/cs_sbx_/);
    const page = await (await app.get(new URL(url).pathname)).text();
    expect(page).toContain('Pay Porchlight');
    expect(page).toContain('$49.00 a month, 300 minutes included, then $0.20 a minute');

    // Neither the link nor URL parameters on the return pages nor a refresh's body activate anything.
    expect((await app.get('/payments/plan/done?session_id=cs_sbx_x&status=active&plan=active')).status).toBe(200);
    const forged = await call(app, 'rest', 'receptionist_refresh', { status: 'active', subscription_id: 'sub_forged', plan: 'active' }, buyer);
    expect(forged.body).toMatchObject({ code: 'invalid_input', error: 'Unknown fields: status, subscription_id, plan. This operation takes no input.' });
    await ok('rest', 'receptionist_refresh', {});
    expect((await ok('rest', 'receptionist_service')).plan.status).toBe('none');

    // A declined card changes nothing.
    expect((await pay(url, TEST_CARDS.declined)).status).toBe(400);
    await settle();
    expect((await billing())!.planStatus).toBe('none');

    const cursor = (await ok('rest', 'updates')).cursor;
    // Paid while webhooks cannot get through: still nothing, until the provider is heard.
    const sandbox = app.services.payments.sandbox!;
    sandbox.connect(async () => new Response('down', { status: 503 }));
    try {
      expect((await pay(url)).status).toBe(303);
      await settle();
      expect((await billing())!.planStatus).toBe('none');
    } finally {
      sandbox.connect(async (request) => app.fetch(request));
    }
    await app.services.prisma.sandboxWebhook.updateMany({ where: { deliveredAt: null }, data: { nextAttemptAt: new Date(0) } });
    await settle();
    const v = await ok('graphql', 'receptionist_service');
    expect(v.plan).toMatchObject({ status: 'active', monthly_dollars: 49, cancels_at_period_end: false });
    expect(Date.parse(v.plan.period_end)).toBeGreaterThan(app.services.clock.now() + 27 * 24 * 60 * MINUTE);
    expect(v.spending_limit).toMatchObject({ monthly_dollars: 100, committed_dollars: 49 });
    const events = (await ok('rest', 'updates', { since: cursor })).events.map((e: { type: string }) => e.type);
    expect(events.filter((t: string) => t === 'receptionist.plan_active')).toHaveLength(1);
    // Bought once: one subscription, and a second checkout is refused while the plan serves.
    expect(await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'subscription', data: { path: ['metadata', 'reference_id'], equals: buyerId } } })).toBe(1);
    await refused('receptionist_checkout', { owner_approved: true }, 'invalid_input', /already has a receptionist plan/);
  });

  it('receptionist_refresh reads the plan from the provider when its webhook never came', async () => {
    const slug = (await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'hvac', city: 'Austin', receptionistBilling: null }, orderBy: { slug: 'asc' } })).slug;
    const key = bearer(await businessKey(app, slug));
    const { url } = await ok('rest', 'receptionist_checkout', { owner_approved: true }, key);
    const sandbox = app.services.payments.sandbox!;
    sandbox.connect(async () => new Response('down', { status: 503 }));
    try {
      await pay(url);
      await settle();
      expect((await ok('rest', 'receptionist_service', {}, key)).plan.status).toBe('none');
      for (const via of SURFACES) expect((await ok(via, 'receptionist_refresh', {}, key)).plan.status).toBe('active');
    } finally {
      sandbox.connect(async (request) => app.fetch(request));
    }
    // The late webhooks then change nothing more.
    await app.services.prisma.sandboxWebhook.updateMany({ where: { deliveredAt: null }, data: { nextAttemptAt: new Date(0) } });
    await settle();
    const id = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug } })).id;
    expect(await app.services.prisma.event.count({ where: { businessId: id, type: 'receptionist.plan_active' } })).toBe(1);
  });
});

describe('receptionist_refresh and customer payments', () => {
  it('reads the payment account from the provider after onboarding, whatever its webhook did', async () => {
    const account = await app.services.prisma.paymentAccount.findFirstOrThrow({ where: { chargesEnabled: false, provider: 'sandbox' }, include: { business: true } });
    const key = bearer(await businessKey(app, account.business.slug));
    expect((await ok('rest', 'receptionist_service', {}, key)).customer_payments.status).toBe('onboarding');
    const link = (await ok('rest', 'customer_payment_onboarding', {}, key)).url as string;
    const sandbox = app.services.payments.sandbox!;
    sandbox.connect(async () => new Response('down', { status: 503 }));
    try {
      const done = await app.get(new URL(link).pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ business_name: account.business.name, tax_id: '000000000', routing_number: '110000000', account_number: '000123456789', representative_name: 'Alex Owner', date_of_birth: '1980-01-15', ssn_last4: '0000' }),
      });
      expect(done.status).toBe(303);
      await settle();
      expect((await ok('rest', 'receptionist_service', {}, key)).customer_payments.status).toBe('onboarding');
      const v = await ok('mcp', 'receptionist_refresh', {}, key);
      expect(v.customer_payments.status).toBe('ready');
      expect(v.note).toMatch(/just now/);
      expect(JSON.stringify(v)).not.toMatch(NO_SECRETS);
    } finally {
      sandbox.connect(async (request) => app.fetch(request));
    }
  });
});

describe('plan webhooks', () => {
  const subscriptionEvent = (type: string, object: Record<string, unknown>, id = `evt_plan_${Math.random().toString(36).slice(2)}`, created = Math.floor(app.services.clock.now() / 1000)) =>
    JSON.stringify({ id, object: 'event', api_version: Stripe.API_VERSION, created, livemode: false, type, data: { object } });

  it('refuses forged and unsigned events, handles a replay once', async () => {
    const row = (await billing())!;
    const cancel = subscriptionEvent('customer.subscription.deleted', { id: row.subscriptionId, object: 'subscription', status: 'canceled', customer: row.customerId, metadata: { purpose: 'receptionist_plan', reference_id: buyerId } });
    expect((await post(cancel)).status).toBe(400);
    expect((await post(cancel, sign(cancel, 'whsec_forged'))).status).toBe(400);
    expect((await post(cancel.replace('canceled', 'active'), sign(cancel))).status).toBe(400);
    expect((await billing())!.planStatus).toBe('active');
    // A real event from the sandbox, delivered again: handled once.
    const delivered = await app.services.prisma.sandboxWebhook.findFirstOrThrow({ where: { type: 'customer.subscription.created', payload: { contains: buyerId } } });
    const replays = await Promise.all([1, 2].map(() => post(delivered.payload, sign(delivered.payload))));
    expect(replays.map((r) => r.body.outcome)).toEqual(['duplicate', 'duplicate']);
    expect(await app.services.prisma.event.count({ where: { businessId: buyerId, type: 'receptionist.plan_active' } })).toBe(1);
  });

  it('ignores a plan event from a connected account, and an older report after a newer one', async () => {
    const row = (await billing())!;
    const object = { id: row.subscriptionId, object: 'subscription', status: 'canceled', customer: row.customerId, metadata: { purpose: 'receptionist_plan', reference_id: buyerId } };
    const fromAccount = JSON.parse(subscriptionEvent('customer.subscription.deleted', object));
    fromAccount.account = 'acct_someone';
    const raw = JSON.stringify(fromAccount);
    expect((await post(raw, sign(raw))).body.outcome).toBe('handled');
    expect((await billing())!.planStatus).toBe('active');
    // A report from an hour ago (past_due) arrives after the current one: it changes nothing.
    const older = subscriptionEvent('customer.subscription.updated', { ...object, status: 'past_due' }, undefined, Math.floor((app.services.clock.now() - 60 * MINUTE) / 1000));
    expect((await post(older, sign(older))).body.outcome).toBe('handled');
    expect((await billing())!.planStatus).toBe('active');
    // A late report that some other subscription of this business ended replaces nothing.
    const stale = subscriptionEvent('customer.subscription.deleted', { ...object, id: 'sub_sbx_an_old_plan' });
    expect((await post(stale, sign(stale))).body.outcome).toBe('handled');
    expect(await billing()).toMatchObject({ planStatus: 'active', subscriptionId: row.subscriptionId });
    expect(await app.services.prisma.event.count({ where: { businessId: buyerId, type: 'receptionist.plan_cancelled' } })).toBe(0);
  });
});

describe('phone numbers', () => {
  it('phone_numbers searches on every surface and buys nothing', async () => {
    const before = await app.services.prisma.sandboxCarrierObject.count();
    for (const via of SURFACES) {
      const r = await ok(via, 'phone_numbers', { area_code: '737' });
      expect(r.numbers.length).toBeGreaterThan(0);
      for (const n of r.numbers) {
        expect(n.number).toMatch(/^\+1737\d{7}$/);
        expect(n).toMatchObject({ locality: 'Austin', region: 'TX' });
      }
    }
    // Without an area code: the business's own.
    expect((await ok('rest', 'phone_numbers')).area_code).toBe('512');
    await refused('phone_numbers', { area_code: '212' }, 'invalid_input', /512 \(Austin\)/);
    // Anything else, two digits included, gets the same list (the document's enum).
    await refused('phone_numbers', { area_code: '51' }, 'invalid_input', /these area codes: .*512 \(Austin\)/);
    expect(await app.services.prisma.sandboxCarrierObject.count()).toBe(before);
    expect(await app.services.prisma.receptionistNumber.count({ where: { businessId: buyerId } })).toBe(0);
  });

  it('activates only the number the owner approved, one of those shown; the same number again never buys twice', async () => {
    const shown = (await ok('rest', 'phone_numbers', { area_code: '512', contains: '0102' })).numbers;
    const number = shown[0].number as string;
    expect(number).toBe('+15125550102');
    await refused('activate_phone_number', { number, owner_approved: false }, 'invalid_input', /owner_approved must be true/);
    await refused('activate_phone_number', { number: '+15125550188', owner_approved: true }, 'invalid_input', /Choose a number from phone_numbers/);
    await refused('activate_phone_number', { number: 'not a number', owner_approved: true }, 'invalid_input', /US phone number/);
    const cursor = (await ok('rest', 'updates')).cursor;
    // Twice at once, then once on each surface, typed differently: one purchase.
    const both = await Promise.all([app.rest('activate_phone_number', { number, owner_approved: true }, buyer), app.rest('activate_phone_number', { number: '(512) 555-0102', owner_approved: true }, buyer)]);
    for (const r of both) expect(r.status, JSON.stringify(r.body)).toBe(200);
    for (const via of SURFACES) expect(await ok(via, 'activate_phone_number', { number: '512.555.0102', owner_approved: true })).toMatchObject({ number, status: 'active' });
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: number } })).toBe(1);
    expect((await ok('rest', 'receptionist_service')).phone).toMatchObject({ status: 'active', number });
    expect((await ok('rest', 'updates', { since: cursor })).events.filter((e: { type: string }) => e.type === 'receptionist.number_active')).toHaveLength(1);
    // One number per business.
    const another = (await ok('rest', 'phone_numbers', { area_code: '512' })).numbers[0].number;
    await refused('activate_phone_number', { number: another, owner_approved: true }, 'invalid_input', /already has the number \+15125550102/);
  });

  it('a purchase may stay pending with the carrier, and becomes active on refresh', async () => {
    const key = await withPlan(demoIds.cleanerSanFrancisco);
    const number = (await ok('rest', 'phone_numbers', { area_code: '415', contains: '0155' }, key)).numbers[0].number;
    expect(await ok('mcp', 'activate_phone_number', { number, owner_approved: true }, key)).toMatchObject({ number, status: 'pending' });
    expect((await ok('rest', 'receptionist_refresh', {}, key)).phone).toMatchObject({ status: 'pending', number });
    // The carrier's provisioning time passes.
    await app.services.prisma.sandboxCarrierObject.update({ where: { id: number }, data: { data: { label: 'x', readyAt: app.services.clock.now() - 1 } } });
    expect((await ok('graphql', 'receptionist_refresh', {}, key)).phone).toMatchObject({ status: 'active', number });
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: number } })).toBe(1);
  });

  it('an answer lost on the way is looked up, never bought again', async () => {
    const key = await withPlan(demoIds.hvacSanJose);
    const number = (await ok('rest', 'phone_numbers', { area_code: '408', contains: '0195' }, key)).numbers[0].number;
    expect(number).toBe('+14085550195');
    // The carrier takes the purchase, but the answer never arrives.
    const first = await ok('rest', 'activate_phone_number', { number, owner_approved: true }, key);
    expect(first).toMatchObject({ number, status: 'pending' });
    expect(first.next).toMatch(/Nothing more will be bought/);
    const businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.hvacSanJose } })).id;
    expect((await app.services.prisma.receptionistNumber.findUniqueOrThrow({ where: { businessId } })).status).toBe('uncertain');
    // Asked again (the answer would be lost again if it were bought again): it is looked up instead.
    for (const via of SURFACES) expect(await ok(via, 'activate_phone_number', { number, owner_approved: true }, key)).toMatchObject({ number, status: 'active' });
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: number } })).toBe(1);
  });

  it('a number the carrier never took is failed on refresh, so the owner can choose again', async () => {
    const key = await withPlan(demoIds.plumberAustin);
    const businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin } })).id;
    const number = (await ok('rest', 'phone_numbers', { area_code: '737', contains: '0111' }, key)).numbers[0].number;
    // As if the call had failed before reaching the carrier.
    await app.services.prisma.receptionistNumber.create({
      data: { businessId, number, locality: 'Austin', region: 'TX', status: 'uncertain', idempotencyKey: `porchlight-number-${businessId}-${number}`, requestedAt: new Date(app.services.clock.now() - 10 * MINUTE), updatedAt: new Date() },
    });
    await refused('activate_phone_number', { number, owner_approved: true }, 'number_unavailable', /nothing was bought/, key, ['mcp']);
    expect(await ok('rest', 'activate_phone_number', { number, owner_approved: true }, key)).toMatchObject({ number, status: 'active' });
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: number } })).toBe(1);
  });

  it('a number another business holds is refused before the carrier is asked, and nothing is bought', async () => {
    const key = bearer(await businessKey(app, demoIds.plumberAustin));
    const mine = (await app.services.prisma.receptionistNumber.findFirstOrThrow({ where: { business: { slug: BUYER } } })).number;
    const businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin } })).id;
    await app.services.prisma.receptionistNumber.delete({ where: { businessId } });
    await app.services.prisma.phoneNumberOffer.create({ data: { businessId, number: mine, locality: 'Austin', region: 'TX', offeredAt: new Date(app.services.clock.now()) } });
    const held = await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number' } });
    await refused('activate_phone_number', { number: mine, owner_approved: true }, 'number_taken', /another Porchlight business, so nothing was bought/, key);
    expect(await app.services.prisma.receptionistNumber.findUnique({ where: { businessId } })).toBeNull();
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number' } })).toBe(held);
  });

  it('a number the carrier sold outside Porchlight is refused by the carrier, and nothing is bought', async () => {
    const key = bearer(await businessKey(app, demoIds.plumberAustin));
    const businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin } })).id;
    const number = (await ok('rest', 'phone_numbers', { area_code: '737', contains: '0112' }, key)).numbers[0].number;
    const now = app.services.clock.date();
    await app.services.prisma.sandboxCarrierObject.create({ data: { id: number, type: 'number', status: 'active', idempotencyKey: 'number:someone-else', data: { label: 'elsewhere', readyAt: 0 }, createdAt: now, updatedAt: now } });
    for (const via of SURFACES) {
      await refused('activate_phone_number', { number, owner_approved: true }, 'number_unavailable', /did not sell/, key, [via]);
      expect((await app.services.prisma.receptionistNumber.findUniqueOrThrow({ where: { businessId } })).status).toBe('failed');
    }
  });
});

describe('moving an existing number', () => {
  it('phone_portability answers on every surface and submits nothing', async () => {
    const ports = await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port' } });
    for (const via of SURFACES) {
      expect(await ok(via, 'phone_portability', { number: '(512) 555-0142' })).toMatchObject({ number: '+15125550142', portable: true, pin_required: true });
      expect(await ok(via, 'phone_portability', { number: '+1 512 555 0149' })).toMatchObject({ portable: false, reason: expect.stringMatching(/does not release/) });
      expect(await ok(via, 'phone_portability', { number: '+1 800 555 0100' })).toMatchObject({ portable: false, reason: expect.stringMatching(/Toll-free/) });
    }
    await refused('phone_portability', { number: '+44 20 7946 0958' }, 'invalid_input', /US phone number/);
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port' } })).toBe(ports);
    expect(await app.services.prisma.numberPort.count({ where: { businessId: buyerId } })).toBe(0);
  });

  it('prepare_number_port makes a draft only on explicit request, replaces the number only on request too, and a not portable number none', async () => {
    await refused('prepare_number_port', { number: '+15125550142', owner_requested: false }, 'invalid_input', /owner_requested must be true/);
    await refused('prepare_number_port', { number: '+15125550149', owner_requested: true, replace_number: true }, 'not_portable', /does not release/);
    // The buyer has +15125550102: moving another number in would replace it.
    await refused('prepare_number_port', { number: '+15125550142', owner_requested: true }, 'replace_number_required', /already has the receptionist number \+15125550102/);
    expect(await app.services.prisma.numberPort.count({ where: { businessId: buyerId } })).toBe(0);
    const drafts = [];
    for (const via of SURFACES) drafts.push(await ok(via, 'prepare_number_port', { number: '(512) 555-0142', owner_requested: true, replace_number: true }));
    expect(new Set(drafts.map((d) => d.port_id)).size).toBe(1);
    for (const d of drafts) {
      expect(d).toMatchObject({ status: 'draft', number: '+15125550142', replaces: '+15125550102' });
      expect(d.dashboard_url).toMatch(/^http:\/\/porchlight\.test\/app\/front-desk\/port\/fdport_/);
      expect(d.next).toMatch(/signed in to their dashboard/);
    }
    // Each call gives a fresh link; the earlier one no longer opens the page.
    const owner = await signInToDashboard(app, BUYER);
    expect((await owner.get(new URL(drafts[0].dashboard_url).pathname)).status).toBe(404);
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port' } })).toBe(0);
    await refused('prepare_number_port', { number: '+15125550143', owner_requested: true, replace_number: true }, 'invalid_input', /already under way/);
    expect((await ok('rest', 'receptionist_service')).phone.port).toMatchObject({ port_id: drafts[0].port_id, status: 'draft' });
  });

  // Issue 18 item 9: the page finished the transfer for whoever held the link the assistant was given.
  it("the page needs the owner's dashboard sign-in; another owner gets the page of an unknown link; the old address redirects", async () => {
    const { dashboard_url: url } = await ok('rest', 'prepare_number_port', { number: '(512) 555-0142', owner_requested: true, replace_number: true });
    const path = new URL(url).pathname;
    const form = {
      customer_name: 'Mallory', authorised_person: 'Mallory', authorised_email: 'm@evil.example', street: '1 Evil St', city: 'Austin', state: 'TX', zip: '78704', account_number: 'ACCT-1234', pin: '9876', consent: 'yes', bill: testBill(),
    };
    const untouched = async () => {
      expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port' } })).toBe(0);
      expect((await app.services.prisma.numberPort.findFirstOrThrow({ where: { businessId: buyerId, number: '+15125550142' } })).status).toBe('draft');
    };

    // Nobody signed in: sent to sign in, coming back to this page; the form is refused.
    const anonymous = await app.get(path);
    expect(anonymous.status).toBe(303);
    const signIn = new URL(anonymous.headers.get('location')!, BASE);
    expect(signIn.pathname).toBe('/app/sign-in');
    expect(signIn.searchParams.get('next')).toBe(path);
    expect(await anonymous.text()).not.toContain('+15125550142');
    expect((await formPost(app, path, form)).status).toBe(403);
    await untouched();

    // Another business's owner: as if the link did not exist.
    const stranger = await signInToDashboard(app, demoIds.plumberAustin);
    const theirs = await stranger.get(path);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('+15125550142');
    expect((await stranger.post(path, form)).status).toBe(404);
    await untouched();

    // The old address (links handed out before) leads to the new one.
    const legacy = await app.get(path.replace(/^\/app\//, '/dashboard/'));
    expect(legacy.status).toBe(308);
    expect(legacy.headers.get('location')).toBe(path);

    // The owner signs in from the redirect and lands on the page; its form needs its token and this site.
    const signInPage = await app.get(`${signIn.pathname}${signIn.search}`);
    const signedIn = await formPost(app, '/app/sign-in', { csrf: csrfIn(await signInPage.text())!, next: path, email: `owner+${BUYER}@demo.porchlight.test`, password: 'porchlight-demo' }, { cookie: cookiesOf(signInPage) });
    expect(signedIn.headers.get('location')).toBe(path);
    const owner = await signInToDashboard(app, BUYER);
    const page = await owner.get(path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('+15125550142');
    expect((await owner.post(path, { ...form, csrf: '' })).status).toBe(403);
    expect((await owner.post(path, form, { origin: 'https://evil.example' })).status).toBe(403);
    await untouched();
  });

  it('the owner finishes it on the dashboard page; nothing secret is kept or shown back; the carrier completes it and takes the replaced number back', async () => {
    const { dashboard_url: url, port_id } = await ok('rest', 'prepare_number_port', { number: '+15125550142', owner_requested: true, replace_number: true });
    const path = new URL(url).pathname;
    const owner = await signInToDashboard(app, BUYER);
    const page = await owner.get(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain('+15125550142');
    expect(html).toContain('legal authorisation');
    const form = {
      customer_name: 'Sparkle <b>& Shine</b>', authorised_person: 'Alex Owner', authorised_email: 'alex@example.com', street: '1100 S Congress Ave', city: 'Austin', state: 'TX', zip: '78704', account_number: 'ACCT-998877', pin: '4321', consent: 'yes', bill: testBill(),
    };
    const send = (fields: Record<string, string | Blob>) => owner.post(path, fields);
    const { consent: _c, ...noConsent } = form;
    const bad = await send({ ...noConsent, pin: 'x' });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain('Confirm that you are authorised');
    expect(badHtml).toContain('Sparkle &lt;b&gt;&amp; Shine&lt;/b&gt;');
    expect(badHtml).not.toContain('ACCT-998877');
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port' } })).toBe(0);

    const done = await send(form);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('The transfer is with the carrier');
    const row = await app.services.prisma.numberPort.findUniqueOrThrow({ where: { id: port_id } });
    expect(row.status).toBe('submitted');
    const stored = JSON.stringify(await app.services.prisma.sandboxCarrierObject.findMany({ where: { type: 'port' } })) + JSON.stringify(row);
    expect(stored).not.toMatch(/ACCT-998877|4321/);
    expect(logs.join('\n')).not.toMatch(/ACCT-998877|fdport_/);
    // Sending again submits nothing more.
    await send(form);
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port' } })).toBe(1);

    // The carrier's time passes; refresh reads the completed transfer: the number is the receptionist's.
    await app.services.prisma.sandboxCarrierObject.updateMany({ where: { type: 'port' }, data: { data: { number: '+15125550142', customerName: 'x', accountLast4: '8877', completesAt: 0, reason: null } } });
    const v = await ok('rest', 'receptionist_refresh');
    expect(v.phone).toMatchObject({ status: 'active', number: '+15125550142', port: { port_id, status: 'completed' } });
    // The number it replaced, as the owner asked, is no longer held at the carrier.
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: '+15125550102' } })).toBe(0);
    expect(await app.services.prisma.numberRelease.findFirstOrThrow({ where: { businessId: buyerId } })).toMatchObject({ number: '+15125550102', portId: port_id, releasedAt: expect.any(Date) });
  });
});

describe('spending limit', () => {
  const use = (businessId: string, usageId: string, minutes: number) => recordUsage(app.services, { businessId, usageId, minutes });

  it('sets the limit on every surface; never below committed charges', async () => {
    for (const via of SURFACES) expect(await ok(via, 'receptionist_limits', { monthly_dollars: 60 + SURFACES.indexOf(via), at_limit: 'pause' })).toMatchObject({ monthly_dollars: 60 + SURFACES.indexOf(via), at_limit: 'pause', committed_dollars: 49 });
    await refused('receptionist_limits', { monthly_dollars: 48, at_limit: 'ask' }, 'below_committed_charges', /already committed \$49\.00/);
    await refused('receptionist_limits', { monthly_dollars: 10001, at_limit: 'ask' }, 'invalid_input');
    await refused('receptionist_limits', { monthly_dollars: 50.5, at_limit: 'ask' }, 'invalid_input');
    await refused('receptionist_limits', { monthly_dollars: 50, at_limit: 'never' }, 'invalid_input');
    // Overage commits more: 20 minutes past the included 300 are $4.
    await ok('rest', 'receptionist_limits', { monthly_dollars: 60, at_limit: 'pause' });
    expect(await use(buyerId, 'call-1', 320)).toMatchObject({ granted: 320, stopped: false });
    expect((await ok('rest', 'receptionist_service')).usage).toEqual({ included_minutes: 300, used_minutes: 320, overage_dollars: 4 });
    await refused('receptionist_limits', { monthly_dollars: 52, at_limit: 'pause' }, 'below_committed_charges', /\$53\.00.*at least 53 dollars/);
    expect(await ok('rest', 'receptionist_limits', { monthly_dollars: 53, at_limit: 'pause' })).toMatchObject({ monthly_dollars: 53, committed_dollars: 53, reached: true });
    expect((await billing())!.limitCents).toBe(5300);
  });

  it('pause: paid minutes stop at the limit, no note', async () => {
    await ok('rest', 'receptionist_limits', { monthly_dollars: 55, at_limit: 'pause' });
    const notes = await app.services.prisma.ownerNote.count({ where: { businessId: buyerId } });
    // $2 left: 10 minutes at $0.20.
    expect(await use(buyerId, 'call-2', 4)).toMatchObject({ granted: 4, stopped: false, remainingMinutes: 6 });
    const r = await use(buyerId, 'call-3', 30);
    expect(r).toMatchObject({ requested: 30, granted: 6, stopped: true, reason: 'limit', remainingMinutes: 0 });
    expect(await use(buyerId, 'call-4', 1)).toMatchObject({ granted: 0, stopped: true, reason: 'limit' });
    // A retried record answers as the first time and counts once.
    expect(await use(buyerId, 'call-3', 30)).toMatchObject({ granted: 6, stopped: true });
    expect((await billing())!.usedMinutes).toBe(330);
    expect((await ok('rest', 'receptionist_service')).spending_limit).toMatchObject({ monthly_dollars: 55, committed_dollars: 55, reached: true });
    expect(await app.services.prisma.ownerNote.count({ where: { businessId: buyerId } })).toBe(notes);
    expect(await app.services.prisma.event.count({ where: { businessId: buyerId, type: 'receptionist.limit_reached' } })).toBe(1);
  });

  it('ask: also stops paid minutes, and leaves the owner one note asking to raise the limit', async () => {
    await ok('rest', 'receptionist_limits', { monthly_dollars: 57, at_limit: 'ask' });
    expect(await use(buyerId, 'call-5', 20)).toMatchObject({ granted: 10, stopped: true, reason: 'limit' });
    expect(await use(buyerId, 'call-6', 5)).toMatchObject({ granted: 0, stopped: true });
    const notes = await app.services.prisma.ownerNote.findMany({ where: { businessId: buyerId } });
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toMatch(/reached this month's spending limit \(\$57\.00; \$57\.00 used\).*raise the limit with receptionist_limits/);
    // The owner sees it with their notifications.
    const schedule = await ok('rest', 'schedule');
    expect(schedule.notifications.map((n: { text: string }) => n.text).join('\n')).toMatch(/spending limit/);
  });

  it('no plan, no paid usage; overage is reported to the provider once', async () => {
    const planless = (await app.services.prisma.business.findFirstOrThrow({ where: { receptionistBilling: null } })).id;
    expect(await use(planless, 'call-x', 3)).toMatchObject({ granted: 0, stopped: true, reason: 'no_plan' });
    const meter = await app.services.prisma.sandboxPaymentObject.findMany({ where: { type: 'meter_event', data: { path: ['customerId'], equals: (await billing())!.customerId! } } });
    expect(meter.map((m) => (m.data as { minutes: number }).minutes).reduce((a, b) => a + b, 0)).toBe(20 + 4 + 6 + 10);
    expect(await app.services.prisma.receptionistUsage.count({ where: { businessId: buyerId, reportedAt: null } })).toBe(0);
  });

  it('the database refuses a row whose usage passes the limit, whatever writes it', async () => {
    await expect(app.services.prisma.receptionistBilling.update({ where: { businessId: buyerId }, data: { usedMinutes: 400 } })).rejects.toThrow();
    expect((await billing())!.usedMinutes).toBe(340);
  });
});

describe('billing portal and renewal', () => {
  it('gives a private short-lived link on every surface; opening the portal neither charges nor cancels', async () => {
    for (const via of SURFACES) {
      const link = await ok(via, 'receptionist_billing_portal');
      expect(link.url).toMatch(/^http:\/\/porchlight\.test\/sandbox\/portal\/sbxportal_/);
      expect(Date.parse(link.expires_at) - app.services.clock.now()).toBeLessThanOrEqual(5 * MINUTE);
    }
    const { url } = await ok('rest', 'receptionist_billing_portal');
    const webhooks = await app.services.prisma.sandboxWebhook.count();
    const invoices = await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'invoice' } });
    const page = await app.get(new URL(url).pathname);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Porchlight AI receptionist');
    expect(html).toContain('Renews on');
    expect(html).not.toMatch(/4242|000123456789/);
    expect(await app.services.prisma.sandboxWebhook.count()).toBe(webhooks);
    expect(await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'invoice' } })).toBe(invoices);
    expect((await billing())!.planStatus).toBe('active');
    // A business without a plan has no portal.
    const planless = bearer(await businessKey(app, (await app.services.prisma.business.findFirstOrThrow({ where: { receptionistBilling: null } })).slug));
    await refused('receptionist_billing_portal', {}, 'invalid_input', /receptionist_checkout/, planless);
  });

  it('renews when the period ends, billing the overage of the period past, and starts the count again', async () => {
    // A month passes: the plan (at the provider and here) is moved back so its first period ended seconds ago.
    const periodEnd = Math.floor(app.services.clock.now() / 1000) * 1000 - 5000;
    const anchor = DateTime.fromMillis(periodEnd, { zone: 'utc' }).minus({ months: 1 }).toMillis();
    const row = await app.services.prisma.receptionistBilling.update({ where: { businessId: buyerId }, data: { periodStart: new Date(anchor), periodEnd: new Date(periodEnd) } });
    const sub = await app.services.prisma.sandboxPaymentObject.findUniqueOrThrow({ where: { id: row.subscriptionId! } });
    await app.services.prisma.sandboxPaymentObject.update({ where: { id: sub.id }, data: { expiresAt: new Date(periodEnd), data: { ...(sub.data as object), anchor } } });
    await app.services.prisma.receptionistUsage.updateMany({ where: { businessId: buyerId }, data: { at: new Date(periodEnd - 2 * MINUTE) } });
    // The overage reported to the meter this period (40 minutes) falls inside the period that ended.
    await app.services.prisma.$executeRaw`UPDATE "SandboxPaymentObject" SET "data" = jsonb_set("data", '{at}', to_jsonb(${periodEnd - 2 * MINUTE}::bigint)) WHERE "type" = 'meter_event' AND "data"->>'customerId' = ${row.customerId}`;
    await app.services.payments.sandbox!.tick();
    await settle();
    const renewed = (await billing())!;
    expect(renewed.planStatus).toBe('active');
    expect(renewed.periodStart!.getTime()).toBe(periodEnd);
    expect(renewed.usedMinutes).toBe(0);
    const invoice = await app.services.prisma.sandboxPaymentObject.findFirstOrThrow({ where: { type: 'invoice', data: { path: ['subscriptionId'], equals: row.subscriptionId! } }, orderBy: { createdAt: 'desc' } });
    expect((invoice.data as { amountCents: number }).amountCents).toBe(4900 + 40 * 20);
    expect((await ok('rest', 'receptionist_service')).spending_limit).toMatchObject({ committed_dollars: 49, reached: false });
  });

  it('cancel at the end of the period, then at once: the plan ends and the owner hears it', async () => {
    const { url } = await ok('rest', 'receptionist_billing_portal');
    const path = new URL(url).pathname;
    const subscription = (await billing())!.subscriptionId!;
    const act = (action: string) => app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ subscription_id: subscription, action }) });
    const later = await act('cancel_at_period_end');
    expect(await later.text()).toContain('The plan ends on');
    await settle();
    expect((await ok('rest', 'receptionist_service')).plan).toMatchObject({ status: 'active', cancels_at_period_end: true });
    await act('keep');
    await settle();
    expect((await ok('rest', 'receptionist_service')).plan.cancels_at_period_end).toBe(false);
    // Another business's subscription is not one of this portal's.
    const foreign = (await app.services.prisma.receptionistBilling.findFirstOrThrow({ where: { businessId: { not: buyerId }, subscriptionId: { not: null } } })).subscriptionId!;
    const refusedForeign = await app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ subscription_id: foreign, action: 'cancel_now' }) });
    expect(refusedForeign.status).toBe(400);
    await settle();
    expect((await app.services.prisma.receptionistBilling.findFirstOrThrow({ where: { subscriptionId: foreign } })).planStatus).toBe('active');

    await act('cancel_now');
    await settle();
    const v = await ok('rest', 'receptionist_service');
    expect(v.plan.status).toBe('cancelled');
    expect(await app.services.prisma.event.count({ where: { businessId: buyerId, type: 'receptionist.plan_cancelled' } })).toBe(1);
    // No plan, no paid minutes; and the base already paid this month stays committed.
    expect(await recordUsage(app.services, { businessId: buyerId, usageId: 'after-cancel', minutes: 1 })).toMatchObject({ granted: 0, reason: 'no_plan' });
    expect(v.spending_limit.committed_dollars).toBe(49);
  });
});

describe('demo data', () => {
  it('has three sandbox plans (an active number, a pending one, overage under a pause limit) and no plan elsewhere', async () => {
    const plans = await app.services.prisma.receptionistBilling.findMany({ where: { subscriptionId: { startsWith: 'sub_sbx_demo_' } }, include: { business: { include: { receptionistNumber: true } } } });
    expect(plans.map((p) => [p.business.city, p.business.kind, p.planStatus, p.business.receptionistNumber?.status ?? null]).sort()).toEqual([
      ['Austin', 'cleaning', 'active', 'active'],
      ['San Francisco', 'plumbing', 'active', 'pending'],
      ['San Jose', 'hvac', 'active', null],
    ]);
    const pending = plans.find((p) => p.business.receptionistNumber?.status === 'pending')!;
    const key = bearer(await businessKey(app, pending.business.slug));
    const v = await ok('rest', 'receptionist_service', {}, key);
    expect(v).toMatchObject({ plan: { status: 'active' }, phone: { status: 'pending', number: '+16285550150' } });
    // The sandbox knows the demo plans: their portal opens, and the pending number settles with time.
    expect((await app.get(new URL((await ok('rest', 'receptionist_billing_portal', {}, key)).url).pathname)).status).toBe(200);
    await app.services.prisma.sandboxCarrierObject.update({ where: { id: '+16285550150' }, data: { data: { label: 'demo', readyAt: app.services.clock.now() - PENDING_MINUTES * MINUTE } } });
    expect((await ok('rest', 'receptionist_refresh', {}, key)).phone.status).toBe('active');
    const overage = plans.find((p) => p.business.kind === 'hvac')!;
    expect(await ok('rest', 'receptionist_service', {}, bearer(await businessKey(app, overage.business.slug)))).toMatchObject({
      usage: { used_minutes: 320, overage_dollars: 4 },
      spending_limit: { monthly_dollars: 60, at_limit: 'pause', committed_dollars: 53 },
    });
  });
});

describe('access and attacks', () => {
  it("another business's key sees and changes only its own", async () => {
    const mine = await ok('rest', 'receptionist_service');
    const theirs = await ok('rest', 'receptionist_service', {}, other);
    expect(theirs.phone.number).not.toBe(mine.phone.number);
    const port = (await app.services.prisma.numberPort.findFirstOrThrow({ where: { businessId: buyerId } })).id;
    // Their limits change leaves ours; our number cannot be theirs.
    await ok('rest', 'receptionist_limits', { monthly_dollars: 70, at_limit: 'pause' }, other);
    expect((await billing())!.limitCents).not.toBe(7000);
    await refused('activate_phone_number', { number: mine.phone.number, owner_approved: true }, 'invalid_input', undefined, other);
    expect(JSON.stringify(await ok('rest', 'receptionist_service', {}, other))).not.toContain(port);
  });

  it('needs the sign-in with write for changes, also through GraphQL fragments and aliases', async () => {
    expect((await app.rest('receptionist_service', {})).status).toBe(401);
    expect((await app.rest('receptionist_service', {}, bearer(await personalKey(app)))).body.code).toBe('insufficient_scope');
    expect((await call(app, 'graphql', 'receptionist_service', {}, readOnly)).ok).toBe(true);
    const limit = (await billing())!.limitCents;
    for (const doc of [
      'mutation { ...W } fragment W on Mutation { receptionistLimits(input: { monthlyDollars: 9999, atLimit: pause }) { monthlyDollars } }',
      'mutation { a: receptionistCheckout(input: { ownerApproved: true }) { url } }',
      'mutation { ... on Mutation { activatePhoneNumber(input: { number: "+15125550120", ownerApproved: true }) { status } } }',
      'mutation { ...P } fragment P on Mutation { prepareNumberPort(input: { number: "+15125550142", ownerRequested: true }) { dashboardUrl } }',
      'mutation { receptionistBillingPortal { url } }',
    ]) {
      const r = await app.graphql(doc, {}, readOnly);
      expect(r.status, doc).toBe(403);
      expect(r.body.errors[0].extensions.code).toBe('insufficient_scope');
      expect(JSON.stringify(r.body)).not.toMatch(/sandbox\/(checkout|portal)|fdport_/);
    }
    expect((await billing())!.limitCents).toBe(limit);
  });

  it('refuses NUL and other control characters', async () => {
    await refused('activate_phone_number', { number: '+15125550102\u0000', owner_approved: true }, 'invalid_input', /control characters/);
    await refused('phone_portability', { number: '512\u0000555 0142' }, 'invalid_input', /control characters/);
    await refused('prepare_number_port', { number: '+15125550142\u0007', owner_requested: true }, 'invalid_input', /control characters/);
    const plan = await withPortPlan();
    const { dashboard_url } = await ok('rest', 'prepare_number_port', { number: '+15125550132', owner_requested: true }, plan.key);
    const owner = await signInToDashboard(app, plan.slug);
    const res = await owner.post(new URL(dashboard_url).pathname, { customer_name: 'a\u0000b' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Use plain text.');
  });
});

/** A business with an active plan and no transfer under way. */
async function withPortPlan() {
  const slug = (await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'plumbing', city: 'San Jose', receptionistBilling: null }, orderBy: { slug: 'asc' } })).slug;
  return { slug, key: await withPlan(slug) };
}

describe('billing portal before the first payment', () => {
  it('opens once a checkout was started: the customer is made with the first checkout and the paid plan keeps it', async () => {
    const business = await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'beauty', city: 'San Jose', receptionistBilling: null }, orderBy: { slug: 'asc' } });
    const key = bearer(await businessKey(app, business.slug));
    // Nothing started yet: no customer, no portal.
    await refused('receptionist_billing_portal', {}, 'invalid_input', /receptionist_checkout/, key);
    const checkout = await ok('rest', 'receptionist_checkout', { owner_approved: true }, key);
    const started = (await billing(business.id))!;
    expect(started).toMatchObject({ planStatus: 'none', provider: 'sandbox', customerId: expect.stringMatching(/^cus_sbx_/) });
    const customer = await app.services.prisma.sandboxPaymentObject.findUniqueOrThrow({ where: { id: started.customerId! } });
    expect(customer).toMatchObject({ type: 'customer', data: { email: business.email, name: business.name } });

    // Checkout started, nothing paid: the portal opens on every surface and says nothing is paid yet.
    for (const via of SURFACES) {
      const link = await ok(via, 'receptionist_billing_portal', {}, key);
      expect(link.url).toMatch(/^http:\/\/porchlight\.test\/sandbox\/portal\/sbxportal_/);
      expect(link.next).toMatch(/No plan is paid yet/);
    }
    const page = await app.get(new URL((await ok('rest', 'receptionist_billing_portal', {}, key)).url).pathname);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('Renews on');

    // Asking again hands out the same checkout and makes no second customer.
    expect((await ok('rest', 'receptionist_checkout', { owner_approved: true }, key)).url).toBe(checkout.url);
    expect(await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'customer', idempotencyKey: `customer:porchlight-plan-customer-${business.id}` } })).toBe(1);

    // Paid: the subscription belongs to that customer, and the portal shows the plan.
    expect((await pay(checkout.url)).status).toBe(303);
    await settle();
    const paid = (await billing(business.id))!;
    expect(paid).toMatchObject({ planStatus: 'active', customerId: started.customerId });
    const after = await ok('rest', 'receptionist_billing_portal', {}, key);
    expect(after.next).not.toMatch(/No plan is paid yet/);
    expect(await (await app.get(new URL(after.url).pathname)).text()).toContain('Renews on');
  });
});
