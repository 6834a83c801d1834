/**
 * Porchlight benchmark (not a test). The server runs as its own process, as in production, on
 * the demo data or the demo catalog cloned BENCH_SCALE times (businesses with their hours, ZIPs,
 * links, bookings, visits and blocks); autocannon drives it from this process.
 *
 * Measured: the cold first search; find_cleaners over REST, MCP and GraphQL and
 * find_service_call, the owner's call_brief and schedule, visit_times and estimate_visit over REST at
 * 16 connections; searches at 16 connections while bookings run at
 * 2 beside them; book_cleaning alone at 16; the server's memory and its CPU per search on each
 * surface (serverCpuPerSearch). Then, in-process on the demo
 * data: a month of open starts for one pro, and subscription fan-out (1,000 graphql-ws
 * subscribers to one booking, timed until the last hears its cancellation).
 *
 *   npm run bench                                   # PGlite ×1 (the README's default)
 *   DATABASE_URL=postgres://... npm run bench       # that, then PostgreSQL ×100
 *
 * DATABASE_URL names a server: the benchmark works in a database of its own there and drops it.
 * BENCH_PROFILES=pglite or =postgres runs one profile. Prints a table per profile, then one line
 * of JSON with every figure of every profile, its scale and database, and each target met or not.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { serve, type ServerType } from '@hono/node-server';
import autocannon from 'autocannon';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createPorchlight, type Porchlight } from '../main.js';
import { attachWebSockets } from '../facades/ws.js';
import { openStarts, type Busy, type WeeklyHours } from '../src/core/slots.js';
import { hashToken, newToken } from '../src/auth/tokens.js';
import { POOL_PROS_SQL, bookingPool } from './booking-pool.js';
import { benchDatabase, cloneCatalog } from './database.js';
import { NOW, cpuMsOf, stagingSettings } from './staging.js';

const CONNECTIONS = 16;
const BOOKING_CONNECTIONS_BESIDE = 2;
const SECONDS = Math.max(1, Number(process.env.BENCH_SECONDS ?? 8) || 8);
/** How many times PostgreSQL's profile clones the demo catalog (PGlite's runs it once, as people meet it). */
const POSTGRES_SCALE = Math.max(1, Math.floor(Number(process.env.BENCH_SCALE ?? 100) || 100));
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

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** Where the benchmark's data lives: a fresh database on DATABASE_URL's server, or PGlite in a temp folder. */
interface Profile {
  kind: 'pglite' | 'postgres';
  scale: number;
  /** PostgreSQL's server, for the postgres profile. */
  url?: string;
}


/**
 * The node flags and environment defaults of `npm start`'s last command (`A=${A:-1} node … dist/main.js`),
 * so that the server measured is the one people run, memory settings included.
 */
function startCommand(): { nodeArgs: string[]; env: Record<string, string> } {
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const last = start.split('&&').at(-1)!.trim();
  const m = /^((?:\w+=\S+\s+)*)node\s+(.*?)\s*dist\/main\.js$/.exec(last);
  if (!m) throw new Error(`npm start's last command is not "… node … dist/main.js": ${last}`);
  const env: Record<string, string> = {};
  for (const [, name, value] of m[1]!.matchAll(/(\w+)=(\S+)/g)) {
    const dflt = /^\$\{\w+:-(.*)\}$/.exec(value!);
    const v = dflt ? (process.env[name!] ?? dflt[1]!) : value!;
    env[name!] = v;
  }
  return { nodeArgs: m[2]!.split(/\s+/).filter(Boolean), env };
}

/** `npm start`'s server (the compiled JavaScript) as a child process, ready once /healthz answers. */
async function startServer(env: Record<string, string>): Promise<{ origin: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
  const start = startCommand();
  const child = spawn(process.execPath, [...start.nodeArgs, 'dist/main.js'], {
    cwd: process.cwd(),
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'DATABASE_URL')),
      ...start.env,
      ...env,
      ...stagingSettings(),
      LOG_LEVEL: 'warn',
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  // A first start creates and seeds the database in a child process; on a machine shared with
  // other work that alone has taken over two minutes.
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) while starting`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('the server did not start within 5 minutes');
    }
    const ok = await fetch(`${origin}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    origin,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Resident memory of a process (now, and its peak), in MB. */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: round(kb('VmRSS') / 1024, 1), peakMb: round(kb('VmHWM') / 1024, 1) };
}

const COST_ROUNDS = 4;
const COST_SECONDS = 2;

/**
 * The server's own CPU (user and system, from /proc) per search on each surface: what a surface
 * costs the server, apart from the load generator beside it, whose share grows with the answer's
 * bytes. The surfaces take turns in short runs at 16 connections, so a shared machine's passing
 * noise falls on each alike; each figure is its CPU over all its runs ÷ its requests.
 */
