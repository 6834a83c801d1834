/**
 * The hosted pages a person uses: the checkout page that pays or is left, the onboarding page
 * for the owner's business, bank and identity details, and the billing portal where a plan is
 * seen and cancelled (served by facades/payments.ts).
 */
import type { Prisma, PrismaClient } from '../../generated/prisma/client.js';
import { MINUTE } from '../../core/time.js';
import {
  type Tx,
  TEST_CARDS,
  newId,
  linkKey,
  portalKey,
  monthsAfter,
  type AccountData,
  type LinkData,
  type SessionData,
  type IntentData,
  type SubscriptionData,
  type InvoiceData,
  type PortalData,
  type CheckoutView,
  type OnboardingView,
  type PortalView,
  type PortalOutcome,
  type PayOutcome,
  type OnboardOutcome,
  planTerms,
  day,
  luhn,
  abaRouting,
  CONTROL,
  field,
  SandboxStore,
  sessionObject,
  subscriptionObject,
  accountObject,
  subscriptionState,
} from './records.js';
import { usd } from '../../core/money.js';
import { expireSession, subscribe } from './renewals.js';

/** As Stripe does: the success address's {CHECKOUT_SESSION_ID} becomes the session's id. */
export const successUrl = (template: string, sessionId: string) => template.replaceAll('{CHECKOUT_SESSION_ID}', encodeURIComponent(sessionId));

export async function checkout(sb: SandboxStore, sessionId: string): Promise<CheckoutView | null> {
  const session = await sb.prisma.sandboxPaymentObject.findFirst({ where: { id: sessionId, type: 'checkout_session' } });
  if (!session) return null;
  // The page is where a person notices a session ran out: it expires then, as Stripe's would have by now.
  if (session.status === 'open' && session.expiresAt!.getTime() <= sb.clock.now()) {
    await expireSession(sb, sessionId);
    return checkout(sb, sessionId);
  }
  return checkoutView(sb, session);
}

export async function checkoutView(sb: SandboxStore, session: { id: string; status: string; accountId: string | null; expiresAt: Date | null; data: Prisma.JsonValue }): Promise<CheckoutView> {
  const data = session.data as unknown as SessionData;
  // The platform's own checkouts (subscriptions) are paid to Porchlight.
  const account = session.accountId ? await sb.prisma.sandboxPaymentObject.findUnique({ where: { id: session.accountId } }) : null;
  return {
    sessionId: session.id,
    status: session.status as CheckoutView['status'],
    businessName: session.accountId ? ((account?.data as unknown as AccountData | undefined)?.businessName ?? 'the business') : 'Porchlight',
    terms: data.plan ? planTerms(data.plan) : null,
    lineItems: data.lineItems.map((i) => ({ name: i.name, amount: usd(i.amountCents), quantity: i.quantity })),
    total: usd(data.amountCents),
    expiresAt: session.expiresAt!.toISOString(),
    successUrl: successUrl(data.successUrl, session.id),
    cancelUrl: data.cancelUrl,
  };
}

