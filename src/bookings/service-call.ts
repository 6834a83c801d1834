import type { z } from 'zod';
import type { Context } from '../context.js';
import { AppError, invalid } from '../errors.js';
import { businessBySlug } from '../search/snapshot.js';
import { arrivalWindow } from '../search/service-calls.js';
import { FEE_NOTE, quoteServiceCall, SAFETY } from '../pricing/service-call.js';
import { parseStart } from '../core/time.js';
import { book } from './book.js';
import type { bookServiceCallInput } from './inputs.js';

export async function bookServiceCallService(input: z.output<typeof bookServiceCallInput>, ctx: Context) {
  const business = await businessBySlug(ctx.search, input.pro_id, ['plumbing', 'hvac']);
  if (business.kind !== input.trade) {
    throw invalid(`${business.name} is a${business.kind === 'hvac' ? 'n hvac' : ' plumbing'} pro, not ${input.trade}; pass trade ${business.kind}, or pick a pro from find_service_call.`);
  }
  const quote = quoteServiceCall(business.priceList, input.trade, input.issue);
  if (!quote.ok) throw invalid(quote.reason);
  const fee = quote.fee_cents / 100;
  if (input.price !== undefined && Math.round(input.price * 100) !== quote.fee_cents) {
    throw new AppError('price_changed', `The service-call fee is now $${fee}, not $${input.price}. Show the user the new fee and book again with it.`, { fee });
  }
  const start = parseStart(input.start);
  if (start === null) throw invalid('start must be the start of an arrival window from find_service_call, e.g. 2026-12-01T09:00:00-06:00.');
  const window = arrivalWindow(start, quote.window_minutes, business.timeZone);
  const job = `${input.trade === 'hvac' ? 'HVAC' : 'plumbing'} service call`;
  // The visit holds the whole arrival window, so the exclusion constraint keeps windows apart.
  const booked = await book(ctx, {
    business,
    kind: 'service_call',
    input,
    starts: [start],
    durationMinutes: quote.window_minutes,
    priceCents: quote.fee_cents,
    fields: { trade: input.trade, issue: input.issue, details: input.details ?? null },
    search: 'find_service_call',
    searchFor: 'pros',
    serviceCall: { job, issue: input.issue, windowEnd: window.end, feeNote: FEE_NOTE, safety: SAFETY },
  });
  return {
    bookingId: booked.bookingId,
    status: 'pending' as const,
    manageToken: booked.manageToken,
    manageUrl: booked.manageUrl,
    holdUntil: booked.holdUntil,
    fee,
    feeNote: FEE_NOTE,
    window,
    trade: input.trade,
    issue: input.issue,
    safety: SAFETY,
    next:
      `Pending, not booked yet: a ${job} with ${business.name}, arriving between ${window.start} and ${window.end}; the service-call fee is $${fee} ` +
      `for the visit and diagnosis only, and any repair is quoted on site before work starts. ${booked.nextTail}`,
  };
}
