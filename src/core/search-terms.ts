/**
 * A person's words ("beard trim", "mani pedi", "oil change near me") as the terms a business
 * search looks for, each with the words and phrases that mean the same thing to a customer of a
 * local business: "barber" finds a men's cut or a beard trim, "mani" a manicure, "mechanic" an
 * oil change or brakes. PostgreSQL does the rest: to_tsquery('english', …) stems every word
 * ("haircuts" finds "haircut", "nails" finds "nail"), and the document it is matched against is
 * stemmed the same way.
 *
 * Only letters and digits reach to_tsquery, so nothing typed is read as a query operator. A
 * term's own single word of four letters or more also matches as a prefix ("hair" finds
 * "haircut"); the related words and phrases match as whole (stemmed) words.
 */

const MAX_TERMS = 12;
const MAX_WORD = 40;
const PREFIX_FROM = 4;
/** A phrase key has at most this many words. */
const MAX_PHRASE = 4;

/**
 * Words that say nothing about what is wanted ("near me", "best", "cheap"): left out, so that a
 * business is not a partial match for lacking them.
 */
const FILLER = new Set([
  'near', 'nearby', 'me', 'my', 'local', 'around', 'closest', 'nearest', 'best', 'good', 'great', 'top', 'cheap', 'cheapest', 'affordable',
  'open', 'now', 'today', 'tomorrow', 'please', 'need', 'want', 'looking', 'find', 'get', 'place', 'places', 'someone', 'somebody',
]);

/**
 * Related words: a query term among `names` (a word or a phrase, as typed) also finds every
 * other name and everything in `finds`; finding is one way ("haircut" finds "men's cut", a
 * "cut" alone does not find a barber). Data, read by searchTerms; plurals need no entry (the
 * english stemmer folds them), spelling variants do.
 */
export const RELATED_TERMS: ReadonlyArray<readonly [names: readonly string[], finds: readonly string[]]> = [
  // Hair
  [['barber', 'barbers', 'barbershop', 'barber shop'], ["men's cut", "men's haircut", 'mens haircut', 'beard', 'shave', 'skin fade', 'fade']],
  [['beard', 'beards'], ['barber', 'barbershop', 'shave']],
  [['shave', 'shaving', 'straight razor', 'wet shave'], ['barber', 'barbershop', 'beard']],
  [['fade', 'skin fade', 'taper'], ['barber', 'barbershop']],
  [
    ['haircut', 'hair cut', 'hair cutting'],
    ["men's cut", "women's cut", "kid's cut", 'kids cut', "children's cut", 'classic cut', 'skin fade', 'hair trim', 'barber', 'barbershop'],
  ],
  [["men's haircut", 'mens haircut', "men's hair cut", "men's cut", 'mens cut', 'gents cut'], ['barber', 'barbershop', 'classic cut', 'skin fade']],
  [["women's haircut", 'womens haircut', "women's cut", 'womens cut', 'ladies cut', "ladies' haircut"], []],
  [["kid's haircut", 'kids haircut', "children's haircut", "kid's cut", 'kids cut', "children's cut", 'child haircut'], []],
  [['cut'], ['haircut']],
  [['trim'], ['haircut', 'hair trim']],
  [['hairdresser', 'hairstylist', 'hair stylist', 'hair salon', 'stylist'], ['haircut', 'hair']],
  [['color', 'colour', 'hair color', 'hair colour', 'dye', 'hair dye'], ['highlights', 'balayage']],
  [['highlights', 'balayage'], ['colour', 'color']],
  [['blowout', 'blow out', 'blow dry', 'blowdry'], ['blow-dry']],
  // Nails, spa
  [['nails', 'nail', 'nail salon', 'mani pedi', 'mani-pedi'], ['manicure', 'pedicure']],
  [['manicure', 'mani'], ['nail']],
  [['pedicure', 'pedi'], []],
  [['massage', 'masseuse', 'masseur', 'massage therapist', 'bodywork'], []],
  [['spa', 'day spa'], ['massage', 'facial']],
  [['facial', 'facials', 'skin care', 'skincare', 'esthetician'], []],
  [['brows', 'brow', 'eyebrow', 'eyebrows'], ['brow']],
  [['lashes', 'lash', 'eyelash', 'eyelashes'], ['lash']],
  // Cars
  [
    ['mechanic', 'mechanics', 'auto repair', 'car repair', 'auto shop', 'garage', 'car service'],
    ['auto repair', 'oil change', 'brake', 'tire', 'diagnostic', 'check engine', 'battery', 'timing belt'],
  ],
  [['oil change', 'oil service', 'lube', 'oil and filter'], ['oil change']],
  [['brakes', 'brake', 'brake job', 'brake pads'], ['brake']],
  [['tires', 'tire', 'tyre', 'tyres', 'tire rotation'], ['tire']],
  [['check engine light', 'check engine', 'engine light', 'diagnostics', 'diagnostic'], ['diagnostic', 'check-engine']],
  [['car battery', 'battery'], ['battery']],
  [['detailing', 'car detailing', 'car wash', 'detail'], ['interior detail']],
  // Home
  [['cleaner', 'cleaners', 'cleaning', 'clean', 'maid', 'maids', 'housekeeper', 'housekeeping', 'house cleaner'], ['cleaning', 'cleaner', 'maid']],
  [['move out', 'move-out', 'moving out', 'move in', 'move-in', 'end of lease', 'end of tenancy'], ['move-out', 'move-in']],
  [['deep clean', 'deep cleaning', 'spring cleaning', 'spring clean'], ['deep clean']],
  [['plumber', 'plumbers', 'plumbing'], ['plumber', 'plumbing', 'leak', 'drain']],
  [['clog', 'clogged', 'blocked drain', 'unclog'], ['clog', 'drain']],
  [['hvac', 'heating', 'air conditioning', 'ac', 'furnace', 'heat pump', 'ac repair', 'air conditioning repair', 'furnace repair', 'heater repair', 'heating repair'], ['hvac', 'heating', 'air conditioning', 'furnace']],
  // Everything else
  [['groomer', 'groomers', 'dog groomer', 'pet groomer', 'grooming', 'dog grooming', 'pet grooming'], ['groom', 'bath & brush']],
  [['tailor', 'tailoring', 'alterations', 'alteration', 'seamstress'], ['alterations', 'hem', 'tailor']],
  [['locksmith', 'lockout', 'rekey', 'locked out'], ['lock', 'key cutting', 'rekey']],
  [['key cutting', 'key copy', 'key copying', 'spare key', 'duplicate key', 'key duplication'], ['key cutting', 'locksmith']],
  [['accountant', 'tax preparer', 'tax prep', 'taxes', 'cpa'], ['tax', 'bookkeeping']],
  [['photographer', 'photography', 'photoshoot', 'photo shoot'], ['photography', 'headshot', 'portrait', 'photo']],
  [['florist', 'flower shop', 'flowers'], ['flower', 'bouquet']],
  [['baker', 'bakery', 'cake'], ['bakery', 'cake']],
  [['caterer', 'catering'], ['catering']],
  [['cafe', 'coffee shop', 'coffee'], ['coffee', 'cafe']],
];

