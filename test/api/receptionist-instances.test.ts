/**
 * On PostgreSQL, two instances on one database: a knowledge page published on one reaches the
 * other's business_info (whose menu businesses are cached) as soon as the change notice
 * arrives, and its call_brief (read straight from the database) at once; a source shared or
 * unshared on one follows on the other too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPorchlight, type Porchlight } from '../../main.js';
import { BASE, TEST_NOW, bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';

let a: TestApp;
let b: Porchlight;
let slug: string;
let owner: Record<string, string>;
const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-second-'));

beforeAll(async () => {
  if (!onPostgres) return;
  a = await startApp();
  b = await createPorchlight({ ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: a.services.config.databaseUrl, dataDir, now: TEST_NOW, baseUrl: BASE });
  slug = (await a.services.prisma.business.findFirstOrThrow({ where: { kind: 'beauty', receptionist: null }, orderBy: { slug: 'asc' } })).slug;
  owner = bearer(await businessKey(a, slug));
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const onB = async (path: string, headers: Record<string, string> = {}) => (await b.fetch(new Request(`${BASE}${path}`, { headers }))).json() as Promise<any>;
const until = async (check: () => Promise<boolean>, ms = 2000) => {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return check();
};

describe.skipIf(!onPostgres)('knowledge across instances on PostgreSQL', () => {
  it('a publish on one instance reaches business_info and call_brief on the other', async () => {
    // B reads (and caches) the business before anything is published.
    expect((await onB(`/api/v1/business_info?business=${slug}`)).published_page).toBeNull();
    await a.rest('add_receptionist_source', { note: 'Bridal trials on Sundays by appointment.' }, owner);
    const published = await a.rest('update_receptionist', { publish: true }, owner);
    expect(published.status).toBe(200);
    // The phone agent's brief reads the database: the new page at once.
    expect((await onB('/api/v1/call_brief?phone=4155550100', owner)).knowledge).toContain('Bridal trials on Sundays');
    // The cached business follows the change notice.
    expect(await until(async () => (await onB(`/api/v1/business_info?business=${slug}`)).published_page?.text?.includes('Bridal trials') ?? false)).toBe(true);
    const page = await (await b.fetch(new Request(`${BASE}/b/${slug}`))).text();
    expect(page).toContain('Bridal trials on Sundays by appointment.');
  });

  it('sharing a source on one instance shows it in the other\'s business_info, and unsharing hides it again', async () => {
    const added = await a.rest('add_receptionist_source', { note: 'Shared: gift cards sold at the desk.' }, owner);
    const id = added.body.source.source_id as string;
    const shared = async () => ((await onB(`/api/v1/business_info?business=${slug}`)).shared_sources as { source_id: string }[]).some((s) => s.source_id === id);
    expect(await shared()).toBe(false);
    await a.rest('edit_receptionist_source', { source_id: id, shareable: true }, owner);
    expect(await until(shared)).toBe(true);
    await a.rest('edit_receptionist_source', { source_id: id, shareable: false }, owner);
    expect(await until(async () => !(await shared()))).toBe(true);
  });
});
