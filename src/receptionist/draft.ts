/**
 * The draft knowledge page, built from the receptionist's sources: a pure function of them, so
 * the same sources always give the same page. Source text is copied in as data: nothing in it
 * is interpreted, followed or expanded.
 */

/** What one source may hold, what all of a business's sources may hold together, and how many. */
export const SOURCE_MAX_CHARS = 20_000;
export const SOURCES_MAX_CHARS = 60_000;
export const MAX_SOURCES = 40;
/** A draft or published page (headings over the sources' text fit in the margin). */
export const PAGE_MAX_CHARS = 80_000;
export const INSTRUCTIONS_MAX_CHARS = 4_000;

export type SourceKind = 'note' | 'url' | 'file';

export interface DraftSource {
  kind: SourceKind;
  /** The page or file address, when it came from one. */
  origin: string | null;
  /** pdf, png, jpeg, webp, html or text. */
  format: string | null;
  title: string | null;
  text: string;
}

// Controls other than tab and line feed (PostgreSQL refuses NUL; the rest is noise from
// extraction), and Unicode line and paragraph separators, which become line feeds.
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Text as read from a page, PDF or image, made plain: NFC, line feeds only, no control
 * characters, no trailing spaces, at most one blank line in a row, trimmed.
 */
export function cleanText(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/\r\n?|[\u2028\u2029\u000B\u000C]/g, '\n')
    .replace(CONTROLS, '')
    .split('\n')
    .map((line) => line.replace(/[ \t\u00A0]+$/u, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The text's start within `max` characters, cut at a line end where one is near. */
export function clip(text: string, max = SOURCE_MAX_CHARS): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  let cut = text.slice(0, max);
  const line = cut.lastIndexOf('\n');
  if (line > max * 0.8) cut = cut.slice(0, line);
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return { text: cut.trimEnd(), truncated: true };
}

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

const FILE_NAMES: Record<string, string> = { pdf: 'PDF', png: 'image', jpeg: 'image', webp: 'image' };

/** The heading a source's section starts with. */
export function sourceHeading(source: DraftSource): string {
  if (source.kind === 'note') return 'Note';
  const title = source.title ? oneLine(source.title) : '';
  const origin = source.origin ? oneLine(source.origin) : '';
  if (title && origin) return `From ${title} (${origin})`;
  if (title || origin) return `From ${title || origin}`;
  return `From an uploaded ${FILE_NAMES[source.format ?? ''] ?? 'file'}`;
}

/** The draft page: each source under its heading, in the order given (oldest first). */
export function buildDraft(sources: readonly DraftSource[]): string {
  return sources.map((s) => `## ${sourceHeading(s)}\n\n${s.text}`).join('\n\n');
}
