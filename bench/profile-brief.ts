/**
 * call_brief profiled in process (not a test): CPU per request (this process's, and on
 * PostgreSQL its backends'), statements per request and a V8 profile, with the benchmark's
 * business key and caller (bench/run.ts). ROUNDS rounds of N requests, one at a time, after WARM.
 *
 *   npx tsx bench/profile-brief.ts                                                   # PGlite ×1
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_SCALE=100 npx tsx bench/profile-brief.ts
 *
 * PROFILE_LABEL names the V8 profile, /tmp/brief-<label>.cpuprofile (PROFILE=0: none).
 * BENCH_DATABASE_URL: a database seeded (and cloned) before, used as it is and kept.
 * BRIEF_PATH: another owner read to measure (e.g. /api/v1/schedule); BRIEF_OUT: a file for the first answer.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { createPorchlight } from '../main.js';
import { hashToken, newToken } from '../src/auth/tokens.js';
import { benchDatabase, cloneCatalog } from './database.js';
import { cpuMsOf, stagingSettings, statementCounter } from './staging.js';

const SCALE = Math.max(1, Number(process.env.BENCH_SCALE ?? 1));
const N = Number(process.env.N ?? 300);
const ROUNDS = Number(process.env.ROUNDS ?? 10);
const WARM = Number(process.env.WARM ?? 1000);
const server = process.env.DATABASE_URL;

const { counter: statements } = statementCounter();

const kept = process.env.BENCH_DATABASE_URL;
const database = kept
  ? { env: { DATABASE_URL: kept, DATA_DIR: '/tmp' }, client: () => new pg.Client({ connectionString: kept }), drop: async () => {}, kind: 'postgres' as const }
  : await benchDatabase(server, 'porchlight_brief');
const config = loadConfig({ ...database.env, ...stagingSettings(), LOG_LEVEL: 'silent', SEED_DEMO: kept ? 'false' : 'true' });
const porchlight = await createPorchlight(config);
const origin = 'https://bench.porchlight.test';
const db = database.client();
await db.connect();
if (SCALE > 1 && !kept) await cloneCatalog(db, SCALE);

const key = newToken('sk_pro_');
const owned = (await db.query<{ id: string; phone: string }>(
  `SELECT b.id, k."customerPhone" AS phone FROM "Business" b JOIN "Booking" k ON k."businessId" = b.id WHERE b.slug = 'sparkle-shine-cleaning-austin' AND k."customerPhone" IS NOT NULL LIMIT 1`,
)).rows[0]!;
await db.query(`INSERT INTO "ApiKey" (id, kind, "keyHash", hint, "businessId", scopes) VALUES ($1, 'business', $2, $3, $4, $5)`, [
  `bench_${randomBytes(6).toString('hex')}`, hashToken(key), key.slice(0, 12), owned.id, ['read', 'write'],
]);
const path = process.env.BRIEF_PATH ?? `/api/v1/call_brief?phone=${encodeURIComponent(owned.phone)}`;
async function one() {
  const res = (await porchlight.fetch(new Request(origin + path, { headers: { authorization: `Bearer ${key}` } }))) as Response;
  const text = await res.text();
  if (res.status !== 200 || (!process.env.BRIEF_PATH && !text.includes('"known":true'))) throw new Error(`${res.status} ${text.slice(0, 300)}`);
  return text;
}
if (process.env.BRIEF_OUT) writeFileSync(process.env.BRIEF_OUT, await one());

/** CPU milliseconds of the PostgreSQL backends serving this database. */
async function backendCpuMs(): Promise<number> {
  if (database.kind !== 'postgres') return 0;
  const rows = (await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)).rows;
  return cpuMsOf(rows.map((r) => r.pid));
}

for (let i = 0; i < WARM; i++) await one();
const node: number[] = [];
const backend: number[] = [];
const wall: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  statements.texts.clear();
  const pg0 = await backendCpuMs();
  statements.counting = true;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < N; i++) await one();
  wall.push((performance.now() - t0) / N);
  const c = process.cpuUsage(c0);
  statements.counting = false;
  backend.push(((await backendCpuMs()) - pg0) / N);
  node.push((c.user + c.system) / 1000 / N);
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const label = process.env.PROFILE_LABEL ?? 'run';
console.log(
  `${label} ${database.kind} ×${SCALE}: node CPU median ${median(node).toFixed(3)} min ${Math.min(...node).toFixed(3)} ms/req; ` +
    `backend CPU median ${median(backend).toFixed(3)} ms/req; wall median ${median(wall).toFixed(3)} ms/req`,
);
for (const [t, c] of [...statements.texts].sort((a, b) => b[1] - a[1])) console.log(`  ${(c / N).toFixed(2)}  ${t}`);

if (process.env.PROFILE !== '0') {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  for (let i = 0; i < N * 5; i++) await one();
  const { profile } = await session.post('Profiler.stop');
  const file = `/tmp/brief-${label}.cpuprofile`;
  writeFileSync(file, JSON.stringify(profile));
  console.log(`  profile: ${file}`);
  session.disconnect();
}
await db.end();
await porchlight.close();
await database.drop();
process.exit(0);
