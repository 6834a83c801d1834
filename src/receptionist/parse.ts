/**
 * Turning a source's bytes into plain text with real libraries: web pages through Readability
 * (the main content, as Firefox's reader view finds it) and html-to-text, PDFs through unpdf
 * (their text layer), photos of price lists through tesseract.js OCR. These run only inside a
 * reader worker (read-worker.ts), never on the server's main thread: they are synchronous, and a
 * crafted page or PDF can keep them busy for minutes. Each refuses up front what it can measure
 * cheaply (how deep and how many a page's elements are, how much a PDF's streams inflate to);
 * the worker's deadline and memory cap bound everything else.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { constants, inflateSync } from 'node:zlib';
import { Readability } from '@mozilla/readability';
import { Parser } from 'htmlparser2';
import { convert } from 'html-to-text';
import { parseHTML } from 'linkedom';
import { createWorker, OEM } from 'tesseract.js';
import { extractText, getDocumentProxy } from 'unpdf';
import { AppError } from '../errors.js';
import { cleanText } from './draft.js';

/**
 * A page's elements nested deeper than this, or more of them, are refused before a DOM is built:
 * parsing, Readability and html-to-text all slow down sharply with depth (html-to-text recurses
 * and overflows the stack at about 10,000 levels), and Readability with the element count. Real
 * pages nest a few dozen levels and hold a few thousand elements.
 */
export const HTML_MAX_DEPTH = 128;
export const HTML_MAX_ELEMENTS = 20_000;
/** PDFs longer than this are refused (a price list or menu is a few pages). */
export const PDF_MAX_PAGES = 50;
/**
 * What all of a PDF's compressed streams may inflate to together. Deflate shrinks repeated bytes
 * about 1,000 times, so a file of a few hundred KB can unpack to gigabytes, and decoded streams
 * are buffers outside the JavaScript heap that the worker's memory cap does not count.
 */
export const PDF_MAX_DECODED_BYTES = 64 * 1024 * 1024;

const unreadable = (message: string) => new AppError('invalid_input', message);

const TEXT_OPTIONS = {
  wordwrap: false as const,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
};

class PageTooComplex extends Error {}

/**
 * Refuses a page nested deeper than HTML_MAX_DEPTH or with more than HTML_MAX_ELEMENTS elements.
 * htmlparser2 is the parser linkedom and html-to-text build their trees with, so the depth it
 * sees (implied end tags included) is theirs; it stops at the first element past a limit.
 */
export function checkPageShape(html: string): void {
  let depth = 0;
  let elements = 0;
  const parser = new Parser({
    onopentag() {
      depth++;
      elements++;
      if (depth > HTML_MAX_DEPTH || elements > HTML_MAX_ELEMENTS) throw new PageTooComplex();
    },
    onclosetag() {
      depth--;
    },
  });
  try {
    parser.write(html);
    parser.end();
  } catch (err) {
    if (!(err instanceof PageTooComplex)) throw err;
    throw unreadable(
      depth > HTML_MAX_DEPTH
        ? `The page nests its elements more than ${HTML_MAX_DEPTH} levels deep, past what is read; copy its text into a note instead.`
        : `The page has more than ${HTML_MAX_ELEMENTS.toLocaleString('en-US')} elements, past what is read; copy the part that matters into a note instead.`,
    );
  }
}

/** A web page's main text (Readability), or its whole body's text when no article is found. */
export function htmlToText(html: string): { title: string | null; text: string } {
  checkPageShape(html);
  const { document } = parseHTML(html);
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document as unknown as Document, { maxElemsToParse: HTML_MAX_ELEMENTS }).parse();
  } catch {
    article = null;
  }
  const fromArticle = article?.content ? cleanText(convert(article.content, TEXT_OPTIONS)) : '';
  const text = fromArticle || cleanText(convert(html, { ...TEXT_OPTIONS, baseElements: { selectors: ['body'] } }));
  const title = cleanText(article?.title || document.title || '') || null;
  return { title, text };
}

const ZLIB_HEADER = (b: Buffer) => b.length >= 2 && (b[0]! & 0x0f) === 8 && ((b[0]! << 8) | b[1]!) % 31 === 0;

