/**
 * Prices a knowledge page states for a home of a size (bedrooms, bathrooms, square feet, clean
 * type): each home with its own price, never a per-room price, a range of rooms, a fee or a phone
 * number.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { homePriceStatements } from '../../src/core/home-size-prices.js';

type Row = [bedrooms: number, bathrooms: number | null, cents: number, cleanType?: string, sqft?: number | null, atLeast?: boolean];
const read = (text: string): Row[] =>
  homePriceStatements(text).map((s) => {
    const row: Row = [s.bedrooms, s.bathrooms, s.cents];
    if (s.cleanType !== 'standard' || s.sqft !== null || s.atLeast) row.push(s.cleanType);
    if (s.sqft !== null || s.atLeast) row.push(s.sqft);
    if (s.atLeast) row.push(true);
    return row;
  });

describe('homePriceStatements', () => {
  it.each<[string, Row[]]>([
    ['$99 for 2 bedrooms', [[2, null, 9900]]],
    ['2 bedrooms for $99', [[2, null, 9900]]],
    ['2 bedrooms: $99.', [[2, null, 9900]]],
    ['$99 for a 2-bed', [[2, null, 9900]]],
    ['Two-bedroom apartment $99', [[2, null, 9900]]],
    ['two bedroom apartments just $99!', [[2, null, 9900]]],
    ['3br/2ba $200', [[3, 2, 20000]]],
    ['3BR / 2BA: $200', [[3, 2, 20000]]],
    ['2 bed, 1 bath - $150', [[2, 1, 15000]]],
    ['2 bedrooms and 2 bathrooms cost $180', [[2, 2, 18000]]],
    ['A 3 bedroom 2.5 bath home is $240', [[3, 2.5, 24000]]],
    ['3 bedrooms with 2 and a half baths: $240', [[3, 2.5, 24000]]],
    ['1bd 1ba $120', [[1, 1, 12000]]],
    ['A two-bedroom apartment, two baths: $180.', [[2, 2, 18000]]],
    ['2 bedroom condo with 1 bath $140', [[2, 1, 14000]]],
    ['Studio apartments: $79', [[0, null, 7900]]],
    ['2 bedrooms $99, 3 bedrooms $129', [[2, null, 9900], [3, null, 12900]]],
    ['$99 for 2 bedrooms, $129 for 3 bedrooms.', [[2, null, 9900], [3, null, 12900]]],
    ['1 bedroom $89 / 2 bedroom $99 / 3 bedroom $129', [[1, null, 8900], [2, null, 9900], [3, null, 12900]]],
    ['Deep clean, 2 bedrooms: $199', [[2, null, 19900, 'deep']]],
    ['Move-out cleaning for a 2-bedroom: $250', [[2, null, 25000, 'move_out']]],
    ['Standard clean 2 bedrooms $99; deep clean 2 bedrooms $149', [[2, null, 9900], [2, null, 14900, 'deep']]],
    ['2 bedroom, 1,200 sq ft home: $160', [[2, null, 16000, 'standard', 1200]]],
    ['2 bedrooms from $99', [[2, null, 9900, 'standard', null, true]]],
    ['Our 2 bedroom cleans start at $99', [[2, null, 9900, 'standard', null, true]]],
    ['2 bedrooms for 99 dollars', [[2, null, 9900]]],
  ])('%j', (text, want) => {
    expect(read(text)).toEqual(want);
  });

  it.each([
    '$20 per additional bedroom',
    '$15 for each extra bathroom',
    'Add $20 per bedroom',
    '2-3 bedrooms $150',
    '4+ bedrooms $300',
    'Up to 3 bedrooms for $150',
    'Homes over 3 bedrooms: $250',
    'A $25 fee for pets; 2 bedrooms are priced on request',
    '2 bedrooms? Call 512-555-0199',
    'We clean 2 bedrooms in about 2 hours',
    '2 bedrooms, 10% off this week',
    'Haircut $30',
    'Bathroom deep clean $40',
    '$50 deposit for 2 bedrooms',
    'A 2 bedroom home. Our price is $99.',
  ])('no home price in %j', (text) => {
    expect(read(text)).toEqual([]);
  });

  it('quotes the sentence and the home as written', () => {
    const page = 'Welcome! We clean homes all over Austin.\nOur 3br/2ba deep clean is $200. Call us at (512) 555-0100.';
    expect(homePriceStatements(page)).toEqual([
      { bedrooms: 3, bathrooms: 2, sqft: null, cleanType: 'deep', cents: 20000, atLeast: false, home: '3br/2ba', sentence: 'Our 3br/2ba deep clean is $200.' },
    ]);
  });

  it('never throws, and every statement is a whole number of bedrooms with money', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        for (const s of homePriceStatements(text)) {
          expect(Number.isInteger(s.bedrooms)).toBe(true);
          expect(Number.isSafeInteger(s.cents)).toBe(true);
          expect(text.replace(/\s+/g, ' ')).toContain(s.home.replace(/\s+/g, ' '));
        }
      }),
    );
  });
});
