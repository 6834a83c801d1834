/**
 * Every timestamp in a result carries the business's UTC offset, as starts do; instants tied to
 * no business use Z (contract, "Times"). Results are walked whole, so a field added later without
 * the one formatter (formatInstant) fails here. Also: one formatter in the code, and updates and
 * schedule notifications in time order.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';

let app: TestApp;
let cleaner: Record<string, string>;
let salon: Record<string, string>;

beforeAll(async () => {
  app = await startApp();
  cleaner = bearer(await businessKey(app, demoIds.cleanerAustin));
  salon = bearer(await businessKey(app, demoIds.beautySanFrancisco));
});
afterAll(async () => app?.close());

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/;

/** Every timestamp string anywhere in a result, with the path it was found at. */
function timestamps(value: unknown, path = '$'): { path: string; value: string }[] {
  if (typeof value === 'string') return TIMESTAMP.test(value) ? [{ path, value }] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => timestamps(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => timestamps(v, `${path}.${k}`));
  return [];
}

function expectOffset(body: unknown, offset: RegExp, what: string) {
  const found = timestamps(body);
  for (const t of found) expect(t.value, `${what} ${t.path}`).toMatch(offset);
  return found.length;
}

// Austin (America/Chicago) and San Francisco (America/Los_Angeles) in late November.
const CHICAGO = /-06:00$/;
const PACIFIC = /-08:00$/;

describe('timestamps in results', () => {
  it("carry the business's offset in owner reads and writes, on every surface", async () => {
    const note = await app.rest('note_to_owner', { note: 'Call Dana back about the move-out clean.' }, cleaner);
    expect(note.status, JSON.stringify(note.body)).toBe(200);
    const asked = await app.rest('contact_business', { business: demoIds.cleanerAustin, customer_name: 'Lee', message: 'Do you clean ovens?' });
    expect(asked.status).toBe(200);
    let seen = 0;
    for (const via of SURFACES) {
      for (const op of ['my_business', 'schedule', 'updates', 'inquiries', 'receptionist_service']) {
        const r = await call(app, via, op, {}, cleaner);
        expect(r.ok, `${via} ${op} ${JSON.stringify(r.body)}`).toBe(true);
        seen += expectOffset(r.body, CHICAGO, `${via} ${op}`);
      }
    }
    expect(seen).toBeGreaterThan(10);
    expectOffset(note.body, CHICAGO, 'note_to_owner');
  });

  it("carry the business's offset in a customer's conversation", async () => {
    const asked = await app.rest('contact_business', { business: demoIds.beautySanFrancisco, customer_name: 'Sam', message: 'Is Saturday free?' });
    const answered = await app.rest('message_customer', { inquiry_id: asked.body.inquiry_id, message: 'Yes, from 10.' }, salon);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    for (const via of SURFACES) {
      const r = await call(app, via, 'inquiry_status', { inquiry_id: asked.body.inquiry_id, reply_token: asked.body.reply_token });
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(expectOffset(r.body, PACIFIC, `${via} inquiry_status`)).toBeGreaterThanOrEqual(3);
    }
  });

  it('lists updates in time order', async () => {
    const r = await app.rest('updates', {}, cleaner);
    const at = r.body.events.map((e: { at: string }) => Date.parse(e.at));
    expect(at).toEqual([...at].sort((a: number, b: number) => a - b));
  });
});

describe('one formatter', () => {
  it('formats instants only in src/core/time.ts (pages for people have their own formatter)', () => {
    const root = join(import.meta.dirname, '../../src');
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => {
        const p = join(dir, f);
        return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
      });
    const offenders = files(root)
      .filter((p) => !/\/core\/|\/demo\/|\/payments\/sandbox\//.test(p))
      .filter((p) => /\.toISOString\(\)/.test(readFileSync(p, 'utf8')))
      .map((p) => p.slice(root.length + 1));
    expect(offenders).toEqual([]);
  });
});
