/**
 * Concurrent visit bookings. PGlite runs one statement at a time, so the races run on
 * PostgreSQL only; the constraint test runs on both.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
let slug: string;
let businessId: string;
let owner: Record<string, string>;
const START = '2026-11-25T10:00:00-06:00';
const WEEK = [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_minute: 540, end_minute: 1020 }));

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  const business = await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'beauty', city: 'Austin' }, orderBy: { slug: 'asc' } });
  ({ slug, id: businessId } = business);
  owner = bearer(await businessKey(app, slug));
  await app.services.prisma.weeklyHours.deleteMany({ where: { businessId } });
  await app.services.prisma.weeklyHours.createMany({ data: WEEK.map((h) => ({ businessId, weekday: h.weekday, startMinute: h.start_minute, endMinute: h.end_minute })) });
  await app.services.prisma.business.update({ where: { id: businessId }, data: { minNoticeMinutes: 120 } });
  const setup = (await app.rest('service_setup', {}, owner)).body;
  const menu = await app.rest(
    'update_service_menu',
    {
      menu_revision: setup.menu_revision,
      services: [
        { service_id: 'trim', name: 'Trim', price_kind: 'fixed', price_cents: 3000, duration_minutes: 30 },
        { service_id: 'nails', name: 'Manicure', price_kind: 'fixed', price_cents: 2500, duration_minutes: 30 },
      ],
    },
    owner,
  );
  expect(menu.status, JSON.stringify(menu.body)).toBe(200);
  // Exactly two technicians do trims; the third does only nails.
  const staff = await app.rest(
    'update_staff_availability',
    {
      scheduling_enabled: true,
      buffer_minutes: 10,
      staff: [
        { name: 'Ana', service_ids: ['trim'], hours: WEEK },
        { name: 'Bo', service_ids: ['trim', 'nails'], hours: WEEK },
        { name: 'Cy', service_ids: ['nails'], hours: WEEK },
      ],
    },
    owner,
  );
  expect(staff.status, JSON.stringify(staff.body)).toBe(200);
});
afterAll(async () => app?.close());

async function input(i: number, selections = [{ service_id: 'trim' }]) {
  const e = (await app.rest('estimate_visit', { business: slug, selections: JSON.stringify(selections) })).body;
  return {
    business: slug, selections, customer_name: `Racer ${i}`, customer_email: `racer${i}@example.com`, menu_revision: e.menu_revision, expected_estimate_cents: e.estimate_cents,
    customer_authorized: true, request_key: randomUUID(),
  };
}

/** No technician holds two confirmed visits that overlap (buffers included), by the rows themselves. */
async function expectNoDoubleBooking() {
  const rows = await app.services.prisma.visit.findMany({ where: { businessId, status: 'confirmed' }, select: { technicianId: true, start: true, busyUntil: true } });
  for (const a of rows) {
    for (const b of rows) {
      if (a === b || a.technicianId !== b.technicianId) continue;
      expect(a.start! < b.busyUntil! && b.start! < a.busyUntil!, `${a.technicianId} double-booked`).toBe(false);
    }
  }
}

describe.skipIf(!onPostgres)('concurrent visit bookings on PostgreSQL', () => {
  it('50 concurrent book_visit calls for one start with two qualified technicians: exactly two win', async () => {
    const times = (await app.rest('visit_times', { business: slug, selections: JSON.stringify([{ service_id: 'trim' }]), date: '2026-11-25' })).body;
    expect(times.starts).toContain(START);
    const inputs = await Promise.all(Array.from({ length: 50 }, (_, i) => input(i)));
    const results = await Promise.all(inputs.map((body) => app.rest('book_visit', { ...body, start: START })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toHaveLength(0);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    const refused = results.filter((r) => r.status === 400);
    expect(refused).toHaveLength(48);
    for (const r of refused) expect(r.body.code).toBe('time_unavailable');
    const winners = results.filter((r) => r.status === 200).map((r) => r.body.visit.technician).sort();
    expect(winners).toEqual(['Ana', 'Bo']);
    const rows = await app.services.prisma.visit.findMany({ where: { businessId, status: 'confirmed', start: new Date(START) } });
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((r) => r.technicianId)).size).toBe(2);
    // Nobody else's conversation or visit was left behind by the refused calls.
    expect(await app.services.prisma.visit.count({ where: { businessId } })).toBe(2);
    await expectNoDoubleBooking();
    // Cy, who does no trims, is still free for nails at that start.
    const nails = await app.rest('book_visit', { ...(await input(99, [{ service_id: 'nails' }])), start: START });
    expect(nails.body.visit?.technician, JSON.stringify(nails.body)).toBe('Cy');
  });

  it('concurrent confirmations of ten requests at one start: exactly two technicians can be given', async () => {
    const start = '2026-11-26T14:00:00-06:00';
    const requests = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => (await app.rest('request_visit', await input(100 + i))).body.request.visit_id as string),
    );
    const results = await Promise.all(requests.map((visit_id) => app.rest('confirm_visit_request', { visit_id, start }, owner)));
    expect(results.filter((r) => r.status >= 500)).toHaveLength(0);
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code).toBe('time_unavailable');
    await expectNoDoubleBooking();
  });

  it('concurrent retries with one request_key make one request', async () => {
    const body = await input(200);
    const results = await Promise.all(Array.from({ length: 10 }, () => app.rest('request_visit', body)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.request.visit_id)).size).toBe(1);
    expect(new Set(results.map((r) => r.body.reply_token)).size).toBe(1);
    expect(await app.services.prisma.visit.count({ where: { customerName: 'Racer 200' } })).toBe(1);
  });
});

describe('the exclusion constraint', () => {
  it('refuses two overlapping confirmed visits of one technician in the database itself', async () => {
    const first = await app.rest('book_visit', { ...(await input(300)), start: '2026-11-27T11:00:00-06:00' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const row = await app.services.prisma.visit.findUniqueOrThrow({ where: { id: first.body.visit.visit_id } });
    const conversation = await app.services.prisma.conversation.create({ data: { businessId, replyTokenHash: `h-${Date.now()}`, requestType: 'service_visit' } });
    const copy = {
      businessId, conversationId: conversation.id, status: 'confirmed' as const, source: 'book_visit', selections: [], serviceIds: ['trim'],
      menuRevision: row.menuRevision, estimateCents: 3000, partial: false, customerName: 'Sneaky', requestKeyHash: `sneaky-${Date.now()}`,
      requestFingerprint: 'x', createdAt: new Date(), technicianId: row.technicianId,
      start: new Date(row.start!.getTime() + 20 * 60_000), end: new Date(row.end!.getTime() + 20 * 60_000), busyUntil: new Date(row.busyUntil!.getTime() + 20 * 60_000),
    };
    await expect(app.services.prisma.visit.create({ data: copy })).rejects.toThrow();
    // A pending request, or another technician, holds no time against it.
    await expect(app.services.prisma.visit.create({ data: { ...copy, status: 'pending', requestKeyHash: `p-${Date.now()}` } })).resolves.toBeDefined();
  });
});
