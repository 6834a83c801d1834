/**
 * Porchlight benchmark (not a test): throughput and latency of find_cleaners over REST, MCP and
 * GraphQL, of find_service_call, visit_times, estimate_visit and book_cleaning over REST, and a micro-benchmark of
 * `openStarts` over a month, and subscription fan-out: 1,000 graphql-ws subscribers to one
 * booking's bookingUpdated, timed until the last one hears a change.
 *
 *   npm run bench            (or: npx tsx bench/run.ts)
 *   BENCH_SECONDS=5 npm run bench
 *   DATABASE_URL=postgres://... npm run bench   (benchmarks against PostgreSQL instead of PGlite)
 *
 * Prints a human table, then one final line of JSON with every figure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { serve, type ServerType } from '@hono/node-server';
import autocannon from 'autocannon';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.js';
import { createPorchlight, type Porchlight } from '../src/server.js';
import { attachWebSockets } from '../facades/ws.js';
import { openStarts, type Busy, type WeeklyHours } from '../src/availability/slots.js';

const NOW = '2026-11-23T15:00:00Z';
const CONNECTIONS = 16;
const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 8) || 8);
const ZIP = '78704';
const JOB = { bedrooms: 2, bathrooms: 1.5 };
const BASE_URL = 'http://porchlight.test';
/** A salon with six technicians of different skills and hours, asked for three services back to back. */
const MENU_BUSINESS = 'velvet-hair-studio-san-francisco';
const SELECTIONS = JSON.stringify([
  { service_id: 'womens-cut', add_on_ids: ['deep-conditioning'], scent_id: 'lavender' },
  { service_id: 'single-process-colour', add_on_ids: ['toner'] },
  { service_id: 'blow-dry' },
]);
const VISIT_DATE = '2026-12-01';

