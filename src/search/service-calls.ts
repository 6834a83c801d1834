import type { z } from 'zod';
import type { Context } from '../context.js';
import { FEE_NOTE, quoteServiceCall, SAFETY } from '../pricing/service-call.js';
import { isoWithOffset, MINUTE, readDate } from '../core/time.js';
import { rankedPage } from './ranked-search.js';
import type { ShownLink } from './catalog.js';
import { searchZips, servedOf } from './service.js';
import { areaZone, whyNobodyServes, whyNoStarts, type Variant } from './nearest.js';
import type { findServiceCallInput } from './inputs.js';

const WINDOWS_SHOWN = 6;

export interface ArrivalWindow {
  start: string;
  end: string;
}

export interface ServiceCallPro {
  proId: string;
  name: string;
  fee: number;
  windowMinutes: number;
  windows: ArrivalWindow[];
  links: ShownLink[];
  jobsConfirmedDone: number;
  textsCustomers: boolean;
  /** A city search's: the city's ZIPs this pro serves (a booking's address must be in one). */
  zips: string[] | null;
}

/** An arrival window of `minutes` from a start instant, in the business's zone. */
export function arrivalWindow(start: number, minutes: number, zone: string): ArrivalWindow {
  return { start: isoWithOffset(start, zone), end: isoWithOffset(start + minutes * MINUTE, zone) };
}

export async function findServiceCallService(input: z.output<typeof findServiceCallInput>, ctx: Context) {
  const zips = searchZips(input);
  const now = ctx.clock.now();
  const zone = areaZone(input);
  const asked = readDate(input.date, zone, now);
  const filters = { ...input, date: asked.date };
  const maxCents = input.max_price === undefined ? undefined : Math.round(input.max_price * 100);
  // An arrival window is a job of window_minutes for the slot engine: offered only when the whole
  // window lies within the pro's hours and is free of bookings and blocks.
  const search = (v: Variant, page: number, size?: number) =>
    rankedPage(
      ctx.search,
      {
        kind: input.trade,
        zips,
        jobKey: `${input.issue}|${v.maxCents ?? ''}`,
        price: (businesses) =>
          businesses.flatMap((business) => {
            const quote = quoteServiceCall(business.priceList, input.trade, input.issue);
            if (!quote.ok || (v.maxCents !== undefined && quote.fee_cents > v.maxCents)) return [];
            return [{ id: business.slug, price: quote.fee_cents, business, quote, minutes: quote.window_minutes }];
          }),
      },
      { now, filters: v.filters, days: v.days, startsShown: WINDOWS_SHOWN, sort: v.sort, page, size },
    );
  const { shown, nextPage, serving } = await search({ maxCents, filters, days: input.days, sort: input.sort }, input.page);
  const trade = input.trade === 'hvac' ? 'HVAC pro' : 'plumber';
  let why: string | null = null;
  if (shown.length === 0) {
    if (serving === 0) why = await whyNobodyServes(ctx, input.trade, input, trade);
    else if (input.page > 1) why = 'No more results: this page is past the last one.';
    else {
      why = await whyNoStarts(
        async (v) => {
          const [best] = (await search(v, 1, 1)).shown;
          return best ? { slug: best.business.slug, name: best.business.name, priceCents: best.quote.fee_cents, start: best.starts[0]!, zone: best.business.timeZone } : null;
        },
        { maxCents, filters, days: input.days, zone: zone ?? 'UTC', now, what: trade, priceWord: 'service-call fee' },
      );
    }
  }
  return {
    pros: shown.map(
      ({ business, quote, starts }): ServiceCallPro => ({
        proId: business.slug,
        name: business.name,
        fee: quote.fee_cents / 100,
        windowMinutes: quote.window_minutes,
        windows: starts.map((s) => arrivalWindow(s, quote.window_minutes, business.timeZone)),
        links: business.links,
        jobsConfirmedDone: business.jobsConfirmedDone,
        textsCustomers: business.textsCustomers,
        zips: servedOf(input, zips, business),
      }),
    ),
    nextPage,
    feeNote: FEE_NOTE,
    safety: SAFETY,
    note: [asked.note, why].filter(Boolean).join(' ') || null,
  };
}
