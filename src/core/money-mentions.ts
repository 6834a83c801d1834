/**
 * Money a text states, sentence by sentence: what knowledge pages are checked with. Pure: the
 * text is data to search, never instructions to follow.
 *
 * An amount is money written as money ("$30", "$1,250.00", "US$30", "30 dollars", "USD 30").
 * Bare numbers are never prices, so phone numbers, dates, ZIP codes, times, durations and
 * percentages cannot be mistaken for one. An amount that is not something's price is marked so:
 * ranges ("$30-40"), discounts and deposits ("$10 off", "a $20 deposit"), add-on deltas ("+$15")
 * and hourly rates.
 */

/** A quoted sentence is cut to this many characters. */
export const SENTENCE_MAX = 300;

const AMOUNT = /(?:US\$|\$|\bUSD\s?)\s?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?(?!\.?\d)|\b(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{2}))?\s?(?:dollars?|bucks|USD)\b/gi;
/** Words right after an amount that make it something other than the service's price. */
const NOT_A_PRICE_AFTER = /^\s*(?:%|off\b|discount\b|deposit\b|surcharge\b|extra\b|more\b|less\b|credit\b|gift\b|tip\b|k\b|\/\s*h(?:ou)?r|per\s+hour\b|an\s+hour\b|hourly\b|a\s+month\b|per\s+month\b|\/\s*mo)/i;
/** Words right before an amount that do the same. */
const NOT_A_PRICE_BEFORE = /(?:\+|\bsave\s+(?:up\s+to\s+)?|\boff\s+|\bdeposit\s+(?:of\s+)?|\bdiscount\s+(?:of\s+)?|\bsurcharge\s+(?:of\s+)?|\btip\s+(?:of\s+)?|\bextra\s+|\badd\s+|\bplus\s+|\bover\s+|\bunder\s+|\bup\s+to\s+|\bcredit\s+(?:of\s+)?)$/i;
const RANGE_AFTER = /^\s*(?:-|–|—|to|or)\s*(?:US\$|\$)?\s?\d/i;
const RANGE_BEFORE = /(?:\d\s*(?:-|–|—|to|or)|\bbetween)\s*(?:US\$|\$)?\s?$/i;

export interface Amount {
  start: number;
  end: number;
  cents: number;
  price: boolean;
}

/** Sentences: split at line breaks and at . ! ? followed by a space (so "$30.00" and dot leaders stay whole). */
export function sentences(text: string): { text: string; at: number }[] {
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

export function amounts(sentence: string): Amount[] {
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

