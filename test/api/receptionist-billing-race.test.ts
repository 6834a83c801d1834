/**
 * The spending limit and the one-purchase rule under concurrency. PGlite runs one statement at a
 * time, so these run on PostgreSQL only (TEST_DATABASE_URL): usage records racing each other and
 * a lowered limit never take the month past the limit, racing activations buy one number, and two
 * businesses racing for one number (transfers sent at once, transfers a carrier completes for
 * both, purchases a carrier answers for both) leave it with exactly one of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordUsage } from '../../src/billing/usage.js';
import { committedCents } from '../../src/billing/ledger.js';
import { ledger } from '../../src/billing/store.js';
import { bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';
import { planHelpers } from '../helpers/receptionist-plans.js';

let app: TestApp;
/** The demo's San Jose HVAC pro: an active sandbox plan (see src/demo/billing.ts). */
let businessId: string;
let owner: Record<string, string>;

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  const row = await app.services.prisma.receptionistBilling.findFirstOrThrow({ where: { planStatus: 'active', business: { city: 'San Jose' } }, include: { business: true } });
  businessId = row.businessId;
  owner = bearer(await businessKey(app, row.business.slug));
});
afterAll(async () => app?.close());

const row = () => app.services.prisma.receptionistBilling.findUniqueOrThrow({ where: { businessId } });
const reset = (data: { usedMinutes: number; limitCents: number; atLimit: 'pause' | 'ask' }) =>
  app.services.prisma.receptionistBilling.update({ where: { businessId }, data: { ...data, limitReachedFor: null } });

describe.skipIf(!onPostgres)('concurrent usage on PostgreSQL', () => {
  it('40 concurrent records never pass the limit: exactly the allowance is granted, announced and noted once', async () => {
    // The included 300 minutes used; $10 over the plan buys 50 paid minutes at $0.20.
    await reset({ usedMinutes: 300, limitCents: 5900, atLimit: 'ask' });
    const notes = await app.services.prisma.ownerNote.count({ where: { businessId } });
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => recordUsage(app.services, { businessId, usageId: `race-a-${i}`, minutes: 3 })));
    const granted = results.reduce((n, r) => n + r.granted, 0);
    expect(granted).toBe(50);
    expect(results.filter((r) => r.granted === 3)).toHaveLength(16);
    expect(results.filter((r) => r.granted === 2)).toHaveLength(1);
    const after = await row();
    expect(after.usedMinutes).toBe(350);
    expect(committedCents(ledger(after, app.services.clock.now()))).toBe(5900);
    const recorded = await app.services.prisma.receptionistUsage.aggregate({ where: { businessId, usageId: { startsWith: 'race-a-' } }, _sum: { minutes: true, overageMinutes: true } });
    expect(recorded._sum).toEqual({ minutes: 50, overageMinutes: 50 });
    expect(await app.services.prisma.event.count({ where: { businessId, type: 'receptionist.limit_reached' } })).toBe(1);
    expect(await app.services.prisma.ownerNote.count({ where: { businessId } })).toBe(notes + 1);
  });

  it('retries racing their first record count once', async () => {
    await reset({ usedMinutes: 0, limitCents: 10_000, atLimit: 'pause' });
    const results = await Promise.all(Array.from({ length: 20 }, () => recordUsage(app.services, { businessId, usageId: 'race-retry', minutes: 7 })));
    expect(new Set(results.map((r) => r.granted))).toEqual(new Set([7]));
    expect((await row()).usedMinutes).toBe(7);
  });

  it('a limit lowered while records race: every change is checked against what is committed at that moment', async () => {
    await reset({ usedMinutes: 300, limitCents: 10_000, atLimit: 'pause' });
    const records = Array.from({ length: 30 }, (_, i) => recordUsage(app.services, { businessId, usageId: `race-b-${i}`, minutes: 10 }));
    const lowers = [60, 58, 56, 54, 52, 50].map((monthly_dollars) => app.rest('receptionist_limits', { monthly_dollars, at_limit: 'pause' }, owner));
    const [usage, limits] = await Promise.all([Promise.all(records), Promise.all(lowers)]);
    expect(limits.map((r) => r.status).filter((s) => s !== 200 && s !== 400)).toEqual([]);
    for (const r of limits.filter((l) => l.status === 400)) expect(r.body.code).toBe('below_committed_charges');
    const after = await row();
    expect(committedCents(ledger(after, app.services.clock.now()))).toBeLessThanOrEqual(after.limitCents);
    expect(after.usedMinutes).toBe(300 + usage.reduce((n, r) => n + r.granted, 0));
  });

  it('racing activations of one approved number buy it once', async () => {
    const number = (await app.rest('phone_numbers', { area_code: '669', contains: '0103' }, owner)).body.numbers[0].number;
    const results = await Promise.all(Array.from({ length: 12 }, () => app.rest('activate_phone_number', { number, owner_approved: true }, owner)));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: number } })).toBe(1);
    expect((await app.rest('activate_phone_number', { number, owner_approved: true }, owner)).body.status).toBe('active');
  });

  it('racing checkouts open one session', async () => {
    const slug = (await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'plumbing', receptionistBilling: null }, orderBy: { slug: 'asc' } })).slug;
    const key = bearer(await businessKey(app, slug));
    const results = await Promise.all(Array.from({ length: 10 }, () => app.rest('receptionist_checkout', { owner_approved: true }, key)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.url)).size).toBe(1);
  });
});

