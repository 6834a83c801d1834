/**
 * Service-call fees for plumbing and HVAC pros: price list (business data) + trade and issue
 * (customer input) → the firm fee in integer cents and the arrival-window length.
 *
 * The fee covers the visit and diagnosis only; repairs are quoted on site before work starts,
 * so nothing here ever prices a repair. The service-call vocabulary (trades, issues, the fee
 * note and the safety instruction every result carries) is defined here once.
 */
import { z } from 'zod';
import { parsedOnce } from './parsed.js';

/** Part of every result of find_service_call and book_service_call, to be relayed to the user. */
export const SAFETY =
  'Safety first: if you smell gas, water is flooding and cannot be stopped, or anything else is unsafe, do not wait for this visit. ' +
  'Leave the building, then call 911 or the gas utility\'s emergency line from outside; shut off the water main only if that is safe to do.';

/** What the fee is, stated with every fee shown. */
export const FEE_NOTE =
  'The fee is a firm service-call fee covering the visit and diagnosis only. It is never the price of the repair: ' +
  'the pro quotes any repair on site before work starts, and the customer decides then.';

export const TRADES = ['plumbing', 'hvac'] as const;
export type Trade = (typeof TRADES)[number];

/** The issue categories of each trade, as the spec lists them (closest category; `other` otherwise). */
export const ISSUES = {
  plumbing: ['leak', 'clog', 'water_heater', 'toilet', 'fixture', 'no_water', 'other'],
  hvac: ['no_cool', 'no_heat', 'maintenance', 'noise', 'thermostat', 'other'],
} as const satisfies Record<Trade, readonly string[]>;
export type Issue = (typeof ISSUES)[Trade][number];

/** Every issue of any trade, each once (`other` belongs to both). */
export const ALL_ISSUES = [...new Set<Issue>([...ISSUES.plumbing, ...ISSUES.hvac])] as [Issue, ...Issue[]];

export function isIssueOf(trade: Trade, issue: string): issue is Issue {
  return (ISSUES[trade] as readonly string[]).includes(issue);
}

/** "plumbing: leak, clog, …; hvac: no_cool, …", for messages that name the allowed values. */
export const issuesByTrade = () => TRADES.map((t) => `${t}: ${ISSUES[t].join(', ')}`).join('; ');

const cents = z.number().int().min(0).max(10_000_000);

export const serviceCallPriceListSchema = z.strictObject({
  /** Fee per issue; an issue without a fee is one the pro does not take. */
  service_call: z.partialRecord(z.enum(ALL_ISSUES), cents),
  /** Length of the arrival window the pro promises. */
  window_minutes: z.number().int().min(30).max(480),
});
export type ServiceCallPriceList = z.infer<typeof serviceCallPriceListSchema>;
const parsedList = parsedOnce(serviceCallPriceListSchema);

export type ServiceCallQuote = { ok: true; fee_cents: number; window_minutes: number } | { ok: false; reason: string };

export function quoteServiceCall(priceList: unknown, trade: Trade, issue: string): ServiceCallQuote {
  if (!isIssueOf(trade, issue)) {
    return { ok: false, reason: `"${issue}" is not one of the ${trade} issues: ${ISSUES[trade].join(', ')}.` };
  }
  const list = parsedList(priceList);
  if (!list.success) return { ok: false, reason: 'This pro has not published service-call fees yet.' };
  const fee = list.data.service_call[issue];
  if (fee === undefined) {
    const offered = ISSUES[trade].filter((i) => list.data.service_call[i] !== undefined);
    return {
      ok: false,
      reason: `This pro does not take "${issue}" service calls. Issues with a fee: ${offered.length > 0 ? offered.join(', ') : 'none'}.`,
    };
  }
  return { ok: true, fee_cents: fee, window_minutes: list.data.window_minutes };
}

// A service call as customers describe it; shared by find_service_call and book_service_call.

export const serviceCallFields = {
  trade: z.enum(TRADES, 'trade must be plumbing or hvac.').describe('hvac: heating and air conditioning.'),
  issue: z
    .enum(ALL_ISSUES, `issue must be one of the trade's categories: ${issuesByTrade()}.`)
    .describe(`Closest issue: ${issuesByTrade()}.`),
  details: z.string().max(500, 'details must be at most 500 characters.').optional().describe("The problem in the customer's words."),
};

/** Refinement for inputs holding serviceCallFields: the issue must be one of its trade's. */
export function issueOfTrade(input: { trade: Trade; issue: Issue }, ctx: z.RefinementCtx) {
  if (!isIssueOf(input.trade, input.issue)) {
    ctx.addIssue({
      code: 'custom',
      path: ['issue'],
      message: `issue "${input.issue}" is not a ${input.trade} category; ${input.trade} issues: ${ISSUES[input.trade].join(', ')}.`,
    });
  }
}
