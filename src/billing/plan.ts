/**
 * The receptionist plan: a monthly subscription bought through the payment provider's hosted
 * checkout on the platform's own account, managed by the owner in the provider's billing portal.
 * Its state changes only here, from the provider's verified webhooks (the 'receptionist_plan'
 * purpose of src/payments/webhooks.ts) or from reading the provider (receptionist_refresh);
 * creating a checkout or portal link changes nothing, and URL parameters of the pages the
 * provider sends the owner back to change nothing either.
 *
 * Reports may come late, twice or out of order: each is weighed under the billing row's lock
 * against what is stored (a report older, by the second, than the last one applied changes
 * nothing; one about another subscription than the business's serving plan is ignored).
 */
import type { Context, Services, OwnerContext } from '../context.js';
import type { Tx } from '../db/transaction.js';
import { AppError, invalid } from '../errors.js';
import { formatInstant, MINUTE } from '../core/time.js';
import { providerUnavailable } from '../payments/accounts.js';
import { ProviderError, type PaymentReference, type SubscriptionStatus } from '../payments/provider.js';
import type { PaymentPurposeHandler } from '../payments/payments.js';
import { dollars } from '../core/money.js';
import { freshPlan, lockBilling, serving, type BillingRow } from './store.js';
import { businessZone } from '../db/business-zone.js';

export const PLAN_PURPOSE = 'receptionist_plan';
export const PLAN_NAME = 'Porchlight AI receptionist';
/** A plan checkout can be paid this long (Stripe needs at least 30 minutes). */
const CHECKOUT_MINUTES = 60;
/** A stored checkout closer than this to its end is not handed out again. */
const CHECKOUT_MARGIN = 5 * MINUTE;
/**
 * An attempt whose checkout was never stored (a call in flight, or the provider failed) is asked
 * for again under the same idempotency key only while its expiry is still one Stripe accepts as
 * it was first sent (at least 30 minutes ahead); later, a new attempt starts.
 */
const RETRY_MARGIN = 35 * MINUTE;

const reference = (businessId: string): PaymentReference => ({ purpose: PLAN_PURPOSE, id: businessId });

/** Plans are sold through Stripe only when its metered overage price and meter are configured. */
function requireSellable(ctx: Context): void {
  if (ctx.config.stripe && !ctx.config.stripe.receptionist) {
    throw new AppError('not_configured', 'The receptionist plan is not on sale on this server yet: its operator has not set up the plan with the payment provider. Nothing was charged.');
  }
}

export async function receptionistCheckoutService(input: { owner_approved: boolean }, ctx: OwnerContext) {
  if (input.owner_approved !== true) {
    throw invalid('owner_approved must be true: show the owner the plan (price, included minutes, overage) and send true only once they agree.');
  }
  requireSellable(ctx);
  const businessId = ctx.business.id;
  const plan = ctx.config.receptionistPlan;
  const now = ctx.clock.now();
  // Under the row's lock: hand out the open checkout again, or start the next one. Callers at the
  // same moment get the same attempt number, hence the same idempotency key and session.
  const attempt = await ctx.transaction(async (tx) => {
    const row = await lockBilling(tx, ctx.config, businessId, ctx.clock.date());
    if (serving(row) || row.planStatus === 'past_due') {
      throw invalid('This business already has a receptionist plan. Use receptionist_billing_portal to see or change it.');
    }
    if (row.planStatus === 'incomplete') {
      throw invalid('A plan was just paid for and the provider is confirming it: check receptionist_service (or receptionist_refresh) in a minute.');
    }
    if (row.limitCents < plan.monthlyCents) {
      throw invalid(`The spending limit ($${dollars(row.limitCents)} a month) is below the plan's $${dollars(plan.monthlyCents)}: raise it with receptionist_limits first.`);
    }
    const left = row.checkoutExpiresAt ? row.checkoutExpiresAt.getTime() - now : 0;
    if (row.checkoutSessionId && row.checkoutUrl && left > CHECKOUT_MARGIN) return { row, reuse: true as const };
    if (!row.checkoutSessionId && left > RETRY_MARGIN) return { row, reuse: false as const };
    const next = await tx.receptionistBilling.update({
      where: { businessId },
      data: { checkouts: row.checkouts + 1, checkoutSessionId: null, checkoutUrl: null, checkoutExpiresAt: new Date(now + CHECKOUT_MINUTES * MINUTE), updatedAt: ctx.clock.date() },
    });
    return { row: next, reuse: false as const };
  });
  const terms = { monthlyDollars: dollars(plan.monthlyCents), includedMinutes: plan.includedMinutes, overageDollarsPerMinute: dollars(plan.overageCentsPerMinute) };
  const next = 'Send the owner this private link to pay on the provider\'s page. The plan is active once the provider confirms the payment: check receptionist_service (or receptionist_refresh).';
  const zone = await businessZone(ctx.prisma, businessId);
  if (attempt.reuse) return { url: attempt.row.checkoutUrl!, expiresAt: formatInstant(attempt.row.checkoutExpiresAt!, zone), ...terms, next };

  const business = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { email: true, name: true } });
  let session;
  try {
    const customerId = await planCustomer(ctx, attempt.row, business);
    session = await ctx.payments.provider.createCheckout({
      mode: 'subscription',
      currency: 'usd',
      plan: { name: PLAN_NAME, monthlyCents: plan.monthlyCents, includedMinutes: plan.includedMinutes, overageCentsPerMinute: plan.overageCentsPerMinute },
      reference: reference(businessId),
      successUrl: ctx.links.planDone(),
      cancelUrl: ctx.links.planLeft(),
      expiresAt: attempt.row.checkoutExpiresAt!.getTime(),
      idempotencyKey: `porchlight-plan-${businessId}-${attempt.row.checkouts}`,
      customerId,
      customerEmail: business.email,
    });
  } catch (err) {
    if (err instanceof ProviderError) throw providerUnavailable(ctx.logger, 'opening the plan checkout', err);
    throw err;
  }
  await ctx.prisma.receptionistBilling.updateMany({
    where: { businessId, checkouts: attempt.row.checkouts },
    data: { checkoutSessionId: session.sessionId, checkoutUrl: session.url, checkoutExpiresAt: new Date(session.expiresAt), updatedAt: ctx.clock.date() },
  });
  return { url: session.url, expiresAt: formatInstant(session.expiresAt, zone), ...terms, next };
}

