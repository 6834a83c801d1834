import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareResults, rank, type Candidate } from '../../src/search/rank.js';

interface C extends Candidate {
  starts: number[];
  /** How much earlier than its first start the bound claims (a bound is never later). */
  slack: number;
}

/** The reference: evaluate everyone, sort, keep those with starts, take `count`. */
function naive(candidates: C[], sort: 'price' | 'soonest', count: number) {
  return candidates
    .filter((c) => c.starts.length > 0)
    .map((c) => ({ candidate: c, starts: c.starts }))
    .sort(compareResults(sort))
    .slice(0, count);
}

const candidate = fc.record({
  id: fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/),
  price: fc.integer({ min: 1, max: 8 }).map((n) => n * 1000),
  starts: fc.array(fc.integer({ min: 0, max: 40 }).map((n) => n * 1_800_000), { maxLength: 4 }).map((s) => [...new Set(s)].sort((a, b) => a - b)),
  slack: fc.integer({ min: 0, max: 10 }).map((n) => n * 1_800_000),
});
const catalog = fc.uniqueArray(candidate, { selector: (c) => c.id, maxLength: 40 });

describe('rank', () => {
  it('gives exactly the naive answer, for both sorts and any page size, evaluating no more than everyone', () => {
    fc.assert(
      fc.property(catalog, fc.constantFrom('price' as const, 'soonest' as const), fc.integer({ min: 1, max: 25 }), fc.boolean(), (cs, sort, count, withBound) => {
        let evaluated = 0;
        const got = rank(
          cs,
          sort,
          count,
          (c) => (evaluated++, c.starts),
          withBound ? (c) => (c.starts.length ? c.starts[0]! - c.slack : Number.POSITIVE_INFINITY) : undefined,
        );
        expect(got.map((r) => r.candidate.id)).toEqual(naive(cs, sort, count).map((r) => r.candidate.id));
        expect(evaluated).toBeLessThanOrEqual(cs.length);
      }),
      { numRuns: 500 },
    );
  });

  it('evaluates only what the page needs when bounds are tight', () => {
    const cs: C[] = Array.from({ length: 200 }, (_, i) => ({ id: `c${String(i).padStart(3, '0')}`, price: 1000, starts: [i * 1_800_000], slack: 0 }));
    let evaluated = 0;
    const got = rank(cs, 'soonest', 21, (c) => (evaluated++, c.starts), (c) => c.starts[0]!);
    expect(got).toHaveLength(21);
    expect(evaluated).toBeLessThanOrEqual(22);
  });

  it('by price, looks at no dearer price once the page is full', () => {
    const cs: C[] = Array.from({ length: 100 }, (_, i) => ({ id: `c${String(i).padStart(3, '0')}`, price: 1000 + i, starts: [0], slack: 0 }));
    let evaluated = 0;
    rank(cs, 'price', 21, (c) => (evaluated++, c.starts));
    expect(evaluated).toBe(21);
  });

  it('stops inside a tie: many businesses with the same price and first start cost a page, not the whole tie', () => {
    // A hundred copies of each of six businesses, as a catalog cloned ×100 has.
    const cs: C[] = Array.from({ length: 600 }, (_, i) => ({ id: `b${i % 6}-x${String(i).padStart(3, '0')}`, price: 1000 + (i % 6) * 10, starts: [(i % 6) * 1_800_000, 9e9], slack: 0 }));
    for (const sort of ['soonest', 'price'] as const) {
      let evaluated = 0;
      const got = rank(cs, sort, 21, (c) => (evaluated++, c.starts), (c) => c.starts[0]!);
      expect(got.map((r) => r.candidate.id)).toEqual(naive(cs, sort, 21).map((r) => r.candidate.id));
      expect(evaluated).toBeLessThanOrEqual(22);
    }
  });
});
