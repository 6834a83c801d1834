import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fork } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/**
 * The server's CPU per request of the same search (find_cleaners) over REST, MCP and GraphQL, as
 * `npm start` serves it: over a socket, through @hono/node-server, whose Request and Response
 * stand in for the platform's (bodies read from and written to Node's messages directly). A
 * client in a child process sends the requests one at a time, surfaces taking turns; only the
 * server process's CPU is counted. cost.ts (in process) builds the platform's Request and
 * Response instead, whose body streams cost more per byte than serving does.
 *
 *   npx tsx bench/cost-served.ts                       (PGlite in a temporary folder, seeded)
 *   KEEP_DIR=/tmp/pl-cost npx tsx bench/cost-served.ts (a folder kept between runs: seeded once)
 *
 * N requests per round (300), ROUNDS (15), WARM rounds per surface first (3).
 */
process.env.NODE_ENV = 'production';
const N = Number(process.env.N ?? 300);
const args = { zip: '78704', bedrooms: 2, bathrooms: 1.5 };
const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const surfaces: Record<string, { method: string; path: string; headers: Record<string, string>; body?: unknown }> = {
  rest: { method: 'GET', path: '/api/v1/find_cleaners?zip=78704&bedrooms=2&bathrooms=1.5', headers: {} },
  mcp2025: { method: 'POST', path: '/mcp', headers: json, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_cleaners', arguments: args } } },
  mcp2026: {
    method: 'POST',
    path: '/mcp',
    headers: { ...json, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'find_cleaners' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_cleaners', arguments: args, _meta: meta } },
  },
  graphql: { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: { documentId: 'find_cleaners', variables: { input: args } } },
};

if (process.argv[2] === 'client') {
  const origin = process.argv[3]!;
  process.on('message', async (name: string) => {
    const { method, path, headers, body } = surfaces[name]!;
    for (let i = 0; i < N; i++) {
      const res = await fetch(origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== 200 || text.includes('"isError":true') || text.includes('"errors"')) throw new Error(`${name}: ${res.status} ${text.slice(0, 300)}`);
    }
    process.send!('done');
  });
  process.send!('ready');
} else {
  const { createPorchlight } = await import('../main.js');
  const { loadConfig } = await import('../src/config.js');
  const dataDir = process.env.KEEP_DIR ?? mkdtempSync(join(tmpdir(), 'pl-cost-'));
  // The Host the client sends (localhost:port) is a loopback name on the configured port.
  const port = 3000 + Math.floor(Math.random() * 20000);
  const p = await createPorchlight({
    ...loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000000', SECRETS_KEY: randomBytes(32).toString('base64url'), SEED_DEMO: 'true', PORT: String(port) }),
    dataDir,
    now: '2026-11-23T15:00:00Z',
    baseUrl: `http://localhost:${port}`,
  });
  const server = serve({ fetch: p.fetch, port, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  const client = fork(new URL(import.meta.url).pathname, ['client', origin], { execArgv: process.execArgv });
  const stopped = (code: number | null) => {
    console.error(`The client stopped (${code}).`);
    process.exit(1);
  };
  client.on('exit', stopped);
  const turn = (name: string) =>
    new Promise<void>((resolve) => {
      client.once('message', () => resolve());
      client.send(name);
    });
  await new Promise((resolve) => client.once('message', resolve));
  const names = Object.keys(surfaces);
  for (let w = 0; w < Number(process.env.WARM ?? 3); w++) for (const name of names) await turn(name);
  const results: Record<string, number[]> = {};
  for (let round = 0; round < Number(process.env.ROUNDS ?? 15); round++) {
    for (const name of names) {
      const c0 = process.cpuUsage();
      await turn(name);
      const c = process.cpuUsage(c0);
      (results[name] ??= []).push((c.user + c.system) / 1000 / N);
    }
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
  const restMedian = median(results.rest!);
  for (const [name, v] of Object.entries(results)) console.log(`${name.padEnd(8)} server median ${median(v).toFixed(3)} ms/req ×${(median(v) / restMedian).toFixed(2)}`);
  client.off('exit', stopped);
  client.kill();
  server.close();
  await p.close();
  if (!process.env.KEEP_DIR) rmSync(dataDir, { recursive: true, force: true });
  process.exit(0);
}
