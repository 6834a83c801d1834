/**
 * Sources built to freeze the server (issue 18, items 1 and 2), sent over real HTTP while another
 * client times /healthz: pages of 1,500 and 150,000 nested <div>s, a PDF whose content stream
 * inflates to about 100 MB, a PDF of Form XObjects each drawing the next four times, and a PNG of
 * 39.6 megapixels. Each must be refused with a 400 naming the limit it met, within the read
 * deadline (again and again for a few seconds when refused sooner), while /healthz keeps
 * answering quickly, and leave the server's memory where it was.
 * Also: a request that is abandoned ends its reading worker at once, and a business whose quota
 * is full is refused before anything is fetched.
 *
 * Timing bounds hold on a loaded 2-core machine; run this file alone for the cleanest figures.
 */
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SOURCES, SOURCE_MAX_CHARS } from '../../src/receptionist/draft.js';
import { businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { startFilesServer, testFetchPolicy, type FilesServer } from '../helpers/files.js';
import { inflatingPdf, largePng, nestedFormsPdf, nestedPage } from '../helpers/bombs.js';

/** The read deadline here: short, so a bomb that only the deadline stops is stopped soon. */
const DEADLINE_MS = 6000;
/**
 * What /healthz may take at the 99th percentile while a bomb is being read. The aim is 100 ms;
 * this machine's two cores are shared with several other test runs (load average 12 to 16), where
 * /healthz alone stalls 100 to 150 ms now and then, so the bound leaves room for that. Before the
 * readers left the main thread, /healthz waited out the whole parse: 60 s and more.
 */
const HEALTHZ_P99_MS = 250;
/**
 * How far resident memory may stay above its level before, once the bomb is refused: the worker
 * loaded for the next task holds 60 to 90 MB here (under tsx), and after the 100 MB PDF the test
 * process has measured 107 to 175 MB above it, seconds later, in clean CI runs. Before, a PDF
 * added 350 MB and OCR of a large PNG 1.4 GB, and kept them.
 */
const RSS_SLACK_MB = 200;
/** How long memory may take to settle after the attack before it is judged. */
const SETTLE_MS = 10_000;

let app: TestApp;
let files: FilesServer;
let server: ServerType;
let base: string;
let owner: Record<string, string>;
let garage: string;

const deep16k = nestedPage(1500);
const deep1m = nestedPage(150_000);

beforeAll(async () => {
  files = await startFilesServer({
    '/deep.html': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(deep16k),
    '/deeper.html': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(deep1m),
    '/prices.html': (_q, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><h1>Prices</h1><p>Oil change $79.00, state inspection $25.50.</p></main></body></html>'),
  });
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000', SOURCE_READ_TIMEOUT_MS: String(DEADLINE_MS) }, fetchPolicy: testFetchPolicy(files) });
  server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const prisma = app.services.prisma;
  garage = (await prisma.business.findFirstOrThrow({ where: { kind: 'auto_repair', receptionist: null, city: 'Austin' }, orderBy: { slug: 'asc' } })).slug;
  owner = await bearerOf(garage);
  // A first read loads a worker; the figures below are about reading, not start-up.
  const first = await add({ url: `${files.origin}/prices.html` });
  expect(first.status, JSON.stringify(first.body)).toBe(200);
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.close();
  await files?.close();
});

async function bearerOf(slug: string) {
  return { authorization: `Bearer ${await businessKey(app, slug)}` };
}

async function add(input: Record<string, unknown>, headers = owner, signal?: AbortSignal) {
  const res = await fetch(`${base}/api/v1/add_receptionist_source`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(input),
    signal,
  });
  return { status: res.status, body: (await res.json()) as { error?: string; code?: string } };
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const rssMb = () => process.memoryUsage().rss / 1024 / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Times /healthz over its own connection, one request after another, until stopped. */
function probeHealth() {
  const times: number[] = [];
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const t = performance.now();
      const res = await fetch(`${base}/healthz`);
      await res.arrayBuffer();
      times.push(performance.now() - t);
      expect(res.status).toBe(200);
      await sleep(10);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      return times;
    },
  };
}

