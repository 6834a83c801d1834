/**
 * Sources built to freeze a reader, generated here rather than stored: pages nested deep
 * enough to stall an HTML parser, a PDF whose one content stream inflates to about 100 MB, a
 * PDF of Form XObjects that each draw the next four times, and a PNG of many pixels.
 */
import { createDeflate } from 'node:zlib';
import sharp from 'sharp';

/** `levels` nested <div>s around one word. */
export const nestedPage = (levels: number) => `<!doctype html><html><head><title>Deep</title></head><body>${'<div>'.repeat(levels)}deep${'</div>'.repeat(levels)}</body></html>`;

/** A PDF from its objects' bodies (object i + 1 is objects[i]), with a correct cross-reference table. */
export function pdfOf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let at = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(at);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'), Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    at += chunk.length;
  });
  const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  return Buffer.concat(parts);
}

const stream = (dict: string, data: Buffer) => Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);

const PAGE_TREE = ['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [3 0 R] /Count 1 >>'];
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';

/** `bytes` of one repeated drawing operator, deflated as it streams (never all in memory). */
async function deflated(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.from('0 0 m 1 1 l S\n'.repeat(Math.ceil((1 << 20) / 14))).subarray(0, 1 << 20);
  for (let sent = 0; sent < bytes; sent += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return Buffer.concat(out);
}

/** A one-page PDF whose content stream inflates to `bytes` (about 100 MB by default). */
export async function inflatingPdf(bytes = 100 * 1024 * 1024): Promise<Buffer> {
  const content = await deflated(bytes);
  return pdfOf([...PAGE_TREE, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>', stream('/Filter /FlateDecode', content), FONT]);
}

/** A one-page PDF of `levels` Form XObjects, each drawing the next four times; the last draws a word. */
export function nestedFormsPdf(levels = 14): Buffer {
  const first = 5; // objects 1-3 are the page tree and page, 4 the font
  const forms = Array.from({ length: levels }, (_, i) => {
    const last = i === levels - 1;
    const body = Buffer.from(last ? 'BT /F1 12 Tf 10 10 Td (deep) Tj ET' : '/X Do /X Do /X Do /X Do');
    const resources = last ? '/Resources << /Font << /F1 4 0 R >> >>' : `/Resources << /XObject << /X ${first + i + 1} 0 R >> >>`;
    return stream(`/Type /XObject /Subtype /Form /BBox [0 0 612 792] ${resources}`, body);
  });
  const page = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${first + levels} 0 R /Resources << /XObject << /X ${first} 0 R >> >> >>`;
  return pdfOf([...PAGE_TREE, page, FONT, ...forms, stream('', Buffer.from('/X Do /X Do /X Do /X Do'))]);
}

/**
 * A PNG of width × height pixels covered in lines of text, in two colours (about 100 KB): OCR of
 * all of it takes far longer than any deadline on any machine (a blank one read in seconds on an
 * idle machine).
 */
export async function largePng(width = 6000, height = 6600): Promise<Buffer> {
  const line = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="120"><text x="10" y="80" font-size="64" fill="#111">Oil change $49 tire</text></svg>`);
  return sharp({ create: { width, height, channels: 3, background: { r: 250, g: 250, b: 245 } } })
    .composite([{ input: line, tile: true, top: 0, left: 0 }])
    .png({ compressionLevel: 9, palette: true, colours: 2 })
    .toBuffer();
}
