import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Session } from 'node:inspector/promises';

// As the server runs: graphql-js reads NODE_ENV once, when loaded, and outside production checks
// every instanceof across realms (slow). So it is set before the app is imported.
process.env.NODE_ENV = 'production';
const { createPorchlight } = await import('../main.js');
const { loadConfig } = await import('../src/config.js');

/**
 * CPU per request of the same search (find_cleaners) over REST, MCP (a 2025 call without
 * initialize, and a 2026-07-28 call) and GraphQL (its persisted document), in process: no
 * sockets or load generator, so a shared 2-core machine's noise stays small. Surfaces take turns
 * in short rounds; medians and minimums, each with its ratio to REST.
 *
 *   npx tsx bench/cost.ts                       (PGlite in a temporary folder, seeded)
 *   KEEP_DIR=/tmp/pl-cost npx tsx bench/cost.ts (a folder kept between runs: seeded once)
 *   PROFILE=mcp2026 npx tsx bench/cost.ts       (also writes mcp2026.cpuprofile for that surface)
 *
 * N requests per round (300), ROUNDS (20), WARM requests per surface first (1,500). The platform's
 * Request and Response built here stream bodies at a cost per byte that serving does not pay:
 * bench/cost-served.ts counts the server's CPU as `npm start` serves.
 */
const N = Number(process.env.N ?? 300);
const PROFILE = process.env.PROFILE;
const dataDir = process.env.KEEP_DIR ?? mkdtempSync(join(tmpdir(), 'pl-cost-'));
const base = 'http://porchlight.test';
const p = await createPorchlight({
  ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000000', SECRETS_KEY: randomBytes(32).toString('base64url'), SEED_DEMO: 'true' }),
  dataDir,
  now: '2026-11-23T15:00:00Z',
  baseUrl: base,
});
const args = { zip: '78704', bedrooms: 2, bathrooms: 1.5 };
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** A POST as it arrives over HTTP: with its length (without it, the body limit reads and rebuilds the request). */
const post = (path: string, headers: Record<string, string>, value: unknown) => {
  const body = JSON.stringify(value);
  return new Request(base + path, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, body });
};
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const surfaces: Record<string, () => Request> = {
  rest: () => new Request(`${base}/api/v1/find_cleaners?zip=78704&bedrooms=2&bathrooms=1.5`),
  mcp2025: () => post('/mcp', json, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_cleaners', arguments: args } }),
  mcp2026: () => post('/mcp', { ...json, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'find_cleaners' }, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_cleaners', arguments: args, _meta: meta } }),
  // As the benchmark sends it: no Accept.
  graphql: () => post('/graphql', { 'content-type': 'application/json' }, { documentId: 'find_cleaners', variables: { input: args } }),
};
async function one(name: string) {
  const request = surfaces[name]!();
  const res = await p.fetch(request);
  const text = await res.text();
  if (res.status !== 200 || text.includes('"isError":true') || text.includes('"errors"')) throw new Error(`${name}: ${res.status} ${text.slice(0, 300)}`);
}
for (const name of Object.keys(surfaces)) for (let i = 0; i < Number(process.env.WARM ?? 1500); i++) await one(name);
const results: Record<string, number[]> = {};
// Interleaved short rounds: the machine is shared, so each surface meets the same noise.
for (let round = 0; round < Number(process.env.ROUNDS ?? 20); round++) {
  for (const name of Object.keys(surfaces)) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < N; i++) await one(name);
    const c = process.cpuUsage(c0);
    (results[name] ??= []).push((c.user + c.system) / 1000 / N);
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const restMedian = median(results.rest!);
const restMin = Math.min(...results.rest!);
for (const [name, v] of Object.entries(results)) {
  console.log(`${name.padEnd(8)} median ${median(v).toFixed(3)} ms/req ×${(median(v) / restMedian).toFixed(2)}   min ${Math.min(...v).toFixed(3)} ×${(Math.min(...v) / restMin).toFixed(2)}`);
}
if (PROFILE) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let i = 0; i < N * 10; i++) await one(PROFILE);
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(`${PROFILE}.cpuprofile`, JSON.stringify(profile));
  console.log(`wrote ${PROFILE}.cpuprofile`);
}
await p.close();
if (!process.env.KEEP_DIR) rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
