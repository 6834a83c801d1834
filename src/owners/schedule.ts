/**
 * The owner's schedule: every upcoming entry of the business's one calendar (calendar.ts) with
 * contact, blocked time, weekly hours and notifications (schedule); weekly hours changed day by
 * day (set_hours), naming the entries of every kind the new hours strand.
 */
import type { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import { invalid } from '../errors.js';
import { DAY, MINUTE, formatHHMM, isoWithOffset } from '../core/time.js';
import { calendarEntries, scheduleEntries, scheduleEntriesStatement, type CalendarEntry } from './calendar.js';
import { readTogether } from '../db/sql.js';
import { businessZone } from '../db/business-zone.js';
import { Prisma } from '../generated/prisma/client.js';
import { hoursMap, parseDayHours, WEEKDAY_NAMES, type DayWindow } from '../core/hours.js';
import { localParts } from '../core/local-time.js';
import { notificationStatements, readNotifications } from './notifications.js';
import type { scheduleInput, setHoursInput } from './inputs.js';

export { SERVICE_FEE_CENTS, type JobView } from './calendar.js';

/** Past entries still waiting for confirm_job_done or report_no_show are shown this far back. */
const AWAITING_WINDOW_MS = 14 * DAY;
const MAX_BLOCKS = 200;

export interface BlockView {
  blockId: string;
  date: string;
  start: string;
  end: string;
  wholeDay: boolean;
  startAt: string;
  endAt: string;
  reason: string | null;
}

/** A block as owners read it: its local date and HH:MM span ("23:59" when it runs to midnight: times of day are 00:00-23:59). */
export function blockView(b: { id: string; start: Date; end: Date; label: string }, zone: string): BlockView {
  const from = localParts(b.start.getTime(), zone);
  const to = localParts(b.end.getTime(), zone);
  const endMinute = to.date > from.date ? 1440 : to.minute;
  return {
    blockId: b.id,
    date: from.date,
    start: formatHHMM(from.minute),
    end: endMinute >= 1440 ? '23:59' : formatHHMM(endMinute),
    wholeDay: from.minute === 0 && endMinute >= 1440,
    startAt: isoWithOffset(b.start.getTime(), zone),
    endAt: isoWithOffset(b.end.getTime(), zone),
    reason: b.label || null,
  };
}

const views = (entries: CalendarEntry[]) => entries.map((e) => e.view);

export async function scheduleService(input: z.output<typeof scheduleInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const zone = await businessZone(ctx.prisma, businessId);
  // One statement for the whole page: the schedule is the owner's most frequent read.
  const read = await readTogether(ctx.query, {
    // Entries that ended without being confirmed done or reported as a no-show are shown too (series: once the last visit ended).
    entries: scheduleEntriesStatement(businessId, { from: now, to: now + input.days * DAY, since: now - AWAITING_WINDOW_MS, now }),
    hours: Prisma.sql`SELECT weekday, "startMinute", "endMinute" FROM "WeeklyHours" WHERE "businessId" = ${businessId}`,
    blocks: Prisma.sql`SELECT id, start, "end", label FROM "Block" WHERE "businessId" = ${businessId} AND "end" > ${new Date(now)} ORDER BY start LIMIT ${MAX_BLOCKS}`,
    ...notificationStatements(businessId, now),
  });
  const { upcoming, awaiting } = scheduleEntries(read.entries, zone);
  const hours = read.hours as { weekday: number; startMinute: number; endMinute: number }[];
  const blocks = (read.blocks as { id: string; start: string; end: string; label: string }[]).map((b) => ({ ...b, start: new Date(b.start), end: new Date(b.end) }));
  const notifications = await readNotifications(ctx, businessId, now, zone, read);
  return {
    jobs: views(upcoming),
    awaitingConfirmation: views(awaiting),
    blocks: blocks.map((b) => blockView(b, zone)),
    hours: hoursMap(hours),
    timeZone: zone,
    notifications,
  };
}

/** Whether a visit no longer fits the new hours of its (changed) local weekday. */
export function outsideChangedHours(visit: { start: number; end: number }, changes: ReadonlyMap<number, DayWindow | null>, zone: string): boolean {
  const s = localParts(visit.start, zone);
  if (!changes.has(s.weekday)) return false;
  const window = changes.get(s.weekday);
  const endMinute = s.minute + Math.round((visit.end - visit.start) / MINUTE);
  return !window || s.minute < window.startMinute || endMinute > window.endMinute;
}

const STRANDED_HORIZON_MS = 120 * DAY;

export async function setHoursService(input: z.output<typeof setHoursInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const changes = new Map<number, DayWindow | null>();
  WEEKDAY_NAMES.forEach((day, weekday) => {
    const value = input[day];
    if (value === undefined) return;
    const parsed = parseDayHours(value);
    changes.set(weekday, parsed && { weekday, ...parsed });
  });
  if (changes.size === 0) throw invalid('Pass at least one day (monday … sunday) with "HH:MM-HH:MM" or "closed"; days not passed stay as they are.');
  const now = ctx.clock.now();
  return ctx.transaction(async (tx) => {
    // One writer of a business's hours at a time, so the result shows exactly what was saved.
    await tx.$executeRaw`SELECT 1 FROM "Business" WHERE "id" = ${businessId} FOR UPDATE`;
    const closed = [...changes].filter(([, w]) => w === null).map(([d]) => d);
    if (closed.length) await tx.weeklyHours.deleteMany({ where: { businessId, weekday: { in: closed } } });
    for (const window of changes.values()) {
      if (!window) continue;
      await tx.weeklyHours.upsert({
        where: { businessId_weekday: { businessId, weekday: window.weekday } },
        create: { businessId, ...window },
        update: { startMinute: window.startMinute, endMinute: window.endMinute },
      });
    }
    ctx.search.reloadAfterCommit(tx, 'catalog', businessId);
    const business = await tx.business.findUniqueOrThrow({
      where: { id: businessId },
      select: { timeZone: true, hours: { select: { weekday: true, startMinute: true, endMinute: true } } },
    });
    const entries = await calendarEntries(tx, businessId, business.timeZone, now, now + STRANDED_HORIZON_MS, now);
    const stranded = entries.filter((e) => e.startMs > now && outsideChangedHours({ start: e.startMs, end: e.endMs }, changes, business.timeZone));
    return { hours: hoursMap(business.hours), strandedJobs: views(stranded) };
  });
}
