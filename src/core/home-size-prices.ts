/**
 * Prices a text states for a home of a size: "2 bedrooms for $99", "$99 for a 2-bed",
 * "two-bedroom apartment $99", "3br/2ba deep clean $200", "studio $79", "up to 1,000 sq ft:
 * $120". What a cleaner's knowledge page promises, to be checked against its real quote for that
 * home. Pure: the text is data to search, never instructions to follow.
 *
 * A statement pairs a home (its bedrooms, and bathrooms or square feet when stated) with an amount
 * written as money (src/core/money-mentions.ts) next to it in the same sentence. Per-room prices
 * ("$20 per additional bedroom"), ranges of rooms ("2-3 bedrooms"), open sizes ("4+ bedrooms",
 * "up to 3 bedrooms") and homes with no bedroom count are left out: no one quote is theirs.
 */
import { amounts, sentences, SENTENCE_MAX, type Amount } from './money-mentions.js';

export type StatedCleanType = 'standard' | 'deep' | 'move_out' | 'turnover';

export interface HomePriceStatement {
  bedrooms: number;
  /** Null: not stated. */
  bathrooms: number | null;
  /** Null: not stated. */
  sqft: number | null;
  /** As stated near the home, else the sentence's only one, else standard. */
  cleanType: StatedCleanType;
  cents: number;
  /** "from $99", "starting at $99": a lower bound, not the price. */
  atLeast: boolean;
  /** The home as written ("3br/2ba"). */
  home: string;
  /** The sentence, trimmed. */
  sentence: string;
}

/** How far (characters) a home and its amount may be apart. */
const NEAR = 40;
/** Bedroom, bathroom and size mentions this close together describe one home ("2 bed, 1 bath"). */
const JOIN = 24;

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, a: 1, an: 1, single: 1 };
const NUM = String.raw`(\d{1,2}(?:\.5)?|one|two|three|four|five|six|seven|eight|nine|ten)`;
const HALF = String.raw`(?:\s*(?:and\s+a\s+half|½|1\/2))?`;
/** A count can't be one end of a range or open ("2-3", "4+", "up to 3", "over 2", "or more"). */
const NOT_BEFORE = String.raw`(?<![\d.]\s*(?:-|–|—|to|or)\s*)(?<!(?:up\s+to|over|under|more\s+than|less\s+than|at\s+least|max(?:imum)?|min(?:imum)?)\s+)(?<![\p{L}\p{N}.])`;
const NOT_AFTER = String.raw`(?!\s*(?:\+|-\s*\d|–|—|to\s+\d|or\s+(?:more|fewer|less|\d)))`;

const BEDROOMS = new RegExp(String.raw`${NOT_BEFORE}${NUM}${HALF}${NOT_AFTER}\s*[-‑]?\s*(?:bed(?:room)?s?|bdrms?|brs?|bds?)(?![\p{L}])`, 'giu');
const BATHROOMS = new RegExp(String.raw`${NOT_BEFORE}${NUM}${HALF}${NOT_AFTER}\s*[-‑]?\s*(?:bath(?:room)?s?|ba|bths?)(?![\p{L}])`, 'giu');
const STUDIO = /(?<![\p{L}])studios?(?![\p{L}])/giu;
const SQFT = new RegExp(String.raw`(?<!(?:over|above|more\s+than|under|below|less\s+than|-|–|to)\s*)(?<![\d,.])(\d{1,3}(?:,\d{3})+|\d{3,6})${NOT_AFTER}\s*(?:sq\.?\s*(?:ft|feet)\.?|square\s+f(?:ee|oo)t|sqft|sf)(?![\p{L}])`, 'giu');

const CLEAN_TYPES: [StatedCleanType, RegExp][] = [
  ['deep', /\bdeep(?:[-\s]+clean(?:ing|s)?)?\b/gi],
  ['move_out', /\bmov(?:e|ing)[-\s]*(?:out|in)\b/gi],
  ['turnover', /\b(?:turnover|turn-over|airbnb|vacation\s+rental)\b/gi],
  ['standard', /\b(?:standard|regular|basic|routine|maintenance)\b/gi],
];

