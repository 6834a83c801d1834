/**
 * The owner's pull feed (`updates`): the business's Event rows after the cursor, plus what is
 * due by the clock (follow-ups, today's jobs). Derived from the database alone, so a cursor
 * from one instance works on every other and after restarts.
 *
 * A cursor is a position in the feed, `(txid, position)` of the last event delivered. Rows are
 * read in that order and only from transactions that have finished (txid below the oldest one
 * still running), so a transaction that commits late can never land behind a cursor already
 * handed out: nothing is skipped and nothing is delivered twice.
 */
import { DateTime } from 'luxon';
import { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import { invalid } from '../errors.js';
import { formatInstant, HOUR } from '../core/time.js';
import { EVENT_HORIZON, type EventData } from './emit.js';
import { OWNER_EVENT_TYPES } from './kinds.js';
import type { updatesInput } from './inputs.js';
import { dueBetween, nextFollowUp } from '../leads/follow-ups.js';
import { calendarEntries } from '../owners/calendar.js';

/** Without since: the last day's changes. */
const FIRST_WINDOW_MS = 24 * HOUR;
const MAX_EVENTS = 100;
const MAX_JOBS = 50;
const CHECK_IN_MINUTES = 15;
const SOON_CHECK_IN_MINUTES = 5;
/** A conversation waiting this long after the customer's last message is due a follow-up. */
const FOLLOW_UP_AFTER_MS = 24 * HOUR;
/** Stands for "every position of this transaction". */
const ALL = 9223372036854775807n;

export interface UpdateEvent {
  type: string;
  at: string;
  bookingId: string | null;
  inquiryId: string | null;
  customerName: string | null;
  clientName: string | null;
  /** First visit of the booking, business-local ISO. */
  start: string | null;
  /** The customer's message, verbatim. */
  text: string | null;
  /** follow_up.due of a quoted lead: the lead, and which follow-up (1 or 2). */
  leadId?: string | null;
  followUpNumber?: number | null;
  /** visit.* events: the visit of a menu business. */
  visitId?: string | null;
  /** receptionist.* and front_desk.updated: what the owner changed. */
  change?: string | null;
}

/** Everything at or before (txid, position) was delivered; `t` is when follow-ups were last checked. */
interface Cursor {
  txid: bigint;
  position: bigint;
  t: number;
}

const digits = z.string().regex(/^\d{1,19}$/);
const cursorShape = z.object({ v: z.literal(2), x: digits, p: digits, t: z.number().int().nonnegative() });

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ v: 2, x: c.txid.toString(), p: c.position.toString(), t: c.t })).toString('base64url');
}

