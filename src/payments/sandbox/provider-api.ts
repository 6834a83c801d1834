/**
 * The sandbox's side of the PaymentProvider interface: accounts and their onboarding links,
 * checkouts, refunds, subscriptions' state, billing portal sessions and usage meter events.
 * Its calls open their own transactions: never call them inside another one.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { MINUTE } from '../../core/time.js';
import { referenceMetadata } from '../stripe-events.js';
import { ProviderError, type CheckoutRequest, type CheckoutStatus, type RefundRequest, type SubscriptionStatus } from '../provider.js';
import {
  newId,
  linkKey,
  portalKey,
  type AccountData,
  type CustomerData,
  type LinkData,
  type SessionData,
  type IntentData,
  type MeterEventData,
  type PortalData,
  type RefundData,
  SandboxStore,
  refundObject,
  subscriptionState,
} from './records.js';
import { usd } from '../../core/money.js';
import { expire } from './renewals.js';

/** Onboarding links work this long, once. */
const LINK_MINUTES = 30;
/** Billing portal links work this long (as Stripe's, short-lived). */
const PORTAL_MINUTES = 5;

/**
 * A sandbox object made once per idempotency key, as Stripe's create calls with one: the same
 * key returns the first object, also when two calls race (the unique key decides).
 */
async function createOnce(sb: SandboxStore, key: string, make: { id: string; type: string; status: string; data: unknown }): Promise<string> {
  const found = await sb.prisma.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
  if (found) return found.id;
  const now = sb.clock.date();
  const row = await sb.prisma.sandboxPaymentObject
    .create({ data: { ...make, idempotencyKey: key, data: make.data as Prisma.InputJsonObject, createdAt: now, updatedAt: now } })
    .catch(async (err: unknown) => {
      const again = await sb.prisma.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
      if (again) return again;
      throw err;
    });
  return row.id;
}

export async function createAccount(sb: SandboxStore, input: { businessName: string; email: string | null; idempotencyKey: string }) {
  const data: AccountData = { businessName: input.businessName, email: input.email, chargesEnabled: false, detailsSubmitted: false };
  return { accountId: await createOnce(sb, `account:${input.idempotencyKey}`, { id: newId('acct_sbx_', 12), type: 'account', status: 'onboarding', data }) };
}

/** The platform's customer for a business, made once per idempotency key (as Stripe's customers.create with one). */
export async function createCustomer(sb: SandboxStore, input: { name: string; email: string | null; idempotencyKey: string }) {
  const data: CustomerData = { email: input.email, name: input.name };
  return { customerId: await createOnce(sb, `customer:${input.idempotencyKey}`, { id: newId('cus_sbx_', 14), type: 'customer', status: 'active', data }) };
}