async function serverCpuPerSearch<S extends string>(pid: number, surfaces: Record<S, autocannon.Options>): Promise<Record<S, number>> {
  const spent = {} as Record<S, { ms: number; requests: number }>;
  log(`timing the server's CPU per search, ${COST_ROUNDS} rounds of ${Object.keys(surfaces).join(', ')}, ${COST_SECONDS}s each ...`);
  for (let i = 0; i < COST_ROUNDS; i++) {
    for (const [name, opts] of Object.entries(surfaces) as Array<[S, autocannon.Options]>) {
      const before = cpuMsOf([pid]);
      const result = await autocannon({ connections: CONNECTIONS, duration: COST_SECONDS, ...opts });
      const entry = (spent[name] ??= { ms: 0, requests: 0 });
      entry.ms += cpuMsOf([pid]) - before;
      entry.requests += result.requests.total;
    }
  }
  const entries = Object.entries(spent) as Array<[S, { ms: number; requests: number }]>;
  return Object.fromEntries(entries.map(([name, v]) => [name, round(v.ms / v.requests, 3)])) as Record<S, number>;
}

/** The pool of starts to book (bench/booking-pool.ts) from every cleaner of the catalog. */
async function startsToBook(origin: string, db: pg.Client, wanted: number) {
  const pros = (await db.query<{ slug: string; zip: string }>(POOL_PROS_SQL)).rows;
  return { pool: await bookingPool((path) => fetch(`${origin}${path}`), pros, NOW, wanted), pros: pros.length };
}

/** book_cleaning requests taking starts from `pool` in turn; outcomes counted. */
function bookingRequests(origin: string, pool: Array<{ pro_id: string; zip: string; start: string }>, connections: number, seconds: number) {
  let next = 0;
  const outcome = { timeUnavailable: 0, other: 0 };
  const opts: autocannon.Options = {
    url: origin + '/api/v1/book_cleaning',
    connections,
    duration: seconds,
    maxOverallRequests: pool.length,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => {
          const n = next++;
          const slot = pool[n % pool.length]!;
          return {
            ...req,
            headers: { ...req.headers, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
            body: JSON.stringify({ ...slot, ...JOB, customer_name: `Bench Customer ${n}`, customer_email: `bench${n}@example.com`, address: `${n} Bench St, Austin TX` }),
          };
        },
        onResponse: (status, body) => {
          if (status >= 200 && status < 300) return;
          if (status === 400 && /"time_unavailable"/.test(body)) outcome.timeUnavailable++;
          else outcome.other++;
        },
      },
    ],
  };
  return { opts, outcome };
}

