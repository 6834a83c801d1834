/**
 * Reading owners' sources into plain text: links are fetched here (SSRF-safe, fetch.ts), cheap
 * checks run here (the file's type from its first bytes, an image's size from its header), and
 * the reading itself (Readability, pdf.js, OCR: parse.ts) runs in a worker of the reader pool,
 * never on the main thread, with a deadline and a memory cap (reader-pool.ts).
 */
import { imageSize } from 'image-size';
import { AppError } from '../errors.js';
import { cleanText } from './draft.js';
import type { UrlFetcher } from './fetch.js';
import type { ReaderPool } from './reader-pool.js';

export const FILE_TYPES = ['pdf', 'png', 'jpeg', 'webp'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** Largest page or file fetched from a link. Uploads are bounded by file_base64's length. */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
export const FILE_MAX_BYTES = 10 * 1024 * 1024;
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

/** Each read stops, its worker ended, when `signal` aborts (the caller's request was abandoned). */
export interface SourceReader {
  /** A web page (HTML or plain text) behind an https link. */
  page(url: string, signal?: AbortSignal): Promise<ReadText>;
  /** A PDF or image behind an https link. */
  fileAt(url: string, signal?: AbortSignal): Promise<ReadText>;
  /** An uploaded PDF or image. */
  file(bytes: Buffer, type: FileType, signal?: AbortSignal): Promise<ReadText>;
  /** Sources being read right now (each in a worker thread until it has stopped). */
  reading(): number;
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

/** A page's bytes as text in its charset, or UTF-8 (the web's default) for an unknown label. */
export function decodeText(body: Uint8Array, charset: string | null): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

export function createSourceReader(fetcher: UrlFetcher, pool: ReaderPool): SourceReader {
  /** Refused from its header alone, before any pixel is decoded. */
  function checkImageSize(bytes: Buffer) {
    let size: { width?: number; height?: number };
    try {
      size = imageSize(new Uint8Array(bytes));
    } catch {
      throw unreadable('The image could not be opened; send a PNG, JPEG or WebP photo.');
    }
    if ((size.width ?? 0) * (size.height ?? 0) > IMAGE_MAX_PIXELS) {
      throw unreadable(`The image is ${size.width}×${size.height} pixels; send one of at most ${IMAGE_MAX_PIXELS / 1_000_000} megapixels.`);
    }
  }

  async function file(bytes: Buffer, type: FileType, signal?: AbortSignal): Promise<ReadText> {
    const seen = sniff(bytes);
    if (seen !== type) {
      throw unreadable(seen ? `The file is a ${seen.toUpperCase()}, not a ${type.toUpperCase()}; send its file_type as ${seen}.` : `The file is not a ${type.toUpperCase()}; send a PDF, PNG, JPEG or WebP file.`);
    }
    if (type !== 'pdf') checkImageSize(bytes);
    // A copy goes to the worker (its buffer is moved there), whatever else shares `bytes`' memory.
    const { text } = await pool.read({ kind: type === 'pdf' ? 'pdf' : 'image', bytes: new Uint8Array(bytes) }, signal);
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
    async page(url, signal) {
      const got = await fetcher.get(url, { types: PAGE_TYPES, maxBytes: PAGE_MAX_BYTES, otherwise: 'Send a PDF or image link as file_url instead.' }, signal);
      const read =
        got.type === 'text/plain' ? { title: null, text: cleanText(decodeText(got.body, got.charset)) } : await pool.read({ kind: 'html', bytes: new Uint8Array(got.body), charset: got.charset }, signal);
      if (!read.text) throw unreadable('The page has no readable text (it may need a browser to show it); copy its text into a note instead.');
      return { ...read, format: got.type === 'text/plain' ? 'text' : 'html', url: got.url };
    },
    async fileAt(url, signal) {
      const got = await fetcher.get(
        url,
        {
          types: Object.values(MEDIA_TYPES),
          maxBytes: FILE_MAX_BYTES,
          otherwise: 'Send a web page link as url instead.',
        },
        signal,
      );
      const type = (Object.keys(MEDIA_TYPES) as FileType[]).find((t) => MEDIA_TYPES[t] === got.type)!;
      return { ...(await file(got.body, type, signal)), url: got.url };
    },
    file,
    reading: () => pool.reading,
    async close() {
      await Promise.all([pool.close(), fetcher.close()]);
    },
  };
}
