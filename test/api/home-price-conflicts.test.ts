/**
 * price_conflicts for a cleaner's home prices: a knowledge page saying "$99 for 2 bedrooms" while
 * the cleaner's own quote for that home is more is flagged, with the quote it contradicts, from
 * add_receptionist_source and update_receptionist to call_brief, on every surface.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES, type Surface } from '../helpers/surfaces.js';

let app: TestApp;
let owner: Record<string, string>;
beforeAll(async () => {
  app = await startApp();
  owner = bearer(await businessKey(app, demoIds.cleanerAustin));
});
afterAll(async () => app?.close());

const ok = async (via: Surface, name: string, input: Record<string, unknown>, headers: Record<string, string>) => {
  const r = await call(app, via, name, input, headers);
  expect(r.ok, `${via} ${name}: ${JSON.stringify(r.body)}`).toBe(true);
  return r.body;
};

/** The cleaner's own quote (USD) for a job, as quote_job gives it. */
async function quote(job: Record<string, unknown>): Promise<{ total: number; job: string }> {
  const q = await ok('rest', 'quote_job', job, owner);
  return { total: q.total, job: q.job };
}

describe('price_conflicts: home prices', () => {
  it('flags "$99 for 2 bedrooms" against the quote for 2 bedrooms, and not the prices that agree', async () => {
    const two = await quote({ bedrooms: 2, bathrooms: 1 });
    const threeDeep = await quote({ bedrooms: 3, bathrooms: 2, clean_type: 'deep' });
    const studio = await quote({ bedrooms: 0, bathrooms: 1 });
    expect(two.job).toBe('Standard clean: 2 bedrooms, 1 bathroom');
    expect(two.total).toBeGreaterThan(99);
    const page = [
      'Spring special! $99 for 2 bedrooms.',
      `Our 3br/2ba deep clean is $${threeDeep.total}.`,
      `Studios: $${studio.total}. A two-bedroom apartment, two baths: $${two.total - 20}.`,
      'Extra bedrooms $25 each. Call (512) 555-0100.',
    ].join('\n');
    const twoBaths = await quote({ bedrooms: 2, bathrooms: 2 });
    const conflicts = (p: 'draft' | 'published') => [
      {
        service: 'Standard clean: 2 bedrooms, 1 bathroom (no bathrooms stated: 1 assumed, the fewest)',
        price_kind: 'fixed',
        structured_price: two.total,
        knowledge_price: 99,
        sentence: '$99 for 2 bedrooms.',
        page: p,
      },
      {
        service: 'Standard clean: 2 bedrooms, 2 bathrooms',
        price_kind: 'fixed',
        structured_price: twoBaths.total,
        knowledge_price: two.total - 20,
        sentence: `A two-bedroom apartment, two baths: $${two.total - 20}.`,
        page: p,
      },
    ];
    const added = await ok('rest', 'add_receptionist_source', { note: page }, owner);
    expect(added.price_conflicts).toEqual(conflicts('draft'));
    for (const via of SURFACES) {
      const r = await ok(via, 'update_receptionist', { draft: page, publish: true }, owner);
      expect(r.price_conflicts, via).toEqual([...conflicts('draft'), ...conflicts('published')]);
      const b = await ok(via, 'call_brief', { phone: '+15125550100' }, owner);
      expect(b.price_conflicts, via).toEqual(conflicts('published'));
    }
    // Corrected, the page has none.
    const fixed = page.replace('$99 for 2 bedrooms', `$${two.total} for 2 bedrooms`).replace(`$${two.total - 20}.`, `$${twoBaths.total}.`);
    const r = await ok('rest', 'update_receptionist', { draft: fixed, publish: true }, owner);
    expect(r.price_conflicts).toEqual([]);
  });

  it('reads "from" as a lower bound, and leaves home sizes alone at a business without a cleaning price list', async () => {
    const two = await quote({ bedrooms: 2, bathrooms: 1 });
    const low = await ok('rest', 'update_receptionist', { draft: `2 bedroom homes from $${two.total - 1}. 2 bedroom homes from $${two.total}.` }, owner);
    expect(low.price_conflicts.map((c: { knowledge_price: number }) => c.knowledge_price)).toEqual([two.total - 1]);
    const salon = bearer(await businessKey(app, demoIds.beautySanFrancisco));
    const none = await ok('rest', 'update_receptionist', { draft: 'We also clean 2 bedrooms for $99.' }, salon);
    expect(none.price_conflicts).toEqual([]);
  });
});