/** The checkout form was submitted: the card is checked, and a good one pays. */
export async function pay(sb: SandboxStore, sessionId: string, form: Record<string, unknown>): Promise<PayOutcome> {
  const card = field(form, 'card_number').replace(/[\s-]/g, '');
  const expiry = field(form, 'expiry');
  const cvc = field(form, 'cvc');
  const name = field(form, 'name');
  const refuse = async (error: string): Promise<PayOutcome> => ({ ok: false, error, view: await checkout(sb, sessionId) });
  if ([card, expiry, cvc, name].some((v) => CONTROL.test(v))) return refuse('Use plain text in every field.');
  if (!/^\d{13,19}$/.test(card) || !luhn(card)) return refuse('Your card number is not valid. In the sandbox, 4242 4242 4242 4242 pays.');
  const exp = /^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/.exec(expiry);
  const now = sb.clock.now();
  const today = new Date(now);
  if (!exp || 2000 + Number(exp[2]) < today.getUTCFullYear() || (2000 + Number(exp[2]) === today.getUTCFullYear() && Number(exp[1]) < today.getUTCMonth() + 1)) {
    return refuse('The expiry date must be MM/YY and not in the past.');
  }
  if (!/^\d{3,4}$/.test(cvc)) return refuse('The security code (CVC) is 3 or 4 digits.');
  if (name.length < 1 || name.length > 100) return refuse('Enter the name on the card (at most 100 characters).');
  if (card === TEST_CARDS.declined) return refuse('Your card was declined. Try another card.');

  const outcome = await sb.write(async (tx): Promise<PayOutcome | 'gone'> => {
    await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${sessionId} FOR UPDATE`;
    const session = await tx.sandboxPaymentObject.findFirst({ where: { id: sessionId, type: 'checkout_session' } });
    if (!session) return 'gone';
    const data = session.data as unknown as SessionData;
    // A second submit of a paid checkout only goes where the first one went.
    if (session.status === 'complete') return { ok: true, redirect: successUrl(data.successUrl, sessionId) };
    if (session.status !== 'open' || session.expiresAt!.getTime() <= now) return 'gone';
    if (data.mode === 'subscription') {
      await subscribe(sb, tx, session, data, now);
      return { ok: true, redirect: successUrl(data.successUrl, sessionId) };
    }
    const intentId = newId('pi_sbx_', 18);
    const intent: IntentData = { sessionId, amountCents: data.amountCents, refundedCents: 0, refundFails: card === TEST_CARDS.refundFails };
    await tx.sandboxPaymentObject.create({
      data: { id: intentId, type: 'payment_intent', status: 'succeeded', accountId: session.accountId, data: intent as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
    });
    const paid = { ...data, paymentIntentId: intentId };
    await tx.sandboxPaymentObject.update({ where: { id: sessionId }, data: { status: 'complete', data: paid as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
    await sb.webhooks.queue(tx, 'checkout.session.completed', session.accountId!, sessionObject({ ...session, status: 'complete' }, paid), now);
    return { ok: true, redirect: successUrl(data.successUrl, sessionId) };
  });
  if (outcome === 'gone') return refuse('This checkout has expired or no longer exists: nothing was charged.');
  return outcome;
}

export async function openPortal(sb: SandboxStore, db: PrismaClient | Tx, token: string) {
  const portal = await db.sandboxPaymentObject.findFirst({ where: { id: portalKey(token), type: 'portal_session' } });
  if (!portal || portal.expiresAt!.getTime() <= sb.clock.now()) return null;
  return { ...portal, data: portal.data as unknown as PortalData };
}

/** What the portal shows. Opening it changes nothing. */
export async function portal(sb: SandboxStore, token: string): Promise<PortalView | null> {
  const portal = await openPortal(sb, sb.prisma, token);
  if (!portal) return null;
  const customer = portal.data.customerId;
  const [subs, invoices] = await Promise.all([
    sb.prisma.sandboxPaymentObject.findMany({ where: { type: 'subscription', data: { path: ['customerId'], equals: customer } }, orderBy: { createdAt: 'desc' }, take: 10 }),
    sb.prisma.sandboxPaymentObject.findMany({ where: { type: 'invoice', data: { path: ['customerId'], equals: customer } }, orderBy: { createdAt: 'desc' }, take: 12 }),
  ]);
  return {
    returnUrl: portal.data.returnUrl,
    expiresAt: portal.expiresAt!.toISOString(),
    subscriptions: subs.map((row) => {
      const sub = row.data as unknown as SubscriptionData;
      const state = subscriptionState(row);
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
export async function portalAction(sb: SandboxStore, token: string, form: Record<string, unknown>): Promise<PortalOutcome> {
  const subscriptionId = field(form, 'subscription_id');
  const action = field(form, 'action');
  if (!['cancel_at_period_end', 'cancel_now', 'keep'].includes(action)) return { ok: false, error: 'Choose what to do with the plan.' };
  return sb.write(async (tx): Promise<PortalOutcome> => {
    const portal = await openPortal(sb, tx, token);
    if (!portal) return { ok: false, error: 'This billing portal link has expired. Ask for a new one (receptionist_billing_portal).' };
    await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${subscriptionId} FOR UPDATE`;
    const row = await tx.sandboxPaymentObject.findFirst({ where: { id: subscriptionId, type: 'subscription' } });
    const sub = row?.data as unknown as SubscriptionData | undefined;
    if (!row || !sub || sub.customerId !== portal.data.customerId) return { ok: false, error: 'That plan is not one of yours.' };
    if (row.status !== 'active') return { ok: false, error: 'That plan has already ended.' };
    const now = sb.clock.now();
    if (action === 'cancel_now') {
      sub.endedAt = now;
      await tx.sandboxPaymentObject.update({ where: { id: row.id }, data: { status: 'canceled', data: sub as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
      await sb.webhooks.queue(tx, 'customer.subscription.deleted', null, subscriptionObject(row.id, 'canceled', sub), now);
      return { ok: true, message: 'The plan is cancelled.' };
    }
    sub.cancelAtPeriodEnd = action === 'cancel_at_period_end';
    await tx.sandboxPaymentObject.update({ where: { id: row.id }, data: { data: sub as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
    await sb.webhooks.queue(tx, 'customer.subscription.updated', null, subscriptionObject(row.id, 'active', sub), now);
    return { ok: true, message: sub.cancelAtPeriodEnd ? `The plan ends on ${day(monthsAfter(sub.anchor, sub.period + 1))}.` : 'The plan continues.' };
  });
}

export async function openLink(sb: SandboxStore, db: PrismaClient | Tx, token: string) {
  const link = await db.sandboxPaymentObject.findFirst({ where: { id: linkKey(token), type: 'account_link' } });
  if (!link || link.status !== 'open' || link.expiresAt!.getTime() <= sb.clock.now()) return null;
  return link;
}

export async function onboarding(sb: SandboxStore, token: string): Promise<OnboardingView | null> {
  const link = await openLink(sb, sb.prisma, token);
  if (!link) return null;
  const data = (await sb.account(sb.prisma, link.accountId!)).data as unknown as AccountData;
  return { businessName: data.businessName, detailsSubmitted: data.detailsSubmitted };
}

/**
 * The owner submitted business, bank and identity details. They are checked as the provider
 * would and kept by the sandbox only as far as a provider would show them back (the bank
 * account's last four digits); the account can then take payments.
 */
export async function submitOnboarding(sb: SandboxStore, token: string, form: Record<string, unknown>): Promise<OnboardOutcome> {
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
  const now = sb.clock.now();
  if (!dob || Number.isNaN(born) || new Date(born).getUTCDate() !== Number(dob[3]) || now - born < 18 * 365.25 * 24 * 60 * MINUTE) {
    errors.date_of_birth = 'The date of birth is YYYY-MM-DD, and the representative must be 18 or older.';
  }
  if (!/^\d{4}$/.test(values.ssn_last4!)) errors.ssn_last4 = 'The last four digits of the SSN.';
  if (Object.keys(errors).length) return { ok: false, errors, view: await onboarding(sb, token) };

  const done = await sb.write(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${linkKey(token)} FOR UPDATE`;
    const link = await openLink(sb, tx, token);
    if (!link) return null;
    const account = await sb.account(tx, link.accountId!);
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
    await sb.webhooks.queue(tx, 'account.updated', account.id, accountObject(account.id, data), now);
    return (link.data as unknown as LinkData).returnUrl;
  });
  if (!done) return { ok: false, errors: { link: 'This onboarding link has expired or was used. Ask for a new one (customer_payment_onboarding).' }, view: null };
  return { ok: true, redirect: done };
}
