import { DateTime } from 'luxon';
import type { Services } from '../context.js';
import type { Operation } from '../registry/contract.js';
import { isoWithOffset, MINUTE } from '../core/time.js';
import { demoIds } from './generate.js';
import { demoAppointmentBusiness } from './appointments.js';

/** Runs one operation in-process for an example and returns its REST body. */
export type ExampleRun = (op: Operation, input: Record<string, unknown>) => Promise<{ body: Record<string, unknown> }>;

/**
 * The values of the registry's DEMO_* placeholders in the OpenAPI document: ids from the demo
 * data, and a start and price the demo cleaner really offers (asked through `run`).
 */
export async function openApiExamples({ run, services, operations }: { run: ExampleRun; services: Services; operations: Operation[] }) {
  const { prisma, clock, config, links } = services;
  const body = { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, days: 7 };
  const times = await run(operations.find((o) => o.name === 'available_times')!, body);
  const start = (times.body.starts as string[] | undefined)?.[0] ?? '2026-12-01T09:00:00-06:00';
  const duration = typeof times.body.duration_minutes === 'number' ? times.body.duration_minutes : 180;
  const cleaner = await prisma.business.findUnique({ where: { slug: demoIds.cleanerAustin }, select: { name: true } });
  return {
    DEMO_CLEANER: demoIds.cleanerAustin,
    DEMO_CLEANER_NAME: cleaner?.name ?? 'Sparkle & Shine Cleaning',
    DEMO_ZIP: demoIds.austinZip,
    DEMO_START: start,
    DEMO_END: DateTime.fromISO(start, { setZone: true }).plus({ minutes: duration }).toISO({ suppressMilliseconds: true }) ?? start,
    DEMO_DURATION: duration,
    DEMO_NOW: new Date(clock.now()).toISOString(),
    DEMO_HOLD_UNTIL: isoWithOffset(clock.now() + config.pendingHoldMinutes * MINUTE, 'America/Chicago'),
    DEMO_BOOKING: 'booking_id returned by book_cleaning',
    DEMO_MANAGE_TOKEN: 'manage_token returned by book_cleaning',
    DEMO_MANAGE_URL: decodeURIComponent(links.manage('<manage_token>')),
    DEMO_PRICE: times.body.price,
    // A salon with staff scheduling on; the selection is one of its cuts with an add-on and a scent.
    DEMO_MENU_BUSINESS: demoIds.beautySanFrancisco,
    DEMO_SELECTIONS: [{ service_id: 'womens-cut', add_on_ids: ['deep-conditioning'], scent_id: 'lavender' }],
    // A Tuesday at least two days ahead (the salon opens Tuesdays in every demo seed).
    DEMO_VISIT_DATE: nextTuesday(clock.now(), 'America/Los_Angeles'),
    DEMO_APPOINTMENT_BUSINESS: demoAppointmentBusiness,
  };
}

/** The business-local date of the first Tuesday at least two days after `now`. */
function nextTuesday(now: number, zone: string): string {
  const from = DateTime.fromMillis(now, { zone }).plus({ days: 2 });
  return from.plus({ days: (2 - from.weekday + 7) % 7 }).toISODate()!;
}
