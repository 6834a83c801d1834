/**
 * Minutes the AI receptionist answers, recorded by the voice side through `recordUsage` — the one
 * place the spending limit is enforced. The voice side asks before it answers more of a call (a
 * minute at a time, or the minutes it expects), and answers only the minutes granted.
 *
 * Each record runs in one transaction holding the business's billing row lock (SELECT … FOR
 * UPDATE), so records running at once take turns: granted minutes never take the month past the
 * limit, and a CHECK constraint on the row holds the same rule in the database. A record's
 * `usageId` (the voice side's id, e.g. the call and its minute) makes a retry return the first
 * answer instead of counting twice. Minutes past the included ones are reported to the payment
 * provider's usage meter after commit (with the record's id as the meter's idempotency
 * identifier), and reports that fail are sent again by the sweep.
 *
 * At the limit both settings stop paid minutes; `ask` also leaves the owner a note asking to
 * raise the limit (once a period), and both announce receptionist.limit_reached.
 */
import type { Services } from '../context.js';
import { onCommit, type Tx } from '../db/transaction.js';
import { ProviderError } from '../payments/provider.js';
import { grant, overageCents } from './ledger.js';
import { dollars } from '../core/money.js';
import { ledger, lockBilling, serving, type BillingRow } from './store.js';
import { localDate } from '../core/time.js';
import { businessZone } from '../db/business-zone.js';

export interface UsageInput {
  businessId: string;
  /** The voice side's id for this record (e.g. `<call id>:<minute>`), 1-200 characters. */
  usageId: string;
  /** Minutes answered or about to be, 1-600. */
  minutes: number;
}

export interface UsageResult {
  usageId: string;
  requested: number;
  /** Minutes that may be answered (and are billed); fewer than requested when the limit is reached. */
  granted: number;
  /** Answer nothing past `granted`: the limit is reached (until it is raised or a new period starts), or no plan serves. */
  stopped: boolean;
  /** ok, limit (the spending limit is reached) or no_plan (no active plan). */
  reason: 'ok' | 'limit' | 'no_plan';
  usedMinutes: number;
  remainingMinutes: number;
}

const MAX_MINUTES = 600;
/** Reports to the provider's meter are tried this often before they need an operator. */
export const MAX_REPORT_ATTEMPTS = 10;
const SWEEP_BATCH = 100;

export async function recordUsage(services: Services, input: UsageInput): Promise<UsageResult> {
  if (!Number.isInteger(input.minutes) || input.minutes < 1 || input.minutes > MAX_MINUTES) throw new RangeError(`minutes must be a whole number from 1 to ${MAX_MINUTES}.`);
  if (input.usageId.length < 1 || input.usageId.length > 200) throw new RangeError('usageId must be 1-200 characters.');
  return services.transaction(async (tx) => {
    const now = services.clock.date();
    const row = await lockBilling(tx, services.config, input.businessId, now);
    // Under the lock: a retried record finds the first one.
    const earlier = await tx.receptionistUsage.findUnique({ where: { businessId_usageId: { businessId: input.businessId, usageId: input.usageId } } });
    const state = ledger(row, now.getTime());
    if (earlier) {
      const remaining = serving(row) ? grant(state, 0).remaining : 0;
      return result(input, row.usedMinutes, earlier.minutes, remaining, !serving(row) ? 'no_plan' : remaining === 0 || earlier.minutes < earlier.requested ? 'limit' : 'ok');
    }
    if (!serving(row) || !row.periodStart) return result(input, row.usedMinutes, 0, 0, 'no_plan');

    // Past the period's end before the provider reported the renewal, minutes still count toward
    // the period on record (ledger): never more than its limit allows.
    const granted = grant(state, input.minutes);
    const used = row.usedMinutes + granted.minutes;
    const record = await tx.receptionistUsage.create({
      data: {
        businessId: input.businessId,
        usageId: input.usageId,
        requested: input.minutes,
        minutes: granted.minutes,
        overageMinutes: granted.overage,
        periodStart: row.periodStart,
        at: now,
        // Nothing to report when no minute is overage.
        reportedAt: granted.overage > 0 ? null : now,
      },
    });
    const reached = granted.remaining === 0 && row.limitReachedFor?.getTime() !== row.periodStart.getTime();
    await tx.receptionistBilling.update({
      where: { businessId: input.businessId },
      data: { usedMinutes: used, updatedAt: now, ...(reached ? { limitReachedFor: row.periodStart } : {}) },
    });
    if (reached) await limitReached(services, tx, { ...row, usedMinutes: used });
    if (granted.overage > 0) onCommit(tx, () => reportOverage(services, record.id));
    return result(input, used, granted.minutes, granted.remaining, granted.remaining === 0 ? 'limit' : 'ok');
  });
}

