import type { z } from 'zod';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import { businessBySlug } from '../search/snapshot.js';
import { priceAt } from '../pricing/quote.js';
import { querySpan, SERIES_DAYS, slotQuery, wholeSeriesFree } from './schedule.js';
import { openStarts } from '../core/slots.js';
import { isoWithOffset, readDate } from '../core/time.js';
import type { availableTimesInput } from './inputs.js';

export async function availableTimesService(input: z.output<typeof availableTimesInput>, ctx: Context) {
  const business = await businessBySlug(ctx.search, input.pro_id, ['cleaning']);
  const quote = priceAt(business, { ...input, add_ons: input.add_ons });
  if (!quote.ok) throw invalid(quote.reason);
  const now = ctx.clock.now();
  const recurring = input.frequency !== 'once';
  const asked = readDate(input.date, business.timeZone, now);
  const span = querySpan(now, asked.date, recurring ? SERIES_DAYS : input.days);
  const busy = (await ctx.search.busyOf([business.id], span.from, span.to)).get(business.id)!;
  const q = slotQuery(business, busy, quote.duration_minutes, now, { ...input, date: asked.date }, input.days);
  let starts = openStarts(q);
  // A series start is only useful when every visit of the series is free too.
  if (recurring) starts = starts.filter((first) => wholeSeriesFree(q, first, input.frequency));
  return {
    proId: business.slug,
    price: quote.total_cents / 100,
    durationMinutes: quote.duration_minutes,
    starts: starts.map((s) => isoWithOffset(s, business.timeZone)),
    customerNotes: business.customerNotes.trim() || null,
    note: asked.note,
  };
}
