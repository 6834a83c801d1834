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
  // From two days ahead (a booking then moves and cancels freely), over two weeks: the first
  // open start of four different days, for the examples that book and move a cleaning and a job
  // (each its own day, so none of them takes another's time).
  const zone = 'America/Chicago';
  const from = DateTime.fromMillis(clock.now(), { zone }).plus({ days: 2 }).toISODate()!;
  const body = { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, date: from, days: 14 };
  const times = await run(operations.find((o) => o.name === 'available_times')!, body);
  const days = firstStartOfEachDay((times.body.starts as string[] | undefined) ?? []);
  // The owner's jobs avoid Fridays and Saturdays, whose hours set_hours's example changes.
  const jobDays = days.slice(2).filter((s) => ![5, 6].includes(DateTime.fromISO(s, { setZone: true }).weekday));
  const start = days[0] ?? '2026-12-01T09:00:00-06:00';
  const now = new Date(clock.now());
  // Past jobs still confirmed (ended, not yet closed), the demo cleaner's first: the owner
  // examples that close a job (done, no-show) take one each, with their business's sign-in.
  const ended = await prisma.booking.findMany({
    where: { status: 'confirmed', visits: { some: { end: { lt: now } } } },
    orderBy: [{ businessId: 'asc' }, { createdAt: 'desc' }],
    select: { id: true },
    take: 2,
  });
  // book_job's example job (2 bedrooms, 1 bathroom) and how long it takes.
  const job = await run(operations.find((o) => o.name === 'available_times')!, { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1, days: 1 });
  const jobMinutes = typeof job.body.duration_minutes === 'number' ? job.body.duration_minutes : 150;
  const after = (iso: string, minutes: number) => DateTime.fromISO(iso, { setZone: true }).plus({ minutes }).toISO({ suppressMilliseconds: true }) ?? iso;
  // The salon's estimate and open starts for the example selection, and an appointment service's.
  const op = (name: string) => operations.find((o) => o.name === name)!;
  const selections = [{ service_id: 'womens-cut', add_on_ids: ['deep-conditioning'], scent_id: 'lavender' }];
  const visitDate = nextTuesday(clock.now(), 'America/Los_Angeles');
  const estimate = await run(op('estimate_visit'), { business: demoIds.beautySanFrancisco, selections });
  const visits = await run(op('visit_times'), { business: demoIds.beautySanFrancisco, selections, date: visitDate });
  const visitStarts = (visits.body.starts as string[] | undefined) ?? [];
  const offered = await run(op('appointment_times'), { business: demoAppointmentBusiness });
  const service = (offered.body.services as { service_id: string }[] | undefined)?.[0]?.service_id;
  const appointment = service ? await run(op('appointment_times'), { business: demoAppointmentBusiness, service_id: service }) : { body: {} };
  const appointmentStarts = firstStartOfEachDay((appointment.body.starts as string[] | undefined) ?? []);
  const menu = await prisma.serviceMenu.findFirst({ where: { business: { slug: demoIds.beautySanFrancisco } }, select: { revision: true } });
  const duration = typeof times.body.duration_minutes === 'number' ? times.body.duration_minutes : 180;
  const cleaner = await prisma.business.findUnique({ where: { slug: demoIds.cleanerAustin }, select: { name: true } });
  return {
    DEMO_CLEANER: demoIds.cleanerAustin,
    DEMO_CLEANER_NAME: cleaner?.name ?? 'Sparkle & Shine Cleaning',
    DEMO_ZIP: demoIds.austinZip,
    DEMO_START: start,
    DEMO_RESCHEDULE_START: days[1] ?? start,
    DEMO_JOB_START: jobDays[0] ?? start,
    DEMO_JOB_MOVE_START: jobDays[1] ?? start,
    DEMO_JOB_END: after(jobDays[0] ?? start, jobMinutes),
    DEMO_JOB_MOVE_END: after(jobDays[1] ?? start, jobMinutes),
    DEMO_MENU_REVISION: menu?.revision ?? 0,
    DEMO_ESTIMATE_CENTS: estimate.body.estimate_cents ?? 0,
    // Three starts of the visit day apart from each other: booked, moved to, confirmed by the salon.
    DEMO_VISIT_START: visitStarts[0] ?? `${visitDate}T10:00:00-08:00`,
    DEMO_VISIT_MOVE_START: visitStarts[Math.floor(visitStarts.length / 2)] ?? `${visitDate}T13:00:00-08:00`,
    DEMO_VISIT_CONFIRM_START: visitStarts.at(-1) ?? `${visitDate}T16:00:00-08:00`,
    DEMO_APPOINTMENT_SERVICE: service ?? 'service_id from appointment_times',
    DEMO_APPOINTMENT_PRICE_CENTS: appointment.body.price_cents ?? 0,
    DEMO_APPOINTMENT_START: appointmentStarts[0] ?? 'a start from appointment_times',
    DEMO_APPOINTMENT_MOVE_START: appointmentStarts[1] ?? 'a start from appointment_times',
    DEMO_ENDED_JOB: ended[0]?.id ?? 'booking_id of an ended job from schedule',
    DEMO_ENDED_JOB_2: ended[1]?.id ?? ended[0]?.id ?? 'booking_id of an ended job from schedule',
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
    DEMO_SELECTIONS: selections,
    // A Tuesday at least two days ahead (the salon opens Tuesdays in every demo seed).
    DEMO_VISIT_DATE: visitDate,
    DEMO_APPOINTMENT_BUSINESS: demoAppointmentBusiness,
    DEMO_APPOINTMENT_BUSINESS_NAME: (offered.body.name as string | undefined) ?? demoAppointmentBusiness,
  };
}

/** The first start of each day in a list of starts (ISO with offset, in order). */
function firstStartOfEachDay(starts: string[]): string[] {
  const seen = new Set<string>();
  return starts.filter((s) => {
    const day = s.slice(0, 10);
    if (seen.has(day)) return false;
    seen.add(day);
    return true;
  });
}

/** The business-local date of the first Tuesday at least two days after `now`. */
function nextTuesday(now: number, zone: string): string {
  const from = DateTime.fromMillis(now, { zone }).plus({ days: 2 });
  return from.plus({ days: (2 - from.weekday + 7) % 7 }).toISODate()!;
}
