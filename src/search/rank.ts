/**
 * Top-K ranking for searches: the first `count` candidates that have open starts, in the order
 * the customer asked for, evaluating (computing open starts for) as few candidates as possible.
 *
 * - price: cheapest first, ties by first start, then id.
 * - soonest: earliest first start, ties by price, then id.
 *
 * Given a lower bound on each candidate's first start, a candidate's place in that order can be
 * bounded before evaluating it: its key (price, first start, id) is never before (price, bound,
 * id), and likewise for soonest. Candidates are evaluated in order of those lower keys, and
 * evaluation stops once the next lower key comes after the count-th result in hand: nobody
 * unevaluated can still get in. Without bounds every bound is -∞, which for price still stops at
 * the first dearer price.
 *
 * The answer is exactly that of evaluating everyone and sorting (test/unit/rank.test.ts).
 */
export interface Candidate {
  id: string;
  price: number;
}

export interface Ranked<C extends Candidate> {
  candidate: C;
  starts: number[];
}

/** A place in the ranking: the price, a first start (or a lower bound on it) and the id. */
interface Key {
  price: number;
  first: number;
  id: string;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compareKeys(sort: 'price' | 'soonest') {
  return (a: Key, b: Key) =>
    sort === 'price' ? a.price - b.price || a.first - b.first || byId(a.id, b.id) : a.first - b.first || a.price - b.price || byId(a.id, b.id);
}

const keyOf = (r: Ranked<Candidate>): Key => ({ price: r.candidate.price, first: r.starts[0]!, id: r.candidate.id });

export function compareResults(sort: 'price' | 'soonest') {
  const compare = compareKeys(sort);
  return (a: Ranked<Candidate>, b: Ranked<Candidate>) => compare(keyOf(a), keyOf(b));
}

/** A candidate at the earliest place it could take in the ranking (its lower key). */
export type Placed<C extends Candidate> = Key & { c: C };

/**
 * Candidates in order of their lower keys, leaving out those whose bound is +∞ (no open start).
 * It depends on prices and bounds only, so a search may keep it while they stay put.
 */
export function orderByLowerKey<C extends Candidate>(candidates: C[], sort: 'price' | 'soonest', bound?: (c: C) => number): Placed<C>[] {
  const lower: Placed<C>[] = [];
  for (const c of candidates) {
    const first = bound ? bound(c) : Number.NEGATIVE_INFINITY;
    if (first !== Number.POSITIVE_INFINITY) lower.push({ price: c.price, first, id: c.id, c });
  }
  return lower.sort(compareKeys(sort));
}

/** The top `count` of candidates already in lower-key order, evaluating as few as possible. */
export function rankOrdered<C extends Candidate>(ordered: Placed<C>[], sort: 'price' | 'soonest', count: number, evaluate: (c: C) => number[]): Ranked<C>[] {
  const compare = compareKeys(sort);
  // The best `count` so far, in order, with their keys.
  const best: Array<{ key: Key; result: Ranked<C> }> = [];
  for (const next of ordered) {
    if (best.length >= count && compare(next, best[count - 1]!.key) > 0) break;
    const starts = evaluate(next.c);
    if (!starts.length) continue;
    const key = { price: next.price, first: starts[0]!, id: next.id };
    // Binary search for its place; the list never grows past `count`.
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(best[mid]!.key, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo >= count) continue;
    best.splice(lo, 0, { key, result: { candidate: next.c, starts } });
    if (best.length > count) best.pop();
  }
  return best.map((b) => b.result);
}

export function rank<C extends Candidate>(
  candidates: C[],
  sort: 'price' | 'soonest',
  count: number,
  evaluate: (c: C) => number[],
  bound?: (c: C) => number,
): Ranked<C>[] {
  return rankOrdered(orderByLowerKey(candidates, sort, bound), sort, count, evaluate);
}