/** How long each attack lasts at least: a bomb refused sooner is sent again until then (so /healthz gets enough samples for a p99). */
const WINDOW_MS = 3000;

/** Sends a bomb, again and again for WINDOW_MS, while /healthz is timed; returns the answers, their times, /healthz's times and memory. */
async function attack(input: Record<string, unknown>) {
  // The worker replacing the last one loads the readers meanwhile (seconds under tsx here; in the
  // built server about one), so that the attack meets a ready worker as in production.
  await sleep(3000);
  const rssBefore = rssMb();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const probe = probeHealth();
  await sleep(200);
  const answers: Awaited<ReturnType<typeof add>>[] = [];
  const took: number[] = [];
  const start = performance.now();
  do {
    const t = performance.now();
    answers.push(await add(input));
    took.push(performance.now() - t);
  } while (performance.now() - start < WINDOW_MS);
  await sleep(300);
  const health = await probe.stop();
  loop.disable();
  // The worker's memory goes back to the system once it has stopped; on a loaded machine (CI runs
  // the whole suite beside this file) the last refused worker's exit can take several seconds.
  for (let waited = 0; waited < SETTLE_MS && rssMb() >= rssBefore + RSS_SLACK_MB; waited += 250) await sleep(250);
  const figures = {
    sent: answers.length,
    statuses: [...new Set(answers.map((a) => a.status))],
    tookMs: { max: Math.round(Math.max(...took)) },
    healthz: { n: health.length, p50: Math.round(percentile(health, 0.5)), p99: Math.round(percentile(health, 0.99)), max: Math.round(Math.max(...health)) },
    rssMb: { before: Math.round(rssBefore), after: Math.round(rssMb()) },
    eventLoopDelayMs: { p99: Math.round(loop.percentile(99) / 1e6), max: Math.round(loop.max / 1e6) },
  };
  console.log(JSON.stringify({ bomb: input.url ?? input.file_type, ...figures, error: answers[0]!.body.error }));
  return { answers, took, health, rssBefore };
}

function expectHarmless(result: Awaited<ReturnType<typeof attack>>, limit: RegExp) {
  for (const answer of result.answers) {
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.code).toBe('invalid_input');
    expect(answer.body.error).toMatch(limit);
  }
  expect(Math.max(...result.took)).toBeLessThan(DEADLINE_MS + 2000);
  expect(result.health.length).toBeGreaterThan(20);
  expect(percentile(result.health, 0.99)).toBeLessThan(HEALTHZ_P99_MS);
  expect(rssMb()).toBeLessThan(result.rssBefore + RSS_SLACK_MB);
}

describe('sources built to freeze a reader are refused while the server keeps answering', () => {
  it('a 16 KB page of 1,500 nested divs', async () => {
    expect(deep16k.length).toBeLessThan(17_000);
    expectHarmless(await attack({ url: `${files.origin}/deep.html` }), /nests its elements more than 128 levels deep/);
  });

  it('a 1.6 MB page of 150,000 nested divs', async () => {
    expect(deep1m.length).toBeGreaterThan(1_600_000);
    expectHarmless(await attack({ url: `${files.origin}/deeper.html` }), /nests its elements more than 128 levels deep/);
  });

  it('a PDF whose one content stream inflates to about 100 MB', async () => {
    const pdf = await inflatingPdf();
    expect(pdf.length).toBeLessThan(300_000);
    expectHarmless(await attack({ file_base64: pdf.toString('base64'), file_type: 'pdf' }), /compressed content unpacks to more than 64 MB/);
  });

  it('a PDF of nested Form XObjects, each drawing the next four times', async () => {
    const pdf = nestedFormsPdf();
    expect(pdf.length).toBeLessThan(5_000);
    expectHarmless(await attack({ file_base64: pdf.toString('base64'), file_type: 'pdf' }), /took longer than 6 seconds|needed more than \d+ MB of memory/);
  });

  it('a PNG of 39.6 megapixels (under the 40-megapixel limit): OCR is stopped at the deadline', async () => {
    const png = await largePng();
    expect(png.length).toBeLessThan(400_000);
    expectHarmless(await attack({ file_base64: png.toString('base64'), file_type: 'png' }), /took longer than 6 seconds|needed more than \d+ MB of memory/);
  });

  it('nothing of a refused bomb is saved', async () => {
    const sources = await app.services.prisma.receptionistSource.findMany({ where: { business: { slug: garage } }, select: { origin: true, format: true } });
    expect(sources).toEqual([{ origin: `${files.origin}/prices.html`, format: 'html' }]);
  });
});

