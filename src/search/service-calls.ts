import type { z } from 'zod';
import type { Context } from '../context.js';
import { FEE_NOTE, quoteServiceCall, SAFETY } from '../pricing/service-call.js';
import { isoWithOffset, MINUTE } from '../core/time.js';
import { rankedPage } from './ranked-search.js';
import { searchZips } from './service.js';
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
  links: { url: string; label: string; rating: number | null }[];
  jobsConfirmedDone: number;
  textsCustomers: boolean;
}

/** An arrival window of `minutes` from a start instant, in the business's zone. */
export function arrivalWindow(start: number, minutes: number, zone: string): ArrivalWindow {
  return { start: isoWithOffset(start, zone), end: isoWithOffset(start + minutes * MINUTE, zone) };
}

export async function findServiceCallService(input: z.output<typeof findServiceCallInput>, ctx: Context) {
  const zips = searchZips(input);
  const maxCents = input.max_price === undefined ? undefined : Math.round(input.max_price * 100);
  // An arrival window is a job of window_minutes for the slot engine: offered only when the whole
  // window lies within the pro's hours and is free of bookings and blocks.
  const { shown, nextPage, serving } = await rankedPage(
    ctx.search,
    {
      kind: input.trade,
      zips,
      jobKey: `${input.issue}|${maxCents ?? ''}`,
      price: (businesses) =>
        businesses.flatMap((business) => {
          const quote = quoteServiceCall(business.priceList, input.trade, input.issue);
          if (!quote.ok || (maxCents !== undefined && quote.fee_cents > maxCents)) return [];
          return [{ id: business.slug, price: quote.fee_cents, business, quote, minutes: quote.window_minutes }];
        }),
    },
    { now: ctx.clock.now(), filters: input, days: input.days, startsShown: WINDOWS_SHOWN, sort: input.sort, page: input.page },
  );
  const trade = input.trade === 'hvac' ? 'HVAC pro' : 'plumber';
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
      }),
    ),
    nextPage,
    feeNote: FEE_NOTE,
    safety: SAFETY,
    note:
      shown.length === 0
        ? serving === 0
          ? `No ${trade} on Porchlight serves this area yet.`
          : `No ${trade} has an open arrival window for this issue in the days searched with these filters; try more days, another date, fewer filters or a higher max_price.`
        : null,
  };
}
