/**
 * Demo receptionist plans, bought through the sandbox ten days before the clock: in each city the
 * second business of one trade has an active plan, with the sandbox's own records (customer,
 * subscription, first invoice) so the billing portal and receptionist_refresh work on them:
 * - Austin's second cleaner: an active number, usage well inside the included minutes, limit $80 (ask);
 * - San Francisco's second plumber: a number still pending with the carrier;
 * - San Jose's second HVAC pro: no number, 20 minutes past the included ones, limit $60 (pause).
 * Every other business has no plan. The numbers are the carrier sandbox's (555-01xx lines of the
 * cities' overlay area codes).
 */
import { DateTime } from 'luxon';
import type { Prisma } from '../generated/prisma/client.js';
import { DAY, MINUTE } from '../core/time.js';

export type DemoPlanTier = 'number_active' | 'number_pending' | 'overage';

/** Which businesses have a plan: the second of a trade in a city. */
export const PLAN_TIERS: Record<string, DemoPlanTier> = {
  'Austin:cleaning': 'number_active',
  'San Francisco:plumbing': 'number_pending',
  'San Jose:hvac': 'overage',
};

/** The demo plan's terms: the configured defaults (RECEPTIONIST_* unset). */
const TERMS = { planCents: 4900, includedMinutes: 300, overageCentsPerMinute: 20 };

const NUMBERS: Record<DemoPlanTier, string | null> = { number_active: '+17375550100', number_pending: '+16285550150', overage: null };
const USED: Record<DemoPlanTier, number> = { number_active: 42, number_pending: 0, overage: 320 };
const LIMIT: Record<DemoPlanTier, [cents: number, atLimit: 'ask' | 'pause']> = { number_active: [8000, 'ask'], number_pending: [4900, 'ask'], overage: [6000, 'pause'] };

export interface DemoBillingSet {
  receptionistBillings: Prisma.ReceptionistBillingCreateManyInput[];
  receptionistUsages: Prisma.ReceptionistUsageCreateManyInput[];
  receptionistNumbers: Prisma.ReceptionistNumberCreateManyInput[];
  sandboxCarrierObjects: Prisma.SandboxCarrierObjectCreateManyInput[];
  /** Into the payment sandbox's records (with the appointment accounts). */
  planPaymentObjects: { id: string; type: string; status: string; expiresAt: Date | null; data: object; createdAt: Date; updatedAt: Date }[];
}

export const emptyBillingSet = (): DemoBillingSet => ({ receptionistBillings: [], receptionistUsages: [], receptionistNumbers: [], sandboxCarrierObjects: [], planPaymentObjects: [] });

export function addDemoPlan(out: DemoBillingSet, b: { id: string; slug: string; email: string }, tier: DemoPlanTier, now: number): void {
  // Periods start on a whole second, as Stripe's (and the sandbox's) do.
  const anchor = Math.floor((now - 10 * DAY) / 1000) * 1000;
  const periodEnd = DateTime.fromMillis(anchor, { zone: 'utc' }).plus({ months: 1 }).toMillis();
  const key = b.slug.replace(/-/g, '_');
  const customerId = `cus_sbx_demo_${key}`;
  const subscriptionId = `sub_sbx_demo_${key}`;
  const at = new Date(anchor);
  const metadata = { purpose: 'receptionist_plan', reference_id: b.id };
  const plan = { name: 'Porchlight AI receptionist', monthlyCents: TERMS.planCents, includedMinutes: TERMS.includedMinutes, overageCentsPerMinute: TERMS.overageCentsPerMinute };
  out.planPaymentObjects.push(
    { id: customerId, type: 'customer', status: 'active', expiresAt: null, data: { email: b.email }, createdAt: at, updatedAt: at },
    { id: subscriptionId, type: 'subscription', status: 'active', expiresAt: new Date(periodEnd), data: { customerId, metadata, plan, anchor, period: 0, cancelAtPeriodEnd: false }, createdAt: at, updatedAt: at },
    {
      id: `in_sbx_demo_${key}`,
      type: 'invoice',
      status: 'paid',
      expiresAt: null,
      data: { customerId, subscriptionId, metadata, lines: [{ description: plan.name, amountCents: plan.monthlyCents, periodStart: anchor, periodEnd }], amountCents: plan.monthlyCents },
      createdAt: at,
      updatedAt: at,
    },
  );
  const used = USED[tier];
  const overage = Math.max(0, used - TERMS.includedMinutes);
  const [limitCents, atLimit] = LIMIT[tier];
  out.receptionistBillings.push({
    businessId: b.id, provider: 'sandbox', customerId, subscriptionId, planStatus: 'active', cancelAtPeriodEnd: false, planStatusAt: at,
    ...TERMS, periodStart: at, periodEnd: new Date(periodEnd), usedMinutes: used, limitCents, atLimit, checkouts: 1, createdAt: at, updatedAt: at,
  });
  if (used > 0) {
    const callAt = new Date(now - 2 * DAY);
    out.receptionistUsages.push({ id: `usage_demo_${key}`, businessId: b.id, usageId: 'demo-calls', requested: used, minutes: used, overageMinutes: overage, periodStart: at, at: callAt, reportedAt: callAt, reportAttempts: 0 });
    // The overage as reported to the sandbox's meter, billed when the period renews.
    if (overage > 0) {
      out.planPaymentObjects.push({ id: `mtr_sbx_demo_${key}`, type: 'meter_event', status: 'recorded', expiresAt: null, data: { customerId, minutes: overage, at: callAt.getTime() }, createdAt: callAt, updatedAt: callAt });
    }
  }
  const number = NUMBERS[tier];
  if (!number) return;
  const pending = tier === 'number_pending';
  const idempotencyKey = `porchlight-number-${b.id}-${number}`;
  const place = number.startsWith('+1737') ? { locality: 'Austin', region: 'TX' } : { locality: 'San Francisco', region: 'CA' };
  const boughtAt = pending ? new Date(now - MINUTE) : new Date(anchor + DAY);
  out.receptionistNumbers.push({
    businessId: b.id, number, ...place, status: pending ? 'pending' : 'active', carrierRef: number, idempotencyKey, requestedAt: boughtAt, activatedAt: pending ? null : boughtAt, updatedAt: boughtAt,
  });
  out.sandboxCarrierObjects.push({
    id: number, type: 'number', status: pending ? 'pending' : 'active', idempotencyKey: `number:${idempotencyKey}`,
    data: { label: `Porchlight ${b.slug}`, readyAt: pending ? now + 10 * MINUTE : boughtAt.getTime() }, createdAt: boughtAt, updatedAt: boughtAt,
  });
}