describe.skipIf(!onPostgres)('one number, one business, on PostgreSQL', () => {
  const h = () => planHelpers(app);
  const liveHolders = (number: string) => app.services.prisma.receptionistNumber.findMany({ where: { number, status: { not: 'failed' } }, select: { businessId: true } });
  const refreshes = (keys: Record<string, string>[], times: number) => Promise.all(keys.flatMap((key) => Array.from({ length: times }, () => app.rest('receptionist_refresh', {}, key))));

  it('two businesses sending transfers of one number at once: one goes to the carrier, one business ends holding it', async () => {
    const number = '+14085550142';
    const [a, b] = await Promise.all((await h().planless(2)).map((slug) => h().withPlan(slug)));
    const drafts = [];
    for (const who of [a!, b!]) drafts.push((await app.rest('prepare_number_port', { number, owner_requested: true }, who.key)).body);
    const pages = await Promise.all(drafts.flatMap((d) => [1, 2, 3].map(() => h().sendPortForm(d.dashboard_url))));
    expect(pages.map((p) => p.status).filter((s) => s !== 200 && s !== 400)).toEqual([]);
    const ports = await app.services.prisma.numberPort.findMany({ where: { number, businessId: { in: [a!.id, b!.id] } } });
    expect(ports.filter((p) => p.status === 'submitted')).toHaveLength(1);
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port', data: { path: ['number'], equals: number } } })).toBe(1);
    await h().portsComplete();
    const answers = await refreshes([a!.key, b!.key], 4);
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await liveHolders(number)).toEqual([{ businessId: ports.find((p) => p.status === 'submitted')!.businessId }]);
  });

  it('a carrier completing both transfers: racing refreshes leave exactly one holder, and the other transfer refused saying why', async () => {
    const number = '+14085550152';
    const [c, d] = await Promise.all((await h().planless(2, 'plumbing')).map((slug) => h().withPlan(slug)));
    const drafts = [];
    for (const who of [c!, d!]) drafts.push((await app.rest('prepare_number_port', { number, owner_requested: true }, who.key)).body);
    for (const draft of drafts) await app.services.prisma.numberPort.update({ where: { id: draft.port_id }, data: { status: 'submitted', carrierRef: `PR_lenient_${draft.port_id}`, submittedAt: new Date() } });
    const restore = h().carrierAnswering({
      portStatus: async () => ({ status: 'completed', reason: null, number }),
      findNumber: async (input) => ({ number: input.number, status: 'active', carrierRef: input.number }),
    });
    try {
      const answers = await refreshes([c!.key, d!.key], 5);
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    } finally {
      restore();
    }
    const holders = await liveHolders(number);
    expect(holders).toHaveLength(1);
    const loser = [c!, d!].find((w) => w.id !== holders[0]!.businessId)!;
    expect(await app.services.prisma.numberPort.findFirstOrThrow({ where: { businessId: loser.id, number } })).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/another Porchlight business/) });
  });

  it('two businesses buying one number at once from a carrier that sells it to both: one holds it, the other is refused (number_taken)', async () => {
    const [e, f] = await Promise.all((await h().planless(2, 'hvac')).map((slug) => h().withPlan(slug)));
    const number = (await app.rest('phone_numbers', { area_code: '669', contains: '0141' }, e!.key)).body.numbers[0].number as string;
    await app.rest('phone_numbers', { area_code: '669', contains: '0141' }, f!.key);
    const restore = h().carrierAnswering({ purchaseNumber: async (input) => ({ number: input.number, status: 'active', carrierRef: input.number }) });
    let results;
    try {
      results = await Promise.all([e!, f!].flatMap((who) => Array.from({ length: 6 }, async () => ({ who: who.id, r: await app.rest('activate_phone_number', { number, owner_approved: true }, who.key) }))));
    } finally {
      restore();
    }
    const holders = await liveHolders(number);
    expect(holders).toHaveLength(1);
    for (const { who, r } of results) {
      if (who === holders[0]!.businessId) expect(r.status, JSON.stringify(r.body)).toBe(200);
      else expect([r.status, r.body.code]).toEqual([400, 'number_taken']);
    }
  });
});