type Result = autocannon.Result;
interface Figures {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const log = (...a: unknown[]) => console.error(...a); // progress on stderr; the table and JSON on stdout

function figures(r: Result): Figures {
  return {
    rps: round(r.requests.average, 1),
    p50: round(r.latency.p50),
    p99: round(r.latency.p99),
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

async function main() {
  const usePostgres = Boolean(process.env.DATABASE_URL);
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-bench-'));
  log(`booting Porchlight (${usePostgres ? 'postgres' : 'pglite'} in ${usePostgres ? 'DATABASE_URL' : dataDir}) ...`);
  const porchlight = await createPorchlight({
    // One load generator is one client address: the limits on unconfirmed bookings per address
    // and contact would refuse all but the first ten bookings (they have their own tests).
    ...loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000000',
      PENDING_PER_CONTACT: '100000000',
      PENDING_PER_REQUESTER: '100000000',
      SECRETS_KEY: process.env.SECRETS_KEY,
    }),
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir,
    now: NOW,
    baseUrl: BASE_URL,
  });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: porchlight.fetch, port: 0, hostname: '127.0.0.1' });
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sockets = attachWebSockets(server, porchlight);

  const cleanup = async () => {
    await sockets.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await porchlight.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    // --- request shapes -------------------------------------------------------------------
    const restPath = `/api/v1/find_cleaners?zip=${ZIP}&bedrooms=2&bathrooms=1.5`;
    const serviceCallPath = `/api/v1/find_service_call?zip=${ZIP}&trade=plumbing&issue=leak`;
    const menuQuery = `business=${MENU_BUSINESS}&selections=${encodeURIComponent(SELECTIONS)}`;
    const visitTimesPath = `/api/v1/visit_times?${menuQuery}&date=${VISIT_DATE}`;
    const estimatePath = `/api/v1/estimate_visit?${menuQuery}`;
    const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_cleaners', arguments: { zip: ZIP, ...JOB } } });
    const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const gqlDoc = porchlight.app.documents.get('find_cleaners');
    if (!gqlDoc) throw new Error('no persisted find_cleaners document');
    const gqlBody = JSON.stringify({ query: gqlDoc, variables: { input: { zip: ZIP, ...JOB } } });
    const gqlHeaders = { 'content-type': 'application/json' };

    // --- sanity: each transport answers the same search ---------------------------------
    const rest = await (await fetch(origin + restPath)).json() as { cleaners: Array<{ pro_id: string }> };
    const mcpRes = await fetch(origin + '/mcp', { method: 'POST', headers: mcpHeaders, body: mcpBody });
    const mcpText = await mcpRes.text();
    const gql = await (await fetch(origin + '/graphql', { method: 'POST', headers: gqlHeaders, body: gqlBody })).json() as {
      data?: { findCleaners: { cleaners: Array<{ proId: string }> } };
      errors?: unknown;
    };
    if (!rest.cleaners?.length) throw new Error(`REST find_cleaners returned no cleaners: ${JSON.stringify(rest).slice(0, 300)}`);
    if (!mcpRes.ok || /"isError":\s*true/.test(mcpText)) throw new Error(`MCP find_cleaners failed: ${mcpRes.status} ${mcpText.slice(0, 300)}`);
    if (gql.errors || gql.data?.findCleaners.cleaners.length !== rest.cleaners.length) {
      throw new Error(`GraphQL find_cleaners differs: ${JSON.stringify(gql).slice(0, 300)}`);
    }
    const calls = await (await fetch(origin + serviceCallPath)).json() as { pros?: unknown[] };
    if (!calls.pros?.length) throw new Error(`REST find_service_call returned no pros: ${JSON.stringify(calls).slice(0, 300)}`);
    const visitTimes = (await (await fetch(origin + visitTimesPath)).json()) as { starts?: string[]; request_only?: boolean };
    if (visitTimes.request_only !== false || !visitTimes.starts?.length) throw new Error(`REST visit_times offered no starts: ${JSON.stringify(visitTimes).slice(0, 300)}`);
    const technicians = await porchlight.services.prisma.staffMember.count({ where: { menu: { business: { slug: MENU_BUSINESS } } } });
    const estimate = (await (await fetch(origin + estimatePath)).json()) as { estimate_cents?: number };
    if (typeof estimate.estimate_cents !== 'number') throw new Error(`REST estimate_visit failed: ${JSON.stringify(estimate).slice(0, 300)}`);

    // --- warm-up ------------------------------------------------------------------------
    log('warming up ...');
    const warm = { connections: 4, duration: 1 };
    await autocannon({ url: origin + restPath, ...warm });
    await autocannon({ url: origin + serviceCallPath, ...warm });
    await autocannon({ url: origin + visitTimesPath, ...warm });
    await autocannon({ url: origin + estimatePath, ...warm });
    await autocannon({ url: origin + '/mcp', method: 'POST', headers: mcpHeaders, body: mcpBody, ...warm });
    await autocannon({ url: origin + '/graphql', method: 'POST', headers: gqlHeaders, body: gqlBody, ...warm });

    // --- find_cleaners ------------------------------------------------------------------
    const run = (name: string, opts: autocannon.Options) => {
      log(`running ${name} for ${SECONDS}s at ${CONNECTIONS} connections ...`);
      return autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
    };
    const restFig = figures(await run('find_cleaners REST', { url: origin + restPath }));
    const mcpFig = figures(await run('find_cleaners MCP', { url: origin + '/mcp', method: 'POST', headers: mcpHeaders, body: mcpBody }));
    const gqlFig = figures(await run('find_cleaners GraphQL', { url: origin + '/graphql', method: 'POST', headers: gqlHeaders, body: gqlBody }));
    const serviceCallFig = figures(await run('find_service_call REST', { url: origin + serviceCallPath }));
    const visitTimesFig = figures(await run('visit_times REST', { url: origin + visitTimesPath }));
    const estimateFig = figures(await run('estimate_visit REST', { url: origin + estimatePath }));

    // --- book_cleaning: a pool of distinct, non-overlapping free starts -----------------
    log('collecting free starts for book_cleaning ...');
    const pros = await porchlight.services.prisma.business.findMany({
      where: { kind: 'cleaning', serviceZips: { some: {} } },
      select: { slug: true, serviceZips: { select: { zip: true }, take: 1 } },
      orderBy: { slug: 'asc' },
    });
    const pool: Array<{ pro_id: string; zip: string; start: string }> = [];
    const dayMs = 86_400_000;
    for (const p of pros) {
      const zip = p.serviceZips[0]!.zip;
      let lastEnd = -Infinity;
      for (let offset = 0; offset < 63; offset += 21) {
        const date = new Date(Date.parse(NOW) + offset * dayMs).toISOString().slice(0, 10);
        const qs = new URLSearchParams({ pro_id: p.slug, bedrooms: '2', bathrooms: '1.5', days: '21', date });
        const res = await fetch(`${origin}/api/v1/available_times?${qs}`);
        if (!res.ok) break;
        const t = (await res.json()) as { starts: string[]; duration_minutes: number };
        // Keep starts a job length plus an hour apart so no booking blocks another in the pool.
        const gap = (t.duration_minutes + 60) * 60_000;
        for (const s of t.starts) {
          const ms = Date.parse(s);
          if (ms < lastEnd) continue;
          pool.push({ pro_id: p.slug, zip, start: s });
          lastEnd = ms + gap;
        }
      }
    }
    // Interleave pros so concurrent requests rarely contend for the same business.
    pool.sort((a, b) => a.start.localeCompare(b.start) || a.pro_id.localeCompare(b.pro_id));
    log(`${pool.length} distinct starts across ${pros.length} cleaners`);
    if (pool.length < CONNECTIONS) throw new Error('not enough free starts to benchmark book_cleaning');

    let next = 0;
    let timeUnavailable = 0;
    let otherNon2xx = 0;
    const bookOpts: autocannon.Options = {
      url: origin + '/api/v1/book_cleaning',
      connections: CONNECTIONS,
      duration: SECONDS,
      maxOverallRequests: pool.length,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => {
            const slot = pool[next++ % pool.length]!;
            const n = next;
            return {
              ...req,
              body: JSON.stringify({
                ...slot, ...JOB,
                customer_name: `Bench Customer ${n}`,
                customer_email: `bench${n}@example.com`,
                address: `${n} Bench St, Austin TX`,
              }),
            };
          },
          onResponse: (status, body) => {
            if (status >= 200 && status < 300) return;
            if (status === 400 && /"time_unavailable"/.test(body)) timeUnavailable++;
            else otherNon2xx++;
          },
        },
      ],
    };
    log(`running book_cleaning REST for up to ${SECONDS}s at ${CONNECTIONS} connections ...`);
    const bookRaw = await autocannon(bookOpts);
    const bookFig = figures(bookRaw);

    // --- micro-benchmark: a month of starts with ~60 busy intervals --------------------
    log('timing openStarts over a month ...');
    const now = Date.parse(NOW);
    const hours: WeeklyHours[] = [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, startMinute: 8 * 60, endMinute: 18 * 60 }));
    const busy: Busy[] = [];
    for (let i = 0; i < 60; i++) {
      // Spread over the month at varied times of day (local 08:00-16:00), 60-120 minutes each.
      const day = Math.floor((i * 31) / 60);
      const localMinute = 8 * 60 + ((i * 97) % 480);
      const start = now - 9 * 3_600_000 + day * dayMs + localMinute * 60_000; // NOW is 09:00 in Austin
      busy.push({ start, end: start + (60 + (i % 3) * 30) * 60_000 });
    }
    const query = { zone: 'America/Chicago', hours, busy, durationMinutes: 180, now, days: 31 };
    const sample = openStarts(query);
    for (let i = 0; i < 20; i++) openStarts(query);
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      openStarts(query);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const monthMs = round((times[99]! + times[100]!) / 2, 3);

    // --- subscription fan-out ------------------------------------------------------------
    log(`timing bookingUpdated fan-out to ${SUBSCRIBERS} subscribers on ${SUBSCRIBER_CONNECTIONS} connections ...`);
    const fan = await subscriptionFanOut(origin, porchlight, pros.map((p) => p.slug));

    // --- report -------------------------------------------------------------------------
    const ratioRest = round(restFig.rps / gqlFig.rps, 3);
    const ratioMcp = round(mcpFig.rps / gqlFig.rps, 3);
    const rows: Array<[string, Figures]> = [
      ['find_cleaners REST', restFig],
      ['find_cleaners MCP', mcpFig],
      ['find_cleaners GraphQL', gqlFig],
      ['find_service_call REST', serviceCallFig],
      ['visit_times REST', visitTimesFig],
      ['estimate_visit REST', estimateFig],
      ['book_cleaning REST', bookFig],
    ];
    const pad = (s: string | number, n: number) => String(s).padStart(n);
    console.log(`\nPorchlight benchmark — ${usePostgres ? 'postgres' : 'pglite'}, ${CONNECTIONS} connections, ${SECONDS}s per run, clock ${NOW}`);
    console.log(`${'measure'.padEnd(24)}${pad('req/s', 10)}${pad('p50 ms', 10)}${pad('p99 ms', 10)}${pad('requests', 10)}${pad('non-2xx', 10)}${pad('errors', 8)}`);
    for (const [name, f] of rows) {
      console.log(`${name.padEnd(24)}${pad(f.rps, 10)}${pad(f.p50, 10)}${pad(f.p99, 10)}${pad(f.requests, 10)}${pad(f.non2xx, 10)}${pad(f.errors, 8)}`);
    }
    console.log(`book_cleaning: pool of ${pool.length} distinct starts; ${timeUnavailable} × 400 time_unavailable, ${otherNon2xx} other non-2xx`);
    console.log(`REST / GraphQL req/s: ${ratioRest} (target ≥ 0.95)   MCP / GraphQL req/s: ${ratioMcp} (target ≥ 0.85)`);
    console.log(`find_cleaners REST p99: ${restFig.p99} ms (target ≤ 25)`);
    console.log(`visit_times REST p99 (${technicians} technicians, 3 services, ${visitTimes.starts.length} starts): ${visitTimesFig.p99} ms (target ≤ 25)`);
    console.log(
      `bookingUpdated fan-out: ${SUBSCRIBERS} subscribers on ${SUBSCRIBER_CONNECTIONS} connections, one cancel answered in ${fan.requestMs} ms; heard first ${fan.firstMs} ms, median ${fan.medianMs} ms, last ${fan.lastMs} ms after the request`,
    );
    console.log(`openStarts, 31 days, ${busy.length} busy intervals: median ${monthMs} ms over 200 runs, ${sample.length} starts (target ≤ 20)\n`);

    const json = {
      find_cleaners_rest_rps: restFig.rps,
      find_cleaners_rest_p50_ms: restFig.p50,
      find_cleaners_rest_p99_ms: restFig.p99,
      find_cleaners_rest_non2xx: restFig.non2xx,
      find_cleaners_mcp_rps: mcpFig.rps,
      find_cleaners_mcp_p50_ms: mcpFig.p50,
      find_cleaners_mcp_p99_ms: mcpFig.p99,
      find_cleaners_mcp_non2xx: mcpFig.non2xx,
      find_cleaners_graphql_rps: gqlFig.rps,
      find_cleaners_graphql_p50_ms: gqlFig.p50,
      find_cleaners_graphql_p99_ms: gqlFig.p99,
      find_cleaners_graphql_non2xx: gqlFig.non2xx,
      find_service_call_rest_rps: serviceCallFig.rps,
      find_service_call_rest_p50_ms: serviceCallFig.p50,
      find_service_call_rest_p99_ms: serviceCallFig.p99,
      find_service_call_rest_non2xx: serviceCallFig.non2xx,
      visit_times_rest_rps: visitTimesFig.rps,
      visit_times_rest_p50_ms: visitTimesFig.p50,
      visit_times_rest_p99_ms: visitTimesFig.p99,
      visit_times_rest_non2xx: visitTimesFig.non2xx,
      visit_times_technicians: technicians,
      estimate_visit_rest_rps: estimateFig.rps,
      estimate_visit_rest_p50_ms: estimateFig.p50,
      estimate_visit_rest_p99_ms: estimateFig.p99,
      estimate_visit_rest_non2xx: estimateFig.non2xx,
      book_cleaning_rps: bookFig.rps,
      book_cleaning_p50_ms: bookFig.p50,
      book_cleaning_p99_ms: bookFig.p99,
      book_cleaning_requests: bookFig.requests,
      book_cleaning_errors: otherNon2xx + bookFig.errors,
      book_cleaning_time_unavailable: timeUnavailable,
      book_cleaning_pool: pool.length,
      ratio_rest_to_graphql: ratioRest,
      ratio_mcp_to_graphql: ratioMcp,
      month_of_starts_ms: monthMs,
      subscription_fanout_subscribers: SUBSCRIBERS,
      subscription_fanout_connections: SUBSCRIBER_CONNECTIONS,
      subscription_fanout_cancel_request_ms: fan.requestMs,
      subscription_fanout_first_ms: fan.firstMs,
      subscription_fanout_median_ms: fan.medianMs,
      subscription_fanout_last_ms: fan.lastMs,
      connections: CONNECTIONS,
      seconds: SECONDS,
      database: usePostgres ? 'postgres' : 'pglite',
      target_rest_ge_095_graphql: ratioRest >= 0.95,
      target_mcp_ge_085_graphql: ratioMcp >= 0.85,
      target_find_cleaners_rest_p99_le_25ms: restFig.p99 <= 25,
      target_visit_times_rest_p99_le_25ms: visitTimesFig.p99 <= 25,
      target_month_of_starts_le_20ms: monthMs <= 20,
    };
    console.log(JSON.stringify(json));
  } finally {
    await cleanup();
  }
}

