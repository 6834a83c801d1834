import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { Busy, SlotQuery, WeeklyHours } from './slots.js';
import { parseHHMM } from './time.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** Time each business already has taken between two instants: active visits and blocks. */
export async function busyByBusiness(db: Db, businessIds: string[], from: number, to: number): Promise<Map<string, Busy[]>> {
  const range = { lt: new Date(to) };
  const [visits, blocks] = await Promise.all([
    db.bookingVisit.findMany({
      where: { businessId: { in: businessIds }, active: true, start: range, end: { gt: new Date(from) } },
      select: { businessId: true, start: true, end: true },
    }),
    db.block.findMany({
      where: { businessId: { in: businessIds }, start: range, end: { gt: new Date(from) } },
      select: { businessId: true, start: true, end: true },
    }),
  ]);
  const out = new Map<string, Busy[]>(businessIds.map((id) => [id, []]));
  for (const r of [...visits, ...blocks]) out.get(r.businessId)!.push({ start: r.start.getTime(), end: r.end.getTime() });
  return out;
}

export interface ScheduleOf {
  timeZone: string;
  minNoticeMinutes: number;
  hours: WeeklyHours[];
}

/** Customer time filters as the spec names them, turned into slot-engine terms. */
export interface TimeFilters {
  date?: string;
  start_after?: string;
  finish_by?: string;
}

export function slotQuery(
  business: ScheduleOf,
  busy: Busy[],
  durationMinutes: number,
  now: number,
  filters: TimeFilters,
  days: number,
  limit?: number,
): SlotQuery {
  return {
    zone: business.timeZone,
    hours: business.hours,
    busy,
    durationMinutes,
    now,
    minNoticeMinutes: business.minNoticeMinutes,
    date: filters.date,
    days,
    startAfter: filters.start_after ? parseHHMM(filters.start_after) : undefined,
    finishBy: filters.finish_by ? parseHHMM(filters.finish_by) : undefined,
    limit,
  };
}

/** The span of instants a slot query can touch (with a day's margin for zone offsets). */
export function querySpan(now: number, date: string | undefined, days: number): { from: number; to: number } {
  const DAY = 86_400_000;
  const first = date ? Math.max(now, Date.parse(`${date}T00:00:00Z`)) : now;
  return { from: now - DAY, to: first + (days + 2) * DAY };
}