describe('an abandoned request stops its reading', () => {
  it('the worker is ended as soon as the client disconnects, long before the deadline', async () => {
    const pdf = nestedFormsPdf();
    const client = new AbortController();
    const sent = add({ file_base64: pdf.toString('base64'), file_type: 'pdf' }, owner, client.signal).catch((err: Error) => err);
    const started = performance.now();
    while (app.services.reader.reading() === 0 && performance.now() - started < DEADLINE_MS) await sleep(20);
    expect(app.services.reader.reading()).toBe(1);
    client.abort();
    expect(await sent).toBeInstanceOf(Error);
    const aborted = performance.now();
    while (app.services.reader.reading() > 0 && performance.now() - aborted < DEADLINE_MS) await sleep(20);
    expect(app.services.reader.reading()).toBe(0);
    expect(performance.now() - aborted).toBeLessThan(DEADLINE_MS / 2);
    expect(await app.services.prisma.receptionistSource.count({ where: { business: { slug: garage }, format: 'pdf' } })).toBe(0);
  });
});

describe('the quota is checked before anything is fetched or read', () => {
  it('a business whose sources hold all the characters they may is refused, and the link is never requested', async () => {
    const prisma = app.services.prisma;
    const business = await prisma.business.findFirstOrThrow({ where: { kind: 'auto_repair', receptionist: null, slug: { not: garage } }, orderBy: { slug: 'asc' } });
    const headers = await bearerOf(business.slug);
    for (let i = 0; i < 3; i++) {
      const r = await add({ note: `${'Oil change $79. '.repeat(SOURCE_MAX_CHARS / 16)}`.slice(0, SOURCE_MAX_CHARS) }, headers);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const hits = files.hits.length;
    const r = await add({ url: `${files.origin}/prices.html` }, headers);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid_input', error: expect.stringMatching(/already hold 60,000 of 60,000 characters/) });
    expect(files.hits.length).toBe(hits);
    const pdf = await inflatingPdf(1024 * 1024);
    const upload = await add({ file_base64: pdf.toString('base64'), file_type: 'pdf' }, headers);
    expect(upload.body.error).toMatch(/already hold 60,000/);
    expect(app.services.reader.reading()).toBe(0);
  });

  it(`a business with ${MAX_SOURCES} sources is refused the same way`, async () => {
    const prisma = app.services.prisma;
    const business = await prisma.business.findFirstOrThrow({ where: { kind: 'beauty', receptionist: null }, orderBy: { slug: 'asc' } });
    await prisma.receptionistSource.createMany({
      data: Array.from({ length: MAX_SOURCES }, (_, i) => ({ businessId: business.id, kind: 'note', text: `Note ${i}`, addedAt: new Date() })),
    });
    const hits = files.hits.length;
    const r = await add({ url: `${files.origin}/prices.html` }, await bearerOf(business.slug));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(new RegExp(`has ${MAX_SOURCES} sources, the most it keeps`));
    expect(files.hits.length).toBe(hits);
  });
});
