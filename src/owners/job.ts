/**
 * A job as an owner describes it to quote_job, open_times, book_job and log_lead: a cleaning
 * (bedrooms, bathrooms, …) for a cleaner, a service call (issue) for a plumber or HVAC pro. It is
 * priced by the engines customers' searches use (pricing/quote.ts priceAt for cleanings,
 * pricing/service-call.ts for service calls), so a quote always equals the bookable price.
 */
import { z } from 'zod';
import type { Prisma } from '../generated/prisma/client.js';
import type { BookingKind, BusinessKind } from '../generated/prisma/enums.js';
import { invalid } from '../errors.js';
import { priceAt } from '../pricing/quote.js';
import { bathrooms, bedrooms, cleanType, pets, searchAddOns, sqft } from '../pricing/job.js';
import { ALL_ISSUES, ISSUES, isIssueOf, issuesByTrade, quoteServiceCall } from '../pricing/service-call.js';
import { text } from '../registry/fields.js';

/** The job fields every owner operation that sizes a job takes. */
export const jobFields = {
  bedrooms: bedrooms.optional().describe('Cleaners: with bathrooms.'),
  bathrooms: bathrooms.optional().describe('Cleaners: halves ok (with bedrooms).'),
  clean_type: cleanType.describe('move_out covers move-in; turnover: between guests. Offers vary (a 400 names them).'),
  sqft: sqft.optional(),
  add_ons: searchAddOns.describe('Extras to price in. Offers vary (a 400 names them).'),
  pets,
  issue: z
    .enum(ALL_ISSUES, `issue must be one of: plumbing: ${ISSUES.plumbing.join(', ')}; hvac: ${ISSUES.hvac.join(', ')}.`)
    .optional()
    .describe("Service calls: the closest issue of the business's trade."),
  details: text('details', 500).optional().describe('Service calls: the problem, in their words.'),
};

export type JobInput = z.output<z.ZodObject<typeof jobFields>>;

export interface PricedJob {
  kind: BookingKind;
  /** Firm total (cleaning) or service-call fee (service call), integer cents. */
  priceCents: number;
  /** Cleaning: the job's length; service call: the arrival window the booking holds. */
  minutes: number;
  lines: { label: string; cents: number }[];
  /** One line an owner reads on their phone, e.g. "Deep clean: 3 bedrooms, 2 bathrooms". */
  summary: string;
  /** The job as stored on a lead, and the booking columns it fills. */
  stored: Record<string, unknown>;
  bookingFields: Partial<Prisma.BookingUncheckedCreateInput>;
}

const CLEAN_LABEL: Record<string, string> = { standard: 'Standard clean', deep: 'Deep clean', move_out: 'Move-out clean', turnover: 'Turnover clean' };

/** Prices a job at a business, or refuses (400) saying what is missing or not offered. */
export function priceJob(business: { kind: BusinessKind; priceList: unknown }, job: JobInput): PricedJob {
  if (business.kind === 'cleaning') {
    if (job.bedrooms === undefined || job.bathrooms === undefined) throw invalid('bedrooms and bathrooms are required to size a cleaning.');
    if (job.issue !== undefined) throw invalid('issue is for plumbing and HVAC service calls; describe a cleaning with bedrooms and bathrooms.');
    const addOns = [...new Set(job.add_ons)];
    const quote = priceAt(business, { bedrooms: job.bedrooms, bathrooms: job.bathrooms, clean_type: job.clean_type, sqft: job.sqft, add_ons: addOns, pets: job.pets });
    if (!quote.ok) throw invalid(quote.reason);
    const stored = { bedrooms: job.bedrooms, bathrooms: job.bathrooms, clean_type: job.clean_type, ...(job.sqft ? { sqft: job.sqft } : {}), add_ons: addOns, pets: job.pets };
    return {
      kind: 'cleaning',
      priceCents: quote.total_cents,
      minutes: quote.duration_minutes,
      lines: quote.lines,
      summary: cleaningSummary(stored),
      stored,
      bookingFields: { bedrooms: job.bedrooms, bathrooms: job.bathrooms, cleanType: job.clean_type, sqft: job.sqft ?? null, addOns, pets: job.pets },
    };
  }
  if (business.kind === 'plumbing' || business.kind === 'hvac') {
    const trade = business.kind;
    if (job.issue === undefined) throw invalid(`issue is required to price a service call; ${trade} issues: ${ISSUES[trade].join(', ')}.`);
    if (!isIssueOf(trade, job.issue)) throw invalid(`"${job.issue}" is not a ${trade} issue; ${trade} issues: ${ISSUES[trade].join(', ')}.`);
    const quote = quoteServiceCall(business.priceList, trade, job.issue);
    if (!quote.ok) throw invalid(quote.reason);
    const stored = { trade, issue: job.issue, ...(job.details ? { details: job.details } : {}) };
    return {
      kind: 'service_call',
      priceCents: quote.fee_cents,
      minutes: quote.window_minutes,
      lines: [{ label: `Service call, ${job.issue.replace(/_/g, ' ')}: visit and diagnosis (repairs are quoted on site)`, cents: quote.fee_cents }],
      summary: serviceCallSummary(stored),
      stored,
      bookingFields: { trade, issue: job.issue, details: job.details ?? null },
    };
  }
  throw invalid(
    'Jobs, quotes and leads are for cleaners, plumbers and HVAC pros; this business has a service menu instead: ' +
      'prices and staff in service_setup or booking_setup, requests in inquiries, the calendar in schedule.',
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function cleaningSummary(j: { bedrooms?: number | null; bathrooms?: number | null; clean_type?: string | null; add_ons?: string[]; pets?: boolean }): string {
  const extras = [...(j.add_ons ?? []), ...(j.pets ? ['pets'] : [])];
  return `${CLEAN_LABEL[j.clean_type ?? 'standard'] ?? 'Cleaning'}: ${plural(j.bedrooms ?? 0, 'bedroom')}, ${plural(j.bathrooms ?? 1, 'bathroom')}${extras.length ? ` (${extras.join(', ')})` : ''}`;
}

export function serviceCallSummary(j: { trade?: string | null; issue?: string | null }): string {
  return `${j.trade === 'hvac' ? 'HVAC' : 'Plumbing'} service call: ${(j.issue ?? 'other').replace(/_/g, ' ')}`;
}

/** The one-line summary of a stored booking's job. */
export function bookingSummary(b: { kind: string; bedrooms: number | null; bathrooms: number | null; cleanType: string | null; addOns: string[]; pets: boolean; trade: string | null; issue: string | null }): string {
  return b.kind === 'cleaning'
    ? cleaningSummary({ bedrooms: b.bedrooms, bathrooms: b.bathrooms, clean_type: b.cleanType, add_ons: b.addOns, pets: b.pets })
    : serviceCallSummary({ trade: b.trade, issue: b.issue });
}
