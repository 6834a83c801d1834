/**
 * Prices a knowledge page states for named services, and where they disagree with the business's
 * structured prices. Pure: the page is data to search, never instructions to follow.
 *
 * A mention is a money amount written as money ("$30", "$1,250.00", "US$30", "30 dollars",
 * "USD 30") near a service's name in the same sentence, with no other amount between them. Bare
 * numbers are never prices, so phone numbers, dates, ZIP codes, times, durations and percentages
 * cannot be mistaken for one. Amounts that are not the service's price are left out: ranges
 * ("$30-40"), discounts and deposits ("$10 off", "a $20 deposit"), add-on deltas ("+$15") and
 * hourly rates (src/core/money-mentions.ts).
 */
import { amounts, sentences, SENTENCE_MAX } from '../core/money-mentions.js';

export interface PriceMention {
  /** The service's name as the structured list spells it. */
  service: string;
  cents: number;
  /** The sentence it was stated in, trimmed. */
  sentence: string;
}

export type PriceKind = 'fixed' | 'from' | 'confirm';

export interface StructuredPrice {
  service: string;
  priceKind: PriceKind;
  /** Null exactly for confirm (staff price it). */
  priceCents: number | null;
}

export interface PriceConflict extends PriceMention {
  priceKind: PriceKind;
  structuredCents: number | null;
}

/** How far (characters) a name and its amount may be apart. */
const NEAR = 40;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name as a pattern: any apostrophe, any run of spaces, hyphens or underscores between words. */
function namePattern(name: string): RegExp | null {
  const words = name
    .trim()
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => escape(w).replace(/['’]/g, "['’]?"));
  if (!words.length) return null;
  return new RegExp(`(?<![\\p{L}\\p{N}])${words.join('[\\s_-]+')}(?![\\p{L}\\p{N}])`, 'giu');
}

/** Where each name occurs in a sentence; a name inside a longer one's occurrence ("cut" in "Men's cut") does not count. */
function occurrences(sentence: string, patterns: { name: string; re: RegExp }[]): { name: string; start: number; end: number }[] {
  const all: { name: string; start: number; end: number }[] = [];
  for (const { name, re } of patterns) {
    for (const m of sentence.matchAll(re)) all.push({ name, start: m.index, end: m.index + m[0].length });
  }
  all.sort((a, b) => b.end - b.start - (a.end - a.start));
  const kept: typeof all = [];
  for (const o of all) if (!kept.some((k) => o.start < k.end && k.start < o.end)) kept.push(o);
  return kept;
}

/** The prices `text` states for the named services, in the order they appear. */
export function priceMentions(text: string, services: string[]): PriceMention[] {
  const patterns = [...new Set(services)].flatMap((name) => {
    const re = namePattern(name);
    return re ? [{ name, re }] : [];
  });
  const out: PriceMention[] = [];
  for (const s of sentences(text)) {
    const found = amounts(s.text);
    if (!found.some((a) => a.price)) continue;
    const named = occurrences(s.text, patterns);
    if (!named.length) continue;
    const quoted = s.text.trim().replace(/\s+/g, ' ').slice(0, SENTENCE_MAX);
    for (const a of found) {
      if (!a.price) continue;
      let best: { name: string; gap: number } | null = null;
      for (const n of named) {
        const [from, to] = n.end <= a.start ? [n.end, a.start] : [a.end, n.start];
        if (to < from) continue;
        const gap = to - from;
        // Another amount between them belongs to something else.
        if (gap > NEAR || found.some((o) => o !== a && o.start >= from && o.end <= to)) continue;
        // Nearest wins; on a tie, the name before the amount ("Cut $30, colour $80").
        if (!best || gap < best.gap || (gap === best.gap && n.end <= a.start)) best = { name: n.name, gap };
      }
      if (best) out.push({ service: best.name, cents: a.cents, sentence: quoted });
    }
  }
  return out;
}

/**
 * Mentions that disagree with the structured price: another amount than a fixed price, less than
 * a "from" price, or any amount for a service staff price themselves. Each (service, amount,
 * sentence) once.
 */
export function priceConflicts(text: string, prices: StructuredPrice[]): PriceConflict[] {
  const byName = new Map<string, StructuredPrice>();
  for (const p of prices) if (!byName.has(p.service)) byName.set(p.service, p);
  const seen = new Set<string>();
  const out: PriceConflict[] = [];
  for (const m of priceMentions(text, [...byName.keys()])) {
    const p = byName.get(m.service)!;
    const disagrees = p.priceKind === 'confirm' || p.priceCents === null ? true : p.priceKind === 'from' ? m.cents < p.priceCents : m.cents !== p.priceCents;
    const key = JSON.stringify([m.service, m.cents, m.sentence]);
    if (!disagrees || seen.has(key)) continue;
    seen.add(key);
    out.push({ ...m, priceKind: p.priceKind, structuredCents: p.priceCents });
  }
  return out;
}
