/**
 * The owner's pull feed (`updates`), derived from the database alone so a cursor from one
 * instance works on every other and after restarts.
 *
 * A cursor is base64url JSON `{v, t, s}`: every event at or before `t` (ms) was delivered,
 * and `s` lists the keys of events after `t` that were delivered too. `t` trails the clock by
 * SETTLE_MS, so a row stamped before a reader looked but committed just after (a transaction
 * takes its timestamp before it commits) is still found by the next call; events younger
 * than that are delivered at once and remembered in `s`, so nothing is delivered twice.
 */
import { DateTime } from 'luxon';
import { z } from 'zod';
import type { Context } from '../context.js';
import { ownBusinessId } from '../auth/credentials.js';
import { invalid } from '../errors.js';
import { isoWithOffset } from '../availability/time.js';
import type { updates } from './operations.js';

const SETTLE_MS = 5_000;
/** Without since: the last day's changes. */
const FIRST_WINDOW_MS = 86_400_000;
const MAX_EVENTS = 100;
/**
 * Keys kept in a cursor: events of the last SETTLE_MS (or of the last millisecond of a full
 * page), so a handful; beyond this many the oldest are dropped and may be delivered again
 * (a duplicate, never a loss). Keeps since within its 8000 characters.
 */
const MAX_SEEN = 150;
const MAX_JOBS = 50;
const CHECK_IN_MINUTES = 15;
const SOON_CHECK_IN_MINUTES = 5;
const HOUR = 3_600_000;
/** A conversation waiting this long after the customer's last message is due a follow-up. */
const FOLLOW_UP_AFTER_MS = 24 * HOUR;

export interface UpdateEvent {
  type: 'booking.created' | 'booking.confirmed' | 'booking.cancelled' | 'message.received' | 'follow_up.due' | 'job.today';
  at: string;
  bookingId: string | null;
  inquiryId: string | null;
  customerName: string | null;
  clientName: string | null;
  /** First visit of the booking, business-local ISO. */
  start: string | null;
  /** The customer's message, verbatim. */
  text: string | null;
}

interface Cursor {
  t: number;
  s: string[];
}

const cursorShape = z.object({ v: z.literal(1), t: z.number().int().nonnegative(), s: z.array(z.string().max(80)).max(MAX_SEEN) });

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify({ v: 1, t: c.t, s: c.s })).toString('base64url');
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
  return { t: parsed.data.t, s: parsed.data.s };
}

/** An event with its ordering key (timestamp, then a stable key per event). */
interface Positioned {
  key: string;
  ms: number;
  event: UpdateEvent;
}

const firstVisit = { orderBy: { start: 'asc' }, take: 1, select: { start: true } } as const;
const bookingFields = { id: true, customerName: true, clientName: true, visits: firstVisit } as const;

