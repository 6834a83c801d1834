/**
 * Top-K ranking for searches: the first `count` candidates that have open starts, in the order
 * the customer asked for, evaluating (computing open starts for) as few candidates as possible.
 *
 * - price: cheapest first, ties by first start, then id. Candidates are evaluated one price at a
 *   time, and no dearer price is looked at once `count` results are in hand.
 * - soonest: earliest first start, ties by price, then id. Given a lower bound on each
 *   candidate's first start, candidates are evaluated in bound order until the next bound is
 *   later than the count-th result's first start: nobody unevaluated can still get in.
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

const byId = (a: Candidate, b: Candidate) => a.id.localeCompare(b.id);
const first = (r: Ranked<Candidate>) => r.starts[0]!;

export function compareResults(sort: 'price' | 'soonest') {
  return (a: Ranked<Candidate>, b: Ranked<Candidate>) =>
    sort === 'price'
      ? a.candidate.price - b.candidate.price || first(a) - first(b) || byId(a.candidate, b.candidate)
      : first(a) - first(b) || a.candidate.price - b.candidate.price || byId(a.candidate, b.candidate);
}

export function rank<C extends Candidate>(
  candidates: C[],
  sort: 'price' | 'soonest',
  count: number,
  evaluate: (c: C) => number[],
  bound?: (c: C) => number,
): Ranked<C>[] {
  const results: Ranked<C>[] = [];
  const consider = (c: C) => {
    const starts = evaluate(c);
    if (starts.length) results.push({ candidate: c, starts });
  };
  const order = compareResults(sort);
  if (sort === 'price') {
    const sorted = [...candidates].sort((a, b) => a.price - b.price || byId(a, b));
    for (let i = 0; i < sorted.length && results.length < count; ) {
      const price = sorted[i]!.price;
      for (; i < sorted.length && sorted[i]!.price === price; i++) consider(sorted[i]!);
    }
  } else if (bound) {
    const bounded = candidates.map((c) => ({ c, bound: bound(c) })).filter((b) => Number.isFinite(b.bound));
    bounded.sort((a, b) => a.bound - b.bound || a.c.price - b.c.price || byId(a.c, b.c));
    for (const { c, bound: lower } of bounded) {
      if (results.length >= count) {
        results.sort(order);
        if (lower > first(results[count - 1]!)) break;
      }
      consider(c);
    }
  } else {
    for (const c of candidates) consider(c);
  }
  return results.sort(order).slice(0, count);
}
