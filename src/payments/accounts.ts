/**
 * A business's account with the payment provider (PaymentAccount): created by
 * customer_payment_onboarding, which hands the owner a private link to the provider's own
 * onboarding (business, bank and identity details go to the provider, never to Porchlight), and
 * kept in step by account.updated webhooks and by reading the provider on each onboarding call.
 */
import type { Context, Services, OwnerContext } from '../context.js';
import type { Tx } from '../db/transaction.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { AppError } from '../errors.js';
import type { Logger } from 'pino';
import { ProviderError, type AccountStatus, type PaymentProvider } from './provider.js';
import type { AccountState } from './provider.js';
import { formatInstant } from '../core/time.js';
import { businessZone } from '../db/business-zone.js';

/** Customers can pay into it: the owner finished onboarding and the provider enabled charges. */
export const accountReady = (account: Pick<AccountState, 'chargesEnabled' | 'detailsSubmitted'> | null | undefined) =>
  Boolean(account?.chargesEnabled && account.detailsSubmitted);

/** The business's account at the configured provider; one made with another provider does not count. */
export function usableAccount<A extends AccountState>(account: A | null | undefined, provider: Pick<PaymentProvider, 'name'>): A | null {
  return account && account.provider === provider.name ? account : null;
}

/** A provider failure, logged for the operator (its message names no secret) and answered with what to do. */
export function providerUnavailable(logger: Logger, what: string, err: unknown): AppError {
  logger.warn({ err: err instanceof Error ? err.message : String(err) }, `payment provider failed while ${what}`);
  return new AppError('provider_unavailable', `The payment provider did not answer while ${what}. Nothing was charged; try the same call again in a minute.`);
}

/**
 * An account's status as the provider reported it at `reportedAt`: applied unless a later report
 * was already. Providers time their events to the second, so reports are compared by the second
 * (one in the same second as a reading of the provider still applies).
 */
export async function onAccountUpdated(services: Pick<Services, 'changes'>, tx: Tx, status: AccountStatus, reportedAt: number): Promise<void> {
  const second = new Date(Math.floor(reportedAt / 1000) * 1000);
  const rows = await tx.paymentAccount.updateManyAndReturn({
    where: { accountId: status.accountId, statusAt: { lte: second } },
    data: { chargesEnabled: status.chargesEnabled, detailsSubmitted: status.detailsSubmitted, statusAt: second, updatedAt: new Date(reportedAt) },
    select: { businessId: true },
  });
  for (const { businessId } of rows) services.changes.changed(tx, businessId);
}

/** The business's account, created at the provider the first time. */
async function ensureAccount(ctx: Context, businessId: string): Promise<AccountState> {
  const provider = ctx.payments.provider;
  const stored = usableAccount(await ctx.prisma.paymentAccount.findUnique({ where: { businessId } }), provider);
  if (stored) return stored;
  const business = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { name: true, email: true } });
  let accountId: string;
  try {
    // One account per business at this provider, however often or concurrently this runs.
    ({ accountId } = await provider.createAccount({ businessName: business.name, email: business.email, idempotencyKey: `porchlight-business-${businessId}` }));
  } catch (err) {
    if (err instanceof ProviderError) throw providerUnavailable(ctx.logger, 'creating your payment account', err);
    throw err;
  }
  const now = ctx.clock.date();
  const fields = { provider: provider.name, accountId, chargesEnabled: false, detailsSubmitted: false, statusAt: new Date(0), updatedAt: now };
  return ctx.prisma.paymentAccount.upsert({ where: { businessId }, create: { businessId, ...fields, createdAt: now }, update: fields });
}

export async function customerPaymentOnboardingService(_input: unknown, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const provider = ctx.payments.provider;
  const account = await ensureAccount(ctx, businessId);
  let status: AccountStatus;
  let link: { url: string; expiresAt: number };
  try {
    // Reading the provider: the account's state as it is now, whatever webhooks were missed.
    status = await provider.accountStatus(account.accountId);
    link = await provider.accountLink({ accountId: account.accountId, returnUrl: ctx.links.onboardingDone(), refreshUrl: ctx.links.onboardingExpired() });
  } catch (err) {
    if (err instanceof ProviderError) throw providerUnavailable(ctx.logger, 'preparing your onboarding link', err);
    throw err;
  }
  await ctx.transaction(async (tx) => onAccountUpdated(ctx, tx, status, ctx.clock.now()));
  const ready = accountReady(status);
  return {
    url: link.url,
    expiresAt: formatInstant(link.expiresAt, await businessZone(ctx.prisma, businessId)),
    provider: provider.name,
    accountReady: ready,
    next: ready
      ? 'Your payment account can take payments: services in update_booking_setup may use payment upfront. The link lets you review or update your details with the provider.'
      : "Open the link (it is private and works once, for a short while) and give the provider your business, bank and identity details; they never pass through Porchlight. Then call receptionist_refresh: receptionist_service's customer_payments (and booking_setup's payment_account_ready) turn ready once the provider has checked them.",
  };
}

/** Whether a business's stored account at the configured provider can take payments. */
export async function storedAccount(db: PrismaClient | Tx, businessId: string, provider: Pick<PaymentProvider, 'name'>) {
  return usableAccount(await db.paymentAccount.findUnique({ where: { businessId } }), provider);
}
