/**
 * A person's words ("move-out clean", "Haircut & color") as a PostgreSQL full-text query that
 * matches any of them, so a business offering some of what was asked still ranks, below one
 * offering all of it. Only letters and digits reach to_tsquery, so nothing typed is read as a
 * query operator; words of four letters or more also match as prefixes ("hair" finds "haircut").
 */
const MAX_WORDS = 12;
const MAX_WORD = 40;
const PREFIX_FROM = 4;

export function searchWords(query: string | undefined): string[] {
  const words = (query ?? '').normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.map((w) => w.slice(0, MAX_WORD)))].slice(0, MAX_WORDS);
}

/** The to_tsquery('english', …) text for the words, or null when there are none. */
export function anyWordQuery(words: readonly string[]): string | null {
  if (words.length === 0) return null;
  return words.map((w) => (w.length >= PREFIX_FROM ? `${w}:*` : w)).join(' | ');
}
