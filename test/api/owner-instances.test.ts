/**
 * On PostgreSQL: hours set on one instance change searches on another at once (NOTIFY), and a
 * block and a booking written at the same moment never overlap.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPorchlight, type Porchlight } from '../../main.js';
import { demoIds } from '../../src/demo/generate.js';
import { BASE, TEST_NOW, bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';

let a: TestApp;
let b: Porchlight;
const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-second-'));

beforeAll(async () => {
  if (!onPostgres) return;
  a = await startApp();
  // A second instance on the same database: its own search snapshot, hearing changes only through NOTIFY.
  b = await createPorchlight({ ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: a.services.config.databaseUrl, dataDir, now: TEST_NOW, baseUrl: BASE });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const onB = async (path: string) => (await b.fetch(new Request(`${BASE}${path}`))).json() as Promise<any>;
const startsOnB = async (date: string) => {
  const r = await onB(`/api/v1/find_cleaners?zip=${demoIds.austinZip}&bedrooms=2&bathrooms=1.5&date=${date}`);
  return (r.cleaners.find((c: { pro_id: string }) => c.pro_id === demoIds.cleanerAustin)?.starts ?? []) as string[];
};
const until = async (check: () => Promise<boolean>, ms = 2000) => {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  return check();
};

describe.skipIf(!onPostgres)('two instances on PostgreSQL', () => {
  it('set_hours on one instance changes searches on the other within a second', async () => {
    const key = bearer(await businessKey(a, demoIds.cleanerAustin));
    const date = '2026-12-22'; // a Tuesday
    const before = await startsOnB(date);
    expect(before.some((s) => s.startsWith(date))).toBe(true);
    const r = await a.rest('set_hours', { tuesday: 'closed' }, key);
    expect(r.status).toBe(200);
    expect(await until(async () => !(await startsOnB(date)).some((s) => s.startsWith(date)))).toBe(true);
    await a.rest('set_hours', { tuesday: '08:00-17:00' }, key);
    expect(await until(async () => (await startsOnB(date)).some((s) => s.startsWith(date)))).toBe(true);
  });

  it('a block on one instance takes the starts out of the other\'s searches', async () => {
    const key = bearer(await businessKey(a, demoIds.cleanerAustin));
    const date = '2026-12-23';
    const first = (await startsOnB(date)).find((s) => s.startsWith(date))!;
    expect(first).toBeDefined();
    const block = await a.rest('block_time', { date }, key);
    expect(block.status).toBe(200);
    expect(await until(async () => !(await startsOnB(date)).includes(first))).toBe(true);
    await a.rest('unblock_time', { block_id: block.body.block_id }, key);
  });

  it('a block and a booking of the same time written at once on two instances: exactly one wins', async () => {
    const key = bearer(await businessKey(a, demoIds.cleanerAustin));
    for (const date of ['2026-12-28', '2026-12-29', '2026-12-30']) {
      const times = await a.rest('available_times', { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, date, days: 1 });
      const start = times.body.starts[0] as string;
      const [booked, blocked] = await Promise.all([
        a.rest('book_job', { customer_name: 'Race', customer_phone: '5125550101', address: '1 Race St, Austin TX', start, bedrooms: 2, bathrooms: 1.5 }, key),
        Promise.resolve(b.fetch(new Request(`${BASE}/api/v1/block_time`, { method: 'POST', headers: { 'content-type': 'application/json', ...key }, body: JSON.stringify({ date }) }))).then(async (res) => ({ status: res.status, body: (await res.json()) as any })),
      ]);
      expect([booked.status, blocked.status].filter((s) => s === 200), `${date}: ${JSON.stringify([booked.body, blocked.body])}`).toHaveLength(1);
      if (blocked.status !== 200) expect(blocked.body.code).toBe('job_conflict');
      else expect(booked.body.code).toBe('time_unavailable');
    }
  });
});