/** The words of a text: lowercased runs of letters and digits (apostrophes split, as PostgreSQL's parser does). */
export function words(text: string | undefined): string[] {
  return ((text ?? '').normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => w.slice(0, MAX_WORD));
}

const phraseKey = (ws: readonly string[]) => ws.join(' ');

/** Each name's words → what it finds (its own names and finds, as word lists). */
const RELATED: Map<string, string[][]> = (() => {
  const map = new Map<string, string[][]>();
  for (const [names, finds] of RELATED_TERMS) {
    const all = [...names, ...finds].map((n) => words(n)).filter((w) => w.length > 0);
    for (const name of names) {
      const key = phraseKey(words(name));
      const have = map.get(key) ?? [];
      const seen = new Set(have.map(phraseKey));
      for (const w of all) if (!seen.has(phraseKey(w))) (seen.add(phraseKey(w)), have.push(w));
      map.set(key, have);
    }
  }
  return map;
})();

export interface SearchTerm {
  /** The person's words it stands for ("oil change"). */
  said: string;
  /** What may match it, each a phrase (a list of words); the first is what was said. */
  alternatives: string[][];
  /** What was said is one word that may match as a prefix. */
  prefix: boolean;
}

/**
 * The terms of a query: known phrases first ("oil change", "men's haircut", longest first), then
 * single words; filler words left out; duplicates once; at most 12.
 */
export function searchTerms(query: string | undefined): SearchTerm[] {
  const text = (query ?? '').normalize('NFKC').toLowerCase();
  const found = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  const ws = found.map((m) => m[0].slice(0, MAX_WORD));
  const terms: SearchTerm[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < ws.length && terms.length < MAX_TERMS; ) {
    let taken = 0;
    for (let n = Math.min(MAX_PHRASE, ws.length - i); n >= 2; n--) {
      if (RELATED.has(phraseKey(ws.slice(i, i + n)))) {
        taken = n;
        break;
      }
    }
    if (!taken && FILLER.has(ws[i]!)) {
      i++;
      continue;
    }
    const said = ws.slice(i, i + Math.max(1, taken));
    const first = found[i]!;
    const last = found[i + said.length - 1]!;
    i += said.length;
    const key = phraseKey(said);
    if (seen.has(key)) continue;
    seen.add(key);
    const related = (RELATED.get(key) ?? []).filter((w) => phraseKey(w) !== key);
    // As typed (lowercased), so "men's haircut" reads as itself in a note.
    const asTyped = said.length === 1 ? key : text.slice(first.index, last.index + last[0].length).replace(/\s+/g, ' ');
    terms.push({ said: asTyped, alternatives: [said, ...related], prefix: said.length === 1 && said[0]!.length >= PREFIX_FROM });
  }
  return terms;
}

/**
 * A term as to_tsquery('english', …) text: its alternatives OR'd, a phrase's words adjacent
 * (`<->`; PostgreSQL widens the gap over stop words, so "men's cut" finds "Men's cut"). `weights`
 * restricts every word to document parts of those weights ("ACD": not the kind words).
 */
export function termQuery(term: SearchTerm, weights = ''): string {
  const alternatives = term.alternatives.map((phrase, i) => {
    const suffix = (word: string) => (i === 0 && term.prefix ? `${word}:*${weights}` : weights ? `${word}:${weights}` : word);
    return phrase.length === 1 ? suffix(phrase[0]!) : `(${phrase.map(suffix).join(' <-> ')})`;
  });
  return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(' | ')})`;
}

/** Any of the terms, as to_tsquery text; null when there are none. */
export function anyTermQuery(terms: readonly SearchTerm[], weights = ''): string | null {
  return terms.length ? terms.map((t) => termQuery(t, weights)).join(' | ') : null;
}