/** ASCIIHexDecode: hex digits up to '>' (whitespace ignored, an odd last digit padded with 0). */
function fromAsciiHex(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('>');
  const hex = (end < 0 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex');
}

/** ASCII85Decode: base-85 groups up to '~>' ('z' is four zero bytes). */
function fromAscii85(data: Buffer): Buffer {
  const text = data.toString('latin1');
  const end = text.indexOf('~>');
  const body = (end < 0 ? text : text.slice(0, end)).replace(/\s/g, '');
  const out: number[] = [];
  let group: number[] = [];
  const flush = (n: number) => {
    let value = 0;
    for (let i = 0; i < 5; i++) value = value * 85 + (group[i] ?? 84);
    for (let i = 0; i < n - 1; i++) out.push((value >>> (24 - 8 * i)) & 0xff);
    group = [];
  };
  for (const ch of body) {
    if (ch === 'z' && group.length === 0) out.push(0, 0, 0, 0);
    else if (ch >= '!' && ch <= 'u') {
      group.push(ch.charCodeAt(0) - 33);
      if (group.length === 5) flush(5);
    }
  }
  if (group.length) flush(group.length);
  return Buffer.from(out);
}

class TooMuchInflated extends Error {}

/**
 * Refuses a PDF whose streams inflate to more than PDF_MAX_DECODED_BYTES together, before pdf.js
 * sees it. Every stream is inflated (zlib, capped at what is left of the budget, output dropped),
 * again while what comes out is itself zlib data (chained FlateDecode), whatever its dictionary
 * says: pdf.js decodes a page's content stream whatever its Subtype, and reads a stream past a
 * wrong /Length. Streams run-length or LZW encoded, which pdf.js could also expand many times,
 * are refused; text PDFs made this century use neither.
 */
export function checkPdfStreams(bytes: Buffer, cap = PDF_MAX_DECODED_BYTES): void {
  const text = bytes.toString('latin1');
  const keyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  let budget = cap;
  const inflate = (data: Buffer): Buffer => {
    try {
      const out = inflateSync(data, { maxOutputLength: Math.max(budget, 1), finishFlush: constants.Z_SYNC_FLUSH });
      budget -= out.length;
      return out;
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new TooMuchInflated();
      // Not zlib data after all (pdf.js will fail on it the same way): nothing inflated.
      return Buffer.alloc(0);
    }
  };
  try {
    for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
      const start = m.index + m[0].length;
      const dict = text.slice(Math.max(0, text.lastIndexOf('obj', m.index)), m.index);
      const filters = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict)?.[1] ?? '';
      if (/\/(LZWDecode|LZW|RunLengthDecode|RL)\b/.test(filters)) {
        throw unreadable('The PDF uses LZW or run-length compression, which is not read; save it again as a new PDF (Print → Save as PDF) and send that.');
      }
      let data = bytes.subarray(start);
      const first = /^\[?\s*\/([A-Za-z0-9]+)/.exec(filters)?.[1];
      if (first === 'ASCIIHexDecode' || first === 'AHx') data = fromAsciiHex(data);
      else if (first === 'ASCII85Decode' || first === 'A85') data = fromAscii85(data);
      for (let layer = 0; ZLIB_HEADER(data) && layer < 8; layer++) data = inflate(data);
    }
  } catch (err) {
    if (!(err instanceof TooMuchInflated)) throw err;
    throw unreadable(
      `The PDF's compressed content unpacks to more than ${cap / 1024 / 1024} MB, past what is read; send only the pages that matter, or type the text as a note.`,
    );
  }
}

export async function pdfToText(bytes: Buffer): Promise<string> {
  checkPdfStreams(bytes);
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes));
  } catch {
    throw unreadable('The file could not be opened as a PDF; check that it is a complete, unprotected PDF.');
  }
  try {
    if (pdf.numPages > PDF_MAX_PAGES) throw unreadable(`The PDF has ${pdf.numPages} pages; send at most ${PDF_MAX_PAGES} (the pages that matter).`);
    const { text } = await extractText(pdf, { mergePages: false });
    return cleanText(text.join('\n\n'));
  } finally {
    await pdf.destroy();
  }
}

/**
 * A photo's text by OCR, offline: the English model comes from the @tesseract.js-data/eng
 * package, nothing is downloaded or cached on disk. tesseract.js runs its own worker thread, made
 * for this one image inside the reader worker, so it ends with it (on the deadline too).
 */
export async function imageToText(bytes: Buffer): Promise<string> {
  const require = createRequire(import.meta.url);
  const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
  const worker = await createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' });
  try {
    const { data } = await worker.recognize(bytes);
    return cleanText(data.text);
  } finally {
    await worker.terminate();
  }
}