/** One database and catalog size: every HTTP measure against its own server process. */
async function runProfile(profile: Profile) {
  const SCALE = profile.scale;
  const database = await benchDatabase(profile.url, 'porchlight_bench');
  log(`booting Porchlight (${database.kind}, scale ×${SCALE}) ...`);
  const server = await startServer(database.env);
  const { origin } = server;
  const db = database.client();
  // A dropped connection is reported where it happens, not as an unhandled 'error' event.
  db.on('error', (err) => log(`the benchmark's database connection failed: ${err.message}`));
  await db.connect();
  try {
    let catalog = { businesses: 0, visits: 0, blocks: 0, zips: 0 };
    if (SCALE > 1) {
      log(`cloning the demo catalog ×${SCALE} ...`);
      const t0 = performance.now();
      catalog = await cloneCatalog(db, SCALE);
      log(`  ${catalog.businesses} businesses, ${catalog.zips} ZIP rows, ${catalog.visits} visits, ${catalog.blocks} blocks in ${Math.round(performance.now() - t0)} ms`);
    } else {
      catalog.businesses = Number((await db.query('SELECT count(*) FROM "Business"')).rows[0].count);
    }

    // --- the first search after start: nothing of the ZIP is in memory yet ------------------
    const logMemory = () => {
      const m = memoryOf(server.child.pid!);
      log(`  server memory ${m.rssMb} MB (peak ${m.peakMb} MB)`);
    };
    const restPath = `/api/v1/find_cleaners?zip=${ZIP}&bedrooms=2&bathrooms=1.5`;
    const t0 = performance.now();
    const coldRes = await fetch(origin + restPath);
    const coldMs = round(performance.now() - t0, 1);
    const rest = (await coldRes.json()) as { cleaners: Array<{ pro_id: string }> };

    // --- request shapes, and a sanity check that every transport answers the same -----------
    const serviceCallPath = `/api/v1/find_service_call?zip=${ZIP}&trade=plumbing&issue=leak`;
    const mcpBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_cleaners', arguments: { zip: ZIP, ...JOB } } });
    const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const gqlBody = JSON.stringify({ documentId: 'find_cleaners', variables: { input: { zip: ZIP, ...JOB } } });
    const gqlHeaders = { 'content-type': 'application/json' };
    if (!rest.cleaners?.length) throw new Error(`REST find_cleaners returned no cleaners: ${JSON.stringify(rest).slice(0, 300)}`);
    const mcpRes = await fetch(origin + '/mcp', { method: 'POST', headers: mcpHeaders, body: mcpBody });
    const mcpText = await mcpRes.text();
    if (!mcpRes.ok || /"isError":\s*true/.test(mcpText)) throw new Error(`MCP find_cleaners failed: ${mcpRes.status} ${mcpText.slice(0, 300)}`);
    const gql = (await (await fetch(origin + '/graphql', { method: 'POST', headers: gqlHeaders, body: gqlBody })).json()) as { data?: { findCleaners: { cleaners: unknown[] } }; errors?: unknown };
    if (gql.errors || gql.data?.findCleaners.cleaners.length !== rest.cleaners.length) throw new Error(`GraphQL find_cleaners differs: ${JSON.stringify(gql).slice(0, 300)}`);
    const calls = (await (await fetch(origin + serviceCallPath)).json()) as { pros?: unknown[] };
    if (!calls.pros?.length) throw new Error(`REST find_service_call returned no pros: ${JSON.stringify(calls).slice(0, 300)}`);

    log('warming up ...');
    const warm = { connections: 4, duration: 1 };
    await autocannon({ url: origin + restPath, ...warm });
    await autocannon({ url: origin + serviceCallPath, ...warm });
    await autocannon({ url: origin + '/mcp', method: 'POST', headers: mcpHeaders, body: mcpBody, ...warm });
    await autocannon({ url: origin + '/graphql', method: 'POST', headers: gqlHeaders, body: gqlBody, ...warm });

    const run = async (name: string, opts: autocannon.Options) => {
      log(`running ${name} for ${SECONDS}s at ${opts.connections ?? CONNECTIONS} connections ...`);
      const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts });
      logMemory();
      return result;
    };
    const searches: Record<'rest' | 'mcp' | 'graphql', autocannon.Options> = {
      rest: { url: origin + restPath },
      mcp: { url: origin + '/mcp', method: 'POST', headers: mcpHeaders, body: mcpBody },
      graphql: { url: origin + '/graphql', method: 'POST', headers: gqlHeaders, body: gqlBody },
    };
    const restFig = figures(await run('find_cleaners REST', searches.rest));
    const ceilingFig = await ceiling(restPath, JSON.stringify(rest), (opts) => run('ceiling: the same body precomputed', opts));
    const mcpFig = figures(await run('find_cleaners MCP', searches.mcp));
    const gqlFig = figures(await run('find_cleaners GraphQL', searches.graphql));
    const cpu = await serverCpuPerSearch(server.child.pid!, searches);
    const serviceCallFig = figures(await run('find_service_call REST', { url: origin + serviceCallPath }));

    // --- owner reads: call_brief (a phone is ringing) and schedule, with a business key --------
    const ownerKey = newToken('sk_pro_');
    const owned = (await db.query<{ id: string; phone: string }>(
      `SELECT b.id, k."customerPhone" AS phone FROM "Business" b JOIN "Booking" k ON k."businessId" = b.id WHERE b.slug = 'sparkle-shine-cleaning-austin' AND k."customerPhone" IS NOT NULL LIMIT 1`,
    )).rows[0];
    if (!owned) throw new Error('the demo cleaner has no customer with a phone to brief about');
    await db.query(`INSERT INTO "ApiKey" (id, kind, "keyHash", hint, "businessId", scopes) VALUES ($1, 'business', $2, $3, $4, $5)`, [
      `bench_${randomBytes(6).toString('hex')}`, hashToken(ownerKey), ownerKey.slice(0, 12), owned.id, ['read', 'write'],
    ]);
    const ownerHeaders = { authorization: `Bearer ${ownerKey}` };
    const briefPath = `/api/v1/call_brief?phone=${encodeURIComponent(owned.phone)}`;
    const brief = (await (await fetch(origin + briefPath, { headers: ownerHeaders })).json()) as { caller?: { known: boolean } };
    if (!brief.caller?.known) throw new Error(`call_brief did not know the demo caller: ${JSON.stringify(brief).slice(0, 300)}`);
    const schedulePath = '/api/v1/schedule';

    // --- menu businesses: visit_times and estimate_visit at a six-technician salon -------------
    const menuQuery = `business=${MENU_BUSINESS}&selections=${encodeURIComponent(SELECTIONS)}`;
    const visitTimesPath = `/api/v1/visit_times?${menuQuery}&date=${VISIT_DATE}`;
    const estimatePath = `/api/v1/estimate_visit?${menuQuery}`;
    const visitTimes = (await (await fetch(origin + visitTimesPath)).json()) as { starts?: string[]; request_only?: boolean };
    if (visitTimes.request_only !== false || !visitTimes.starts?.length) throw new Error(`REST visit_times offered no starts: ${JSON.stringify(visitTimes).slice(0, 300)}`);
    const technicians = Number((await db.query(`SELECT count(*) FROM "StaffMember" s JOIN "Business" b ON b.id = s."businessId" WHERE b.slug = $1`, [MENU_BUSINESS])).rows[0].count);
    const estimate = (await (await fetch(origin + estimatePath)).json()) as { estimate_cents?: number };
    if (typeof estimate.estimate_cents !== 'number') throw new Error(`REST estimate_visit failed: ${JSON.stringify(estimate).slice(0, 300)}`);
    await autocannon({ url: origin + visitTimesPath, ...warm });
    const visitTimesFig = figures(await run(`visit_times REST (${technicians} technicians, 3 services)`, { url: origin + visitTimesPath }));
    const estimateFig = figures(await run('estimate_visit REST', { url: origin + estimatePath }));
    await autocannon({ url: origin + briefPath, headers: ownerHeaders, ...warm });
    await autocannon({ url: origin + schedulePath, headers: ownerHeaders, ...warm });
    const briefFig = figures(await run('call_brief REST', { url: origin + briefPath, headers: ownerHeaders }));
    const scheduleFig = figures(await run('schedule REST', { url: origin + schedulePath, headers: ownerHeaders }));

    // --- one calendar: the salon's schedule holding 200 entries of every kind -----------------
    const mixed = await mixedCalendar(db);
    const mixedHeaders = { authorization: `Bearer ${mixed.key}` };
    const mixedSchedule = (await (await fetch(origin + schedulePath, { headers: mixedHeaders })).json()) as { jobs?: Array<{ kind: string }> };
    const mixedKinds = [...new Set(mixedSchedule.jobs?.map((j) => j.kind))].sort().join(', ');
    if ((mixedSchedule.jobs?.length ?? 0) < MIXED_ENTRIES) throw new Error(`schedule listed ${mixedSchedule.jobs?.length} of ${MIXED_ENTRIES} entries: ${JSON.stringify(mixedSchedule).slice(0, 300)}`);
    await autocannon({ url: origin + schedulePath, headers: mixedHeaders, ...warm });
    const scheduleMixedFig = figures(await run(`schedule REST (${MIXED_ENTRIES} entries: ${mixedKinds})`, { url: origin + schedulePath, headers: mixedHeaders }));

    // --- bookings: beside searches, then alone ------------------------------------------------
    log('collecting free starts to book ...');
    const { pool, pros } = await startsToBook(origin, db, 10_000);
    log(`${pool.length} distinct starts across ${pros} cleaners`);
    logMemory();
    if (pool.length < 2 * CONNECTIONS) throw new Error('not enough free starts to benchmark bookings');
    const besidePool = pool.filter((_, i) => i % 3 === 0);
    const alonePool = pool.filter((_, i) => i % 3 !== 0);

    const beside = bookingRequests(origin, besidePool, BOOKING_CONNECTIONS_BESIDE, SECONDS);
    log(`running find_cleaners REST at ${CONNECTIONS} connections beside book_cleaning at ${BOOKING_CONNECTIONS_BESIDE} for ${SECONDS}s ...`);
    const [mixedSearchRaw, mixedBookRaw] = await Promise.all([autocannon({ url: origin + restPath, connections: CONNECTIONS, duration: SECONDS }), autocannon(beside.opts)]);
    logMemory();
    const mixedSearchFig = figures(mixedSearchRaw);
    const mixedBookFig = figures(mixedBookRaw);

    const alone = bookingRequests(origin, alonePool, CONNECTIONS, SECONDS);
    log(`running book_cleaning REST for up to ${SECONDS}s at ${CONNECTIONS} connections ...`);
    const bookFig = figures(await autocannon(alone.opts));
    const memory = memoryOf(server.child.pid!);

    // On PGlite the server is the database: this client goes first, or stopping the server drops it.
    await db.end();
    await server.stop();

    // --- report ---------------------------------------------------------------------------------
    const ratioRest = round(restFig.rps / gqlFig.rps, 3);
    const ratioMcp = round(mcpFig.rps / gqlFig.rps, 3);
    const mixedRatio = round(mixedSearchFig.rps / restFig.rps, 3);
    const rows: Array<[string, Figures]> = [
      ['find_cleaners REST', restFig],
      ['  ceiling (precomputed)', ceilingFig],
      ['find_cleaners MCP', mcpFig],
      ['find_cleaners GraphQL', gqlFig],
      ['find_service_call REST', serviceCallFig],
      ['call_brief REST', briefFig],
      ['schedule REST', scheduleFig],
      ['schedule 200 mixed REST', scheduleMixedFig],
      ['visit_times REST', visitTimesFig],
      ['estimate_visit REST', estimateFig],
      ['find_cleaners + bookings', mixedSearchFig],
      ['  book_cleaning beside', mixedBookFig],
      ['book_cleaning REST', bookFig],
    ];
    const pad = (v: string | number, n: number) => String(v).padStart(n);
    console.log(`\nPorchlight benchmark — ${database.kind}, catalog ×${SCALE} (${catalog.businesses} businesses), ${CONNECTIONS} connections, ${SECONDS}s per run, clock ${NOW}`);
    console.log(`${'measure'.padEnd(26)}${pad('req/s', 10)}${pad('p50 ms', 10)}${pad('p99 ms', 10)}${pad('requests', 10)}${pad('non-2xx', 10)}${pad('errors', 8)}`);
    for (const [name, f] of rows) console.log(`${name.padEnd(26)}${pad(f.rps, 10)}${pad(f.p50, 10)}${pad(f.p99, 10)}${pad(f.requests, 10)}${pad(f.non2xx, 10)}${pad(f.errors, 8)}`);
    console.log(`cold first find_cleaners: ${coldMs} ms; server memory ${memory.rssMb} MB (peak ${memory.peakMb} MB)`);
    console.log(`book_cleaning alone: ${alone.outcome.timeUnavailable} × 400 time_unavailable, ${alone.outcome.other} other non-2xx; beside searches: ${beside.outcome.timeUnavailable} / ${beside.outcome.other}`);
    console.log(`searches with bookings beside / alone: ${mixedRatio}; REST / GraphQL req/s: ${ratioRest}; MCP / GraphQL req/s: ${ratioMcp}`);
    console.log(`server CPU per find_cleaners, REST / MCP / GraphQL: ${cpu.rest} / ${cpu.mcp} / ${cpu.graphql} ms`);

    const json = {
      scale: SCALE,
      businesses: catalog.businesses,
      database: database.kind,
      connections: CONNECTIONS,
      seconds: SECONDS,
      cold_first_search_ms: coldMs,
      find_cleaners_rest_rps: restFig.rps,
      find_cleaners_rest_p50_ms: restFig.p50,
      find_cleaners_rest_p99_ms: restFig.p99,
      find_cleaners_rest_non2xx: restFig.non2xx,
      ceiling_precomputed_rps: ceilingFig.rps,
      find_cleaners_rest_fraction_of_ceiling: round(restFig.rps / ceilingFig.rps, 3),
      find_cleaners_mcp_rps: mcpFig.rps,
      find_cleaners_mcp_p99_ms: mcpFig.p99,
      find_cleaners_graphql_rps: gqlFig.rps,
      find_cleaners_graphql_p99_ms: gqlFig.p99,
      find_service_call_rest_rps: serviceCallFig.rps,
      find_service_call_rest_p99_ms: serviceCallFig.p99,
      call_brief_rest_rps: briefFig.rps,
      call_brief_rest_p50_ms: briefFig.p50,
      call_brief_rest_p99_ms: briefFig.p99,
      schedule_rest_rps: scheduleFig.rps,
      schedule_rest_p50_ms: scheduleFig.p50,
      schedule_rest_p99_ms: scheduleFig.p99,
      schedule_mixed_rest_rps: scheduleMixedFig.rps,
      schedule_mixed_rest_p50_ms: scheduleMixedFig.p50,
      schedule_mixed_rest_p99_ms: scheduleMixedFig.p99,
      schedule_mixed_entries: MIXED_ENTRIES,
      visit_times_rest_rps: visitTimesFig.rps,
      visit_times_rest_p50_ms: visitTimesFig.p50,
      visit_times_rest_p99_ms: visitTimesFig.p99,
      visit_times_technicians: technicians,
      estimate_visit_rest_rps: estimateFig.rps,
      estimate_visit_rest_p50_ms: estimateFig.p50,
      estimate_visit_rest_p99_ms: estimateFig.p99,
      mixed_find_cleaners_rps: mixedSearchFig.rps,
      mixed_find_cleaners_p50_ms: mixedSearchFig.p50,
      mixed_find_cleaners_p99_ms: mixedSearchFig.p99,
      mixed_book_cleaning_rps: mixedBookFig.rps,
      mixed_book_cleaning_p99_ms: mixedBookFig.p99,
      mixed_book_cleaning_errors: beside.outcome.other + mixedBookFig.errors,
      book_cleaning_rps: bookFig.rps,
      book_cleaning_p50_ms: bookFig.p50,
      book_cleaning_p99_ms: bookFig.p99,
      book_cleaning_requests: bookFig.requests,
      book_cleaning_time_unavailable: alone.outcome.timeUnavailable,
      book_cleaning_errors: alone.outcome.other + bookFig.errors,
      book_cleaning_pool: alonePool.length,
      server_rss_mb: memory.rssMb,
      server_peak_rss_mb: memory.peakMb,
      ratio_mixed_to_readonly_search: mixedRatio,
      ratio_rest_to_graphql: ratioRest,
      ratio_mcp_to_graphql: ratioMcp,
      // The server's CPU per request of find_cleaners, and relative to REST's.
      find_cleaners_rest_server_cpu_ms: cpu.rest,
      find_cleaners_mcp_server_cpu_ms: cpu.mcp,
      find_cleaners_graphql_server_cpu_ms: cpu.graphql,
      cost_mcp_vs_rest: round(cpu.mcp / cpu.rest, 3),
      cost_graphql_vs_rest: round(cpu.graphql / cpu.rest, 3),
      // MCP's with the load generator's share: REST's req/s ÷ MCP's (GraphQL's: ratio_rest_to_graphql).
      throughput_rest_vs_mcp: round(restFig.rps / mcpFig.rps, 3),
    };
    return { ...json, targets: targetsOf(profile, json) };
  } finally {
    await db.end().catch(() => {});
    await server.stop();
    await database.drop();
  }
}