/** After an amount: a price per room or per size, not a home's. */
const PER_UNIT_AFTER = /^\s*(?:per|each|every|for\s+each|for\s+every|a|an)\s+(?:additional\s+|extra\s+|added\s+|more\s+)?(?:bed|bath|room|sq|square|100|half)/i;
/** Before an amount: a lower bound. */
const AT_LEAST_BEFORE = /(?:\bfrom|\bstart(?:s|ing)?\s+(?:at|from)|\bat\s+least|\bminimum(?:\s+of)?|\bmin\.?)\s*:?\s*$/i;

/** What may stand between the parts of one home: punctuation, "and", "with", what the home is. */
const JOINING = /^[\s,/&+|()-]*(?:(?:and|with|plus|apartments?|apts?|homes?|houses?|condos?|units?|townhomes?|townhouses?|flats?)[\s,/&+|()-]*)*$/i;

const count = (word: string, half: boolean) => (NUMBER_WORDS[word.toLowerCase()] ?? Number(word)) + (half ? 0.5 : 0);

interface Part {
  start: number;
  end: number;
  bedrooms?: number;
  bathrooms?: number;
  sqft?: number;
}

interface Home {
  start: number;
  end: number;
  bedrooms: number | null;
  bathrooms: number | null;
  sqft: number | null;
}

function parts(sentence: string): Part[] {
  const out: Part[] = [];
  for (const m of sentence.matchAll(BEDROOMS)) {
    const n = count(m[1]!, /half|½|1\/2/i.test(m[0]));
    if (Number.isInteger(n)) out.push({ start: m.index, end: m.index + m[0].length, bedrooms: n });
  }
  for (const m of sentence.matchAll(BATHROOMS)) out.push({ start: m.index, end: m.index + m[0].length, bathrooms: count(m[1]!, /half|½|1\/2/i.test(m[0])) });
  for (const m of sentence.matchAll(STUDIO)) out.push({ start: m.index, end: m.index + m[0].length, bedrooms: 0 });
  for (const m of sentence.matchAll(SQFT)) out.push({ start: m.index, end: m.index + m[0].length, sqft: Number(m[1]!.replace(/,/g, '')) });
  // "3 bedrooms" inside "3 bedroom 2 bath" can't also be a bathroom; overlapping matches: the first wins.
  out.sort((a, b) => a.start - b.start || b.end - a.end);
  return out.filter((p, i) => !out.slice(0, i).some((q) => p.start < q.end && q.start < p.end));
}

/** Parts close together, with nothing but joining words between them, are one home. */
function homes(sentence: string): Home[] {
  const out: Home[] = [];
  for (const p of parts(sentence)) {
    const last = out[out.length - 1];
    const between = last ? sentence.slice(last.end, p.start) : '';
    const joins = last && between.length <= JOIN && JOINING.test(between);
    const free = (k: 'bedrooms' | 'bathrooms' | 'sqft') => last && (p[k] === undefined || last[k] === null);
    if (last && joins && free('bedrooms') && free('bathrooms') && free('sqft')) {
      last.end = p.end;
      if (p.bedrooms !== undefined) last.bedrooms = p.bedrooms;
      if (p.bathrooms !== undefined) last.bathrooms = p.bathrooms;
      if (p.sqft !== undefined) last.sqft = p.sqft;
    } else out.push({ start: p.start, end: p.end, bedrooms: p.bedrooms ?? null, bathrooms: p.bathrooms ?? null, sqft: p.sqft ?? null });
  }
  return out;
}

function cleanTypes(sentence: string): { type: StatedCleanType; start: number; end: number }[] {
  const out: { type: StatedCleanType; start: number; end: number }[] = [];
  for (const [type, re] of CLEAN_TYPES) for (const m of sentence.matchAll(re)) out.push({ type, start: m.index, end: m.index + m[0].length });
  return out;
}

