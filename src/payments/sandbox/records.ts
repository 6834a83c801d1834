/**
 * The payment sandbox's records (SandboxPaymentObject rows and the data each type keeps), the
 * Stripe-shaped objects its events carry, and what its provider API, hosted pages and renewals
 * share: SandboxStore.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import type { Clock } from '../../clock.js';
import type { Links } from '../../links.js';
import { transaction } from '../../db/transaction.js';
import { ProviderError, type SubscriptionCheckoutRequest, type SubscriptionStatus } from '../provider.js';
import { usd } from '../../core/money.js';

export type Tx = Prisma.TransactionClient;

export const TEST_CARDS = { pays: '4242424242424242', declined: '4000000000000002', refundFails: '4000000000005126' } as const;

export const newId = (prefix: string, bytes = 18) => `${prefix}${randomBytes(bytes).toString('base64url').replace(/[-_]/g, 'x')}`;
export const seconds = (ms: number) => Math.floor(ms / 1000);
export const linkKey = (token: string) => `link_${createHash('sha256').update(token).digest('hex')}`;
export const portalKey = (token: string) => `portal_${createHash('sha256').update(token).digest('hex')}`;
/** A subscription's nth period ends n months after its start, counted from the start (as Stripe anchors). */
export const monthsAfter = (anchor: number, n: number) => DateTime.fromMillis(anchor, { zone: 'utc' }).plus({ months: n }).toMillis();

export interface AccountData {
  businessName: string;
  email: string | null;
  chargesEnabled: boolean;
  detailsSubmitted: boolean;
  bankLast4?: string;
}
export interface LinkData {
  returnUrl: string;
  refreshUrl: string;
}
export type Plan = SubscriptionCheckoutRequest['plan'];

export interface SessionData {
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
export interface IntentData {
  sessionId: string;
  amountCents: number;
  refundedCents: number;
  refundFails: boolean;
}
export interface CustomerData {
  email: string | null;
  name?: string;
}
export interface SubscriptionData {
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
export interface InvoiceData {
  customerId: string;
  subscriptionId: string;
  metadata: Record<string, string>;
  lines: { description: string; amountCents: number; periodStart: number; periodEnd: number }[];
  amountCents: number;
}
export interface MeterEventData {
  customerId: string;
  minutes: number;
  at: number;
}
export interface PortalData {
  customerId: string;
  returnUrl: string;
}
export interface RefundData {
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

export const planTerms = (p: Plan) => `${usd(p.monthlyCents)} a month, ${p.includedMinutes} minutes included, then ${usd(p.overageCentsPerMinute)} a minute`;
export const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Card numbers carry a Luhn check digit. */
export function luhn(digits: string): boolean {
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
export function abaRouting(digits: string): boolean {
  if (!/^\d{9}$/.test(digits)) return false;
  const d = [...digits].map(Number);
  return (3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)) % 10 === 0;
}

export const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
export const field = (form: Record<string, unknown>, name: string) => {
  const v = form[name];
  return typeof v === 'string' ? v.trim() : '';
};
/** Where the sandbox's events go (sandbox/webhooks.ts), queued in the change's transaction. */
export interface EventQueue {
  queue(tx: Tx, type: string, account: string | null, object: object, at: number): Promise<void>;
  flush(): Promise<void>;
}

/** What the sandbox's provider API, hosted pages and renewals work on. */
export class SandboxStore {
  constructor(
    readonly prisma: PrismaClient,
    readonly clock: Clock,
    readonly links: Links,
    readonly webhooks: EventQueue,
    private readonly onError: (err: unknown) => void,
  ) {}

  async object(db: PrismaClient | Tx, id: string, type: string) {
    const row = await db.sandboxPaymentObject.findFirst({ where: { id, type } });
    if (!row) throw new ProviderError(`The sandbox has no ${type.replace('_', ' ')} ${id}.`);
    return row;
  }

  async account(db: PrismaClient | Tx, accountId: string) {
    const account = await db.sandboxPaymentObject.findFirst({ where: { id: accountId, type: 'account' } });
    if (!account) throw new ProviderError(`The sandbox has no account ${accountId}.`);
    return account;
  }

  /** One sandbox change and the webhooks it queued; delivery starts once it commits. */
  write<T>(change: (tx: Tx) => Promise<T>): Promise<T> {
    return transaction(this.prisma, change, this.onError);
  }
}

// -------------------------------------------------------------------------------------------
// Stripe-shaped objects

export function sessionObject(session: { id: string; status: string; expiresAt: Date | null }, data: SessionData) {
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

export function refundObject(id: string, data: RefundData, status: string) {
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

export function subscriptionObject(id: string, status: 'active' | 'canceled', sub: SubscriptionData) {
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

export function invoiceObject(id: string, data: InvoiceData) {
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

export function accountObject(id: string, data: AccountData) {
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

export function subscriptionState(row: { id: string; status: string; data: Prisma.JsonValue }): SubscriptionStatus {
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
