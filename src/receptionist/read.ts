/**
 * Reading owners' sources into plain text with real libraries: web pages through Readability
 * (the main content, as Firefox's reader view finds it) and html-to-text, PDFs through unpdf
 * (their text layer), photos of price lists through tesseract.js OCR. OCR runs offline: the
 * English model comes from the @tesseract.js-data/eng package, nothing is downloaded or cached
 * on disk, and one worker is created on first use and kept for the process.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readability } from '@mozilla/readability';
import { convert } from 'html-to-text';
import { imageSize } from 'image-size';
import { parseHTML } from 'linkedom';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { extractText, getDocumentProxy } from 'unpdf';
import { AppError } from '../errors.js';
import { cleanText } from './draft.js';
import type { UrlFetcher } from './fetch.js';

export const FILE_TYPES = ['pdf', 'png', 'jpeg', 'webp'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** Largest page or file fetched from a link. Uploads are bounded by file_base64's length. */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
export const FILE_MAX_BYTES = 10 * 1024 * 1024;
/** PDFs longer than this are refused (a price list or menu is a few pages). */
export const PDF_MAX_PAGES = 50;
/** Larger images take too long to read; a phone photo is about 12 megapixels. */
export const IMAGE_MAX_PIXELS = 40_000_000;

const MEDIA_TYPES: Record<FileType, string> = { pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };
const PAGE_TYPES = ['text/html', 'application/xhtml+xml', 'text/plain'];

export interface ReadText {
  text: string;
  format: string;
  title: string | null;
  /** The address finally read, after redirects (links only). */
  url: string | null;
}

export interface SourceReader {
  /** A web page (HTML or plain text) behind an https link. */
  page(url: string): Promise<ReadText>;
  /** A PDF or image behind an https link. */
  fileAt(url: string): Promise<ReadText>;
  /** An uploaded PDF or image. */
  file(bytes: Buffer, type: FileType): Promise<ReadText>;
  close(): Promise<void>;
}

const unreadable = (message: string) => new AppError('invalid_input', message);

/** The file type its first bytes show, whatever it was called. */
export function sniff(bytes: Buffer): FileType | null {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  return null;
}

function decode(body: Buffer, charset: string | null): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    // An unknown charset label: UTF-8 is the web's default.
    return new TextDecoder('utf-8').decode(body);
  }
}

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

/** A web page's main text (Readability), or its whole body's text when no article is found. */
export function htmlToText(html: string): { title: string | null; text: string } {
  const { document } = parseHTML(html);
  let article: { title?: string | null; content?: string | null } | null = null;
  try {
    article = new Readability(document as unknown as Document).parse();
  } catch {
    article = null;
  }
  const fromArticle = article?.content ? cleanText(convert(article.content, TEXT_OPTIONS)) : '';
  const text = fromArticle || cleanText(convert(html, { ...TEXT_OPTIONS, baseElements: { selectors: ['body'] } }));
  const title = cleanText(article?.title || document.title || '') || null;
  return { title, text };
}

export async function pdfToText(bytes: Buffer): Promise<string> {
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

export function createSourceReader(fetcher: UrlFetcher): SourceReader {
  let worker: Promise<Worker> | undefined;
  const ocrWorker = () => {
    if (!worker) {
      const require = createRequire(import.meta.url);
      const langPath = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
      worker = createWorker('eng', OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: 'none' });
      // A worker that failed to start is tried again next time.
      worker.catch(() => (worker = undefined));
    }
    return worker;
  };

  async function imageToText(bytes: Buffer): Promise<string> {
    let size: { width?: number; height?: number };
    try {
      size = imageSize(new Uint8Array(bytes));
    } catch {
      throw unreadable('The image could not be opened; send a PNG, JPEG or WebP photo.');
    }
    if ((size.width ?? 0) * (size.height ?? 0) > IMAGE_MAX_PIXELS) {
      throw unreadable(`The image is ${size.width}×${size.height} pixels; send one of at most ${IMAGE_MAX_PIXELS / 1_000_000} megapixels.`);
    }
    const { data } = await (await ocrWorker()).recognize(bytes);
    return cleanText(data.text);
  }

  async function file(bytes: Buffer, type: FileType): Promise<ReadText> {
    const seen = sniff(bytes);
    if (seen !== type) {
      throw unreadable(seen ? `The file is a ${seen.toUpperCase()}, not a ${type.toUpperCase()}; send its file_type as ${seen}.` : `The file is not a ${type.toUpperCase()}; send a PDF, PNG, JPEG or WebP file.`);
    }
    const text = type === 'pdf' ? await pdfToText(bytes) : await imageToText(bytes);
    if (!text) {
      throw unreadable(
        type === 'pdf'
          ? 'The PDF has no text layer (it may be a scan); send its pages as images, or type the text as a note.'
          : 'No text could be read from the image; send a sharper, straight photo, or type the text as a note.',
      );
    }
    return { text, format: type, title: null, url: null };
  }

  return {
    async page(url) {
      const got = await fetcher.get(url, { types: PAGE_TYPES, maxBytes: PAGE_MAX_BYTES, otherwise: 'Send a PDF or image link as file_url instead.' });
      const raw = decode(got.body, got.charset);
      const read = got.type === 'text/plain' ? { title: null, text: cleanText(raw) } : htmlToText(raw);
      if (!read.text) throw unreadable('The page has no readable text (it may need a browser to show it); copy its text into a note instead.');
      return { ...read, format: got.type === 'text/plain' ? 'text' : 'html', url: got.url };
    },
    async fileAt(url) {
      const got = await fetcher.get(url, {
        types: Object.values(MEDIA_TYPES),
        maxBytes: FILE_MAX_BYTES,
        otherwise: 'Send a web page link as url instead.',
      });
      const type = (Object.keys(MEDIA_TYPES) as FileType[]).find((t) => MEDIA_TYPES[t] === got.type)!;
      return { ...(await file(got.body, type)), url: got.url };
    },
    file,
    async close() {
      const w = worker;
      worker = undefined;
      await Promise.all([w?.then((x) => x.terminate()).catch(() => {}), fetcher.close()]);
    },
  };
}
