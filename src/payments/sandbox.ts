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
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import Stripe from 'stripe';
import { Prisma, type PrismaClient, type SandboxWebhook } from '../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import type { Links } from '../links.js';
import { MINUTE } from '../availability/time.js';
import { transaction } from '../db/transaction.js';
import { DurableQueue } from '../jobs/queue.js';
import { referenceMetadata, verifyStripeEvent } from './stripe-events.js';
import {
  ProviderError,
  type CheckoutRequest,
  type CheckoutStatus,
  type PaymentProvider,
  type RefundRequest,
  type SubscriptionCheckoutRequest,
  type SubscriptionStatus,
} from './provider.js';

type Tx = Prisma.TransactionClient;

/** Onboarding links work this long, once. */
const LINK_MINUTES = 30;
/** Billing portal links work this long (as Stripe's, short-lived). */
const PORTAL_MINUTES = 5;
/** At most this many periods are renewed at once for one subscription (a server down for long). */
const MAX_RENEWALS = 24;
const DELIVERY_BATCH = 50;
const MAX_ATTEMPTS = 25;
const FLUSH_DELAY_MS = 20;
/** A delivery run holds its events this long: far longer than posting a batch takes. */
const DELIVERY_LEASE_MS = 5 * MINUTE;

export const TEST_CARDS = { pays: '4242424242424242', declined: '4000000000000002', refundFails: '4000000000005126' } as const;

/** The sandbox's webhook signing secret, derived from SECRETS_KEY: stable across restarts and shared by instances. */
export const sandboxWebhookSecret = (secretsKey: Uint8Array) =>
  `whsec_sbx_${createHmac('sha256', secretsKey).update('payments-sandbox-webhook').digest('base64url').slice(0, 32)}`;

/** Stripe's signature scheme: HMAC-SHA256 of "<timestamp>.<payload>" with the endpoint's secret. */
export function stripeSignature(payload: string, secret: string, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`).digest('hex')}`;
}

const newId = (prefix: string, bytes = 18) => `${prefix}${randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x')}`;
const seconds = (ms: number) => Math.floor(ms / 1000);
const linkKey = (token: string) => `link_${createHash('sha256').update(token).digest('hex')}`;
const portalKey = (token: string) => `portal_${createHash('sha256').update(token).digest('hex')}`;
/** A subscription's nth period ends n months after its start, counted from the start (as Stripe anchors). */
const monthsAfter = (anchor: number, n: number) => DateTime.fromMillis(anchor, { zone: 'utc' }).plus({ months: n }).toMillis();

interface AccountData {
  businessName: string;
  email: string | null;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  bankLast4?: string;
}
interface LinkData {
  returnUrl: string;
  refreshUrl: string;
}
type Plan = SubscriptionCheckoutRequest['plan'];

interface SessionData {
  /** Absent on sessions made before subscriptions: a payment. */
  mode?: 'payment' | 'subscription';
  plan?: Plan;
  customerId?: string | null;
  customerEmail?: string | null;
  subscriptionId?: string;
  lineItems: { name: string; amountCents: number; quantity: number }[];
  amountCents: number;
  currency: string;
  metadata: Record<string, string>;
  clientReferenceId: string;
  successUrl: string;
  cancelUrl: string;
  url: string;
  paymentIntentId?: string;
}
interface IntentData {
  sessionId: string;
  amountCents: number;
  refundedCents: number;
  refundFails: boolean;
}
interface CustomerData {
  email: string | null;
}
interface SubscriptionData {
  customerId: string;
  metadata: Record<string, string>;
  plan: Plan;
  /** The first period's start: every period is counted in months from it. */
  anchor: number;
  /** Which period runs now (0: the first). */
  period: number;
  cancelAtPeriodEnd: boolean;
  endedAt?: number;
}
interface InvoiceData {
  customerId: string;
  subscriptionId: string;
  metadata: Record<string, string>;
  lines: { description: string; amountCents: number; periodStart: number; periodEnd: number }[];
  amountCents: number;
}
interface MeterEventData {
  customerId: string;
  minutes: number;
  at: number;
}
interface PortalData {
  customerId: string;
  returnUrl: string;
}
interface RefundData {
  paymentIntentId: string;
  amountCents: number;
  metadata: Record<string, string>;
}

/** What the checkout page shows. */
export interface CheckoutView {
  sessionId: string;
  status: 'open' | 'complete' | 'expired';
  businessName: string;
  /** A subscription's terms (monthly price, included minutes, overage); null for a payment. */
  terms: string | null;
  lineItems: { name: string; amount: string; quantity: number }[];
  total: string;
  expiresAt: string;
  successUrl: string;
  cancelUrl: string;
}

export interface OnboardingView {
  businessName: string;
  detailsSubmitted: boolean;
}

/** What the billing portal shows: the customer's plans and invoices. Opening it changes nothing. */
export interface PortalView {
  returnUrl: string;
  expiresAt: string;
  subscriptions: { id: string; name: string; status: string; terms: string; periodEnd: string; cancelAtPeriodEnd: boolean }[];
  invoices: { id: string; date: string; amount: string; status: string; lines: string[] }[];
}

export type PortalOutcome = { ok: true; message: string } | { ok: false; error: string };

