/**
 * The owner's schedule: every upcoming entry of the business's one calendar (calendar.ts) with
 * contact, blocked time, weekly hours and notifications (schedule); weekly hours changed day by
 * day (set_hours), naming the entries of every kind the new hours strand.
 */
import type { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import { invalid } from '../errors.js';
import { DAY, MINUTE, formatHHMM, isoWithOffset } from '../core/time.js';
import { calendarEntries, scheduleEntries, scheduleEntriesStatement, scheduleEntryChanges, type CalendarEntry } from './calendar.js';
import { readTogether } from '../db/sql.js';
import { businessZone } from '../db/business-zone.js';
import { Prisma } from '../generated/prisma/client.js';
import { hoursMap, parseDayHours, WEEKDAY_NAMES, type DayWindow } from '../core/hours.js';
import { localParts } from '../core/local-time.js';
import { markNotificationsRead, notificationChanges, notificationsOf, notificationStatements } from './notifications.js';
import { scheduleCacheOf, deepFreeze } from './schedule-cache.js';
import { revisionOf } from '../db/revision.js';
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

type SchedulePage = Awaited<ReturnType<typeof readSchedule>>['page'];

/**
 * The schedule: from this instance's cached page when the revision the credential's statement
 * read is the page's and the clock is still where the page holds (owners/schedule-cache.ts), so
 * the owner's most frequent read is then one statement; otherwise read in one statement.
 */
export async function scheduleService(input: z.output<typeof scheduleInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const cache = scheduleCacheOf<SchedulePage>(ctx.prisma);
  const revision = ctx.credential?.businessId === businessId ? ctx.credential.scheduleRevision : undefined;
  const kept = revision === undefined ? undefined : cache.get(businessId, input.days, revision, now);
  if (kept) {
    await markNotificationsRead(ctx, businessId, now, kept.marks);
    if (ctx.sharedAnswer) ctx.sharedAnswer.value = kept.page;
    return kept.page;
  }
  const read = await readSchedule(ctx, businessId, input.days, now);
  if (read.cacheable) {
    cache.set(businessId, input.days, read.cached);
    if (ctx.sharedAnswer) ctx.sharedAnswer.value = read.page;
  }
  await markNotificationsRead(ctx, businessId, now, read.cached.marks);
  return read.page;
}

async function readSchedule(ctx: OwnerContext, businessId: string, days: number, now: number) {
  const zone = await businessZone(ctx.prisma, businessId);
  const window = { from: now, to: now + days * DAY, since: now - AWAITING_WINDOW_MS, now };
  // One statement for the whole page: the schedule is the owner's most frequent read. The
  // revision is read with it, so the page is known to be that revision's.
  const read = await readTogether(ctx.query, {
    // Entries that ended without being confirmed done or reported as a no-show are shown too (series: once the last visit ended).
    entries: scheduleEntriesStatement(businessId, window),
    hours: Prisma.sql`SELECT weekday, "startMinute", "endMinute" FROM "WeeklyHours" WHERE "businessId" = ${businessId}`,
    blocks: Prisma.sql`SELECT id, start, "end", label FROM "Block" WHERE "businessId" = ${businessId} AND "end" > ${new Date(now)} ORDER BY start LIMIT ${MAX_BLOCKS}`,
    ...notificationStatements(businessId, now),
    revision: Prisma.sql`SELECT ${revisionOf('s')} AS r FROM (SELECT 1) one LEFT JOIN "ScheduleRevision" s ON s."businessId" = ${businessId}`,
    // When the page could next change with no write: a block ends, or an entry or notification moves (calendar.ts, notifications.ts).
    until: Prisma.sql`SELECT min(t) AS "at" FROM (
      ${scheduleEntryChanges(businessId, window)}
      UNION ALL SELECT "end" FROM "Block" WHERE "businessId" = ${businessId} AND "end" > ${new Date(now)}
      UNION ALL ${notificationChanges(businessId, now)}) c WHERE t > ${new Date(now)}`,
  });
  const { upcoming, awaiting } = scheduleEntries(read.entries, zone);
  const hours = read.hours as { weekday: number; startMinute: number; endMinute: number }[];
  const blocks = (read.blocks as { id: string; start: string; end: string; label: string }[]).map((b) => ({ ...b, start: new Date(b.start), end: new Date(b.end) }));
  const { notifications, marks, complete } = notificationsOf(read, zone);
  const page = deepFreeze({
    jobs: views(upcoming),
    awaitingConfirmation: views(awaiting),
    blocks: blocks.map((b) => blockView(b, zone)),
    hours: hoursMap(hours),
    timeZone: zone,
    notifications,
  });
  const until = (read.until[0] as { at: string | null }).at;
  const cached = {
    revision: (read.revision[0] as { r: string }).r,
    builtAt: now,
    until: until === null ? Infinity : Date.parse(until),
    page,
    marks,
    weight: 1 + upcoming.length + awaiting.length + blocks.length + notifications.length,
  };
  return { page, cached, cacheable: complete };
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
