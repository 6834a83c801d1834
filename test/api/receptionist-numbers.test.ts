/**
 * One number, one business: a number is the receptionist number of one business at most, and a
 * business's number is replaced only when the owner asked for it. Through REST, MCP and GraphQL,
 * on the carrier sandbox and on carriers that answer otherwise (one that completes every
 * transfer, one that sells a number already held, one whose answer names another number): two
 * businesses moving in the same number, a purchase of a number another business holds, a
 * transfer over an existing number with and without replace_number, the replaced number given
 * back to the carrier, and the migration that settles numbers held twice before.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../../src/db/migrations.js';
import { CarrierUnavailable } from '../../src/phone/carrier.js';
import { startApp, type TestApp } from '../helpers/harness.js';
import { SURFACES } from '../helpers/surfaces.js';
import { planHelpers } from '../helpers/receptionist-plans.js';

let app: TestApp;
let h: ReturnType<typeof planHelpers>;
let slugs: string[];

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  h = planHelpers(app);
  slugs = await h.planless(8);
});
afterAll(async () => app?.close());

const service = async (key: Record<string, string>) => h.ok('rest', 'receptionist_service', {}, key);
const refresh = async (key: Record<string, string>, via: 'rest' | 'mcp' | 'graphql' = 'rest') => h.ok(via, 'receptionist_refresh', {}, key);
const liveHolders = (number: string) => app.services.prisma.receptionistNumber.findMany({ where: { number, status: { not: 'failed' } }, select: { businessId: true, status: true } });
const port = (businessId: string) => app.services.prisma.numberPort.findFirstOrThrow({ where: { businessId }, orderBy: { updatedAt: 'desc' } });

/** Buys a sandbox number for the business as phone_numbers and activate_phone_number do. */
async function buy(key: Record<string, string>, areaCode: string, contains: string) {
  const number = (await h.ok('rest', 'phone_numbers', { area_code: areaCode, contains }, key)).numbers[0].number as string;
  expect(await h.ok('rest', 'activate_phone_number', { number, owner_approved: true }, key)).toMatchObject({ number, status: 'active' });
  return number;
}

