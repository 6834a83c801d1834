/**
 * book_cleaning profiled in process (not a test): statements, CPU and a V8 profile per booking,
 * on the demo data, with the benchmark's clock, catalog copies and pool of distinct free starts
 * (bench/run.ts), many customers behind one trusted proxy. After a warm-up, PROFILE_N bookings
 * (default 400) at PROFILE_CONC at once (default 16) are run twice: once counting statements
 * and CPU (this process's, and on PostgreSQL its backends'), once under the V8 profiler, whose
 * profile is written to /tmp/booking-<PROFILE_LABEL>.cpuprofile.
 *
 *   npx tsx bench/profile-booking.ts                                                   # PGlite ×1
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_SCALE=100 npx tsx bench/profile-booking.ts
 *
 * PROFILE_EXPLAIN=1 (PostgreSQL) also writes every statement's plan, its triggers' times and the
 * planner's and executor's CPU, from auto_explain, to /tmp/booking-<PROFILE_LABEL>.notices.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createPorchlight } from '../main.js';
import { POOL_PROS_SQL, bookingPool } from './booking-pool.js';
import { benchDatabase, cloneCatalog } from './database.js';
import { NOW, cpuMsOf, stagingSettings, statementCounter } from './staging.js';

const SCALE = Math.max(1, Number(process.env.BENCH_SCALE ?? 1));
const N = Number(process.env.PROFILE_N ?? 400);
const CONC = Number(process.env.PROFILE_CONC ?? 16);
const server = process.env.DATABASE_URL;

const { counter: statements, query: origQuery } = statementCounter();

// PROFILE_EXPLAIN=1 (PostgreSQL): every statement's plan and the planner's and executor's CPU, as notices.
// (pg.Pool's callback runs once the connection is up; these settings are queued before its first statement.)
const notices: string[] = [];
if (process.env.PROFILE_EXPLAIN) {
  const origConnect = pg.Client.prototype.connect;
  (pg.Client.prototype as any).connect = async function (this: pg.Client, ...args: any[]) {
    const r = await (origConnect as any).apply(this, args);
    this.on('notice', (n) => { if (statements.counting) notices.push(n.message ?? ''); });
    await (origQuery as any).call(this, "LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0; SET auto_explain.log_analyze = on; SET auto_explain.log_nested_statements = on; SET auto_explain.log_triggers = on; SET client_min_messages = log; SET log_planner_stats = on; SET log_executor_stats = on");
    return r;
  };
}

const database = await benchDatabase(server, 'porchlight_prof');
const config = loadConfig({ ...database.env, ...stagingSettings(), LOG_LEVEL: 'warn' });
const porchlight = await createPorchlight(config);
const origin = 'https://bench.porchlight.test';
const get = async (path: string) => (await porchlight.fetch(new Request(origin + path))) as Response;

if (SCALE > 1) {
  const db = database.client();
  await db.connect();
  await cloneCatalog(db, SCALE);
  await db.end();
}

// The pool of starts, as bench/run.ts builds it (enough for N and the warm-up).
const pros = await porchlight.services.prisma.$queryRawUnsafe<{ slug: string; zip: string }[]>(POOL_PROS_SQL);
const pool = await bookingPool(get, pros, NOW, 2 * N + 200);
console.error(`${pool.length} starts from ${pros.length} pros`);

let next = 0;
const outcome = { ok: 0, unavailable: 0, other: 0 };
const examples: string[] = [];
async function bookOne() {
  const n = next++;
  const slot = pool[n % pool.length]!;
  const res = (await porchlight.fetch(
    new Request(origin + '/api/v1/book_cleaning', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` },
      body: JSON.stringify({ ...slot, bedrooms: 2, bathrooms: 1.5, customer_name: `Bench Customer ${n}`, customer_email: `bench${n}@example.com`, address: `${n} Bench St, Austin TX` }),
    }),
  )) as Response;
  const body = await res.text();
  if (res.ok) outcome.ok++;
  else if (/time_unavailable/.test(body)) outcome.unavailable++;
  else {
    outcome.other++;
    if (examples.length < 3) examples.push(`${res.status} ${body.slice(0, 200)}`);
  }
}
async function run(count: number) {
  const end = next + count;
  await Promise.all(Array.from({ length: CONC }, async () => { while (next < end) await bookOne(); }));
}

/** CPU seconds of the PostgreSQL backends serving this database. */
async function backendCpuMs(): Promise<number> {
  if (database.kind !== 'postgres') return 0;
  const rows = await porchlight.services.prisma.$queryRawUnsafe<{ pid: number }[]>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  return cpuMsOf(rows.map((r) => r.pid));
}

await run(Math.min(100, N / 4)); // warm-up
const label = process.env.PROFILE_LABEL ?? 'run';
// PROFILE_CPU_ONLY=1 skips the profiled run (repeated measures).
for (const mode of process.env.PROFILE_CPU_ONLY ? (['cpu'] as const) : (['cpu', 'profile'] as const)) {
  statements.texts.clear();
  let session: Session | undefined;
  if (mode === 'profile') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
  }
  const before = { ...outcome };
  const pgBefore = await backendCpuMs();
  statements.counting = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(N);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  statements.counting = false;
  const pgCpu = (await backendCpuMs()) - pgBefore;
  const ok = outcome.ok - before.ok;
  const total = statements.total();
  console.log(
    `${label} ${mode}: ${ok} booked, ${outcome.unavailable - before.unavailable} unavailable, ${outcome.other - before.other} other; ` +
      `${(total / N).toFixed(2)} statements/booking; node CPU ${((cpu.user + cpu.system) / 1000 / N).toFixed(2)} ms/booking (user ${(cpu.user / 1000 / N).toFixed(2)}, system ${(cpu.system / 1000 / N).toFixed(2)}); ` +
      `postgres CPU ${(pgCpu / N).toFixed(2)} ms/booking; ${Math.round((N / wall) * 1000)} bookings/s in process`,
  );
  if (mode === 'cpu') for (const [t, c] of [...statements.texts].sort((a, b) => b[1] - a[1])) console.log(`  ${(c / N).toFixed(2)}  ${t}`);
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    const file = `/tmp/booking-${label}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    console.log(`  profile: ${file}`);
    session.disconnect();
  }
}
if (notices.length) writeFileSync(`/tmp/booking-${label}.notices`, notices.join('\n=====\n'));
if (examples.length) console.log(examples.join('\n'));

await porchlight.close();
await database.drop();
