/**
 * Leads: log_lead, follow_ups_due (under the service clock), update_lead, flag_bad_lead and the
 * pipeline, through REST, MCP and GraphQL.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';

const DAY = 86_400_000;
let app: TestApp;
let cleaner: Record<string, string>;
let plumber: Record<string, string>;

beforeAll(async () => {
  app = await startApp();
  cleaner = bearer(await businessKey(app, demoIds.cleanerAustin));
  plumber = bearer(await businessKey(app, demoIds.plumberAustin));
});
afterAll(async () => app?.close());
afterEach(() => vi.restoreAllMocks());

const lead = { platform: 'thumbtack', zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1, cost: 18.5 };
const moveClockTo = (at: number) => vi.spyOn(app.services.clock, 'now').mockReturnValue(at);

describe('log_lead', () => {
  it('returns a firm quote equal to quote_job, open starts and a reply draft in the platform manner, on every surface', async () => {
    const quote = await app.rest('quote_job', { bedrooms: 2, bathrooms: 1 }, cleaner);
    for (const via of SURFACES) {
      const r = await call(app, via, 'log_lead', { ...lead, customer_name: 'Maria Lopez' }, cleaner);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(r.body.quote).toEqual(quote.body);
      expect(r.body.starts.length).toBeGreaterThan(0);
      expect(r.body.zip_served).toBe(true);
      expect(r.body.contact_stored).toBe(false);
      expect(r.body.reply_draft).toMatch(/^Hi Maria,/);
      expect(r.body.reply_draft).toContain('Thumbtack');
      expect(r.body.reply_draft).toContain(`$${quote.body.total}`);
      // A marketplace reply stays inside the platform: no phone number, no link.
      expect(r.body.reply_draft).not.toMatch(/\d{3}-\d{4}|https?:/);
      expect(r.body.lead).toMatchObject({ lead_id: r.body.lead_id, status: 'quoted', cost: 18.5, customer_name: null, next_follow_up_at: expect.any(String) });
    }
    const service = await call(app, 'rest', 'log_lead', { platform: 'google', zip: demoIds.austinZip, issue: 'leak', cost: 42 }, plumber);
    expect(service.body.quote).toMatchObject({ total: null, fee: (await app.rest('quote_job', { issue: 'leak' }, plumber)).body.fee });
    expect(service.body.reply_draft).toMatch(/service-call fee/);
    const neighbour = await call(app, 'rest', 'log_lead', { ...lead, platform: 'nextdoor', cost: 0 }, cleaner);
    expect(neighbour.body.reply_draft).toMatch(/^Hi neighbor!/);
    const far = await call(app, 'rest', 'log_lead', { ...lead, zip: '78613' }, cleaner);
    expect(far.body.zip_served).toBe(false);
    expect(far.body.reply_draft).toMatch(/don't serve ZIP 78613/);
  });

  it('never stores the name or contact of a platform lead (the row itself), and keeps a direct lead\'s', async () => {
    const typed = { customer_name: 'Maria Lopez', customer_phone: '512-555-0199', customer_email: 'maria@example.com', message: 'Call me at (512) 555-0199 or maria@example.com, thanks!' };
    const r = await call(app, 'mcp', 'log_lead', { ...lead, ...typed }, cleaner);
    const row = await app.services.prisma.lead.findUniqueOrThrow({ where: { id: r.body.lead_id } });
    expect([row.customerName, row.customerPhone, row.customerEmail, row.phoneKey]).toEqual([null, null, null, null]);
    expect(row.message).toBe('Call me at [phone removed] or [e-mail removed], thanks!');
    expect(JSON.stringify(row)).not.toMatch(/Maria|555-0199|5550199|maria@/);
    const direct = await call(app, 'graphql', 'log_lead', { ...lead, platform: 'direct', cost: undefined, ...typed }, cleaner);
    expect(direct.body.contact_stored).toBe(true);
    const kept = await app.services.prisma.lead.findUniqueOrThrow({ where: { id: direct.body.lead_id } });
    expect(kept).toMatchObject({ customerName: 'Maria Lopez', customerPhone: '+15125550199', customerEmail: 'maria@example.com', phoneKey: '+15125550199', message: typed.message });
    expect(direct.body.reply_draft).toContain('http://porchlight.test/b/');
    expect((await call(app, 'rest', 'log_lead', { ...lead, platform: 'direct' }, cleaner)).code).toBe('invalid_input');
  });

  it('refuses unknown platforms, bad ZIPs, costs out of range and jobs the business does not price', async () => {
    for (const via of SURFACES) {
      for (const bad of [{ platform: 'craigslist' }, { zip: '7870' }, { cost: -1 }, { cost: 5000 }, { bedrooms: undefined }, { issue: 'leak' }]) {
        const r = await call(app, via, 'log_lead', { ...lead, ...bad }, cleaner);
        expect(r.code, `${via} ${JSON.stringify(bad)}`).toBe('invalid_input');
      }
    }
  });
});

describe('follow_ups_due', () => {
  it('is due exactly 1 day after the quote, then 2 days after the first follow-up, then never, under the clock', async () => {
    const t0 = app.services.clock.now();
    const logged = await app.rest('log_lead', { ...lead, customer_name: 'Jo' }, cleaner);
    const id = logged.body.lead_id as string;
    const due = async (via: (typeof SURFACES)[number] = 'rest') =>
      (await call(app, via, 'follow_ups_due', {}, cleaner)).body.leads.find((l: { lead_id: string }) => l.lead_id === id);
    const quotedAt = (await app.services.prisma.lead.findUniqueOrThrow({ where: { id } })).quotedAt.getTime();
    expect(quotedAt).toBeGreaterThanOrEqual(t0);

    moveClockTo(quotedAt + DAY - 1);
    expect(await due()).toBeUndefined();
    const cursor = (await app.rest('updates', {}, cleaner)).body.cursor as string;
    moveClockTo(quotedAt + DAY);
    for (const via of SURFACES) {
      const first = await due(via);
      expect(first, via).toMatchObject({ platform: 'thumbtack', follow_up_number: 1, due_at: expect.any(String) });
      expect(Date.parse(first.due_at)).toBe(Math.floor((quotedAt + DAY) / 1000) * 1000);
      expect(first.draft).toMatch(/^Hi Jo,|^Hi,/);
    }
    // updates reports it once, as it falls due.
    const feed = await app.rest('updates', { since: cursor }, cleaner);
    expect(feed.body.events.filter((e: { lead_id: string }) => e.lead_id === id)).toEqual([expect.objectContaining({ type: 'follow_up.due', follow_up_number: 1 })]);

    const sent = await call(app, 'mcp', 'update_lead', { lead_id: id, contacted: true }, cleaner);
    expect(sent.body).toMatchObject({ contacted: true, follow_ups_sent: 1 });
    expect(await due()).toBeUndefined();
    moveClockTo(quotedAt + 3 * DAY - 1);
    expect(await due()).toBeUndefined();
    moveClockTo(quotedAt + 3 * DAY);
    expect(await due('graphql')).toMatchObject({ follow_up_number: 2 });
    await call(app, 'rest', 'update_lead', { lead_id: id, contacted: true }, cleaner);
    moveClockTo(quotedAt + 30 * DAY);
    expect(await due()).toBeUndefined();
  });

  it('stops once the lead is booked, lost or answered', async () => {
    const quotedAt = app.services.clock.now();
    const ids: string[] = [];
    for (const change of [{ status: 'booked' }, { status: 'lost' }, { replied: true }]) {
      const r = await app.rest('log_lead', lead, cleaner);
      ids.push(r.body.lead_id);
      const u = await call(app, 'graphql', 'update_lead', { lead_id: r.body.lead_id, notes: 'Spoke on the phone', ...change }, cleaner);
      expect(u.ok, JSON.stringify(u.body)).toBe(true);
      expect(u.body.notes).toBe('Spoke on the phone');
      expect(u.body.next_follow_up_at).toBeNull();
    }
    moveClockTo(quotedAt + 2 * DAY);
    const listed = (await app.rest('follow_ups_due', {}, cleaner)).body.leads.map((l: { lead_id: string }) => l.lead_id);
    for (const id of ids) expect(listed).not.toContain(id);
  });
});

describe('flag_bad_lead', () => {
  it('prepares a credit request with evidence and the platform policy for a paid platform lead, on every surface', async () => {
    for (const via of SURFACES) {
      const r0 = await app.rest('log_lead', { ...lead, platform: 'angi', cost: 27 }, cleaner);
      const r = await call(app, via, 'flag_bad_lead', { lead_id: r0.body.lead_id, reason: 'The phone number on the lead is disconnected.' }, cleaner);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(r.body.lead_id).toBe(r0.body.lead_id);
      expect(r.body.credit_request).toMatchObject({ platform: 'angi', amount: 27 });
      expect(r.body.credit_request.text).toContain('$27.00');
      expect(r.body.credit_request.text).toContain('disconnected');
      expect(r.body.credit_request.evidence.join(' ')).toMatch(/Angi, charged \$27\.00/);
      expect(r.body.credit_request.policy).toMatch(/Angi/);
      expect(r.body.lead.bad).toBe(true);
    }
    const direct = await app.rest('log_lead', { ...lead, platform: 'direct', customer_name: 'Kim', cost: undefined }, cleaner);
    const free = await app.rest('log_lead', { ...lead, platform: 'facebook', cost: 0 }, cleaner);
    for (const via of SURFACES) {
      expect((await call(app, via, 'flag_bad_lead', { lead_id: direct.body.lead_id, reason: 'Spam' }, cleaner)).code).toBe('invalid_input');
      expect((await call(app, via, 'flag_bad_lead', { lead_id: free.body.lead_id, reason: 'Spam' }, cleaner)).code).toBe('invalid_input');
    }
  });

  it("answers another business's lead_id with 400 not_found", async () => {
    const theirs = await app.rest('log_lead', { platform: 'angi', zip: demoIds.austinZip, issue: 'clog', cost: 30 }, plumber);
    for (const via of SURFACES) {
      expect((await call(app, via, 'update_lead', { lead_id: theirs.body.lead_id, status: 'lost' }, cleaner)).code, via).toBe('not_found');
      expect((await call(app, via, 'flag_bad_lead', { lead_id: theirs.body.lead_id, reason: 'x' }, cleaner)).code, via).toBe('not_found');
      expect((await call(app, via, 'book_job', { customer_name: 'A', customer_phone: '5125550100', address: '1 Main St', start: '2026-12-01T09:00:00-06:00', bedrooms: 1, bathrooms: 1, lead_id: theirs.body.lead_id }, cleaner)).code, via).toBe('not_found');
    }
    expect((await app.services.prisma.lead.findUniqueOrThrow({ where: { id: theirs.body.lead_id } })).status).toBe('quoted');
  });
});

describe('pipeline', () => {
  it("reports leads and spend by platform, jobs booked, cost per booked job, possible credits and direct customers, and my_business shows the same", async () => {
    const key = bearer(await businessKey(app, demoIds.cleanerSanFrancisco));
    const before = (await app.rest('pipeline', {}, key)).body;
    const job = { zip: demoIds.sanFranciscoZip, bedrooms: 1, bathrooms: 1 };
    const a = await app.rest('log_lead', { platform: 'yelp', cost: 20, ...job }, key);
    await app.rest('log_lead', { platform: 'yelp', cost: 10, ...job }, key);
    const bad = await app.rest('log_lead', { platform: 'yelp', cost: 15, ...job }, key);
    await app.rest('flag_bad_lead', { lead_id: bad.body.lead_id, reason: 'Duplicate' }, key);
    const open = await app.rest('open_times', { bedrooms: 1, bathrooms: 1, date: '2026-12-02', days: 7 }, key);
    const booked = await app.rest('book_job', { customer_name: 'Yelp Customer', customer_phone: '4155550111', address: '1 Mission St, San Francisco CA', start: open.body.starts[0], bedrooms: 1, bathrooms: 1, lead_id: a.body.lead_id }, key);
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const direct = await app.rest('book_job', { customer_name: 'Walk In', customer_phone: '4155550112', address: '2 Mission St, San Francisco CA', start: open.body.starts.at(-1), bedrooms: 1, bathrooms: 1 }, key);
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    for (const via of SURFACES) {
      const r = await call(app, via, 'pipeline', {}, key);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      const yelp = r.body.platforms.find((p: { platform: string }) => p.platform === 'yelp');
      const was = before.platforms.find((p: { platform: string }) => p.platform === 'yelp') ?? { leads: 0, spend: 0, booked: 0 };
      expect(yelp).toMatchObject({ leads: was.leads + 3, spend: was.spend + 45, booked: was.booked + 1 });
      expect(yelp.cost_per_booked_job).toBe(Math.round((yelp.spend / yelp.booked) * 100) / 100);
      expect(r.body.jobs_booked).toBe(before.jobs_booked + 2);
      expect(r.body.direct_customers).toBe(before.direct_customers + 1);
      expect(r.body.possible_credits.leads).toBe(before.possible_credits.leads + 1);
      expect(r.body.possible_credits.amount).toBe(before.possible_credits.amount + 15);
      expect(r.body.possible_credits.lead_ids).toContain(bad.body.lead_id);
      expect(r.body.total_spend).toBe(Math.round((before.total_spend + 45) * 100) / 100);
      expect(r.body.month).toBe('2026-11');
    }
    const mine = await app.rest('my_business', {}, key);
    expect(mine.body.pipeline).toEqual((await app.rest('pipeline', {}, key)).body);
    const empty = await call(app, 'rest', 'pipeline', { month: '2025-01' }, key);
    expect(empty.body).toMatchObject({ month: '2025-01', platforms: [], jobs_booked: 0 });
    expect((await call(app, 'mcp', 'pipeline', { month: '2026-13' }, key)).code).toBe('invalid_input');
  });
});
