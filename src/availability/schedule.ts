import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { Busy, SlotQuery, WeeklyHours } from './slots.js';
import { DAY, parseHHMM } from './time.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** Busy time as stored: a pending booking's visit is busy only until its hold lapses. */
export interface HeldBusy extends Busy {
  holdUntil?: number;
}

/** Whether stored busy time still holds at `now`. */
export const holds = (b: HeldBusy, now: number) => b.holdUntil === undefined || b.holdUntil > now;

/**
 * Time each business has taken between two instants: active visits and blocks, with each
 * pending visit's hold (callers drop lapsed ones with `holds`; the search snapshot keeps them
 * so that a hold lapsing needs no reload).
 */
export async function busyByBusiness(db: Db, businessIds: string[], from: number, to: number): Promise<Map<string, HeldBusy[]>> {
  const range = { lt: new Date(to) };
  const [visits, blocks] = await Promise.all([
    db.bookingVisit.findMany({
      where: { businessId: { in: businessIds }, active: true, start: range, end: { gt: new Date(from) } },
      select: { businessId: true, start: true, end: true, holdUntil: true },
    }),
    db.block.findMany({
      where: { businessId: { in: businessIds }, start: range, end: { gt: new Date(from) } },
      select: { businessId: true, start: true, end: true },
    }),
  ]);
  const out = new Map<string, HeldBusy[]>(businessIds.map((id) => [id, []]));
  for (const v of visits) out.get(v.businessId)!.push({ start: v.start.getTime(), end: v.end.getTime(), ...(v.holdUntil ? { holdUntil: v.holdUntil.getTime() } : {}) });
  for (const b of blocks) out.get(b.businessId)!.push({ start: b.start.getTime(), end: b.end.getTime() });
  return out;
}

/** Busy time of one business that still holds at `now` (bookings read this inside their transaction). */
export async function busyAt(db: Db, businessId: string, from: number, to: number, now: number): Promise<Busy[]> {
  return (await busyByBusiness(db, [businessId], from, to)).get(businessId)!.filter((b) => holds(b, now));
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
  const first = date ? Math.max(now, Date.parse(`${date}T00:00:00Z`)) : now;
  return { from: now - DAY, to: first + (days + 2) * DAY };
}
