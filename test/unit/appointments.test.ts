import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { WeeklyHours } from '../../src/core/slots.js';
import { isoWithOffset } from '../../src/core/time.js';
import {
  APPOINTMENT_STEP_MINUTES,
  appointmentStarts,
  canBook,
  takesTime,
  type AppointmentPlan,
  type HeldAppointment,
} from '../../src/appointments/schedule.js';
import { planHours, planServices, type BookableService } from '../../src/appointments/plan.js';
import { appointmentOffer, bookableServices } from '../../src/appointments/offer.js';

const CHI = 'America/Chicago';
const LA = 'America/Los_Angeles';
const M = 60_000;
const H = 60 * M;

const at = (local: string, zone = CHI) => {
  const dt = DateTime.fromISO(local, { zone });
  if (!dt.isValid) throw new Error(local);
  return dt.toMillis();
};
const iso = (ts: number[], zone = CHI) => ts.map((t) => isoWithOffset(t, zone));
const week = (start: number, end: number, weekdays = [1, 2, 3, 4, 5]): WeeklyHours[] => weekdays.map((weekday) => ({ weekday, startMinute: start, endMinute: end }));

const plan = (over: Partial<AppointmentPlan> = {}): AppointmentPlan => ({
  zone: CHI,
  openingHours: week(0, 1440, [0, 1, 2, 3, 4, 5, 6]),
  hours: week(9 * 60, 17 * 60),
  blocks: [],
  appointments: [],
  minNoticeMinutes: 120,
  now: at('2026-11-20T09:00'),
  durationMinutes: 60,
  ...over,
});

const held = (start: string, minutes: number, over: Partial<HeldAppointment> = {}): HeldAppointment => ({
  start: at(start),
  end: at(start) + minutes * M,
  status: 'confirmed',
  holdsTime: true,
  holdUntil: null,
  ...over,
});

describe('which appointments take time', () => {
  const now = at('2026-11-23T10:00');
  it('confirmed ones do, while they hold it', () => {
    expect(takesTime({ status: 'confirmed', holdsTime: true, holdUntil: null }, now)).toBe(true);
    expect(takesTime({ status: 'confirmed', holdsTime: false, holdUntil: null }, now)).toBe(false);
  });
  it('an unpaid one only until its hold runs out, to the millisecond', () => {
    const waiting = { status: 'awaiting_payment' as const, holdsTime: true };
    expect(takesTime({ ...waiting, holdUntil: now + 1 }, now)).toBe(true);
    expect(takesTime({ ...waiting, holdUntil: now }, now)).toBe(false);
    expect(takesTime({ ...waiting, holdUntil: now - 1 }, now)).toBe(false);
  });
  it('cancelled, lapsed and refunded ones never do', () => {
    for (const status of ['cancelled', 'lapsed', 'refund_pending', 'refunded', 'refund_failed'] as const) {
      expect(takesTime({ status, holdsTime: true, holdUntil: null }, now), status).toBe(false);
    }
  });
});