export type PayOutcome = { ok: true; redirect: string } | { ok: false; error: string; view: CheckoutView | null };
export type OnboardOutcome = { ok: true; redirect: string } | { ok: false; errors: Record<string, string>; view: OnboardingView | null };

const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const planTerms = (p: Plan) => `${usd(p.monthlyCents)} a month, ${p.includedMinutes} minutes included, then ${usd(p.overageCentsPerMinute)} a minute`;
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Card numbers carry a Luhn check digit. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** US bank routing numbers carry the ABA checksum (110000000 is Stripe's test number). */
function abaRouting(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  return (3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)) % 10 === 0;
}

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const field = (form: Record<string, unknown>, name: string) => {
  const v = form[name];
  return typeof v === 'string' ? v.trim() : '';
};

export class PaymentSandbox implements PaymentProvider {
  readonly name = 'sandbox' as const;
  private send: ((request: Request) => Promise<Response>) | null = null;
  private readonly webhooks: DurableQueue<SandboxWebhook, number>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly links: Links,
    readonly webhookSecret: string,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.webhooks = new DurableQueue<SandboxWebhook, number>(prisma, clock, {
      table: 'SandboxWebhook',
      dueColumn: 'nextAttemptAt',
      claimable: () => Prisma.sql`"deliveredAt" IS NULL AND "attempts" < ${MAX_ATTEMPTS}`,
      batch: DELIVERY_BATCH,
      leaseMs: DELIVERY_LEASE_MS,
      // Retries back off as Stripe's do: minutes at first, then up to hours.
      backoff: (attempt) => Math.min(2 ** (attempt - 1), 180) * MINUTE,
      // Handling one event may queue more (a late payment's refund): the run goes on until none is due.
      drain: true,
      ready: () => this.send !== null,
      delayMs: FLUSH_DELAY_MS,
      onError,
      work: (hook) => this.deliver(hook),
      done: async (finished, now) => {
        for (const { row, result } of finished) {
          await this.prisma.sandboxWebhook.update({ where: { id: row.id }, data: { deliveredAt: now, attempts: { increment: 1 }, lastStatus: result } });
        }
      },
      failed: async (row, err, retryAt) => {
        const status = err instanceof WebhookRefused ? err.status : 0;
        await this.prisma.sandboxWebhook.update({ where: { id: row.id }, data: { attempts: { increment: 1 }, lastStatus: status, nextAttemptAt: retryAt } });
      },
    });
  }

  /** Where webhooks go: the app's own fetch handler (so they pass its route and verification). */
  connect(send: (request: Request) => Promise<Response>): void {
    this.send = send;
    this.webhooks.runSoon();
  }

  // -------------------------------------------------------------------------------------------
  // The provider interface

  async createAccount(input: { businessName: string; email: string | null; idempotencyKey: string }) {
    const key = `account:${input.idempotencyKey}`;
    const found = await this.prisma.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
    if (found) return { accountId: found.id };
    const now = this.clock.date();
    const data: AccountData = { businessName: input.businessName, email: input.email, chargesEnabled: false, detailsSubmitted: false };
    const row = await this.prisma.sandboxPaymentObject
      .create({ data: { id: newId('acct_sbx_', 12), type: 'account', status: 'onboarding', idempotencyKey: key, data: data as unknown as Prisma.InputJsonObject, createdAt: now, updatedAt: now } })
      .catch(async (err: unknown) => {
        // The same key at the same moment: the other call made it.
        const again = await this.prisma.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
        if (again) return again;
        throw err;
      });
    return { accountId: row.id };
  }

  async accountLink(input: { accountId: string; returnUrl: string; refreshUrl: string }) {
    await this.account(this.prisma, input.accountId);
    const token = newId('sbxlink_', 24);
    const now = this.clock.now();
    const expiresAt = now + LINK_MINUTES * MINUTE;
    const data: LinkData = { returnUrl: input.returnUrl, refreshUrl: input.refreshUrl };
    await this.prisma.sandboxPaymentObject.create({
      data: { id: linkKey(token), type: 'account_link', status: 'open', accountId: input.accountId, expiresAt: new Date(expiresAt), data: data as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
    });
    return { url: this.links.sandboxOnboarding(token), expiresAt };
  }

  async accountStatus(accountId: string) {
    const data = (await this.account(this.prisma, accountId)).data as unknown as AccountData;
    return { accountId, chargesEnabled: data.chargesEnabled, detailsSubmitted: data.detailsSubmitted };
  }

  async createCheckout(request: CheckoutRequest) {
    const key = `checkout:${request.idempotencyKey}`;
    const found = await this.prisma.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
    if (found) {
      const data = found.data as unknown as SessionData;
      return { sessionId: found.id, url: data.url, expiresAt: found.expiresAt!.getTime() };
    }
    const id = newId('cs_sbx_', 24);
    const now = this.clock.date();
    const common = {
      metadata: referenceMetadata(request.reference),
      clientReferenceId: request.reference.id,
      successUrl: request.successUrl,
      cancelUrl: request.cancelUrl,
      url: this.links.sandboxCheckout(id),
    };
    let data: SessionData;
    let onAccount: string | null = null;
    if (request.mode === 'subscription') {
      // The platform's own subscription: no connected account takes it.
      if (request.customerId) await this.object(this.prisma, request.customerId, 'customer');
      data = {
        ...common,
        mode: 'subscription',
        plan: request.plan,
        customerId: request.customerId ?? null,
        customerEmail: request.customerEmail ?? null,
        lineItems: [{ name: request.plan.name, amountCents: request.plan.monthlyCents, quantity: 1 }],
        amountCents: request.plan.monthlyCents,
        currency: request.currency,
      };
    } else {
      const account = await this.account(this.prisma, request.onAccount);
      if (!(account.data as unknown as AccountData).chargesEnabled) throw new ProviderError(`The sandbox account ${request.onAccount} cannot take payments yet: its onboarding is not finished.`);
      onAccount = request.onAccount;
      data = {
        ...common,
        mode: 'payment',
        lineItems: request.lineItems,
        amountCents: request.lineItems.reduce((sum, i) => sum + i.amountCents * i.quantity, 0),
        currency: request.currency,
      };
    }
    const row = await this.prisma.sandboxPaymentObject
      .create({
        data: { id, type: 'checkout_session', status: 'open', accountId: onAccount, idempotencyKey: key, expiresAt: new Date(request.expiresAt), data: data as unknown as Prisma.InputJsonObject, createdAt: now, updatedAt: now },
      })
      .catch(async (err: unknown) => {
        // The same key at the same moment: the other call made it.
        const again = await this.prisma.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
        if (again) return again;
        throw err;
      });
    return { sessionId: row.id, url: (row.data as unknown as SessionData).url, expiresAt: row.expiresAt!.getTime() };
  }

  async checkoutStatus(sessionId: string): Promise<CheckoutStatus> {
    const session = await this.object(this.prisma, sessionId, 'checkout_session');
    const data = session.data as unknown as SessionData;
    return { status: session.status as CheckoutStatus['status'], subscriptionId: data.subscriptionId ?? null, customerId: data.customerId ?? null };
  }

  async subscriptionStatus(subscriptionId: string): Promise<SubscriptionStatus> {
    return this.subscriptionState(await this.object(this.prisma, subscriptionId, 'subscription'));
  }

  async billingPortal(input: { customerId: string; returnUrl: string }) {
    await this.object(this.prisma, input.customerId, 'customer');
    const token = newId('sbxportal_', 24);
    const now = this.clock.now();
    const expiresAt = now + PORTAL_MINUTES * MINUTE;
    const data: PortalData = { customerId: input.customerId, returnUrl: input.returnUrl };
    await this.prisma.sandboxPaymentObject.create({
      data: { id: portalKey(token), type: 'portal_session', status: 'open', expiresAt: new Date(expiresAt), data: data as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
    });
    return { url: this.links.sandboxPortal(token), expiresAt };
  }

  async reportUsage(input: { customerId: string; minutes: number; identifier: string; at: number }) {
    await this.object(this.prisma, input.customerId, 'customer');
    const key = `meter:${input.identifier}`;
    const now = this.clock.date();
    const data: MeterEventData = { customerId: input.customerId, minutes: input.minutes, at: input.at };
    // A repeat of an identifier counts once, as Stripe's meter events do.
    await this.prisma.sandboxPaymentObject.createMany({
      data: [{ id: newId('mtr_sbx_', 18), type: 'meter_event', status: 'recorded', idempotencyKey: key, data: data as unknown as Prisma.InputJsonObject, createdAt: now, updatedAt: now }],
      skipDuplicates: true,
    });
  }

  async expireCheckout(input: { onAccount: string; sessionId: string }) {
    await this.write(async (tx) => {
      const session = await tx.sandboxPaymentObject.findFirst({ where: { id: input.sessionId, type: 'checkout_session', accountId: input.onAccount } });
      if (!session) throw new ProviderError(`The sandbox has no checkout ${input.sessionId} on ${input.onAccount}.`);
      if (session.status === 'open') await this.expire(tx, session);
    });
  }

  /** Expires a session the clock ran out on, on a connected account or the platform's own. */
  private async expireSession(sessionId: string) {
    await this.write(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${sessionId} FOR UPDATE`;
      const session = await tx.sandboxPaymentObject.findFirst({ where: { id: sessionId, type: 'checkout_session' } });
      if (session?.status === 'open') await this.expire(tx, session);
    });
  }

  async refund(request: RefundRequest) {
    return this.write(async (tx) => {
      const key = `refund:${request.idempotencyKey}`;
      const found = await tx.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
      if (found) return { refundId: found.id };
      await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${request.paymentIntentId} FOR UPDATE`;
      const intent = await tx.sandboxPaymentObject.findFirst({ where: { id: request.paymentIntentId, type: 'payment_intent', accountId: request.onAccount } });
      if (!intent) throw new ProviderError(`The sandbox has no payment ${request.paymentIntentId} on ${request.onAccount}.`);
      const paid = intent.data as unknown as IntentData;
      if (request.amountCents <= 0 || paid.refundedCents + request.amountCents > paid.amountCents) {
        throw new ProviderError(`The refund of ${usd(request.amountCents)} is more than is left of the ${usd(paid.amountCents)} paid.`);
      }
      const id = newId('re_sbx_', 18);
      const now = this.clock.now();
      const data: RefundData = { paymentIntentId: intent.id, amountCents: request.amountCents, metadata: referenceMetadata(request.reference) };
      await tx.sandboxPaymentObject.create({
        data: { id, type: 'refund', status: 'pending', accountId: request.onAccount, idempotencyKey: key, data: data as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
      });
      // The refund is created pending and settles at once: returned, or failed for the test card that refuses refunds.
      const outcome = paid.refundFails ? 'failed' : 'succeeded';
      if (outcome === 'succeeded') {
        await tx.sandboxPaymentObject.update({ where: { id: intent.id }, data: { data: { ...paid, refundedCents: paid.refundedCents + request.amountCents } as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
      }
      await tx.sandboxPaymentObject.update({ where: { id }, data: { status: outcome, updatedAt: new Date(now) } });
      await this.queue(tx, 'refund.created', request.onAccount, this.refundObject(id, data, 'pending'), now);
      await this.queue(tx, outcome === 'failed' ? 'refund.failed' : 'refund.updated', request.onAccount, this.refundObject(id, data, outcome), now + 1);
      return { refundId: id };
    });
  }

  verifyWebhook(rawBody: string, signature: string | undefined, receivedAt: number) {
    return verifyStripeEvent(rawBody, signature, [this.webhookSecret], receivedAt);
  }

  // -------------------------------------------------------------------------------------------
  // The hosted checkout page

  async checkout(sessionId: string): Promise<CheckoutView | null> {
    const session = await this.prisma.sandboxPaymentObject.findFirst({ where: { id: sessionId, type: 'checkout_session' } });
    if (!session) return null;
    // The page is where a person notices a session ran out: it expires then, as Stripe's would have by now.
    if (session.status === 'open' && session.expiresAt!.getTime() <= this.clock.now()) {
      await this.expireSession(sessionId);
      return this.checkout(sessionId);
    }
    return this.checkoutView(session);
  }

  private async checkoutView(session: { id: string; status: string; accountId: string | null; expiresAt: Date | null; data: Prisma.JsonValue }): Promise<CheckoutView> {
    const data = session.data as unknown as SessionData;
    // The platform's own checkouts (subscriptions) are paid to Porchlight.
    const account = session.accountId ? await this.prisma.sandboxPaymentObject.findUnique({ where: { id: session.accountId } }) : null;
    return {
      sessionId: session.id,
      status: session.status as CheckoutView['status'],
      businessName: session.accountId ? ((account?.data as unknown as AccountData | undefined)?.businessName ?? 'the business') : 'Porchlight',
      terms: data.plan ? planTerms(data.plan) : null,
      lineItems: data.lineItems.map((i) => ({ name: i.name, amount: usd(i.amountCents), quantity: i.quantity })),
      total: usd(data.amountCents),
      expiresAt: session.expiresAt!.toISOString(),
      successUrl: data.successUrl,
      cancelUrl: data.cancelUrl,
    };
  }

  /** The checkout form was submitted: the card is checked, and a good one pays. */
  async pay(sessionId: string, form: Record<string, unknown>): Promise<PayOutcome> {
    const card = field(form, 'card_number').replace(/[\s-]/g, '');
    const expiry = field(form, 'expiry');
    const cvc = field(form, 'cvc');
    const name = field(form, 'name');
    const refuse = async (error: string): Promise<PayOutcome> => ({ ok: false, error, view: await this.checkout(sessionId) });
    if ([card, expiry, cvc, name].some((v) => CONTROL.test(v))) return refuse('Use plain text in every field.');
    if (!/^\d{13,19}$/.test(card) || !luhn(card)) return refuse('Your card number is not valid. In the sandbox, 4242 4242 4242 4242 pays.');
    const exp = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(expiry);
    const now = this.clock.now();
    const today = new Date(now);
    if (!exp || 2000 + Number(exp[2]) < today.getUTCFullYear() || (2000 + Number(exp[2]) === today.getUTCFullYear() && Number(exp[1]) < today.getUTCMonth() + 1)) {
      return refuse('The expiry date must be MM/YY and not in the past.');
    }
    if (!/^\d{3,4}$/.test(cvc)) return refuse('The security code (CVC) is 3 or 4 digits.');
    if (name.length < 1 || name.length > 100) return refuse('Enter the name on the card (at most 100 characters).');
    if (card === TEST_CARDS.declined) return refuse('Your card was declined. Try another card.');

    const outcome = await this.write(async (tx): Promise<PayOutcome | 'gone'> => {
      await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${sessionId} FOR UPDATE`;
      const session = await tx.sandboxPaymentObject.findFirst({ where: { id: sessionId, type: 'checkout_session' } });
      if (!session) return 'gone';
      const data = session.data as unknown as SessionData;
      // A second submit of a paid checkout only goes where the first one went.
      if (session.status === 'complete') return { ok: true, redirect: data.successUrl };
      if (session.status !== 'open' || session.expiresAt!.getTime() <= now) return 'gone';
      if (data.mode === 'subscription') {
        await this.subscribe(tx, session, data, now);
        return { ok: true, redirect: data.successUrl };
      }
      const intentId = newId('pi_sbx_', 18);
      const intent: IntentData = { sessionId, amountCents: data.amountCents, refundedCents: 0, refundFails: card === TEST_CARDS.refundFails };
      await tx.sandboxPaymentObject.create({
        data: { id: intentId, type: 'payment_intent', status: 'succeeded', accountId: session.accountId, data: intent as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
      });
      const paid = { ...data, paymentIntentId: intentId };
      await tx.sandboxPaymentObject.update({ where: { id: sessionId }, data: { status: 'complete', data: paid as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
      await this.queue(tx, 'checkout.session.completed', session.accountId!, this.sessionObject({ ...session, status: 'complete' }, paid), now);
      return { ok: true, redirect: data.successUrl };
    });
    if (outcome === 'gone') return refuse('This checkout has expired or no longer exists: nothing was charged.');
    return outcome;
  }

  // -------------------------------------------------------------------------------------------
  // Subscriptions: bought on the checkout page, renewed as periods end, cancelled in the portal

  /** A subscription checkout was paid: the customer (new or known), the subscription and its first invoice. */
  private async subscribe(tx: Tx, session: { id: string; status: string; expiresAt: Date | null }, data: SessionData, now: number) {
    let customerId = data.customerId ?? null;
    if (!customerId) {
      customerId = newId('cus_sbx_', 14);
      const customer: CustomerData = { email: data.customerEmail ?? null };
      await tx.sandboxPaymentObject.create({ data: { id: customerId, type: 'customer', status: 'active', data: customer as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) } });
    }
    const subscriptionId = newId('sub_sbx_', 18);
    // Periods start on a whole second, as Stripe counts them: reports read and sent agree.
    const anchor = seconds(now) * 1000;
    const sub: SubscriptionData = { customerId, metadata: data.metadata, plan: data.plan!, anchor, period: 0, cancelAtPeriodEnd: false };
    const periodEnd = monthsAfter(anchor, 1);
    await tx.sandboxPaymentObject.create({
      data: { id: subscriptionId, type: 'subscription', status: 'active', expiresAt: new Date(periodEnd), data: sub as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
    });
    const paid: SessionData = { ...data, customerId, subscriptionId };
    await tx.sandboxPaymentObject.update({ where: { id: session.id }, data: { status: 'complete', data: paid as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
    const invoice = await this.invoice(tx, subscriptionId, sub, [{ description: sub.plan.name, amountCents: sub.plan.monthlyCents, periodStart: anchor, periodEnd }], now);
    // In the order Stripe usually sends them; the receiver copes with any order.
    await this.queue(tx, 'customer.subscription.created', null, this.subscriptionObject(subscriptionId, 'active', sub), now);
    await this.queue(tx, 'invoice.paid', null, invoice, now);
    await this.queue(tx, 'checkout.session.completed', null, this.sessionObject({ ...session, status: 'complete' }, paid), now);
  }

  private async invoice(tx: Tx, subscriptionId: string, sub: SubscriptionData, lines: InvoiceData['lines'], now: number) {
    const id = newId('in_sbx_', 18);
    const data: InvoiceData = { customerId: sub.customerId, subscriptionId, metadata: sub.metadata, lines, amountCents: lines.reduce((n, l) => n + l.amountCents, 0) };
    await tx.sandboxPaymentObject.create({ data: { id, type: 'invoice', status: 'paid', data: data as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) } });
    return this.invoiceObject(id, data);
  }

  /** Renews a subscription whose period ended (billing the metered minutes of the period past), or ends one set to cancel. */
  private async renew(subscriptionId: string) {
    await this.write(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${subscriptionId} FOR UPDATE`;
      const row = await this.object(tx, subscriptionId, 'subscription');
      const sub = row.data as unknown as SubscriptionData;
      const now = this.clock.now();
      for (let i = 0; i < MAX_RENEWALS && row.status === 'active'; i++) {
        const start = monthsAfter(sub.anchor, sub.period);
        const end = monthsAfter(sub.anchor, sub.period + 1);
        if (end > now) break;
        if (sub.cancelAtPeriodEnd) {
          sub.endedAt = end;
          row.status = 'canceled';
          await tx.sandboxPaymentObject.update({ where: { id: row.id }, data: { status: 'canceled', data: sub as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
          await this.queue(tx, 'customer.subscription.deleted', null, this.subscriptionObject(row.id, 'canceled', sub), now);
          break;
        }
        const events = await tx.sandboxPaymentObject.findMany({ where: { type: 'meter_event', data: { path: ['customerId'], equals: sub.customerId } }, select: { data: true } });
        const minutes = events.map((e) => e.data as unknown as MeterEventData).filter((e) => e.at >= start && e.at < end).reduce((n, e) => n + e.minutes, 0);
        sub.period += 1;
        const next = monthsAfter(sub.anchor, sub.period + 1);
        const lines: InvoiceData['lines'] = [{ description: sub.plan.name, amountCents: sub.plan.monthlyCents, periodStart: end, periodEnd: next }];
        if (minutes > 0) lines.push({ description: `${minutes} minutes past the included ones, ${day(start)} to ${day(end)}`, amountCents: minutes * sub.plan.overageCentsPerMinute, periodStart: start, periodEnd: end });
        await tx.sandboxPaymentObject.update({ where: { id: row.id }, data: { expiresAt: new Date(next), data: sub as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
        const invoice = await this.invoice(tx, row.id, sub, lines, now);
        await this.queue(tx, 'invoice.paid', null, invoice, now);
        await this.queue(tx, 'customer.subscription.updated', null, this.subscriptionObject(row.id, 'active', sub), now);
      }
    });
  }

  private subscriptionState(row: { id: string; status: string; data: Prisma.JsonValue }): SubscriptionStatus {
    const sub = row.data as unknown as SubscriptionData;
    return {
      subscriptionId: row.id,
      customerId: sub.customerId,
      status: row.status === 'active' ? 'active' : 'cancelled',
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      // By the second, as its events say.
      periodStart: seconds(monthsAfter(sub.anchor, sub.period)) * 1000,
      periodEnd: seconds(monthsAfter(sub.anchor, sub.period + 1)) * 1000,
    };
  }

  // -------------------------------------------------------------------------------------------
  // The hosted billing portal

  private async openPortal(db: PrismaClient | Tx, token: string) {
    const portal = await db.sandboxPaymentObject.findFirst({ where: { id: portalKey(token), type: 'portal_session' } });
    if (!portal || portal.expiresAt!.getTime() <= this.clock.now()) return null;
    return { ...portal, data: portal.data as unknown as PortalData };
  }

  /** What the portal shows. Opening it changes nothing. */
  async portal(token: string): Promise<PortalView | null> {
    const portal = await this.openPortal(this.prisma, token);
    if (!portal) return null;
    const customer = portal.data.customerId;
    const [subs, invoices] = await Promise.all([
      this.prisma.sandboxPaymentObject.findMany({ where: { type: 'subscription', data: { path: ['customerId'], equals: customer } }, orderBy: { createdAt: 'desc' }, take: 10 }),
      this.prisma.sandboxPaymentObject.findMany({ where: { type: 'invoice', data: { path: ['customerId'], equals: customer } }, orderBy: { createdAt: 'desc' }, take: 12 }),
    ]);
    return {
      returnUrl: portal.data.returnUrl,
      expiresAt: portal.expiresAt!.toISOString(),
      subscriptions: subs.map((row) => {
        const sub = row.data as unknown as SubscriptionData;
        const state = this.subscriptionState(row);
        return { id: row.id, name: sub.plan.name, status: state.status, terms: planTerms(sub.plan), periodEnd: day(sub.endedAt ?? state.periodEnd!), cancelAtPeriodEnd: sub.cancelAtPeriodEnd };
      }),
      invoices: invoices.map((row) => {
        const inv = row.data as unknown as InvoiceData;
        return { id: row.id, date: day(row.createdAt.getTime()), amount: usd(inv.amountCents), status: row.status, lines: inv.lines.map((l) => `${l.description}: ${usd(l.amountCents)}`) };
      }),
    };
  }

  /**
   * The owner chose something in the portal: cancel a plan at the end of its period (as Stripe's
   * portal does by default) or at once, or keep one set to cancel.
   */
  async portalAction(token: string, form: Record<string, unknown>): Promise<PortalOutcome> {
    const subscriptionId = field(form, 'subscription_id');
    const action = field(form, 'action');
    if (!['cancel_at_period_end', 'cancel_now', 'keep'].includes(action)) return { ok: false, error: 'Choose what to do with the plan.' };
    return this.write(async (tx): Promise<PortalOutcome> => {
      const portal = await this.openPortal(tx, token);
      if (!portal) return { ok: false, error: 'This billing portal link has expired. Ask for a new one (receptionist_billing_portal).' };
      await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${subscriptionId} FOR UPDATE`;
      const row = await tx.sandboxPaymentObject.findFirst({ where: { id: subscriptionId, type: 'subscription' } });
      const sub = row?.data as unknown as SubscriptionData | undefined;
      if (!row || !sub || sub.customerId !== portal.data.customerId) return { ok: false, error: 'That plan is not one of yours.' };
      if (row.status !== 'active') return { ok: false, error: 'That plan has already ended.' };
      const now = this.clock.now();
      if (action === 'cancel_now') {
        sub.endedAt = now;
        await tx.sandboxPaymentObject.update({ where: { id: row.id }, data: { status: 'canceled', data: sub as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
        await this.queue(tx, 'customer.subscription.deleted', null, this.subscriptionObject(row.id, 'canceled', sub), now);
        return { ok: true, message: 'The plan is cancelled.' };
      }
      sub.cancelAtPeriodEnd = action === 'cancel_at_period_end';
      await tx.sandboxPaymentObject.update({ where: { id: row.id }, data: { data: sub as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
      await this.queue(tx, 'customer.subscription.updated', null, this.subscriptionObject(row.id, 'active', sub), now);
      return { ok: true, message: sub.cancelAtPeriodEnd ? `The plan ends on ${day(monthsAfter(sub.anchor, sub.period + 1))}.` : 'The plan continues.' };
    });
  }

  // -------------------------------------------------------------------------------------------
  // The hosted onboarding page

  private async openLink(db: PrismaClient | Tx, token: string) {
    const link = await db.sandboxPaymentObject.findFirst({ where: { id: linkKey(token), type: 'account_link' } });
    if (!link || link.status !== 'open' || link.expiresAt!.getTime() <= this.clock.now()) return null;
    return link;
  }

  async onboarding(token: string): Promise<OnboardingView | null> {
    const link = await this.openLink(this.prisma, token);
    if (!link) return null;
    const data = (await this.account(this.prisma, link.accountId!)).data as unknown as AccountData;
    return { businessName: data.businessName, detailsSubmitted: data.detailsSubmitted };
  }

  /**
   * The owner submitted business, bank and identity details. They are checked as the provider
   * would and kept by the sandbox only as far as a provider would show them back (the bank
   * account's last four digits); the account can then take payments.
   */
  async submitOnboarding(token: string, form: Record<string, unknown>): Promise<OnboardOutcome> {
    const values = Object.fromEntries(['business_name', 'tax_id', 'routing_number', 'account_number', 'representative_name', 'date_of_birth', 'ssn_last4'].map((k) => [k, field(form, k)]));
    const errors: Record<string, string> = {};
    for (const [k, v] of Object.entries(values)) if (CONTROL.test(v)) errors[k] = 'Use plain text.';
    const digits = (v: string) => v.replace(/[\s-]/g, '');
    if (values.business_name!.length < 1 || values.business_name!.length > 100) errors.business_name = 'Enter the legal business name (1-100 characters).';
    if (!/^\d{9}$/.test(digits(values.tax_id!))) errors.tax_id = 'The EIN is 9 digits (sandbox: 000000000).';
    if (!abaRouting(digits(values.routing_number!))) errors.routing_number = 'Not a valid US routing number (sandbox: 110000000).';
    if (!/^\d{4,17}$/.test(digits(values.account_number!))) errors.account_number = 'The account number is 4-17 digits (sandbox: 000123456789).';
    if (values.representative_name!.length < 1 || values.representative_name!.length > 100) errors.representative_name = 'Enter the full name of the person responsible (1-100 characters).';
    const dob = /^(\d{4})-(\d{2})-(\d{2})$/.exec(values.date_of_birth!);
    const born = dob ? Date.UTC(Number(dob[1]), Number(dob[2]) - 1, Number(dob[3])) : NaN;
    const now = this.clock.now();
    if (!dob || Number.isNaN(born) || new Date(born).getUTCDate() !== Number(dob[3]) || now - born < 18 * 365.25 * 24 * 60 * MINUTE) {
      errors.date_of_birth = 'The date of birth is YYYY-MM-DD, and the representative must be 18 or older.';
    }
    if (!/^\d{4}$/.test(values.ssn_last4!)) errors.ssn_last4 = 'The last four digits of the SSN.';
    if (Object.keys(errors).length) return { ok: false, errors, view: await this.onboarding(token) };

    const done = await this.write(async (tx) => {
      await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${linkKey(token)} FOR UPDATE`;
      const link = await this.openLink(tx, token);
      if (!link) return null;
      const account = await this.account(tx, link.accountId!);
      const data: AccountData = {
        ...(account.data as unknown as AccountData),
        businessName: values.business_name!,
        chargesEnabled: true,
        detailsSubmitted: true,
        bankLast4: digits(values.account_number!).slice(-4),
      };
      const at = new Date(now);
      await tx.sandboxPaymentObject.update({ where: { id: link.id }, data: { status: 'used', updatedAt: at } });
      await tx.sandboxPaymentObject.update({ where: { id: account.id }, data: { status: 'ready', data: data as unknown as Prisma.InputJsonObject, updatedAt: at } });
      await this.queue(tx, 'account.updated', account.id, this.accountObject(account.id, data), now);
      return (link.data as unknown as LinkData).returnUrl;
    });
    if (!done) return { ok: false, errors: { link: 'This onboarding link has expired or was used. Ask for a new one (customer_payment_onboarding).' }, view: null };
    return { ok: true, redirect: done };
  }

  // -------------------------------------------------------------------------------------------
  // Stripe-shaped objects and events

  private sessionObject(session: { id: string; status: string; expiresAt: Date | null }, data: SessionData) {
    return {
      id: session.id,
      object: 'checkout.session',
      mode: data.mode ?? 'payment',
      status: session.status,
      payment_status: session.status === 'complete' ? 'paid' : 'unpaid',
      amount_total: data.amountCents,
      currency: data.currency,
      client_reference_id: data.clientReferenceId,
      metadata: data.metadata,
      payment_intent: data.paymentIntentId ?? null,
      ...(data.mode === 'subscription' ? { customer: data.customerId ?? null, subscription: data.subscriptionId ?? null } : {}),
      expires_at: seconds(session.expiresAt!.getTime()),
      success_url: data.successUrl,
      cancel_url: data.cancelUrl,
      url: session.status === 'open' ? data.url : null,
    };
  }

  private refundObject(id: string, data: RefundData, status: string) {
    return {
      id,
      object: 'refund',
      amount: data.amountCents,
      currency: 'usd',
      payment_intent: data.paymentIntentId,
      status,
      ...(status === 'failed' ? { failure_reason: 'expired_or_canceled_card' } : {}),
      metadata: data.metadata,
    };
  }

  private subscriptionObject(id: string, status: 'active' | 'canceled', sub: SubscriptionData) {
    const start = seconds(monthsAfter(sub.anchor, sub.period));
    const end = seconds(monthsAfter(sub.anchor, sub.period + 1));
    return {
      id,
      object: 'subscription',
      status,
      customer: sub.customerId,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      ended_at: sub.endedAt ? seconds(sub.endedAt) : null,
      metadata: sub.metadata,
      // Since API version 2025-03-31 the period is on the items.
      items: {
        object: 'list',
        data: [{ id: `si_${id.slice(8)}`, object: 'subscription_item', current_period_start: start, current_period_end: end, price: { currency: 'usd', unit_amount: sub.plan.monthlyCents, recurring: { interval: 'month' } } }],
      },
    };
  }

  private invoiceObject(id: string, data: InvoiceData) {
    return {
      id,
      object: 'invoice',
      status: 'paid',
      customer: data.customerId,
      amount_due: data.amountCents,
      amount_paid: data.amountCents,
      currency: 'usd',
      parent: { type: 'subscription_details', subscription_details: { subscription: data.subscriptionId, metadata: data.metadata } },
      lines: {
        object: 'list',
        data: data.lines.map((l) => ({ object: 'line_item', amount: l.amountCents, description: l.description, period: { start: seconds(l.periodStart), end: seconds(l.periodEnd) } })),
      },
    };
  }

  private accountObject(id: string, data: AccountData) {
    return {
      id,
      object: 'account',
      type: 'standard',
      email: data.email,
      business_profile: { name: data.businessName },
      charges_enabled: data.chargesEnabled,
      details_submitted: data.detailsSubmitted,
      payouts_enabled: data.chargesEnabled,
    };
  }

  private async expire(tx: Tx, session: { id: string; accountId: string | null; expiresAt: Date | null; data: Prisma.JsonValue }) {
    const now = this.clock.now();
    await tx.sandboxPaymentObject.update({ where: { id: session.id }, data: { status: 'expired', updatedAt: new Date(now) } });
    await this.queue(tx, 'checkout.session.expired', session.accountId, this.sessionObject({ ...session, status: 'expired' }, session.data as unknown as SessionData), now);
  }

  /** An event for the webhook endpoint, queued with the change it reports; `account` null: the platform's own. */
  private async queue(tx: Tx, type: string, account: string | null, object: object, at: number) {
    const id = newId('evt_sbx_', 18);
    const event = {
      id,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: seconds(at),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      ...(account ? { account } : {}),
      data: { object },
    };
    await tx.sandboxWebhook.create({ data: { id, type, payload: JSON.stringify(event), createdAt: new Date(at), nextAttemptAt: new Date(at) } });
    this.webhooks.enqueued(tx);
  }

  private async object(db: PrismaClient | Tx, id: string, type: string) {
    const row = await db.sandboxPaymentObject.findFirst({ where: { id, type } });
    if (!row) throw new ProviderError(`The sandbox has no ${type.replace('_', ' ')} ${id}.`);
    return row;
  }

  private async account(db: PrismaClient | Tx, accountId: string) {
    const account = await db.sandboxPaymentObject.findFirst({ where: { id: accountId, type: 'account' } });
    if (!account) throw new ProviderError(`The sandbox has no account ${accountId}.`);
    return account;
  }

  /** One sandbox change and the webhooks it queued; delivery starts once it commits. */
  private write<T>(change: (tx: Tx) => Promise<T>): Promise<T> {
    return transaction(this.prisma, change, this.onError);
  }

  // -------------------------------------------------------------------------------------------
  // Time passing, and webhook delivery

  /**
   * What the provider does on its own as time passes: checkouts past their expiry expire, and
   * subscriptions whose period ended renew (or end, if set to cancel). Then webhooks due (new, or
   * retried after a failure) are delivered. Run by the server's sweep.
   */
  async tick(): Promise<void> {
    const due = await this.prisma.sandboxPaymentObject.findMany({
      where: { type: { in: ['checkout_session', 'subscription'] }, status: { in: ['open', 'active'] }, expiresAt: { lte: this.clock.date() } },
      select: { id: true, type: true },
      take: 200,
    });
    for (const s of due) {
      if (s.type === 'subscription') await this.renew(s.id);
      else await this.expireSession(s.id);
    }
    await this.flush();
  }

  /** Delivers what is due, including what was queued before this call; calls made meanwhile share one run. */
  flush(): Promise<void> {
    return this.webhooks.run();
  }

  /** No more deliveries; waits for one under way. */
  stop(): Promise<void> {
    return this.webhooks.stop();
  }

  /** Posts one event to the endpoint; anything but a 2xx answer is a failed attempt. */
  private async deliver(hook: SandboxWebhook): Promise<number> {
    let status = 0;
    try {
      const res = await this.send!(
        new Request(this.links.paymentWebhook(), {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'stripe-signature': stripeSignature(hook.payload, this.webhookSecret, seconds(this.clock.now())),
            'user-agent': 'Porchlight payment sandbox',
          },
          body: hook.payload,
        }),
      );
      status = res.status;
      await res.body?.cancel();
    } catch (err) {
      this.onError(err);
    }
    if (status < 200 || status >= 300) throw new WebhookRefused(status);
    return status;
  }
}

/** The endpoint did not take an event (status 0: it could not be reached). */
class WebhookRefused extends Error {
  constructor(readonly status: number) {
    super(`The webhook endpoint answered ${status}.`);
  }
}
