/**
 * The receptionist's money rules, pure: what a month has committed (the base plan once paid, and
 * the minutes past the included ones), and how many more minutes fit under the owner's limit.
 * The limit counts the base plan and overages together; included minutes cost nothing more, so
 * they are always answered while the plan serves; paid minutes stop where the limit would be passed.
 */

export interface Terms {
  planCents: number;
  includedMinutes: number;
  overageCentsPerMinute: number;
}

export interface LedgerState extends Terms {
  limitCents: number;
  usedMinutes: number;
  /** The base plan is paid for the period that runs now. */
  planPaid: boolean;
}

/** Stands for "no end" when overage minutes are free (a price of 0). */
export const UNLIMITED = Number.MAX_SAFE_INTEGER;

export const overageMinutes = (usedMinutes: number, includedMinutes: number) => Math.max(0, usedMinutes - includedMinutes);

export const overageCents = (s: Pick<LedgerState, 'usedMinutes' | 'includedMinutes' | 'overageCentsPerMinute'>) =>
  overageMinutes(s.usedMinutes, s.includedMinutes) * s.overageCentsPerMinute;

/** What this month has already committed: the base plan once paid, and the overage so far. */
export const committedCents = (s: LedgerState) => (s.planPaid ? s.planCents : 0) + overageCents(s);

/** Minutes that can still be answered this period without the month passing the limit. */
export function allowance(s: LedgerState): number {
  const included = Math.max(0, s.includedMinutes - s.usedMinutes);
  if (s.overageCentsPerMinute === 0) return UNLIMITED;
  // The base plan counts toward the limit whether or not its invoice has arrived yet.
  const spendable = s.limitCents - s.planCents - overageCents(s);
  return included + (spendable > 0 ? Math.floor(spendable / s.overageCentsPerMinute) : 0);
}

/** How many of `requested` minutes are granted, and how many of those are overage. */
export function grant(s: LedgerState, requested: number): { minutes: number; overage: number; remaining: number } {
  const room = allowance(s);
  const minutes = Math.min(requested, room);
  const overage = overageMinutes(s.usedMinutes + minutes, s.includedMinutes) - overageMinutes(s.usedMinutes, s.includedMinutes);
  return { minutes, overage, remaining: room === UNLIMITED ? UNLIMITED : room - minutes };
}
