/**
 * When a quoted lead is due a follow-up (spec: first after 1 day, then after 2 more days): the
 * first 1 day after the quote, the second 2 days after the first follow-up was recorded
 * (update_lead contacted), none after the second, and none once the lead is booked, lost,
 * answered or flagged bad. The rule lives here once, as a pure function and as the database
 * filter that finds the leads it makes due.
 */
import type { Prisma } from '../generated/prisma/client.js';
import { DAY } from '../core/time.js';

export const FIRST_FOLLOW_UP_MS = DAY;
export const SECOND_FOLLOW_UP_MS = 2 * DAY;
export const MAX_FOLLOW_UPS = 2;

export interface FollowUpState {
  status: string;
  quotedAt: Date;
  followUps: number;
  lastFollowUpAt: Date | null;
  repliedAt: Date | null;
  flaggedAt: Date | null;
}

/** The next follow-up of a lead, or null when none will be due. */
export function nextFollowUp(lead: FollowUpState): { number: 1 | 2; dueAt: number } | null {
  if (lead.status !== 'quoted' || lead.repliedAt || lead.flaggedAt) return null;
  if (lead.followUps === 0) return { number: 1, dueAt: lead.quotedAt.getTime() + FIRST_FOLLOW_UP_MS };
  if (lead.followUps === 1 && lead.lastFollowUpAt) return { number: 2, dueAt: lead.lastFollowUpAt.getTime() + SECOND_FOLLOW_UP_MS };
  return null;
}

/** Leads whose next follow-up falls due in (after, until]; `after` undefined means any time up to `until`. */
export function dueBetween(businessId: string, after: number | undefined, until: number): Prisma.LeadWhereInput {
  const window = (gap: number) => ({ lte: new Date(until - gap), ...(after === undefined ? {} : { gt: new Date(after - gap) }) });
  return {
    businessId,
    status: 'quoted',
    repliedAt: null,
    flaggedAt: null,
    OR: [
      { followUps: 0, quotedAt: window(FIRST_FOLLOW_UP_MS) },
      { followUps: 1, lastFollowUpAt: window(SECOND_FOLLOW_UP_MS) },
    ],
  };
}
