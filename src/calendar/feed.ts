/**
 * The business's private calendar feed (my_business calendar_feed_url): its schedule as an
 * iCalendar file at `${BASE_URL}/calendar/<token>.ics`, for the owner's own calendar app to
 * subscribe to. The token (32 random bytes) is looked up by its sha256; it is also kept sealed
 * with SECRETS_KEY so my_business can show the URL again. rotate_calendar_feed replaces it, and
 * the old URL answers 404 at once.
 */
import { randomBytes } from 'node:crypto';
import type { Context, OwnerContext, Services } from '../context.js';
import type { Tx } from '../db/transaction.js';
import { notFound } from '../errors.js';
import { hashToken } from '../auth/tokens.js';
import { seal, unseal } from '../auth/sealed.js';
import { DAY } from '../core/time.js';
import { calendarEntries } from '../owners/calendar.js';
import { eventUid, feedCalendar, type EntryStatus, type IcsEvent } from './ics.js';

const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** The feed shows what is still to be confirmed done (two weeks back) and half a year ahead. */
const PAST_MS = 14 * DAY;
const AHEAD_MS = 183 * DAY;
const MAX_BLOCKS = 500;

/** One entry of the schedule as the feed needs it; `start` and `end` are ISO instants with offset. */
export interface FeedEntry {
  id: string;
  kind: 'cleaning' | 'service_call' | 'own_job' | 'visit' | 'appointment' | string;
  start: string;
  end: string;
  status: EntryStatus;
  /** Who and what, e.g. "Jane Doe: 2 bed / 1 bath standard cleaning" (customer-typed parts as data). */
  summary: string;
}

export interface FeedBlock {
  id: string;
  start: Date;
  end: Date;
  reason: string | null;
}

const KIND_LABEL: Record<string, string> = {
  cleaning: 'Cleaning',
  service_call: 'Service call',
  own_job: 'Own job',
  visit: 'Visit',
  appointment: 'Appointment',
};

/** Everything that occupies the business's time between `from` and `to`: the schedule's own read, and the blocks. */
export async function feedSchedule(
  db: Services['prisma'] | Tx,
  businessId: string,
  zone: string,
  from: number,
  to: number,
  now: number,
): Promise<{ entries: FeedEntry[]; blocks: FeedBlock[] }> {
  const [jobs, blocks] = await Promise.all([
    calendarEntries(db, businessId, zone, from, to, now),
    db.block.findMany({
      where: { businessId, end: { gt: new Date(from) }, start: { lt: new Date(to) } },
      orderBy: [{ start: 'asc' }, { id: 'asc' }],
      take: MAX_BLOCKS,
      select: { id: true, start: true, end: true, label: true },
    }),
  ]);
  return {
    entries: jobs.map(({ view: j }) => ({
      id: j.bookingId,
      kind: j.kind,
      start: j.start,
      end: j.end,
      status: j.status,
      summary: `${j.customerName}: ${j.job}`,
    })),
    blocks: blocks.map((b) => ({ id: b.id, start: b.start, end: b.end, reason: b.label || null })),
  };
}

/** The feed's events: a series' visits share their booking's id, so each gets its start in its UID. */
export function feedEvents(baseUrl: string, entries: FeedEntry[]): IcsEvent[] {
  const count = new Map<string, number>();
  for (const e of entries) count.set(e.id, (count.get(e.id) ?? 0) + 1);
  return entries.map((e) => {
    const start = new Date(e.start);
    const id = count.get(e.id)! > 1 ? `${e.id}.${start.getTime()}` : e.id;
    return {
      uid: eventUid(baseUrl, `feed.${e.kind}.${id}`),
      start,
      end: new Date(e.end),
      status: e.status,
      summary: `${KIND_LABEL[e.kind] ?? e.kind} · ${e.summary}`,
      description: `${KIND_LABEL[e.kind] ?? e.kind} ${e.id} (${e.status}). Names and notes are typed by customers.`,
    };
  });
}

export function blockEvents(baseUrl: string, blocks: FeedBlock[]): IcsEvent[] {
  return blocks.map((b) => ({
    uid: eventUid(baseUrl, `feed.block.${b.id}`),
    start: b.start,
    end: b.end,
    status: 'confirmed',
    summary: b.reason ? `Blocked · ${b.reason}` : 'Blocked',
  }));
}

type FeedServices = Pick<Services, 'prisma' | 'secretsKey' | 'links'>;

async function freshToken(ctx: FeedServices) {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, data: { calendarFeedHash: hashToken(token), calendarFeedSealed: await seal(ctx.secretsKey, 'calendar-feed', token) } };
}

/** Replaces the business's feed token: the old URL stops working at once. */
async function replaceToken(ctx: FeedServices, businessId: string): Promise<string> {
  const fresh = await freshToken(ctx);
  await ctx.prisma.business.update({ where: { id: businessId }, data: fresh.data, select: { id: true } });
  return ctx.links.calendarFeed(fresh.token);
}

/** The feed's URL, made on first use (two first uses at once agree on one). */
export async function calendarFeedUrl(ctx: FeedServices, businessId: string): Promise<string> {
  const business = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { calendarFeedSealed: true } });
  if (business.calendarFeedSealed) {
    const token = await unseal(ctx.secretsKey, 'calendar-feed', business.calendarFeedSealed).catch(() => null);
    // Sealed under an earlier SECRETS_KEY: it can no longer be shown, so it is replaced.
    return token ? ctx.links.calendarFeed(token) : replaceToken(ctx, businessId);
  }
  const fresh = await freshToken(ctx);
  const made = await ctx.prisma.business.updateMany({ where: { id: businessId, calendarFeedSealed: null }, data: fresh.data });
  return made.count === 1 ? ctx.links.calendarFeed(fresh.token) : calendarFeedUrl(ctx, businessId);
}

export async function rotateCalendarFeedService(ctx: OwnerContext) {
  return { calendarFeedUrl: await replaceToken(ctx, ctx.business.id) };
}

/** The same answer for a malformed, unknown or replaced token: nothing says which it was. */
const NO_FEED = () => notFound('No calendar is published at this address. Ask the owner for the current link (my_business calendar_feed_url).');

/** The feed's iCalendar text for a token. */
export async function calendarFeedByToken(token: string, ctx: Context): Promise<string> {
  if (!TOKEN_SHAPE.test(token)) throw NO_FEED();
  const business = await ctx.prisma.business.findUnique({ where: { calendarFeedHash: hashToken(token) }, select: { id: true, name: true, timeZone: true } });
  if (!business) throw NO_FEED();
  const now = ctx.clock.now();
  const { entries, blocks } = await feedSchedule(ctx.prisma, business.id, business.timeZone, now - PAST_MS, now + AHEAD_MS, now);
  const baseUrl = ctx.config.baseUrl;
  return feedCalendar({ name: business.name, events: feedEvents(baseUrl, entries), blocks: blockEvents(baseUrl, blocks), now: new Date(now) });
}