/**
 * The business's customer at the current provider: made with its first plan checkout (before any
 * payment) and kept, so receptionist_billing_portal opens from then on and later plans' invoices
 * stay together. A customer made with another provider means nothing to this one. Concurrent
 * first checkouts share the idempotency key, hence the customer.
 */
async function planCustomer(ctx: OwnerContext, row: BillingRow, business: { name: string; email: string | null }): Promise<string> {
  const provider = ctx.payments.provider;
  if (row.customerId && row.provider === provider.name) return row.customerId;
  const businessId = row.businessId;
  const { customerId } = await provider.createCustomer({ name: business.name, email: business.email, reference: reference(businessId), idempotencyKey: `porchlight-plan-customer-${businessId}` });
  await ctx.prisma.receptionistBilling.updateMany({
    where: { businessId, OR: [{ customerId: null }, { provider: null }, { provider: { not: provider.name } }] },
    data: { customerId, provider: provider.name, updatedAt: ctx.clock.date() },
  });
  return customerId;
}

export async function receptionistBillingPortalService(_input: unknown, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const row = await ctx.prisma.receptionistBilling.findUnique({ where: { businessId } });
  if (!row?.customerId || row.provider !== ctx.payments.provider.name) {
    throw invalid('There is no receptionist plan to manage yet: buy one with receptionist_checkout.');
  }
  try {
    const link = await ctx.payments.provider.billingPortal({ customerId: row.customerId, returnUrl: ctx.links.portalReturn() });
    const unpaid = row.planStatus === 'none';
    return {
      url: link.url,
      expiresAt: formatInstant(link.expiresAt, await businessZone(ctx.prisma, businessId)),
      next: unpaid
        ? 'Private: only for the owner. No plan is paid yet: the portal shows no plan or invoice until the checkout from receptionist_checkout is paid. Opening it neither charges nor cancels.'
        : 'Private: only for the owner. Opening it neither charges nor cancels; there the owner sees invoices and may cancel the plan.',
    };
  } catch (err) {
    if (err instanceof ProviderError) throw providerUnavailable(ctx.logger, 'opening the billing portal', err);
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// The provider's reports

/**
 * Takes a subscription as the business's plan when it may be: the business has none, or its plan
 * has ended (a new one replaces it). A new plan starts with the configured terms and a fresh count
 * of usage; a late report about an ended plan never replaces a newer one.
 */
async function adopt(services: Services, tx: Tx, row: BillingRow, subscriptionId: string, customerId: string | null, ended = false): Promise<BillingRow | null> {
  if (row.subscriptionId === subscriptionId) return row;
  if (row.subscriptionId && (ended || row.planStatus !== 'cancelled')) {
    if (!ended) services.logger.error({ business: row.businessId, subscription: subscriptionId }, 'a second receptionist subscription for a business with a plan: cancel it at the provider');
    return null;
  }
  return tx.receptionistBilling.update({
    where: { businessId: row.businessId },
    data: {
      ...freshPlan(services.config),
      provider: services.payments.provider.name,
      subscriptionId,
      customerId: customerId ?? row.customerId,
      planStatus: 'incomplete',
      updatedAt: services.clock.date(),
    },
  });
}

/** Minutes recorded since a period's start count toward it (those recorded before its report arrived included). */
async function usedSince(tx: Tx, businessId: string, start: Date): Promise<number> {
  const sum = await tx.receptionistUsage.aggregate({ where: { businessId, at: { gte: start } }, _sum: { minutes: true } });
  return sum._sum.minutes ?? 0;
}

/** A period the provider reports as paid or current; a newer one starts the count again. */
async function periodData(tx: Tx, row: BillingRow, start: number | null, end: number | null) {
  if (start === null || end === null) return {};
  if (row.periodStart && row.periodStart.getTime() >= start) return row.periodEnd?.getTime() === end || row.periodStart.getTime() > start ? {} : { periodEnd: new Date(end) };
  return { periodStart: new Date(start), periodEnd: new Date(end), usedMinutes: await usedSince(tx, row.businessId, new Date(start)) };
}

/** A subscription's state as the provider reported it at `reportedAt` (a webhook's time, or now when read). */
export async function applySubscription(services: Services, tx: Tx, businessId: string, status: SubscriptionStatus, reportedAt: number): Promise<void> {
  const locked = await lockBilling(tx, services.config, businessId, services.clock.date());
  const row = await adopt(services, tx, locked, status.subscriptionId, status.customerId, status.status === 'cancelled');
  if (!row) return;
  const second = new Date(Math.floor(reportedAt / 1000) * 1000);
  if (row.planStatusAt > second) return;
  const wasServing = serving(row);
  const planStatus = status.status;
  await tx.receptionistBilling.update({
    where: { businessId },
    data: {
      planStatus,
      cancelAtPeriodEnd: status.cancelAtPeriodEnd,
      planStatusAt: second,
      ...(status.customerId ? { customerId: status.customerId } : {}),
      ...(await periodData(tx, row, status.periodStart, status.periodEnd)),
      updatedAt: services.clock.date(),
    },
  });
  if (!wasServing && planStatus === 'active') await services.emit(tx, { type: 'receptionist.plan_active', businessId });
  if ((wasServing || row.planStatus === 'past_due') && planStatus === 'cancelled') await services.emit(tx, { type: 'receptionist.plan_cancelled', businessId });
}

/** What the provider's events about the plan do (the 'receptionist_plan' purpose). */
export const onPlanEvent: PaymentPurposeHandler = async (services, tx, event) => {
  // The plan lives on the platform's own account: an event from a connected account is not about it.
  if (event.account !== null) {
    services.logger.warn({ event: event.id }, 'a plan event from a connected account: ignored');
    return;
  }
  const businessId = event.reference.id;
  if (!(await tx.business.findUnique({ where: { id: businessId }, select: { id: true } }))) return;
  switch (event.kind) {
    case 'subscription.checkout_completed': {
      const row = await lockBilling(tx, services.config, businessId, services.clock.date());
      await adopt(services, tx, row, event.subscriptionId, event.customerId);
      return;
    }
    case 'subscription.updated':
      return applySubscription(services, tx, businessId, event.subscription, event.createdAt);
    case 'invoice.paid': {
      const row = await lockBilling(tx, services.config, businessId, services.clock.date());
      if (row.subscriptionId !== event.subscriptionId) return;
      const period = await periodData(tx, row, event.periodStart, event.periodEnd);
      if (Object.keys(period).length) await tx.receptionistBilling.update({ where: { businessId }, data: { ...period, updatedAt: services.clock.date() } });
      return;
    }
    case 'checkout.expired': {
      // That checkout can no longer be paid: the next receptionist_checkout opens a new one.
      await tx.receptionistBilling.updateMany({
        where: { businessId, checkoutSessionId: event.sessionId },
        data: { checkoutSessionId: null, checkoutUrl: null, checkoutExpiresAt: null, updatedAt: services.clock.date() },
      });
      return;
    }
  }
};

/**
 * Reads the plan from the provider (receptionist_refresh): the subscription as it is now, or,
 * when only a checkout is known, whether it was paid meanwhile.
 */
export async function refreshPlan(ctx: Context, businessId: string): Promise<void> {
  const provider = ctx.payments.provider;
  const row = await ctx.prisma.receptionistBilling.findUnique({ where: { businessId } });
  if (!row || (row.provider && row.provider !== provider.name)) return;
  let subscriptionId = row.subscriptionId;
  let customerId = row.customerId;
  if (!subscriptionId || !serving(row)) {
    if (row.checkoutSessionId) {
      const checkout = await provider.checkoutStatus(row.checkoutSessionId);
      if (checkout.status === 'complete' && checkout.subscriptionId) ({ subscriptionId, customerId } = checkout);
      else if (checkout.status === 'expired') {
        await ctx.prisma.receptionistBilling.updateMany({ where: { businessId, checkoutSessionId: row.checkoutSessionId }, data: { checkoutSessionId: null, checkoutUrl: null, checkoutExpiresAt: null } });
      }
    }
  }
  if (!subscriptionId) return;
  const status = await provider.subscriptionStatus(subscriptionId);
  await ctx.transaction(async (tx) => applySubscription(ctx, tx, businessId, { ...status, customerId: status.customerId ?? customerId }, ctx.clock.now()));
}