/**
 * The clean type said with the home and its amount: inside their span, else the nearest before
 * it, else the nearest after it (within NEAR, never across a semicolon); else the sentence's only
 * one; else standard.
 */
function cleanTypeOf(sentence: string, types: ReturnType<typeof cleanTypes>, from: number, to: number): StatedCleanType {
  let best: { type: StatedCleanType; score: number } | null = null;
  for (const t of types) {
    const before = t.end <= from;
    const after = t.start >= to;
    const gap = before ? from - t.end : after ? t.start - to : 0;
    if (gap > NEAR || (before ? sentence.slice(t.end, from) : after ? sentence.slice(to, t.start) : '').includes(';')) continue;
    const score = gap + (after ? NEAR + 1 : 0);
    if (!best || score < best.score) best = { type: t.type, score };
  }
  if (best) return best.type;
  const distinct = new Set(types.map((t) => t.type));
  return distinct.size === 1 ? [...distinct][0]! : 'standard';
}

/**
 * The home prices `text` states, in order. In a sentence, a home and an amount next to each other
 * (no other home or amount between, at most NEAR apart, no semicolon between) are a statement;
 * when an amount could go with the home before it or the one after it, the pair with no comma
 * between wins, then the closer: "2 bedrooms $99, 3 bedrooms $129" and "$99 for 2 bedrooms, $129
 * for 3 bedrooms" both pair each home with its own price.
 */
export function homePriceStatements(text: string): HomePriceStatement[] {
  const out: (HomePriceStatement & { at: number })[] = [];
  for (const s of sentences(text)) {
    const all = amounts(s.text);
    const found = all.filter((a) => a.price && !PER_UNIT_AFTER.test(s.text.slice(a.end, a.end + 40)));
    if (!found.length) continue;
    const hs = homes(s.text);
    if (!hs.length) continue;
    const types = cleanTypes(s.text);
    const quoted = s.text.trim().replace(/\s+/g, ' ').slice(0, SENTENCE_MAX);
    // Every amount, even one that is no price, keeps a home from pairing across it.
    const items: { at: number; home?: Home; amount?: Amount }[] = [...hs.map((h) => ({ at: h.start, home: h })), ...all.map((a) => ({ at: a.start, amount: a }))];
    items.sort((x, y) => x.at - y.at);
    const pairs: { home: Home; amount: Amount; score: number }[] = [];
    for (let i = 0; i + 1 < items.length; i++) {
      const [x, y] = [items[i]!, items[i + 1]!];
      const home = x.home ?? y.home;
      const amount = x.amount ?? y.amount;
      if (!home || !amount || (x.home && y.home) || home.bedrooms === null || !found.includes(amount)) continue;
      const gap = x.home ? s.text.slice(home.end, amount.start) : s.text.slice(amount.end, home.start);
      if (gap.length > NEAR || gap.includes(';')) continue;
      pairs.push({ home, amount, score: (gap.includes(',') ? 1000 : 0) + gap.length });
    }
    pairs.sort((p, q) => p.score - q.score);
    const taken = new Set<object>();
    for (const { home, amount } of pairs) {
      if (taken.has(home) || taken.has(amount)) continue;
      taken.add(home);
      taken.add(amount);
      const start = Math.min(home.start, amount.start);
      const end = Math.max(home.end, amount.end);
      out.push({
        at: s.at + start,
        bedrooms: home.bedrooms!,
        bathrooms: home.bathrooms,
        sqft: home.sqft,
        cleanType: cleanTypeOf(s.text, types, start, end),
        cents: amount.cents,
        atLeast: AT_LEAST_BEFORE.test(s.text.slice(Math.max(0, amount.start - 20), amount.start)),
        home: s.text.slice(home.start, home.end),
        sentence: quoted,
      });
    }
  }
  return out.sort((a, b) => a.at - b.at).map(({ at: _at, ...statement }) => statement);
}
