/**
 * Prices a knowledge page states for named services, and where they disagree with the business's
 * structured prices. Pure: the page is data to search, never instructions to follow.
 *
 * A mention is a money amount written as money ("$30", "$1,250.00", "US$30", "30 dollars",
 * "USD 30") near a service's name in the same sentence, with no other amount between them. Bare
 * numbers are never prices, so phone numbers, dates, ZIP codes, times, durations and percentages
 * cannot be mistaken for one. Amounts that are not the service's price are left out: ranges
 * ("$30-40"), discounts and deposits ("$10 off", "a $20 deposit"), add-on deltas ("+$15") and
 * hourly rates.
 */

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
const SENTENCE_MAX = 300;

const AMOUNT = /(?:US\$|\$|\bUSD\s?)\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?(?!\.?\d)|\b(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?\s?(?:dollars?|bucks|USD)\b/gi;
/** Words right after an amount that make it something other than the service's price. */
const NOT_A_PRICE_AFTER = /^\s*(?:%|off\b|discount\b|deposit\b|surcharge\b|extra\b|more\b|less\b|credit\b|gift\b|tip\b|k\b|\/\s*h(?:ou)?r|per\s+hour\b|an\s+hour\b|hourly\b|a\s+month\b|per\s+month\b|\/\s*mo)/i;
/** Words right before an amount that do the same. */
const NOT_A_PRICE_BEFORE = /(?:\+|\bsave\s+(?:up\s+to\s+)?|\boff\s+|\bdeposit\s+(?:of\s+)?|\bdiscount\s+(?:of\s+)?|\bsurcharge\s+(?:of\s+)?|\btip\s+(?:of\s+)?|\bextra\s+|\badd\s+|\bplus\s+|\bover\s+|\bunder\s+|\bup\s+to\s+|\bcredit\s+(?:of\s+)?)$/i;
const RANGE_AFTER = /^\s*(?:-|–|—|to|or)\s*(?:US\$|\$)?\s?\d/i;
const RANGE_BEFORE = /(?:\d\s*(?:-|–|—|to|or)|\bbetween)\s*(?:US\$|\$)?\s?$/i;

interface Amount {
  start: number;
  end: number;
  cents: number;
  price: boolean;
}

/** Sentences: split at line breaks and at . ! ? followed by a space (so "$30.00" and dot leaders stay whole). */
function sentences(text: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  const re = /[^\n.!?]*(?:(?:\.{2,}|[.!?](?=\S))[^\n.!?]*)*(?:[.!?]+|\n|$)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === '') {
      re.lastIndex++;
      continue;
    }
    if (m[0].trim()) out.push({ text: m[0], at: m.index });
  }
  return out;
}

function amounts(sentence: string): Amount[] {
  const found: Amount[] = [];
  for (const m of sentence.matchAll(AMOUNT)) {
    const whole = (m[1] ?? m[3])!.replace(/,/g, '');
    const cents = Number(whole) * 100 + Number(m[2] ?? m[4] ?? 0);
    const start = m.index;
    const end = start + m[0].length;
    const before = sentence.slice(Math.max(0, start - 30), start);
    const after = sentence.slice(end, end + 30);
    const price = Number.isSafeInteger(cents) && !NOT_A_PRICE_AFTER.test(after) && !NOT_A_PRICE_BEFORE.test(before) && !RANGE_AFTER.test(after) && !RANGE_BEFORE.test(before);
    found.push({ start, end, cents, price });
  }
  return found;
}

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