export async function updatesService(input: z.output<typeof updates.input>, ctx: Context) {
  const businessId = ownBusinessId(ctx.credential);
  const now = ctx.clock.now();
  const cursor = input.since ? decodeCursor(input.since) : { t: now - FIRST_WINDOW_MS, s: [] };
  const seen = new Set(cursor.s);
  const after = new Date(cursor.t);
  // Enough rows per source that the oldest MAX_EVENTS unseen ones are among them.
  const take = MAX_EVENTS + seen.size + 1;
  const { timeZone } = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
  const startOf = (b: { visits: { start: Date }[] }) => (b.visits[0] ? isoWithOffset(b.visits[0].start.getTime(), timeZone) : null);

  const [created, confirmed, cancelled, messages, asked, waiting] = await Promise.all([
    ctx.prisma.booking.findMany({
      where: { businessId, createdAt: { gt: after } },
      orderBy: { createdAt: 'asc' },
      take,
      select: { ...bookingFields, createdAt: true },
    }),
    ctx.prisma.booking.findMany({
      where: { businessId, confirmedAt: { gt: after } },
      orderBy: { confirmedAt: 'asc' },
      take,
      select: { ...bookingFields, confirmedAt: true },
    }),
    ctx.prisma.booking.findMany({
      where: { businessId, cancelledAt: { gt: after } },
      orderBy: { cancelledAt: 'asc' },
      take,
      select: { ...bookingFields, cancelledAt: true },
    }),
    ctx.prisma.bookingMessage.findMany({
      where: { author: 'customer', createdAt: { gt: after }, booking: { businessId } },
      orderBy: { createdAt: 'asc' },
      take,
      select: { id: true, text: true, createdAt: true, booking: { select: bookingFields } },
    }),
    ctx.prisma.conversationMessage.findMany({
      where: { author: 'customer', createdAt: { gt: after }, conversation: { businessId } },
      orderBy: { createdAt: 'asc' },
      take,
      select: { id: true, text: true, createdAt: true, conversation: { select: { id: true, customerName: true } } },
    }),
    // Fell due after the cursor: the customer's last message is 24 h older than that.
    ctx.prisma.conversation.findMany({
      where: {
        businessId,
        status: 'waiting_for_response',
        messages: { some: { author: 'customer', createdAt: { gt: new Date(cursor.t - FOLLOW_UP_AFTER_MS), lte: new Date(now - FOLLOW_UP_AFTER_MS) } } },
      },
      take,
      select: {
        id: true,
        customerName: true,
        messages: { where: { author: 'customer' }, orderBy: { createdAt: 'desc' }, take: 1, select: { text: true, createdAt: true } },
      },
    }),
  ]);

  const bookingEvent = (
    type: UpdateEvent['type'],
    tag: string,
    b: { id: string; customerName: string; clientName: string | null; visits: { start: Date }[] },
    at: Date,
  ): Positioned => ({
    key: `${tag}:${b.id}`,
    ms: at.getTime(),
    event: { type, at: at.toISOString(), bookingId: b.id, inquiryId: null, customerName: b.customerName, clientName: b.clientName, start: startOf(b), text: null },
  });
  const conversationEvent = (type: UpdateEvent['type'], c: { id: string; customerName: string | null }, at: Date, text: string): UpdateEvent => ({
    type,
    at: at.toISOString(),
    bookingId: null,
    inquiryId: c.id,
    customerName: c.customerName,
    clientName: null,
    start: null,
    text,
  });
  const all: Positioned[] = [
    ...created.map((b) => bookingEvent('booking.created', 'c', b, b.createdAt)),
    ...confirmed.map((b) => bookingEvent('booking.confirmed', 'f', b, b.confirmedAt!)),
    ...cancelled.map((b) => bookingEvent('booking.cancelled', 'x', b, b.cancelledAt!)),
    ...messages.map((m) => {
      const p = bookingEvent('message.received', 'm', m.booking, m.createdAt);
      return { ...p, key: `m:${m.id}`, event: { ...p.event, text: m.text } };
    }),
    ...asked.map((m) => ({
      key: `q:${m.id}`,
      ms: m.createdAt.getTime(),
      event: conversationEvent('message.received', m.conversation, m.createdAt, m.text),
    })),
    // A later customer message moves the due time: only the latest one counts.
    ...waiting.flatMap((c) => {
      const due = c.messages[0]!.createdAt.getTime() + FOLLOW_UP_AFTER_MS;
      if (due <= cursor.t || due > now) return [];
      return [{ key: `u:${c.id}:${due}`, ms: due, event: conversationEvent('follow_up.due', c, new Date(due), c.messages[0]!.text) }];
    }),
  ];
  all.sort((a, b) => a.ms - b.ms || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const fresh = all.filter((p) => !seen.has(p.key));
  const more = fresh.length > MAX_EVENTS;
  const delivered = fresh.slice(0, MAX_EVENTS);

  // Everything at or before `t` is delivered: trail the clock, and stop short of undelivered ones.
  let t = Math.max(cursor.t, now - SETTLE_MS);
  if (more) t = Math.max(cursor.t, Math.min(t, delivered.at(-1)!.ms - 1));
  const known = new Map(all.map((p) => [p.key, p.ms]));
  const nextSeen = [
    // Earlier deliveries not re-read this time have unknown times: keep them to be safe.
    ...cursor.s.filter((k) => (known.get(k) ?? Infinity) > t),
    ...delivered.filter((p) => p.ms > t).map((p) => p.key),
  ].slice(-MAX_SEEN);

  // Today's jobs, once per business-local day: when this is the first call since the day began.
  const dayStart = DateTime.fromMillis(now, { zone: timeZone }).startOf('day');
  const firstOfDay = !input.since || cursor.t < dayStart.toMillis();
  const upcoming = await ctx.prisma.bookingVisit.findMany({
    where: {
      businessId,
      active: true,
      booking: { status: { in: ['pending', 'confirmed'] } },
      start: { gte: firstOfDay ? dayStart.toJSDate() : new Date(now), lt: firstOfDay ? dayStart.plus({ days: 1 }).toJSDate() : new Date(now + HOUR) },
    },
    orderBy: { start: 'asc' },
    take: MAX_JOBS,
    select: { start: true, booking: { select: { id: true, customerName: true, clientName: true } } },
  });
  const jobs: UpdateEvent[] = firstOfDay
    ? upcoming.map((v) => ({
        type: 'job.today',
        at: v.start.toISOString(),
        bookingId: v.booking.id,
        inquiryId: null,
        customerName: v.booking.customerName,
        clientName: v.booking.clientName,
        start: isoWithOffset(v.start.getTime(), timeZone),
        text: null,
      }))
    : [];
  const startsWithinHour = upcoming.some((v) => v.start.getTime() > now && v.start.getTime() <= now + HOUR);

  return {
    cursor: encodeCursor({ t, s: nextSeen }),
    events: [...delivered.map((p) => p.event), ...jobs],
    more,
    nextCheckInMinutes: more ? 0 : startsWithinHour ? SOON_CHECK_IN_MINUTES : CHECK_IN_MINUTES,
  };
}
