/**
 * The demo salon made predictable for tests of visits and appointments: open 9:00-19:00 Monday to
 * Saturday; Ana alone does a 30-minute men's cut ('mens', $40) from 9 to 17 with staff scheduling
 * on; appointments from 9 to 17, of the services given (default: a free-of-deposit 'consult').
 */
import { expect } from 'vitest';
import type { TestApp } from './harness.js';

const h = (hours: number) => hours * 60;
const MON_SAT = [1, 2, 3, 4, 5, 6];

type Service = { service_id: string; name: string; price_cents: number; duration_minutes: number; payment: 'none' | 'upfront' };

export async function salonForVisitsAndAppointments(
  app: TestApp,
  slug: string,
  key: Record<string, string>,
  opts: { group?: string; appointmentServices?: Service[] } = {},
): Promise<void> {
  const ok = async (name: string, input: Record<string, unknown>) => {
    const r = await app.rest(name, input, key);
    expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };
  const businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug } })).id;
  await app.services.prisma.weeklyHours.deleteMany({ where: { businessId } });
  await app.services.prisma.weeklyHours.createMany({ data: MON_SAT.map((weekday) => ({ businessId, weekday, startMinute: h(9), endMinute: h(19) })) });
  const setup = await ok('service_setup', {});
  await ok('update_service_menu', {
    menu_revision: setup.menu_revision,
    services: [{ service_id: 'mens', name: "Men's cut", price_kind: 'fixed', price_cents: 4000, duration_minutes: 30, ...(opts.group ? { group: opts.group } : {}) }],
    add_ons: [],
    scents: [],
  });
  await ok('update_staff_availability', {
    scheduling_enabled: true,
    buffer_minutes: 0,
    staff: [{ name: 'Ana', service_ids: ['mens'], hours: MON_SAT.map((weekday) => ({ weekday, start_minute: h(9), end_minute: h(17) })), time_off: [] }],
  });
  const services = opts.appointmentServices ?? [{ service_id: 'consult', name: 'Consultation', price_cents: 2500, duration_minutes: 30, payment: 'none' }];
  const kept = new Set(services.map((s) => s.service_id));
  const booking = await ok('booking_setup', {});
  await ok('update_booking_setup', {
    services,
    remove_service_ids: booking.services.map((s: { service_id: string }) => s.service_id).filter((id: string) => !kept.has(id)),
    hours: MON_SAT.map((weekday) => ({ weekday, start_minute: h(9), end_minute: h(17) })),
  });
}