export async function accountLink(sb: SandboxStore, input: { accountId: string; returnUrl: string; refreshUrl: string }) {
  await sb.account(sb.prisma, input.accountId);
  const token = newId('sbxlink_', 24);
  const now = sb.clock.now();
  const expiresAt = now + LINK_MINUTES * MINUTE;
  const data: LinkData = { returnUrl: input.returnUrl, refreshUrl: input.refreshUrl };
  await sb.prisma.sandboxPaymentObject.create({
    data: { id: linkKey(token), type: 'account_link', status: 'open', accountId: input.accountId, expiresAt: new Date(expiresAt), data: data as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
  });
  return { url: sb.links.sandboxOnboarding(token), expiresAt };
}

export async function accountStatus(sb: SandboxStore, accountId: string) {
  const data = (await sb.account(sb.prisma, accountId)).data as unknown as AccountData;
  return { accountId, chargesEnabled: data.chargesEnabled, detailsSubmitted: data.detailsSubmitted };
}

export async function createCheckout(sb: SandboxStore, request: CheckoutRequest) {
  const key = `checkout:${request.idempotencyKey}`;
  const found = await sb.prisma.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
  if (found) {
    const data = found.data as unknown as SessionData;
    return { sessionId: found.id, url: data.url, expiresAt: found.expiresAt!.getTime() };
  }
  const id = newId('cs_sbx_', 24);
  const now = sb.clock.date();
  const common = {
    metadata: referenceMetadata(request.reference),
    clientReferenceId: request.reference.id,
    successUrl: request.successUrl,
    cancelUrl: request.cancelUrl,
    url: sb.links.sandboxCheckout(id),
  };
  let data: SessionData;
  let onAccount: string | null = null;
  if (request.mode === 'subscription') {
    // The platform's own subscription: no connected account takes it.
    if (request.customerId) await sb.object(sb.prisma, request.customerId, 'customer');
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
    const account = await sb.account(sb.prisma, request.onAccount);
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
  const row = await sb.prisma.sandboxPaymentObject
    .create({
      data: { id, type: 'checkout_session', status: 'open', accountId: onAccount, idempotencyKey: key, expiresAt: new Date(request.expiresAt), data: data as unknown as Prisma.InputJsonObject, createdAt: now, updatedAt: now },
    })
    .catch(async (err: unknown) => {
      // The same key at the same moment: the other call made it.
      const again = await sb.prisma.sandboxPaymentObject.findUnique({ where: { idempotencyKey: key } });
      if (again) return again;
      throw err;
    });
  return { sessionId: row.id, url: (row.data as unknown as SessionData).url, expiresAt: row.expiresAt!.getTime() };
}

export async function checkoutStatus(sb: SandboxStore, sessionId: string): Promise<CheckoutStatus> {
  const session = await sb.object(sb.prisma, sessionId, 'checkout_session');
  const data = session.data as unknown as SessionData;
  return { status: session.status as CheckoutStatus['status'], subscriptionId: data.subscriptionId ?? null, customerId: data.customerId ?? null };
}

export async function subscriptionStatus(sb: SandboxStore, subscriptionId: string): Promise<SubscriptionStatus> {
  return subscriptionState(await sb.object(sb.prisma, subscriptionId, 'subscription'));
}

export async function billingPortal(sb: SandboxStore, input: { customerId: string; returnUrl: string }) {
  await sb.object(sb.prisma, input.customerId, 'customer');
  const token = newId('sbxportal_', 24);
  const now = sb.clock.now();
  const expiresAt = now + PORTAL_MINUTES * MINUTE;
  const data: PortalData = { customerId: input.customerId, returnUrl: input.returnUrl };
  await sb.prisma.sandboxPaymentObject.create({
    data: { id: portalKey(token), type: 'portal_session', status: 'open', expiresAt: new Date(expiresAt), data: data as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
  });
  return { url: sb.links.sandboxPortal(token), expiresAt };
}

export async function reportUsage(sb: SandboxStore, input: { customerId: string; minutes: number; identifier: string; at: number }) {
  await sb.object(sb.prisma, input.customerId, 'customer');
  const key = `meter:${input.identifier}`;
  const now = sb.clock.date();
  const data: MeterEventData = { customerId: input.customerId, minutes: input.minutes, at: input.at };
  // A repeat of an identifier counts once, as Stripe's meter events do.
  await sb.prisma.sandboxPaymentObject.createMany({
    data: [{ id: newId('mtr_sbx_', 18), type: 'meter_event', status: 'recorded', idempotencyKey: key, data: data as unknown as Prisma.InputJsonObject, createdAt: now, updatedAt: now }],
    skipDuplicates: true,
  });
}

export async function expireCheckout(sb: SandboxStore, input: { onAccount: string; sessionId: string }) {
  await sb.write(async (tx) => {
    const session = await tx.sandboxPaymentObject.findFirst({ where: { id: input.sessionId, type: 'checkout_session', accountId: input.onAccount } });
    if (!session) throw new ProviderError(`The sandbox has no checkout ${input.sessionId} on ${input.onAccount}.`);
    if (session.status === 'open') await expire(sb, tx, session);
  });
}

export async function refund(sb: SandboxStore, request: RefundRequest) {
  return sb.write(async (tx) => {
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
    const now = sb.clock.now();
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
    await sb.webhooks.queue(tx, 'refund.created', request.onAccount, refundObject(id, data, 'pending'), now);
    await sb.webhooks.queue(tx, outcome === 'failed' ? 'refund.failed' : 'refund.updated', request.onAccount, refundObject(id, data, outcome), now + 1);
    return { refundId: id };
  });
}