const result = (input: UsageInput, usedMinutes: number, granted: number, remaining: number, reason: UsageResult['reason']): UsageResult => ({
  usageId: input.usageId,
  requested: input.minutes,
  granted,
  stopped: reason !== 'ok',
  reason,
  usedMinutes,
  remainingMinutes: remaining,
});

/** The limit is reached for this period: announced once, and with `ask` the owner gets a note. */
async function limitReached(services: Services, tx: Tx, row: BillingRow): Promise<void> {
  await services.emit(tx, { type: 'receptionist.limit_reached', businessId: row.businessId, data: { change: row.atLimit } });
  if (row.atLimit !== 'ask') return;
  const month = row.planCents + overageCents(row);
  const until = row.periodEnd ? ` until ${localDate(row.periodEnd.getTime(), await businessZone(tx, row.businessId))}` : '';
  await tx.ownerNote.create({
    data: {
      businessId: row.businessId,
      clientName: 'Porchlight',
      createdAt: services.clock.date(),
      text: `Your AI receptionist reached this month's spending limit ($${dollars(row.limitCents).toFixed(2)}; $${dollars(month).toFixed(2)} used) and stopped answering paid minutes${until}. To keep it answering, raise the limit with receptionist_limits.`,
    },
  });
}

/** Reports one record's overage minutes to the provider's meter; a failure is counted and retried by the sweep. */
export async function reportOverage(services: Services, usageRecordId: string): Promise<void> {
  const record = await services.prisma.receptionistUsage.findUnique({ where: { id: usageRecordId }, include: { business: { select: { receptionistBilling: { select: { customerId: true } } } } } });
  const customerId = record?.business.receptionistBilling?.customerId;
  if (!record || record.reportedAt || !customerId) return;
  try {
    await services.payments.provider.reportUsage({ customerId, minutes: record.overageMinutes, identifier: `porchlight-usage-${record.id}`, at: record.at.getTime() });
    await services.prisma.receptionistUsage.update({ where: { id: record.id }, data: { reportedAt: services.clock.date() } });
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    const { reportAttempts } = await services.prisma.receptionistUsage.update({ where: { id: record.id }, data: { reportAttempts: { increment: 1 } }, select: { reportAttempts: true } });
    const log = reportAttempts >= MAX_REPORT_ATTEMPTS ? services.logger.error.bind(services.logger) : services.logger.warn.bind(services.logger);
    log({ usage: record.id, attempts: reportAttempts, err: err.message }, 'reporting receptionist overage to the payment provider failed');
  }
}

/** Sends again the overage reports the provider did not take (the server's sweep). */
export async function sweepUsageReports(services: Services): Promise<void> {
  const due = await services.prisma.receptionistUsage.findMany({
    where: { reportedAt: null, reportAttempts: { lt: MAX_REPORT_ATTEMPTS } },
    select: { id: true },
    orderBy: { at: 'asc' },
    take: SWEEP_BATCH,
  });
  for (const { id } of due) await reportOverage(services, id);
}
