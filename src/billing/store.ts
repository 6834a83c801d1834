/**
 * A business's ReceptionistBilling row: made with the configured plan's terms and a limit of the
 * plan's price the first time anything needs it, and locked (SELECT … FOR UPDATE) by every write
 * that weighs usage against the limit, so concurrent writers take turns on it.
 */
import type { Config } from '../config.js';
import type { Tx } from '../db/transaction.js';
import type { ReceptionistBilling } from '../generated/prisma/client.js';
import type { LedgerState } from './ledger.js';

export type BillingRow = ReceptionistBilling;

/** A plan that serves calls: paid and running. */
export const serving = (row: Pick<BillingRow, 'planStatus'> | null | undefined) => row?.planStatus === 'active';

/** A plan as it starts: the configured terms, no period or usage yet, no checkout open. */
export function freshPlan(config: Pick<Config, 'receptionistPlan'>) {
  const plan = config.receptionistPlan;
  return {
    cancelAtPeriodEnd: false,
    planStatusAt: new Date(0),
    planCents: plan.monthlyCents,
    includedMinutes: plan.includedMinutes,
    overageCentsPerMinute: plan.overageCentsPerMinute,
    periodStart: null,
    periodEnd: null,
    usedMinutes: 0,
    limitReachedFor: null,
    checkoutSessionId: null,
    checkoutUrl: null,
    checkoutExpiresAt: null,
  };
}

/** The row as it is before anything was stored: the configured plan, a limit of its price, ask at the limit. */
export function defaults(config: Pick<Config, 'receptionistPlan'>, businessId: string, now: Date): BillingRow {
  return {
    ...freshPlan(config),
    businessId,
    provider: null,
    customerId: null,
    subscriptionId: null,
    planStatus: 'none',
    limitCents: config.receptionistPlan.monthlyCents,
    atLimit: 'ask',
    checkouts: 0,
    createdAt: now,
    updatedAt: now,
  };
}

/** The business's row, made if missing, locked until the transaction ends. */
export async function lockBilling(tx: Tx, config: Pick<Config, 'receptionistPlan'>, businessId: string, now: Date): Promise<BillingRow> {
  await tx.receptionistBilling.createMany({ data: [defaults(config, businessId, now)], skipDuplicates: true });
  const [row] = await tx.$queryRaw<BillingRow[]>`SELECT * FROM "ReceptionistBilling" WHERE "businessId" = ${businessId} FOR UPDATE`;
  return row!;
}

/** The period usage counts toward runs now, and the base plan is paid for it. */
export const planPaid = (row: Pick<BillingRow, 'planStatus' | 'periodEnd'>, now: number) =>
  row.planStatus !== 'none' && row.planStatus !== 'incomplete' && row.periodEnd !== null && row.periodEnd.getTime() > now;

/**
 * The row as the ledger weighs it now. A serving plan's period on record counts until the
 * provider reports the next one (a renewal a little late changes nothing); otherwise usage counts
 * only while the period it belongs to runs.
 */
export function ledger(row: BillingRow, now: number): LedgerState {
  const counts = serving(row) || planPaid(row, now);
  return {
    planCents: row.planCents,
    includedMinutes: row.includedMinutes,
    overageCentsPerMinute: row.overageCentsPerMinute,
    limitCents: row.limitCents,
    usedMinutes: counts ? row.usedMinutes : 0,
    planPaid: counts && row.periodStart !== null,
  };
}