const SUBSCRIBERS = 1000;
const SUBSCRIBER_CONNECTIONS = 10;

/**
 * SUBSCRIBERS subscriptions to one booking's bookingUpdated, spread over a few graphql-ws
 * connections. Warm-up events published straight to the pub/sub prove every subscriber is live
 * (the server subscribes asynchronously); the timed event is a real cancel_booking, from the
 * request until each subscriber has the reloaded booking.
 */
async function subscriptionFanOut(origin: string, porchlight: Porchlight, pros: string[]) {
  // A booking of its own: the latest open start any cleaner still has (the pool took others).
  let booking: { booking_id: string; manage_token: string } | undefined;
  for (const pro of pros) {
    const t = (await (await fetch(`${origin}/api/v1/available_times?pro_id=${pro}&bedrooms=2&bathrooms=1.5&days=21`)).json()) as { starts?: string[]; price: number };
    const start = t.starts?.at(-1);
    if (!start) continue;
    const res = await fetch(`${origin}/api/v1/book_cleaning`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pro_id: pro, ...JOB, start, price: t.price, zip: (await zipOf(porchlight, pro)), customer_name: 'Fan Out', customer_email: 'fanout@example.com', address: '1 Fan St, Austin TX' }),
    });
    if (res.ok) {
      booking = (await res.json()) as { booking_id: string; manage_token: string };
      break;
    }
  }
  if (!booking) throw new Error('no open start left to book for the fan-out benchmark');
  const bookingId = booking.booking_id;

  const query = 'subscription ($id: ID!, $t: String) { bookingUpdated(bookingId: $id, manageToken: $t) { bookingId status } }';
  // Per subscriber: how many results arrived, and when the cancelled booking did.
  const heard: number[] = Array.from({ length: SUBSCRIBERS }, () => 0);
  const cancelledAt: (number | undefined)[] = Array.from({ length: SUBSCRIBERS }, () => undefined);
  const failures: unknown[] = [];
  const clients = Array.from({ length: SUBSCRIBER_CONNECTIONS }, () =>
    createClient({ url: `${origin.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 }),
  );
  const stops = heard.map((_, i) =>
    clients[i % SUBSCRIBER_CONNECTIONS]!.subscribe(
      { query, variables: { id: bookingId, t: booking.manage_token } },
      {
        next: (r) => {
          if (r.errors) failures.push(r.errors);
          heard[i]!++;
          const status = (r.data as { bookingUpdated?: { status: string } } | undefined)?.bookingUpdated?.status;
          if (status === 'cancelled') cancelledAt[i] ??= performance.now();
        },
        error: (e) => failures.push(e),
        complete: () => {},
      },
    ),
  );
  const waitFor = async (done: () => boolean, what: string, onWait?: () => void) => {
    const end = Date.now() + 60_000;
    let lastPoke = 0;
    while (!done()) {
      if (failures.length) throw new Error(`fan-out subscription failed: ${JSON.stringify(failures[0]).slice(0, 300)}`);
      if (Date.now() > end) throw new Error(`fan-out: timed out waiting for ${what}`);
      if (onWait && Date.now() - lastPoke > 1000) {
        onWait();
        lastPoke = Date.now();
      }
      await new Promise((r) => setTimeout(r, 2));
    }
  };
  try {
    await waitFor(() => heard.every((n) => n > 0), 'every subscriber to go live', () =>
      porchlight.services.events.publish('bookingUpdated', bookingId, { position: '0', type: 'booking.updated', businessId: 'warm-up', bookingId, at: new Date(porchlight.services.clock.now()).toISOString() }),
    );
    // Let the warm-up deliveries drain (no arrival for 300 ms), so none is mistaken for the timed one.
    for (let total = -1; ; ) {
      const sum = heard.reduce((a, b) => a + b, 0);
      if (sum === total) break;
      total = sum;
      await new Promise((r) => setTimeout(r, 300));
    }
    const t0 = performance.now();
    const cancelled = await fetch(`${origin}/api/v1/cancel_booking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ booking_id: bookingId, manage_token: booking.manage_token }),
    });
    if (!cancelled.ok) throw new Error(`cancelling the fan-out booking failed: ${cancelled.status}`);
    const answeredMs = performance.now() - t0;
    await waitFor(() => cancelledAt.every((t) => t !== undefined), 'every subscriber to hear the cancellation');
    const after = cancelledAt.map((t) => t! - t0).sort((a, b) => a - b);
    return { requestMs: round(answeredMs, 1), firstMs: round(after[0]!, 1), medianMs: round(after[Math.floor(after.length / 2)]!, 1), lastMs: round(after.at(-1)!, 1) };
  } finally {
    for (const stop of stops) stop();
    await Promise.all(clients.map((c) => c.dispose()));
  }
}

async function zipOf(porchlight: Porchlight, slug: string): Promise<string> {
  const zip = await porchlight.services.prisma.serviceZip.findFirstOrThrow({ where: { business: { slug } }, select: { zip: true } });
  return zip.zip;
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
