/**
 * One appointment at a time per business, held by the database. PGlite runs one statement at
 * a time, so the races run on PostgreSQL only; the constraint and trigger tests run on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isExclusionViolation } from '../../src/db/errors.js';
import { bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';

const SALON = 'velvet-hair-studio-san-francisco';
const MINUTE = 60_000;
let app: TestApp;
let businessId: string;

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  const owner = bearer(await businessKey(app, SALON));
  businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: SALON } })).id;
  const setup = await app.rest(
    'update_booking_setup',
    {
      services: [
        { service_id: 'consult', name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' },
        { service_id: 'cut', name: 'Cut', price_cents: 6500, duration_minutes: 60, payment: 'upfront' },
      ],
      hours: [1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start_minute: 540, end_minute: 1020 })),
    },
    owner,
  );
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
});
afterAll(async () => app?.close());

async function conversations(n: number) {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const c = await app.rest('contact_business', { business: SALON, customer_name: `Racer ${i}`, customer_email: `racer${i}@example.com`, message: 'Hi' });
      expect(c.status).toBe(200);
      return { inquiry_id: c.body.inquiry_id as string, reply_token: c.body.reply_token as string };
    }),
  );
}

const holding = (start: string) => app.services.prisma.appointment.findMany({ where: { businessId, holdsTime: true, start: new Date(start) } });

describe.skipIf(!onPostgres)('concurrent bookings on PostgreSQL', () => {
  it('20 concurrent book_appointment calls for one start: exactly one booking, no 5xx', async () => {
    const start = '2026-12-01T10:00:00-08:00';
    const people = await conversations(20);
    const results = await Promise.all(
      people.map((c) => app.rest('book_appointment', { ...c, service_id: 'consult', start, expected_price_cents: 0, customer_authorized: true })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 400);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.body.code).toBe('time_unavailable');
    expect(await holding(start)).toHaveLength(1);
  });

  it('20 concurrent upfront bookings overlapping one start: one holds it for payment, with one checkout', async () => {
    const people = await conversations(20);
    // Starts a quarter hour apart: every pair of hour-long appointments overlaps.
    const starts = ['2026-12-02T10:00:00-08:00', '2026-12-02T10:15:00-08:00', '2026-12-02T10:30:00-08:00', '2026-12-02T10:45:00-08:00'];
    const results = await Promise.all(
      people.map((c, i) => app.rest('book_appointment', { ...c, service_id: 'cut', start: starts[i % 4], expected_price_cents: 6500, customer_authorized: true })),
    );
    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    const won = results.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    expect(won[0]!.body).toMatchObject({ status: 'awaiting_payment', checkout_url: expect.stringContaining('/sandbox/checkout/') });
    expect(await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'checkout_session', data: { path: ['metadata', 'reference_id'], equals: won[0]!.body.booking_id } } })).toBe(1);
  });

  it('20 concurrent retries of one booking return that one booking', async () => {
    const [c] = await conversations(1);
    const start = '2026-12-03T11:00:00-08:00';
    const results = await Promise.all(
      Array.from({ length: 20 }, () => app.rest('book_appointment', { ...c, service_id: 'consult', start, expected_price_cents: 0, customer_authorized: true })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.booking_id)).size).toBe(1);
    expect(results.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect(await holding(start)).toHaveLength(1);
  });
});

describe('the database itself', () => {
  const row = async (start: string, minutes: number, over: Record<string, unknown> = {}) => {
    const [c] = await conversations(1);
    return app.services.prisma.appointment.create({
      data: {
        businessId,
        conversationId: c!.inquiry_id,
        serviceId: 'consult',
        serviceName: 'Consultation',
        priceCents: 0,
        durationMinutes: minutes,
        payment: 'none',
        status: 'confirmed',
        start: new Date(start),
        end: new Date(Date.parse(start) + minutes * MINUTE),
        customerName: 'Direct',
        createdAt: app.services.clock.date(),
        ...over,
      },
    });
  };

  it('refuses two overlapping appointments that hold time, whatever the code does', async () => {
    await row('2026-12-04T10:00:00-08:00', 60);
    const err = await row('2026-12-04T10:30:00-08:00', 30).catch((e: unknown) => e);
    expect(isExclusionViolation(err)).toBe(true);
    // Back to back is fine, and so is an overlap with one that no longer holds time.
    await row('2026-12-04T11:00:00-08:00', 30);
    await row('2026-12-04T10:15:00-08:00', 30, { status: 'cancelled', holdsTime: false });
  });

  it('lets an unpaid hold that has run out give its time up to a new appointment, and keeps one that has not', async () => {
    const now = app.services.clock.now();
    const hold = { status: 'awaiting_payment', payment: 'upfront', priceCents: 6500 };
    const expired = await row('2026-12-05T10:00:00-08:00', 60, { ...hold, holdUntil: new Date(now - MINUTE) });
    const running = await row('2026-12-05T13:00:00-08:00', 60, { ...hold, holdUntil: new Date(now + 10 * MINUTE) });
    await row('2026-12-05T10:30:00-08:00', 30);
    expect(await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: expired.id } })).toMatchObject({ status: 'awaiting_payment', holdsTime: false });
    const err = await row('2026-12-05T13:30:00-08:00', 30).catch((e: unknown) => e);
    expect(isExclusionViolation(err)).toBe(true);
    expect(await app.services.prisma.appointment.findUniqueOrThrow({ where: { id: running.id } })).toMatchObject({ holdsTime: true });
    // A hold runs until its end by the booking's own clock reading (createdAt), not the database's.
    const later = await row('2026-12-05T13:30:00-08:00', 30, { createdAt: new Date(now + 11 * MINUTE) });
    expect(later.holdsTime).toBe(true);
  });

  it('keeps states consistent: only live appointments hold time; an unpaid one has a hold', async () => {
    const bad = [
      await row('2026-12-07T10:00:00-08:00', 30, { status: 'lapsed', holdsTime: true }).catch((e: unknown) => e),
      await row('2026-12-07T11:00:00-08:00', 30, { status: 'awaiting_payment', holdUntil: null }).catch((e: unknown) => e),
      await row('2026-12-07T12:00:00-08:00', 30, { end: new Date('2026-12-07T12:00:00-08:00') }).catch((e: unknown) => e),
    ];
    for (const e of bad) expect(e).toBeInstanceOf(Error);
  });
});
