/**
 * The owner's private view of the receptionist service (receptionist_service), the spending limit
 * (receptionist_limits) and receptionist_refresh, which reads the payment provider and the carrier
 * for what their webhooks have not told yet. No card, bank, carrier PIN or account number is ever
 * read or shown here: the provider and the carrier keep those.
 */
import type { z } from 'zod';
import type { OwnerContext } from '../context.js';
import { onCommit } from '../db/transaction.js';
import { AppError } from '../errors.js';
import { accountReady, onAccountUpdated, usableAccount } from '../payments/accounts.js';
import { ProviderError } from '../payments/provider.js';
import { CarrierRefused, CarrierUnavailable } from '../phone/carrier.js';
import { refreshNumber } from '../phone/numbers.js';
import { refreshPort } from '../phone/ports.js';
import { reconcileCalls } from '../phone/voice.js';
import { allowance, committedCents, overageCents } from './ledger.js';
import { dollars } from '../core/money.js';
import { refreshPlan } from './plan.js';
import { defaults, ledger, lockBilling, serving } from './store.js';
import type { receptionistLimitsInput } from './inputs.js';
import { formatInstant } from '../core/time.js';
import { businessZone } from '../db/business-zone.js';

export async function receptionistServiceView(ctx: OwnerContext, note?: string) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const [stored, number, port, account, zone] = await Promise.all([
    ctx.prisma.receptionistBilling.findUnique({ where: { businessId } }),
    ctx.prisma.receptionistNumber.findUnique({ where: { businessId }, select: { number: true, status: true } }),
    ctx.prisma.numberPort.findFirst({ where: { businessId }, orderBy: { updatedAt: 'desc' }, select: { id: true, number: true, status: true, reason: true } }),
    ctx.prisma.paymentAccount.findUnique({ where: { businessId } }),
    businessZone(ctx.prisma, businessId),
  ]);
  const row = stored ?? defaults(ctx.config, businessId, new Date(now));
  const l = ledger(row, now);
  // Before any plan the terms shown are the ones on sale.
  const sale = ctx.config.receptionistPlan;
  const terms = row.planStatus === 'none' ? { planCents: sale.monthlyCents, includedMinutes: sale.includedMinutes, overageCentsPerMinute: sale.overageCentsPerMinute } : row;
  const payments = usableAccount(account, ctx.payments.provider);
  const phoneStatus = !number ? 'none' : number.status === 'active' ? 'active' : number.status === 'failed' ? 'failed' : 'pending';
  return {
    plan: {
      status: row.planStatus,
      monthlyDollars: dollars(terms.planCents),
      overageDollarsPerMinute: dollars(terms.overageCentsPerMinute),
      periodEnd: row.periodEnd ? formatInstant(row.periodEnd, zone) : null,
      cancelsAtPeriodEnd: row.cancelAtPeriodEnd,
    },
    phone: {
      status: phoneStatus,
      number: number?.number ?? null,
      port: port ? { portId: port.id, number: port.number, status: port.status, reason: port.reason } : null,
    },
    customerPayments: { status: !payments ? 'none' : accountReady(payments) ? 'ready' : 'onboarding' },
    usage: { includedMinutes: terms.includedMinutes, usedMinutes: l.usedMinutes, overageDollars: dollars(overageCents(l)) },
    spendingLimit: {
      monthlyDollars: dollars(row.limitCents),
      atLimit: row.atLimit,
      committedDollars: dollars(committedCents(l)),
      reached: serving(row) && allowance(l) === 0,
    },
    ...(note ? { note } : {}),
  };
}

export async function receptionistLimitsService(input: z.output<typeof receptionistLimitsInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const cents = input.monthly_dollars * 100;
  await ctx.transaction(async (tx) => {
    // The same lock usage records take: no record slips between this check and the change.
    const row = await lockBilling(tx, ctx.config, businessId, ctx.clock.date());
    const l = ledger(row, ctx.clock.now());
    const committed = committedCents(l);
    if (cents < committed) {
      throw new AppError(
        'below_committed_charges',
        `This month has already committed $${dollars(committed).toFixed(2)} (the plan and the minutes past the included ones), so the limit cannot be lower: set at least ${Math.ceil(committed / 100)} dollars.`,
        { committed_dollars: dollars(committed) },
      );
    }
    const raised = { ...l, limitCents: cents };
    await tx.receptionistBilling.update({
      where: { businessId },
      data: {
        limitCents: cents,
        atLimit: input.at_limit,
        // Usage of a period that ended counts no more.
        usedMinutes: l.usedMinutes,
        // Room again under a raised limit: reaching it later is announced again.
        ...(allowance(raised) > 0 ? { limitReachedFor: null } : {}),
        updatedAt: ctx.clock.date(),
      },
    });
    onCommit(tx, () => ctx.logger.info({ business: businessId, limit: input.monthly_dollars, atLimit: input.at_limit }, 'receptionist spending limit set'));
  });
  return (await receptionistServiceView(ctx)).spendingLimit;
}

/**
 * Reads the payment provider (the business's payment account, the plan) and the carrier (a
 * number not yet active, a transfer under way). What answers is stored; what does not is named
 * in `note`, and the rest of the view is still returned.
 */
export async function receptionistRefreshService(_input: unknown, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const failed: string[] = [];
  const attempt = async (what: string, read: () => Promise<unknown>) => {
    try {
      await read();
    } catch (err) {
      if (!(err instanceof ProviderError || err instanceof CarrierUnavailable || err instanceof CarrierRefused)) throw err;
      ctx.logger.warn({ err: err.message }, `receptionist_refresh could not read ${what}`);
      failed.push(what);
    }
  };
  const account = usableAccount(await ctx.prisma.paymentAccount.findUnique({ where: { businessId } }), ctx.payments.provider);
  if (account) {
    await attempt('the payment account', async () => {
      const status = await ctx.payments.provider.accountStatus(account.accountId);
      await ctx.transaction(async (tx) => onAccountUpdated(ctx, tx, status, ctx.clock.now()));
    });
  }
  await attempt('the plan', () => refreshPlan(ctx, businessId));
  await attempt('the phone number', () => refreshNumber(ctx, businessId));
  await attempt('the number transfer', () => refreshPort(ctx, businessId));
  await attempt('the call records', () => reconcileCalls(ctx, businessId));
  return receptionistServiceView(
    ctx,
    failed.length ? `Could not reach the provider for ${failed.join(', ')}; that part shows what was known before. Try again in a minute.` : 'Read from the payment provider and the carrier just now.',
  );
}
