/**
 * Staff scheduling for menu businesses, as pure functions.
 *
 * A visit is every selected service done back to back by ONE technician. A start is possible
 * for a technician when the whole visit fits inside one window that is both business hours and
 * the technician's own hours on that local day, starts after the notice, and overlaps none of
 * the business's blocked time, the technician's time off, or the technician's confirmed visits
 * (each taken until its end plus the buffer, which is also kept free after the new visit).
 *
 * The slot engine (availability/slots.ts) does the wall-clock and DST work: each technician
 * becomes one slot query whose hours are the intersection of the two weekly calendars and
 * whose busy time already carries the buffer. visit_times lists the union of the technicians'
 * starts; book_visit re-asks the same question for one start, so a start offered is exactly a
 * start that can be assigned while nothing changed.
 */
import { isOpenStart, openStarts, type Busy, type WeeklyHours } from '../core/slots.js';
import { DAY, HOUR, MINUTE, zoneOffset } from '../core/time.js';
import { intersectHours } from '../core/hours.js';

/** Starts are offered on this grid of local minutes (from the start of each working window). */
export const VISIT_STEP_MINUTES = 15;

export interface Technician {
  id: string;
  name: string;
  serviceIds: readonly string[];
  hours: readonly WeeklyHours[];
  timeOff: readonly Busy[];
  /** Confirmed visits as the technician is taken: [start, busyUntil). */
  visits: readonly Busy[];
}

/** Everything about the business and the visit that does not depend on the technician. */
export interface VisitPlan {
  zone: string;
  businessHours: readonly WeeklyHours[];
  /** Blocked time of the whole business. */
  blocks: readonly Busy[];
  minNoticeMinutes: number;
  now: number;
  bufferMinutes: number;
  /** The whole sequential visit. */
  durationMinutes: number;
  serviceIds: readonly string[];
  stepMinutes?: number;
}

export type TimeOfDay = 'any' | 'morning' | 'afternoon' | 'evening';

/** Can this technician perform every one of the services? */
export const qualifiedFor = (tech: Pick<Technician, 'serviceIds'>, serviceIds: readonly string[]) =>
  serviceIds.every((id) => tech.serviceIds.includes(id));

/**
 * A technician's calendar as a slot query. A new visit [t, t+d) plus its buffer b meets a
 * confirmed visit [s, u) exactly when [t, t+d) meets [s-b, u), so visits are widened by the
 * buffer and the engine compares plain visit lengths.
 */
function techQuery(plan: VisitPlan, tech: Technician) {
  const buffer = plan.bufferMinutes * MINUTE;
  return {
    zone: plan.zone,
    hours: intersectHours(plan.businessHours, tech.hours),
    busy: [...plan.blocks, ...tech.timeOff, ...tech.visits.map((v) => ({ start: v.start - buffer, end: v.end }))],
    durationMinutes: plan.durationMinutes,
    now: plan.now,
    minNoticeMinutes: plan.minNoticeMinutes,
    stepMinutes: plan.stepMinutes ?? VISIT_STEP_MINUTES,
  };
}

/** Minutes after local midnight of an instant in the zone. */
export function localMinute(instant: number, zone: string): number {
  const local = instant + zoneOffset(zone, instant) * MINUTE;
  return Math.floor((((local % DAY) + DAY) % DAY) / MINUTE);
}

/** The spec's time-of-day bands, by the business-local start: before noon, noon to 5 pm, from 5 pm. */
export function timeOfDayOf(instant: number, zone: string): Exclude<TimeOfDay, 'any'> {
  const minute = localMinute(instant, zone);
  return minute < 12 * 60 ? 'morning' : minute < 17 * 60 ? 'afternoon' : 'evening';
}

/** One technician's possible starts on a local date. */
export function technicianStarts(plan: VisitPlan, tech: Technician, date: string): number[] {
  if (!qualifiedFor(tech, plan.serviceIds)) return [];
  return openStarts({ ...techQuery(plan, tech), date, days: 1 });
}

/** Can this technician take the whole visit at `start`? */
export function canTake(plan: VisitPlan, tech: Technician, start: number): boolean {
  return qualifiedFor(tech, plan.serviceIds) && isOpenStart(techQuery(plan, tech), start);
}

/**
 * Aggregate starts on a local date: every start at least one qualified technician (or the
 * preferred one, when given) can take, optionally only in one band of the day.
 */
export function visitStarts(
  plan: VisitPlan,
  techs: readonly Technician[],
  date: string,
  opts: { timeOfDay?: TimeOfDay; technicianId?: string } = {},
): number[] {
  const who = opts.technicianId === undefined ? techs : techs.filter((t) => t.id === opts.technicianId);
  const starts = new Set<number>();
  for (const tech of who) for (const s of technicianStarts(plan, tech, date)) starts.add(s);
  const band = opts.timeOfDay ?? 'any';
  return [...starts].filter((s) => band === 'any' || timeOfDayOf(s, plan.zone) === band).sort((a, b) => a - b);
}

/** Minutes of confirmed visits a technician has within 12 hours either side of an instant. */
function load(tech: Technician, around: number): number {
  const from = around - 12 * HOUR;
  const to = around + 12 * HOUR;
  return tech.visits.reduce((sum, v) => sum + Math.max(0, Math.min(v.end, to) - Math.max(v.start, from)), 0) / MINUTE;
}

/**
 * The technicians who can take the visit at `start`, best first: the preferred one, then the
 * least booked around that time (spreading work over the team), then in team order.
 */
export function candidates(plan: VisitPlan, techs: readonly Technician[], start: number, preferredId?: string): Technician[] {
  const able = techs.filter((t) => canTake(plan, t, start));
  const rank = new Map(techs.map((t, i) => [t.id, i]));
  return able.sort(
    (a, b) =>
      Number(b.id === preferredId) - Number(a.id === preferredId) || load(a, start) - load(b, start) || rank.get(a.id)! - rank.get(b.id)!,
  );
}

/** What a confirmed visit needs of its technician's new calendar (update_staff_availability). */
export interface HeldVisit {
  start: number;
  end: number;
  serviceIds: readonly string[];
}

/**
 * Would the technician, under a new configuration, still be able to do a visit they hold?
 * Business hours, blocks and other visits are not part of a team change, so only the
 * technician's skills, hours and time off are asked about; notice no longer applies.
 */
export function stillFits(zone: string, tech: Pick<Technician, 'serviceIds' | 'hours' | 'timeOff'>, visit: HeldVisit): boolean {
  if (!qualifiedFor(tech, visit.serviceIds)) return false;
  return isOpenStart(
    { zone, hours: [...tech.hours], busy: [...tech.timeOff], durationMinutes: (visit.end - visit.start) / MINUTE, now: visit.start, minNoticeMinutes: 0, stepMinutes: 1 },
    visit.start,
  );
}
