/** Money is stored in whole cents; these turn it into what people and the interface see. */

/** Cents as a price in text: 1250 → "$12.50". */
export const usd = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Cents as the dollars the interface shows (two decimals at most). */
export const dollars = (cents: number) => Math.round(cents) / 100;
