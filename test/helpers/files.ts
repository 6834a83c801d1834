/**
 * What the receptionist tests read: a local https server (its own self-signed certificate, on
 * 127.0.0.2 so that 127.0.0.1 stays a refused loopback address), a PDF made with pdf-lib and a
 * price list photo rendered by sharp, and the fetch policy that lets the test app reach that
 * server and nothing else (names resolve only from a fixed table, never through real DNS).
 */
import type { LookupAddress } from 'node:dns';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { generate } from 'selfsigned';
import type { FetchPolicy } from '../../src/receptionist/fetch.js';

export const FILES_HOST = '127.0.0.2';
/** A name of the test server, resolved by the test policy's table. */
export const FILES_NAME = 'prices.test';

export type Handler = (req: IncomingMessage, res: ServerResponse, server: FilesServer) => void;

export interface FilesServer {
  /** https://127.0.0.2:<port> */
  origin: string;
  /** https://prices.test:<port> */
  named: string;
  port: number;
  ca: string;
  /** The certificate's key, for another test server the same CA vouches for. */
  key: string;
  /** Paths requested, in order. */
  hits: string[];
  close(): Promise<void>;
}

export async function startFilesServer(routes: Record<string, Handler>): Promise<FilesServer> {
  const pems = await generate([{ name: 'commonName', value: FILES_NAME }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 2, value: FILES_NAME }, { type: 7, ip: FILES_HOST }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const hits: string[] = [];
  const server = createServer({ key: pems.private, cert: pems.cert });
  const self: FilesServer = {
    origin: '',
    named: '',
    port: 0,
    ca: pems.cert,
    key: pems.private,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.push(path);
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
      return;
    }
    route(req, res, self);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, FILES_HOST, () => resolve());
  });
  self.port = (server.address() as AddressInfo).port;
  self.origin = `https://${FILES_HOST}:${self.port}`;
  self.named = `https://${FILES_NAME}:${self.port}`;
  return self;
}

/** Names the test policy resolves; anything else is not found (no real DNS is asked). */
export const TEST_NAMES: Record<string, string[]> = {
  [FILES_NAME]: [FILES_HOST],
  'internal.test': ['10.1.2.3'],
  'metadata.test': ['169.254.169.254'],
  // One public-looking address and one private: every address counts.
  'mixed.test': [FILES_HOST, '192.168.1.20'],
  'localhost': ['127.0.0.1', '::1'],
};

/** The test app's fetch policy: production's rules plus the local server's CA and address. */
export function testFetchPolicy(server: { ca: string }): Partial<FetchPolicy> {
  return {
    timeoutMs: 3000,
    ca: [server.ca],
    allowAddress: (address) => address === FILES_HOST,
    lookup: ((hostname: string, _options: unknown, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => {
      const found = TEST_NAMES[hostname];
      if (!found) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
      callback(null, found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    }) as unknown as FetchPolicy['lookup'],
  };
}

/** A one-page PDF price list with a text layer. */
export async function pricePdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  lines.forEach((line, i) => page.drawText(line, { x: 60, y: 720 - i * 24, size: 14, font }));
  return Buffer.from(await doc.save());
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A price list as a photo would show it: dark text on a light background, rendered to PNG. */
export async function pricePng(lines: string[], format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const height = 120 + lines.length * 60;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${height}"><rect width="100%" height="100%" fill="#fdfdf8"/>${lines
    .map((l, i) => `<text x="50" y="${90 + i * 60}" font-size="34" font-family="DejaVu Sans, sans-serif" fill="#111">${escapeXml(l)}</text>`)
    .join('')}</svg>`;
  const image = sharp(Buffer.from(svg));
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}