export function decodeCursor(since: string): Cursor {
  const bad = () => invalid('since is not a cursor returned by updates. Pass the cursor from the previous updates result, or omit since to start over.');
  if (!/^[A-Za-z0-9_-]+$/.test(since)) throw bad();
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(since, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const parsed = cursorShape.safeParse(raw);
  if (!parsed.success) throw bad();
  return { txid: BigInt(parsed.data.x), position: BigInt(parsed.data.p), t: parsed.data.t };
}

interface EventRow {
  position: bigint;
  txid: bigint;
  type: string;
  bookingId: string | null;
  inquiryId: string | null;
  clientName: string | null;
  data: EventData;
  at: Date;
  horizon: bigint;
}

export async function updatesService(input: z.output<typeof updatesInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const cursor = input.since ? decodeCursor(input.since) : null;
  const since = new Date(now - FIRST_WINDOW_MS);
  const types = [...OWNER_EVENT_TYPES];
  const rows = await ctx.prisma.$queryRaw<EventRow[]>`
    WITH ${EVENT_HORIZON}
    SELECT e."position", e."txid", e."type", e."bookingId", e."inquiryId", e."clientName", e."data", e."at", h.horizon
    FROM h LEFT JOIN "Event" e ON e."businessId" = ${businessId} AND e."type" = ANY(${types}) AND e."txid" < h.horizon
      AND (e."txid", e."position") > (${cursor?.txid ?? -1n}, ${cursor?.position ?? -1n})
      AND (${cursor !== null} OR e."at" > ${since})
    ORDER BY e."txid", e."position"
    LIMIT ${MAX_EVENTS + 1}`;
  const horizon = rows[0]!.horizon;
  const found = rows.filter((r) => r.position !== null);
  const more = found.length > MAX_EVENTS;
  const delivered = found.slice(0, MAX_EVENTS);
  const last = delivered.at(-1);
  const next = more && last ? { txid: last.txid, position: last.position } : { txid: horizon - 1n, position: ALL };

  const { timeZone } = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
  const checkedAt = cursor?.t ?? now - FIRST_WINDOW_MS;
  const [due, leadsDue, jobs] = await Promise.all([
    followUpsDue(ctx, businessId, timeZone, checkedAt, now),
    leadFollowUpsDue(ctx, businessId, timeZone, checkedAt, now),
    jobsToday(ctx, businessId, timeZone, cursor?.t, now),
  ]);

  const events: UpdateEvent[] = [
    ...delivered.map((r) => ({
      type: r.type,
      at: formatInstant(r.at, timeZone),
      bookingId: r.bookingId,
      inquiryId: r.inquiryId,
      customerName: r.data.customerName ?? null,
      clientName: r.clientName,
      start: r.data.start ?? null,
      text: r.data.text ?? null,
      visitId: r.data.visitId ?? null,
      change: r.data.change ?? null,
    })),
    ...due,
    ...leadsDue,
    ...jobs.events,
  ];
  // Stored events come in commit order, the derived ones by when they fall due: one time order for all.
  events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return {
    cursor: encodeCursor({ ...next, t: now }),
    events,
    more,
    nextCheckInMinutes: more ? 0 : jobs.startsWithinHour ? SOON_CHECK_IN_MINUTES : CHECK_IN_MINUTES,
  };
}

/** Conversations whose customer's latest message went unanswered 24 hours, falling due in (after, now]. */
async function followUpsDue(ctx: Context, businessId: string, zone: string, after: number, now: number): Promise<UpdateEvent[]> {
  const waiting = await ctx.prisma.conversation.findMany({
    where: {
      businessId,
      status: 'waiting_for_response',
      messages: { some: { author: 'customer', createdAt: { gt: new Date(after - FOLLOW_UP_AFTER_MS), lte: new Date(now - FOLLOW_UP_AFTER_MS) } } },
    },
    take: MAX_EVENTS,
    select: {
      id: true,
      customerName: true,
      messages: { where: { author: 'customer' }, orderBy: { createdAt: 'desc' }, take: 1, select: { text: true, createdAt: true } },
    },
  });
  // A later customer message moves the due time: only the latest one counts.
  return waiting.flatMap((c) => {
    const due = c.messages[0]!.createdAt.getTime() + FOLLOW_UP_AFTER_MS;
    if (due <= after || due > now) return [];
    return [{ type: 'follow_up.due', at: formatInstant(due, zone), bookingId: null, inquiryId: c.id, customerName: c.customerName, clientName: null, start: null, text: c.messages[0]!.text, visitId: null }];
  });
}

/** Quoted leads whose follow-up falls due in (after, now] (the rule of follow_ups_due). */
async function leadFollowUpsDue(ctx: Context, businessId: string, zone: string, after: number, now: number): Promise<UpdateEvent[]> {
  const leads = await ctx.prisma.lead.findMany({
    where: dueBetween(businessId, after, now),
    take: MAX_EVENTS,
    select: { id: true, status: true, quotedAt: true, followUps: true, lastFollowUpAt: true, repliedAt: true, flaggedAt: true, customerName: true, platform: true },
  });
  return leads.flatMap((lead) => {
    const next = nextFollowUp(lead);
    if (!next) return [];
    return [{
      type: 'follow_up.due', at: formatInstant(next.dueAt, zone), bookingId: null, inquiryId: null, customerName: lead.customerName, clientName: null,
      start: null, text: null, leadId: lead.id, followUpNumber: next.number,
    }];
  });
}

/** Today's jobs, in the first call of a business-local day; and whether a job starts within the hour. */
async function jobsToday(ctx: Context, businessId: string, timeZone: string, lastCall: number | undefined, now: number) {
  const dayStart = DateTime.fromMillis(now, { zone: timeZone }).startOf('day');
  const firstOfDay = lastCall === undefined || lastCall < dayStart.toMillis();
  const from = firstOfDay ? dayStart.toMillis() : now;
  const to = firstOfDay ? dayStart.plus({ days: 1 }).toMillis() : now + HOUR;
  // Every kind on the schedule: cleanings, service calls, own jobs, visits and appointments.
  const upcoming = (await calendarEntries(ctx.prisma, businessId, timeZone, from, to, now)).filter((e) => e.startMs >= from).slice(0, MAX_JOBS);
  const events: UpdateEvent[] = firstOfDay
    ? upcoming.map(({ view, startMs }) => ({
        type: 'job.today',
        at: formatInstant(startMs, timeZone),
        bookingId: view.kind === 'visit' ? null : view.bookingId,
        inquiryId: null,
        customerName: view.customerName,
        clientName: view.clientName,
        start: view.start,
        text: null,
        visitId: view.kind === 'visit' ? view.bookingId : null,
      }))
    : [];
  return { events, startsWithinHour: upcoming.some((e) => e.startMs > now && e.startMs <= now + HOUR) };
}
