import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { Prisma } from '../../src/generated/prisma/client.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';

// N+1 guard for the owner's reads: the statements schedule and pipeline send do not grow with
// the number of jobs and leads.

let queries = 0;
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ onQuery: () => queries++ });
});
afterAll(async () => app?.close());

async function count(fn: () => Promise<{ status: number; body: unknown }>): Promise<number> {
  // Background deliveries (mail, the payment sandbox's webhooks) are not the operation's statements.
  await app.services.outbox.flush();
  await app.services.payments.sandbox?.flush();
  queries = 0;
  const r = await fn();
  const n = queries;
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return n;
}

describe('owner query counts', () => {
  it('schedule sends the same statements for 200 jobs as for none', async () => {
    // A salon has no demo jobs or blocks: the schedule starts empty.
    const slug = demoIds.beautySanFrancisco;
    const key = bearer(await businessKey(app, slug));
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
    const schedule = () => app.rest('schedule', { days: 30 }, key);
    // A new key's first call records its lastUsedAt: not the operation's statements.
    await schedule();
    // Nothing changed since: the key's statement, which reads the schedule's revision beside, and
    // the page this instance keeps (owners/schedule-cache.ts).
    const empty = await count(schedule);
    expect((await schedule()).body).toMatchObject({ jobs: [] });
    expect(empty).toBe(1);
    // A write (here straight through Prisma) bumps the revision: the key, and one statement for the
    // page: the calendar (every kind, upcoming and awaiting an outcome), hours, blocks, and the
    // notifications' events and notes.
    await app.services.prisma.weeklyHours.upsert({
      where: { businessId_weekday: { businessId: business.id, weekday: 0 } },
      create: { businessId: business.id, weekday: 0, startMinute: 9 * 60, endMinute: 15 * 60 },
      update: { startMinute: 9 * 60, endMinute: 15 * 60 },
    });
    const changed = await count(schedule);
    expect(changed).toBe(2);

    const start = app.services.clock.now() + 3_600_000;
    const ids = Array.from({ length: 200 }, (_, i) => `q_job_${i}`);
    await app.services.prisma.booking.createMany({
      data: ids.map((id, i) => ({
        id, businessId: business.id, kind: 'cleaning', status: 'confirmed', manageTokenHash: `m_${id}`, confirmTokenHash: `c_${id}`, priceCents: 10000 + i,
        bedrooms: 2, bathrooms: 1, cleanType: 'standard', address: `${i} Main St`, zip: '94110', customerName: `Customer ${i}`, customerPhone: '415-555-0100',
        clientName: i % 2 ? 'ChatGPT' : null,
      })),
    });
    await app.services.prisma.bookingVisit.createMany({
      data: ids.map((id, i) => ({ bookingId: id, businessId: business.id, start: new Date(start + i * 3 * 3_600_000), end: new Date(start + i * 3 * 3_600_000 + 2 * 3_600_000) })),
    });
    await app.services.prisma.ownJob.createMany({ data: ids.filter((_, i) => i % 3 === 0).map((id) => ({ bookingId: id, businessId: business.id })) });
    await app.services.transaction(async (tx) => {
      for (const id of ids.slice(0, 50)) await app.services.emit(tx, { type: 'booking.created', businessId: business.id, bookingId: id, clientName: 'ChatGPT', data: { customerName: 'C' } });
    });
    const full = await count(schedule);
    expect(full).toBeLessThanOrEqual(changed + 2);
    // The extra statements are marking notifications read, not one per job; marking them is a
    // change, so the next read is a whole page again, and then the kept one.
    expect((await schedule()).body.jobs.length).toBeGreaterThan(150);
    // A page read while a transaction that may still write this business's events runs is not
    // kept (notifications.ts): on a shared server another database's transaction, or autovacuum
    // in this one, can look like that for a moment. Such a read is a whole page, never more.
    let again = await count(schedule);
    for (let tries = 0; again !== empty && tries < 20; tries++) {
      expect(again).toBeLessThanOrEqual(changed);
      again = await count(schedule);
    }
    expect(again).toBe(empty);
    console.info(`queries: schedule unchanged ${empty}, changed ${changed}, with 200 jobs and 50 unread ${full}, again ${again}`);
  });

  it('pipeline sends the same statements over 500 leads as over none', async () => {
    const slug = demoIds.beautySanFrancisco;
    const key = bearer(await businessKey(app, slug));
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
    const report = () => app.rest('pipeline', {}, key);
    await report();
    const before = await count(report);
    const at = new Date(app.services.clock.now() - 3_600_000);
    const platforms = ['thumbtack', 'angi', 'yelp', 'google', 'nextdoor', 'direct'];
    await app.services.prisma.lead.createMany({
      data: Array.from({ length: 500 }, (_, i) => ({
        businessId: business.id, platform: platforms[i % platforms.length]!, status: i % 5 === 0 ? 'booked' : i % 7 === 0 ? 'lost' : 'quoted', zip: '94110',
        job: { bedrooms: 1, bathrooms: 1 }, quoteCents: 15000, quoteMinutes: 120, costCents: (i % 4) * 500, quotedAt: at, createdAt: at, updatedAt: at,
        flaggedAt: i % 50 === 0 ? at : null, badReason: i % 50 === 0 ? 'spam' : null,
      })),
    });
    const after = await count(report);
    const r = await report();
    expect(r.body.platforms.reduce((s: number, p: { leads: number }) => s + p.leads, 0)).toBeGreaterThanOrEqual(500);
    expect(r.body.possible_credits.leads).toBeGreaterThanOrEqual(5);
    expect(after).toBe(before);
    expect(after).toBeLessThanOrEqual(4);
    console.info(`queries: pipeline ${after} over 500 leads`);
  });

  it('call_brief is read in the statement that checks the key on REST and MCP, and in one more on GraphQL; its business part once per change', async () => {
    const key = bearer(await businessKey(app, demoIds.cleanerAustin));
    const input = { phone: '512-555-0123' };
    await app.rest('call_brief', input, key);
    expect(await count(() => app.rest('call_brief', input, key))).toBe(1);
    expect(await count(async () => {
      const r = await app.tool('call_brief', input, key);
      return { status: r.isError ? 400 : 200, body: r.body };
    })).toBe(1);
    expect(await count(() => app.graphql(app.app.documents.get('call_brief')!, { input }, key))).toBe(2);
    // The business's own part changed: read again once, then known.
    await app.services.query(Prisma.sql`UPDATE "Business" SET "customerNotes" = 'Gate code 1234.' WHERE "slug" = ${demoIds.cleanerAustin}`);
    expect(await count(() => app.rest('call_brief', input, key))).toBe(2);
    expect(await count(() => app.rest('call_brief', input, key))).toBe(1);
  });
});