/** Median time of openStarts over a month for one pro with 60 busy intervals. */
function monthOfStarts() {
  const now = Date.parse(NOW);
  const dayMs = 86_400_000;
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
  for (let i = 0; i < 20; i++) openStarts(query);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t0 = performance.now();
    openStarts(query);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return round((times[99]! + times[100]!) / 2, 3);
}

/** Runs `fn` against an in-process server on the demo data (PGlite), then shuts it down. */
async function inProcess<T>(fn: (origin: string, porchlight: Porchlight) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-bench-'));
  const porchlight = await createPorchlight({
    ...loadConfig({ NODE_ENV: 'production', LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000000', SECRETS_KEY: randomBytes(32).toString('base64url'), SEED_DEMO: 'true' }),
    dataDir,
    now: NOW,
    baseUrl: BASE_URL,
  });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: porchlight.fetch, port: 0, hostname: '127.0.0.1' });
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  const sockets = attachWebSockets(server, porchlight);
  try {
    return await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, porchlight);
  } finally {
    await sockets.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await porchlight.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
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
async function subscriptionFanOut(origin: string, porchlight: Porchlight) {
  const pros = (await porchlight.services.prisma.business.findMany({ where: { kind: 'cleaning' }, select: { slug: true }, orderBy: { slug: 'asc' } })).map((p) => p.slug);
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

/** Entries of the mixed calendar: menu visits, appointments and own jobs, interleaved. */
const MIXED_ENTRIES = 200;

/**
 * The salon's calendar filled with MIXED_ENTRIES entries over the next 13 days (a third each of
 * confirmed menu visits, appointments and own jobs, 90 minutes apart), and a business key for it.
 */
async function mixedCalendar(db: pg.Client): Promise<{ key: string }> {
  const { id } = (await db.query<{ id: string }>('SELECT id FROM "Business" WHERE slug = $1', [MENU_BUSINESS])).rows[0]!;
  const tag = randomBytes(4).toString('hex');
  const slot = (k: string) => `(timestamptz '${NOW}' + interval '1 hour' + (${k}) * interval '90 minutes')`;
  // Blocks never overlap confirmed entries (the database refuses it): the salon's demo blocks go.
  await db.query('DELETE FROM "Block" WHERE "businessId" = $1', [id]);
  // Nor do appointments overlap one another: the demo's make way.
  await db.query(`UPDATE "Appointment" SET "holdsTime" = false, status = 'cancelled' WHERE "businessId" = $1 AND "holdsTime"`, [id]);
  const thirds = Math.ceil(MIXED_ENTRIES / 3);
  await db.query(
    `INSERT INTO "Conversation" (id, "businessId", "replyTokenHash", "requestType", "customerName", "customerEmail", "customerPhone", "createdAt", "updatedAt")
     SELECT 'bench_c_${tag}_' || g, $1, 'bench_r_${tag}_' || g, 'appointment', 'Guest ' || g, 'guest' || g || '@example.com', '415-555-0100', now(), now()
     FROM generate_series(0, ${2 * thirds - 1}) g`,
    [id],
  );
  await db.query(
    `INSERT INTO "Visit" (id, "businessId", "conversationId", status, source, selections, "serviceIds", "menuRevision", "estimateCents", partial, "priceCents", "durationMinutes",
       start, "end", "busyUntil", "technicianName", "customerName", "requestKeyHash", "requestFingerprint", "createdAt", "confirmedAt")
     SELECT 'bench_v_${tag}_' || g, $1, 'bench_c_${tag}_' || g, 'confirmed', 'book_visit', '[{"name":"Cut","addOns":[],"scent":null}]'::jsonb, ARRAY['cut'], 1, 6500, false, 6500, 60,
       ${slot('3 * g')}, ${slot('3 * g')} + interval '60 minutes', ${slot('3 * g')} + interval '60 minutes', 'Ana', 'Visitor ' || g, 'bench_k_${tag}_' || g, 'f', now(), now()
     FROM generate_series(0, ${thirds - 1}) g`,
    [id],
  );
  await db.query(
    `INSERT INTO "Appointment" (id, "businessId", "conversationId", "serviceId", "serviceName", "priceCents", "durationMinutes", payment, status, start, "end", "customerName", "createdAt", "confirmedAt")
     SELECT 'bench_a_${tag}_' || g, $1, 'bench_c_${tag}_' || (${thirds} + g), 'consult', 'Consultation', 0, 30, 'none', 'confirmed',
       ${slot('3 * g + 1')}, ${slot('3 * g + 1')} + interval '30 minutes', 'Guest ' || g, now(), now()
     FROM generate_series(0, ${thirds - 1}) g`,
    [id],
  );
  const jobs = MIXED_ENTRIES - 2 * thirds;
  await db.query(
    `INSERT INTO "Booking" (id, "businessId", kind, status, "manageTokenHash", "confirmTokenHash", "priceCents", "addOns", address, zip, "customerName", "customerPhone", "createdAt", "confirmedAt")
     SELECT 'bench_b_${tag}_' || g, $1, 'service_call', 'confirmed', 'bench_m_${tag}_' || g, 'bench_t_${tag}_' || g, 9900, '{}', g || ' Main St', '94110', 'Client ' || g, '415-555-0100', now(), now()
     FROM generate_series(0, ${jobs - 1}) g`,
    [id],
  );
  await db.query(
    `INSERT INTO "BookingVisit" (id, "bookingId", "businessId", start, "end") SELECT 'bench_bv_${tag}_' || g, 'bench_b_${tag}_' || g, $1, ${slot('3 * g + 2')}, ${slot('3 * g + 2')} + interval '60 minutes'
     FROM generate_series(0, ${jobs - 1}) g`,
    [id],
  );
  await db.query(`INSERT INTO "OwnJob" ("bookingId", "businessId") SELECT 'bench_b_${tag}_' || g, $1 FROM generate_series(0, ${jobs - 1}) g`, [id]);
  const key = newToken('sk_pro_');
  await db.query(`INSERT INTO "ApiKey" (id, kind, "keyHash", hint, "businessId", scopes) VALUES ($1, 'business', $2, $3, $4, $5)`, [
    `bench_${randomBytes(6).toString('hex')}`, hashToken(key), key.slice(0, 12), id, ['read', 'write'],
  ]);
  return { key };
}

/**
 * The ceiling: the same HTTP stack (Node, @hono/node-server, hono) answering the search's path
 * with its answer precomputed, so the search's throughput can be read as a fraction of it.
 */
async function ceiling(path: string, body: string, run: (opts: autocannon.Options) => Promise<Result>): Promise<Figures> {
  const port = await freePort();
  const script = `import { serve } from '@hono/node-server'; import { Hono } from 'hono';
const app = new Hono(); const body = process.env.CEILING_BODY;
app.get('/api/v1/find_cleaners', (c) => c.body(body, 200, { 'content-type': 'application/json; charset=UTF-8' }));
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), env: { ...process.env, PORT: String(port), CEILING_BODY: body }, stdio: 'inherit' });
  try {
    const url = `http://127.0.0.1:${port}${path}`;
    for (let i = 0; !(await fetch(url).then((r) => r.ok, () => false)); i++) {
      if (i > 100) throw new Error('the ceiling server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    await autocannon({ url, connections: 4, duration: 1 });
    return figures(await run({ url }));
  } finally {
    child.kill();
  }
}

type ProfileFigures = Record<string, number | string>;

/** The targets for each profile, each met or not. */
function targetsOf(profile: Profile, f: ProfileFigures): Record<string, boolean> {
  const n = (k: string) => Number(f[k]);
  if (profile.kind === 'postgres') {
    return {
      find_cleaners_rest_p99_le_25ms: n('find_cleaners_rest_p99_ms') <= 25,
      find_cleaners_mcp_p99_le_25ms: n('find_cleaners_mcp_p99_ms') <= 25,
      find_cleaners_graphql_p99_le_25ms: n('find_cleaners_graphql_p99_ms') <= 25,
      find_service_call_p99_le_25ms: n('find_service_call_rest_p99_ms') <= 25,
      call_brief_p99_le_25ms: n('call_brief_rest_p99_ms') <= 25,
      visit_times_p99_le_25ms: n('visit_times_rest_p99_ms') <= 25,
      estimate_visit_p99_le_25ms: n('estimate_visit_rest_p99_ms') <= 25,
      schedule_mixed_p99_le_50ms: n('schedule_mixed_rest_p99_ms') <= 50,
      mcp_cost_le_1_2_rest: n('cost_mcp_vs_rest') <= 1.2,
      graphql_cost_le_1_2_rest: n('cost_graphql_vs_rest') <= 1.2,
      book_cleaning_ge_400rps: n('book_cleaning_rps') >= 400,
      mixed_find_cleaners_p99_le_50ms: n('mixed_find_cleaners_p99_ms') <= 50,
    };
  }
  const reads = ['find_cleaners_rest', 'find_cleaners_mcp', 'find_cleaners_graphql', 'find_service_call_rest', 'call_brief_rest', 'schedule_rest', 'schedule_mixed_rest', 'visit_times_rest', 'estimate_visit_rest'];
  return {
    every_read_p99_le_100ms: reads.every((r) => n(`${r}_p99_ms`) <= 100),
    call_brief_and_schedule_p99_le_100ms: ['call_brief_rest', 'schedule_rest', 'schedule_mixed_rest'].every((r) => n(`${r}_p99_ms`) <= 100),
    book_cleaning_ge_150rps: n('book_cleaning_rps') >= 150,
    peak_rss_le_400mb: n('server_peak_rss_mb') <= 400,
    cold_first_search_le_300ms: n('cold_first_search_ms') <= 300,
  };
}

/** PGlite ×1 always (the README's default); PostgreSQL ×POSTGRES_SCALE when DATABASE_URL names a server. */
function profiles(): Profile[] {
  const url = process.env.DATABASE_URL;
  const wanted = (process.env.BENCH_PROFILES ?? 'pglite,postgres').split(',').map((p) => p.trim());
  const list: Profile[] = [];
  if (wanted.includes('pglite')) list.push({ kind: 'pglite', scale: 1 });
  if (wanted.includes('postgres')) {
    if (url) list.push({ kind: 'postgres', scale: POSTGRES_SCALE, url });
    else log('PostgreSQL profile skipped: give DATABASE_URL=postgres://… to run it (×100 the demo catalog)');
  }
  if (!list.length) throw new Error('BENCH_PROFILES names no profile that can run (pglite, postgres with DATABASE_URL)');
  return list;
}

async function main() {
  const results = [];
  for (const profile of profiles()) results.push(await runProfile(profile));
  log('timing openStarts over a month ...');
  const monthMs = monthOfStarts();
  log(`timing bookingUpdated fan-out to ${SUBSCRIBERS} subscribers on ${SUBSCRIBER_CONNECTIONS} connections ...`);
  const fan = await inProcess((o, p) => subscriptionFanOut(o, p));
  console.log(`bookingUpdated fan-out: ${SUBSCRIBERS} subscribers, cancel answered in ${fan.requestMs} ms; heard first ${fan.firstMs} ms, median ${fan.medianMs} ms, last ${fan.lastMs} ms after the request`);
  console.log(`openStarts, 31 days, 60 busy intervals: median ${monthMs} ms\n`);
  console.log(
    JSON.stringify({
      connections: CONNECTIONS,
      seconds: SECONDS,
      profiles: results,
      month_of_starts_ms: monthMs,
      subscription_fanout_subscribers: SUBSCRIBERS,
      subscription_fanout_cancel_request_ms: fan.requestMs,
      subscription_fanout_last_ms: fan.lastMs,
      targets: { month_of_starts_le_20ms: monthMs <= 20 },
    }),
  );
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
