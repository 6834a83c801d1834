/**
 * A cleaner's knowledge page against its real quotes: "$99 for 2 bedrooms" while a standard clean
 * of 2 bedrooms and 1 bathroom is quoted $160 is a price conflict, stated with the quote it
 * contradicts. Pure: the page is data to search, never instructions to follow.
 */
import { homePriceStatements } from '../core/home-size-prices.js';
import { cleaningPriceListSchema } from '../pricing/engine.js';
import { priceAt } from '../pricing/quote.js';
import type { PriceConflict } from './price-mentions.js';

/** With no bathrooms stated, the fewest a home can have (bathrooms are 1-10). */
export const ASSUMED_BATHROOMS = 1;

/**
 * Home prices the text states (bedrooms, bathrooms, size, clean type) that the business's quote
 * for that home disagrees with: another amount, or a "from" amount below it. The conflict names
 * the home as quoted ("Standard clean: 2 bedrooms, 1 bathroom") and says what was assumed. A
 * business without a cleaning price list has none; a clean type it doesn't offer is not checked.
 */
export function homePriceConflicts(text: string, priceList: unknown): PriceConflict[] {
  if (!cleaningPriceListSchema.safeParse(priceList).success) return [];
  const seen = new Set<string>();
  const out: PriceConflict[] = [];
  for (const s of homePriceStatements(text)) {
    const quote = priceAt({ priceList }, {
      bedrooms: s.bedrooms,
      bathrooms: s.bathrooms ?? ASSUMED_BATHROOMS,
      clean_type: s.cleanType,
      ...(s.sqft === null ? {} : { sqft: s.sqft }),
      add_ons: [],
      pets: false,
    });
    if (!quote.ok) continue;
    const total = quote.total_cents;
    if (s.atLeast ? s.cents >= total : s.cents === total) continue;
    const size = s.sqft === null ? '' : `, ${s.sqft.toLocaleString('en-US')} sq ft`;
    const assumed = s.bathrooms === null ? ` (no bathrooms stated: ${ASSUMED_BATHROOMS} assumed, the fewest)` : '';
    const service = `${quote.lines[0]!.label}${size}${assumed}`;
    const key = JSON.stringify([service, s.cents, s.sentence]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ service, cents: s.cents, sentence: s.sentence, priceKind: 'fixed', structuredCents: total });
  }
  return out;
}