describe('appointment starts', () => {
  it('offers every quarter hour a whole appointment fits in the hours', () => {
    const starts = iso(appointmentStarts(plan(), '2026-11-23'));
    expect(starts[0]).toBe('2026-11-23T09:00:00-06:00');
    expect(starts.at(-1)).toBe('2026-11-23T16:00:00-06:00');
    expect(starts).toHaveLength(29);
    expect(appointmentStarts(plan(), '2026-11-22')).toEqual([]); // Sunday: closed
  });

  it('keeps one appointment at a time: a held one removes every start it overlaps, not the ones beside it', () => {
    const starts = iso(appointmentStarts(plan({ appointments: [held('2026-11-23T11:00', 30)] }), '2026-11-23'));
    expect(starts).toContain('2026-11-23T10:00:00-06:00'); // ends 11:00, back to back
    expect(starts).not.toContain('2026-11-23T10:15:00-06:00');
    expect(starts).not.toContain('2026-11-23T11:15:00-06:00');
    expect(starts).toContain('2026-11-23T11:30:00-06:00');
  });

  it('frees an unpaid hold once it runs out, and respects blocked time and notice', () => {
    const now = at('2026-11-23T08:00');
    const hold = held('2026-11-23T14:00', 60, { status: 'awaiting_payment', holdUntil: now + 30 * M });
    expect(canBook(plan({ now, appointments: [hold] }), at('2026-11-23T14:00'))).toBe(false);
    expect(canBook(plan({ now: now + 30 * M, appointments: [hold] }), at('2026-11-23T14:00'))).toBe(true);
    const blocked = plan({ now, blocks: [{ start: at('2026-11-23T12:00'), end: at('2026-11-23T13:00') }] });
    expect(canBook(blocked, at('2026-11-23T11:30'))).toBe(false);
    expect(canBook(blocked, at('2026-11-23T13:00'))).toBe(true);
    expect(canBook(plan({ now }), at('2026-11-23T09:45'))).toBe(false); // within two hours
    expect(canBook(plan({ now }), at('2026-11-23T10:00'))).toBe(true);
    expect(canBook(plan({ now }), at('2026-11-23T10:05'))).toBe(false); // off the grid
  });

  it('refuses starts beyond the horizon', () => {
    expect(appointmentStarts(plan(), '2027-11-22')).toEqual([]);
    expect(canBook(plan(), at('2027-11-22T10:00'))).toBe(false);
  });

  it('spring forward: local times that do not exist are never offered, and an hour-long appointment spans the jump', () => {
    const night = plan({ hours: week(0, 5 * 60, [0]), minNoticeMinutes: 0, now: at('2026-03-01T00:00') });
    const starts = iso(appointmentStarts(night, '2026-03-08'));
    expect(starts).toContain('2026-03-08T01:45:00-06:00');
    expect(starts.some((s) => s.startsWith('2026-03-08T02:'))).toBe(false);
    expect(starts).toContain('2026-03-08T03:00:00-05:00');
    // 01:30 + 60 real minutes ends at 03:30 local, inside the window.
    expect(canBook(night, at('2026-03-08T01:30'))).toBe(true);
    expect(starts.at(-1)).toBe('2026-03-08T04:00:00-05:00');
  });

  it('fall back: the repeated hour is offered twice, as two instants, each one at a time', () => {
    const night = plan({ hours: week(0, 4 * 60, [0]), minNoticeMinutes: 0, now: at('2026-10-20T00:00'), durationMinutes: 30 });
    const starts = iso(appointmentStarts(night, '2026-11-01'));
    expect(starts).toContain('2026-11-01T01:00:00-05:00');
    expect(starts).toContain('2026-11-01T01:00:00-06:00');
    const first = DateTime.fromISO('2026-11-01T01:00:00-05:00').toMillis();
    const withFirst = { ...night, appointments: [{ start: first, end: first + 30 * M, status: 'confirmed' as const, holdsTime: true, holdUntil: null }] };
    const after = iso(appointmentStarts(withFirst, '2026-11-01'));
    expect(after).not.toContain('2026-11-01T01:00:00-05:00');
    expect(after).toContain('2026-11-01T01:00:00-06:00');
  });

  const window = fc
    .tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 88 }), fc.integer({ min: 1, max: 40 }))
    .map(([weekday, from, len]) => ({ weekday, startMinute: from * 15, endMinute: Math.min(1440, from * 15 + len * 15) }));
  const appt = fc
    .tuple(fc.integer({ min: 0, max: 4 * 24 * 4 }), fc.integer({ min: 1, max: 12 }), fc.constantFrom('confirmed', 'awaiting_payment', 'cancelled'), fc.integer({ min: -60, max: 60 }), fc.boolean())
    .map(([q, len, status, holdMinutes, holdsTime]): HeldAppointment => {
      const start = at('2026-10-31T00:00', LA) + q * 15 * M;
      return { start, end: start + len * 15 * M, status: status as HeldAppointment['status'], holdsTime, holdUntil: status === 'awaiting_payment' ? at('2026-10-31T00:00', LA) + holdMinutes * M : null };
    });
  const planArb = fc.record({
    zone: fc.constantFrom(LA, CHI),
    openingHours: fc.array(window, { minLength: 1, maxLength: 8 }),
    hours: fc.array(window, { minLength: 1, maxLength: 8 }),
    blocks: fc.constant([]),
    appointments: fc.array(appt, { maxLength: 6 }),
    minNoticeMinutes: fc.constantFrom(0, 60, 120),
    now: fc.constant(at('2026-10-31T00:00', LA)),
    durationMinutes: fc.constantFrom(15, 30, 45, 60, 90, 150),
  });

  it('offers exactly the starts book_appointment accepts, none overlapping time that is taken (DST weekend included)', () => {
    fc.assert(
      fc.property(planArb, fc.constantFrom('2026-10-31', '2026-11-01', '2026-11-02'), (p, date) => {
        const starts = appointmentStarts(p, date);
        const taken = p.appointments.filter((a) => takesTime(a, p.now));
        for (const s of starts) {
          expect(canBook(p, s)).toBe(true);
          expect(taken.some((a) => a.start < s + p.durationMinutes * M && s < a.end)).toBe(false);
        }
        // Every grid minute of the day that canBook accepts is listed.
        const dayStart = DateTime.fromISO(date, { zone: p.zone }).toMillis();
        for (let t = dayStart - H; t < dayStart + 26 * H; t += APPOINTMENT_STEP_MINUTES * M) {
          if (canBook(p, t) && isoWithOffset(t, p.zone).startsWith(date)) expect(starts).toContain(t);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('update_booking_setup rules', () => {
  const current: BookableService[] = [
    { id: 'consult', name: 'Consultation', priceCents: 0, durationMinutes: 15, payment: 'none' },
    { id: 'cut', name: 'Cut', priceCents: 6500, durationMinutes: 60, payment: 'upfront' },
  ];

  it('replaces a service by its id, adds new ones with ids made from names, and keeps the rest in place', () => {
    const next = planServices(current, {
      services: [
        { service_id: 'cut', name: 'Cut & finish', price_cents: 7000, duration_minutes: 75, payment: 'upfront' },
        { name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' },
        { name: "Kids' cut", price_cents: 3000, duration_minutes: 30, payment: 'none' },
      ],
    });
    expect(next.map((s) => s.id)).toEqual(['consult', 'cut', 'consultation', 'kids-cut']);
    expect(next[1]).toEqual({ id: 'cut', name: 'Cut & finish', priceCents: 7000, durationMinutes: 75, payment: 'upfront' });
    expect(next[0]).toBe(current[0]);
  });

  it('removes what remove_service_ids names, and refuses what it cannot do', () => {
    expect(planServices(current, { remove_service_ids: ['consult'] }).map((s) => s.id)).toEqual(['cut']);
    expect(() => planServices(current, { remove_service_ids: ['nope'] })).toThrow(/no service "nope"/);
    expect(() => planServices(current, { remove_service_ids: ['cut'], services: [{ service_id: 'cut', name: 'x', price_cents: 100, duration_minutes: 15, payment: 'none' }] })).toThrow(/both sent/);
    expect(() => planServices(current, { services: [1, 2].map(() => ({ service_id: 'x', name: 'x', price_cents: 0, duration_minutes: 15, payment: 'none' as const })) })).toThrow(/twice/);
    expect(() => planServices(current, { services: [{ name: 'Deposit', price_cents: 49, duration_minutes: 15, payment: 'upfront' }] })).toThrow(/at least \$0\.50/);
    expect(() => planServices([], { services: Array.from({ length: 51 }, (_, i) => ({ name: `S${i}`, price_cents: 0, duration_minutes: 15, payment: 'none' as const })) })).toThrow(/at most 50/);
  });

  it('hours are sorted windows that never overlap on one day', () => {
    expect(planHours([{ weekday: 3, start_minute: 780, end_minute: 1020 }, { weekday: 3, start_minute: 540, end_minute: 720 }, { weekday: 1, start_minute: 540, end_minute: 600 }])).toEqual([
      { weekday: 1, startMinute: 540, endMinute: 600 },
      { weekday: 3, startMinute: 540, endMinute: 720 },
      { weekday: 3, startMinute: 780, endMinute: 1020 },
    ]);
    expect(() => planHours([{ weekday: 2, start_minute: 540, end_minute: 720 }, { weekday: 2, start_minute: 700, end_minute: 800 }])).toThrow(/Tuesday windows overlap \(09:00-12:00 and 11:40-13:20\)/);
    expect(() => planHours([{ weekday: 2, start_minute: 600, end_minute: 540 }])).toThrow(/ends before it starts/);
  });

  it('offers upfront services only while the payment account at this provider is ready', () => {
    const hours = week(540, 1020);
    const ready = { provider: 'sandbox', accountId: 'acct_1', chargesEnabled: true, detailsSubmitted: true };
    const offer = (account: typeof ready | null, h = hours, opening = hours) => ({ business: { hours: opening }, appointments: { services: current, hours: h, account } });
    expect(bookableServices(offer(ready), { name: 'sandbox' }).map((s) => s.id)).toEqual(['consult', 'cut']);
    expect(appointmentOffer(offer(ready), { name: 'sandbox' })).toBe('upfront');
    expect(bookableServices(offer(ready), { name: 'stripe' }).map((s) => s.id)).toEqual(['consult']);
    expect(appointmentOffer(offer({ ...ready, chargesEnabled: false }), { name: 'sandbox' })).toBe('book');
    expect(appointmentOffer(offer(null, []), { name: 'sandbox' })).toBe('none');
    // Appointment hours only count inside opening hours: a business with none takes no appointments.
    expect(appointmentOffer(offer(ready, hours, []), { name: 'sandbox' })).toBe('none');
    expect(appointmentOffer(offer(ready, hours, week(1020, 1200)), { name: 'sandbox' })).toBe('none');
  });
});