describe('two businesses moving in the same number', () => {
  it('once one transfer is sent, the other business is refused (number_taken) on every surface and on the page; only one ends active', async () => {
    const number = '+15125550142';
    const a = await h.withPlan(slugs[0]!);
    const b = await h.withPlan(slugs[1]!);
    // Drafts cost nothing and send nothing: both may prepare one.
    const draftA = await h.ok('rest', 'prepare_number_port', { number, owner_requested: true }, a.key);
    const draftB = await h.ok('rest', 'prepare_number_port', { number, owner_requested: true }, b.key);
    expect((await h.sendPortForm(draftA.dashboard_url)).status).toBe(200);
    expect((await port(a.id)).status).toBe('submitted');

    await h.refused('prepare_number_port', { number, owner_requested: true }, 'number_taken', /transfer of \+15125550142 to another Porchlight business is already with the carrier/, b.key);
    const page = await h.sendPortForm(draftB.dashboard_url);
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/The number was not moved: A transfer of \+15125550142 to another Porchlight business/);
    // B's draft shows the refusal; the carrier received one transfer of the number.
    expect((await service(b.key)).phone.port).toMatchObject({ port_id: draftB.port_id, status: 'rejected', reason: expect.stringMatching(/another Porchlight business/) });
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port', data: { path: ['number'], equals: number } } })).toBe(1);

    await h.portsComplete();
    expect((await refresh(a.key)).phone).toMatchObject({ status: 'active', number, port: { status: 'completed' } });
    for (const via of SURFACES) expect((await refresh(b.key, via)).phone).toMatchObject({ status: 'none', number: null, port: { status: 'rejected' } });
    expect(await liveHolders(number)).toEqual([{ businessId: a.id, status: 'active' }]);

    // Once it is A's number, B asking again is refused before the carrier is asked, and no draft is made.
    await h.refused('prepare_number_port', { number, owner_requested: true }, 'number_taken', /already the receptionist number of another Porchlight business/, b.key);
    expect(await app.services.prisma.numberPort.findMany({ where: { businessId: b.id }, select: { status: true } })).toEqual([{ status: 'rejected' }]);
  });

  it('a carrier that completes both transfers anyway: the database lets one business hold the number, the other transfer is refused saying why', async () => {
    const number = '+15125550132';
    const c = await h.withPlan(slugs[2]!);
    const d = await h.withPlan(slugs[3]!);
    const drafts = [await h.ok('rest', 'prepare_number_port', { number, owner_requested: true }, c.key), await h.ok('rest', 'prepare_number_port', { number, owner_requested: true }, d.key)];
    // As if both had been sent and the carrier had taken both.
    for (const draft of drafts) await app.services.prisma.numberPort.update({ where: { id: draft.port_id }, data: { status: 'submitted', carrierRef: `PR_lenient_${draft.port_id}`, submittedAt: new Date() } });
    const restore = h.carrierAnswering({
      portStatus: async () => ({ status: 'completed', reason: null, number }),
      findNumber: async (input) => ({ number: input.number, status: 'active', carrierRef: input.number }),
    });
    try {
      expect((await refresh(c.key, 'mcp')).phone).toMatchObject({ status: 'active', number });
      for (const via of SURFACES) {
        expect((await refresh(d.key, via)).phone).toMatchObject({
          status: 'none',
          port: { status: 'rejected', reason: expect.stringMatching(/already the receptionist number of another Porchlight business, so it was not made this business's/) },
        });
      }
    } finally {
      restore();
    }
    expect(await liveHolders(number)).toEqual([{ businessId: c.id, status: 'active' }]);
  });
});

describe('buying a number another business holds', () => {
  it('is refused (number_taken) before the carrier is asked, even by a carrier that would sell it again', async () => {
    const e = await h.withPlan(slugs[4]!);
    const f = await h.withPlan(slugs[5]!);
    const number = await buy(e.key, '737', '0121');
    // F was shown the number too (before E bought it), and the carrier answers a repeated purchase
    // as Twilio does for a number the account holds: as if it were bought.
    await app.services.prisma.phoneNumberOffer.create({ data: { businessId: f.id, number, locality: 'Austin', region: 'TX', offeredAt: app.services.clock.date() } });
    let asked = 0;
    const restore = h.carrierAnswering({
      purchaseNumber: async (input) => {
        asked += 1;
        return { number: input.number, status: 'active', carrierRef: input.number };
      },
    });
    try {
      await h.refused('activate_phone_number', { number, owner_approved: true }, 'number_taken', /already the receptionist number of another Porchlight business, so nothing was bought/, f.key);
    } finally {
      restore();
    }
    expect(asked).toBe(0);
    expect(await liveHolders(number)).toEqual([{ businessId: e.id, status: 'active' }]);
    expect((await service(f.key)).phone).toMatchObject({ status: 'none', number: null });
  });
});

describe('a transfer over the business\'s own number', () => {
  it('is refused without replace_number (replace_number_required); with it the old number is given back to the carrier when the new one arrives', async () => {
    const g = await h.withPlan(slugs[6]!);
    const old = await buy(g.key, '512', '0144');
    const number = '+15125550152';
    await h.refused('prepare_number_port', { number, owner_requested: true }, 'replace_number_required', /already has the receptionist number \+15125550144.*replace_number true only once the owner agrees/, g.key);
    await h.refused('prepare_number_port', { number, owner_requested: true, replace_number: false }, 'replace_number_required', undefined, g.key, ['rest']);
    const body = (await app.rest('prepare_number_port', { number, owner_requested: true }, g.key)).body;
    expect(body.current_number).toBe(old);
    expect(await app.services.prisma.numberPort.count({ where: { businessId: g.id } })).toBe(0);

    const drafts = [];
    for (const via of SURFACES) drafts.push(await h.ok(via, 'prepare_number_port', { number, owner_requested: true, replace_number: true }, g.key));
    for (const d of drafts) expect(d).toMatchObject({ port_id: drafts[0].port_id, status: 'draft', replaces: old, next: expect.stringMatching(/\+15125550144 is given back to the carrier/) });
    const page = await (await h.portPage(drafts[2].dashboard_url)).text();
    expect(page).toContain('This transfer replaces +15125550144, as you asked');
    expect((await h.sendPortForm(drafts[2].dashboard_url)).status).toBe(200);
    // While the transfer is with the carrier, no other number is bought.
    await h.refused('activate_phone_number', { number: '+15125550146', owner_approved: true }, 'invalid_input', /already has the number \+15125550144/, g.key, ['rest']);
    await app.services.prisma.receptionistNumber.update({ where: { businessId: g.id }, data: { status: 'failed' } });
    await h.refused('activate_phone_number', { number: old, owner_approved: true }, 'invalid_input', /transfer of \+15125550152 is with the carrier/, g.key);
    await app.services.prisma.receptionistNumber.update({ where: { businessId: g.id }, data: { status: 'active' } });

    // The first release does not get through; the next refresh gives the number back.
    await h.portsComplete();
    const restore = h.carrierAnswering({
      releaseNumber: async () => {
        throw new CarrierUnavailable('The carrier did not answer in time.');
      },
    });
    try {
      expect((await refresh(g.key)).phone).toMatchObject({ status: 'active', number, port: { port_id: drafts[0].port_id, status: 'completed' } });
    } finally {
      restore();
    }
    expect(await app.services.prisma.numberRelease.findMany({ where: { businessId: g.id }, select: { number: true, releasedAt: true } })).toEqual([{ number: old, releasedAt: null }]);
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: old } })).toBe(1);
    await refresh(g.key, 'graphql');
    expect(await app.services.prisma.numberRelease.findFirst({ where: { businessId: g.id, releasedAt: null } })).toBeNull();
    // Given back: the carrier no longer holds it, so it is for sale again, and it is nobody's receptionist number.
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: old } })).toBe(0);
    expect((await h.ok('rest', 'phone_numbers', { area_code: '512', contains: '0144' }, g.key)).numbers.map((n: { number: string }) => n.number)).toEqual([old]);
    expect(await liveHolders(old)).toEqual([]);
    expect(await liveHolders(number)).toEqual([{ businessId: g.id, status: 'active' }]);
    expect(await (await h.portPage(drafts[2].dashboard_url)).text()).toContain('This transfer replaces +15125550144');
  });

  it('a number bought after the draft was prepared without replace_number: the page sends nothing and says how to replace it', async () => {
    const j = await h.withPlan(slugs[7]!);
    const draft = await h.ok('rest', 'prepare_number_port', { number: '+15125550182', owner_requested: true }, j.key);
    expect(draft.replaces).toBeNull();
    const own = await buy(j.key, '512', '0147');
    const page = await h.sendPortForm(draft.dashboard_url);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(`${own} is this business&#39;s receptionist number now, and this transfer was not asked to replace it, so nothing was sent.`);
    expect(await port(j.id)).toMatchObject({ status: 'draft', carrierRef: null });
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'port', data: { path: ['number'], equals: '+15125550182' } } })).toBe(0);
  });

  it('a transfer sent before replacing needed the request completes without swapping the numbers, and says so', async () => {
    const k = await h.withPlan((await h.planless(1, 'plumbing'))[0]!);
    const own = await buy(k.key, '512', '0145');
    const number = '+15125550162';
    // Prepared and sent before the business bought its number, as the old code allowed.
    await app.services.prisma.numberPort.create({ data: { businessId: k.id, number, status: 'submitted', carrierRef: `PR_old_${k.id}`, createdAt: new Date(), submittedAt: new Date(), updatedAt: new Date() } });
    const restore = h.carrierAnswering({
      portStatus: async () => ({ status: 'completed', reason: null, number }),
      findNumber: async (input) => ({ number: input.number, status: 'active', carrierRef: input.number }),
    });
    try {
      expect((await refresh(k.key)).phone).toMatchObject({ status: 'active', number: own, port: { status: 'completed', reason: expect.stringMatching(/\+15125550145 stays the receptionist's number: the transfer did not ask to replace it/) } });
    } finally {
      restore();
    }
    expect(await app.services.prisma.numberRelease.count({ where: { businessId: k.id } })).toBe(0);
    expect(await app.services.prisma.sandboxCarrierObject.count({ where: { type: 'number', id: own } })).toBe(1);
  });
});

describe("the carrier's answer", () => {
  it('a transfer answer naming another number, or a completed transfer the carrier does not hold, makes nothing active', async () => {
    const m = await h.withPlan((await h.planless(1, 'hvac'))[0]!);
    const number = '+14085550172';
    const draft = await h.ok('rest', 'prepare_number_port', { number, owner_requested: true }, m.key);
    expect((await h.sendPortForm(draft.dashboard_url)).status).toBe(200);
    await h.portsComplete();
    // Completed, but the carrier does not hold the number for us: not yet.
    let restore = h.carrierAnswering({ findNumber: async () => null });
    try {
      expect((await refresh(m.key)).phone).toMatchObject({ status: 'none', port: { status: 'submitted' } });
    } finally {
      restore();
    }
    restore = h.carrierAnswering({ portStatus: async () => ({ status: 'completed', reason: null, number: '+14085550173' }) });
    try {
      for (const via of SURFACES) {
        expect((await refresh(m.key, via)).phone).toMatchObject({
          status: 'none',
          number: null,
          port: { status: 'rejected', reason: expect.stringMatching(/answer named \+14085550173, not \+14085550172, so nothing was made active/) },
        });
      }
    } finally {
      restore();
    }
    expect(await liveHolders(number)).toEqual([]);
    expect(await liveHolders('+14085550173')).toEqual([]);
  });

  it('a purchase answered with another number is not stored as active (number_unavailable)', async () => {
    const n = await h.withPlan((await h.planless(1, 'hvac'))[0]!);
    const shown = (await h.ok('rest', 'phone_numbers', { area_code: '669', contains: '0131' }, n.key)).numbers[0].number as string;
    const restore = h.carrierAnswering({ purchaseNumber: async () => ({ number: '+16695550132', status: 'active', carrierRef: '+16695550132' }) });
    try {
      await h.refused('activate_phone_number', { number: shown, owner_approved: true }, 'number_unavailable', /answer named \+16695550132, not \+16695550131, so nothing was made active/, n.key, ['rest']);
    } finally {
      restore();
    }
    expect((await service(n.key)).phone).toMatchObject({ status: 'failed', number: shown });
    expect(await liveHolders(shown)).toEqual([]);
    expect(await liveHolders('+16695550132')).toEqual([]);
  });
});

describe('the migration', () => {
  it('settles a number live for several businesses before the unique index is made: the first holder keeps it', async () => {
    const dirs = readdirSync(migrationsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
    const mine = dirs.indexOf('20261125120000_numbers_one_holder');
    expect(mine).toBeGreaterThan(0);
    const db = await PGlite.create({ extensions: { btree_gist } });
    try {
      for (const dir of dirs.slice(0, mine)) await db.exec(readFileSync(join(migrationsDir, dir, 'migration.sql'), 'utf8'));
      // Rows as the old code could leave them (no businesses needed for this: foreign keys off).
      await db.exec(`SET session_replication_role = replica;
        INSERT INTO "ReceptionistNumber" ("businessId", "number", "locality", "region", "status", "carrierRef", "idempotencyKey", "requestedAt", "activatedAt", "updatedAt") VALUES
          ('first',  '+15125550142', 'Austin', 'TX', 'active',  'x', 'k1', '2026-11-01', '2026-11-10', now()),
          ('second', '+15125550142', 'Austin', 'TX', 'active',  'x', 'k2', '2026-10-01', '2026-11-12', now()),
          ('third',  '+15125550142', 'Austin', 'TX', 'pending', 'x', 'k3', '2026-09-01', NULL, now()),
          ('alone',  '+15125550143', 'Austin', 'TX', 'active',  'x', 'k4', '2026-11-01', '2026-11-02', now()),
          ('gone',   '+15125550143', 'Austin', 'TX', 'failed',  NULL, 'k5', '2026-11-01', NULL, now());
        INSERT INTO "NumberPort" ("id", "businessId", "number", "status", "createdAt", "updatedAt") VALUES
          ('p1', 'first', '+15125550142', 'completed', now(), now()),
          ('p2', 'second', '+15125550142', 'completed', now(), now());
        SET session_replication_role = DEFAULT;`);
      await db.exec(readFileSync(join(migrationsDir, dirs[mine]!, 'migration.sql'), 'utf8'));
      const rows = await db.query<{ businessId: string; status: string; failure: string | null }>('SELECT "businessId", "status", "failure" FROM "ReceptionistNumber" ORDER BY "businessId"');
      expect(rows.rows.map((r) => [r.businessId, r.status])).toEqual([['alone', 'active'], ['first', 'active'], ['gone', 'failed'], ['second', 'failed'], ['third', 'failed']]);
      expect(rows.rows.find((r) => r.businessId === 'second')!.failure).toMatch(/Another Porchlight business already held this number/);
      const ports = await db.query<{ id: string; status: string }>('SELECT "id", "status" FROM "NumberPort" ORDER BY "id"');
      expect(ports.rows).toEqual([{ id: 'p1', status: 'completed' }, { id: 'p2', status: 'rejected' }]);
      // From now on the database refuses a second live holder, and still takes failed ones.
      await db.exec(`SET session_replication_role = replica;`);
      await expect(db.exec(`UPDATE "ReceptionistNumber" SET "status" = 'pending' WHERE "businessId" = 'third'`)).rejects.toThrow(/ReceptionistNumber_live_number_key/);
      await db.exec(`INSERT INTO "ReceptionistNumber" ("businessId", "number", "locality", "region", "status", "idempotencyKey", "requestedAt", "updatedAt") VALUES ('later', '+15125550142', '', '', 'failed', 'k6', now(), now())`);
    } finally {
      await db.close();
    }
  });
});
