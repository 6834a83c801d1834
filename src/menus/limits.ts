/**
 * How much of menu businesses' calendars one caller and one customer may hold: visits and
 * appointments book at once, so without a limit anyone could fill a business's days. Live are
 * open visit requests, unpaid appointment holds still running, and visits and appointments still
 * ahead. The caller (requester: its key or connection, else its address) may hold
 * `perRequester` in all and `perRequesterAtBusiness` at one business; one customer (e-mail or
 * phone) `perContactAtBusiness` at one business (config calendarLimits).
 *
 * Counted in the booking's transaction, after the requester's lock (its count over every
 * business) and the business's lock (the counts at that business): two bookings of one caller
 * take turns, so concurrent calls never pass a limit.
 */
import type { Context } from '../context.js';
import type { Tx } from '../db/transaction.js';
import { Prisma } from '../generated/prisma/client.js';
import { AppError } from '../errors.js';
import { signedIn } from '../auth/credentials.js';

export type LiveKind = 'visit' | 'appointment';

/** The live rows of a kind, as the FROM and WHERE of a count; each matches one partial index. */
function liveRows(kind: LiveKind, now: Date): Prisma.Sql[] {
  return kind === 'visit'
    ? [Prisma.sql`"Visit" WHERE "status" = 'pending'`, Prisma.sql`"Visit" WHERE "status" = 'confirmed' AND "start" > ${now}`]
    : [Prisma.sql`"Appointment" WHERE "status" = 'awaiting_payment' AND "holdUntil" > ${now}`, Prisma.sql`"Appointment" WHERE "status" = 'confirmed' AND "start" > ${now}`];
}

/** Live rows that also match `where`, counted only as far as `limit`. */
const upTo = (kind: LiveKind, now: Date, where: Prisma.Sql, limit: number) =>
  Prisma.join(
    liveRows(kind, now).map((rows) => Prisma.sql`(SELECT count(*) FROM (SELECT 1 FROM ${rows} AND ${where} LIMIT ${limit}::int) n)`),
    ' + ',
  );

const WORDS = {
  visit: { live: 'open visit requests and upcoming visits', free: 'withdraw or cancel one with cancel_visit_request, or wait until one has taken place' },
  appointment: { live: 'unpaid holds and upcoming appointments', free: 'pay for or cancel one (cancel_appointment), or wait until an unpaid hold lapses or an appointment has taken place' },
};

/** Refuses one more live visit or appointment when the caller or the customer holds enough already. */
export async function checkLiveLimits(
  ctx: Context,
  tx: Tx,
  kind: LiveKind,
  v: { businessId: string; businessName: string; requesterHash: string; contactKey: string | null; now: number },
): Promise<void> {
  const limits = ctx.config.calendarLimits;
  const now = new Date(v.now);
  const [row] = await tx.$queryRaw<{ requester: number; requesterHere: number; contactHere: number }[]>`
    SELECT (${upTo(kind, now, Prisma.sql`"requesterHash" = ${v.requesterHash}`, limits.perRequester)})::int AS "requester",
           (${upTo(kind, now, Prisma.sql`"requesterHash" = ${v.requesterHash} AND "businessId" = ${v.businessId}`, limits.perRequesterAtBusiness)})::int AS "requesterHere",
           (${v.contactKey === null ? Prisma.sql`0` : upTo(kind, now, Prisma.sql`"contactKey" = ${v.contactKey} AND "businessId" = ${v.businessId}`, limits.perContactAtBusiness)})::int AS "contactHere"`;
  const words = WORDS[kind];
  const caller = signedIn(ctx.credential) ? 'This key or connection' : 'This address (calling without a key or connection)';
  const refuse = (who: string, count: number, where: string) =>
    new AppError('too_many_pending', `${who} already has ${count} ${words.live}${where}, the most allowed at once. Before booking another, ${words.free}.`);
  if (row!.requesterHere >= limits.perRequesterAtBusiness) throw refuse(caller, row!.requesterHere, ` at ${v.businessName}`);
  if (row!.contactHere >= limits.perContactAtBusiness) throw refuse("This customer's e-mail or phone", row!.contactHere, ` at ${v.businessName}`);
  if (row!.requester >= limits.perRequester) throw refuse(caller, row!.requester, '');
}
