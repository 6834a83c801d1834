/**
 * Blocked time (block_time, unblock_time): a whole local day or part of one, taken out of every
 * search at once (Block rows feed the search snapshot, which drops busy time on every write and,
 * on other instances, on the commit's NOTIFY; visit_times and appointment_times read blocks
 * too). A block never covers an entry of the calendar, whatever its kind: the application
 * refuses one over any entry holding the time, naming them all, and the database refuses one
 * over a confirmed entry even when both are written at the same moment (the Block_clear_of_jobs
 * trigger and the Visit / Appointment outside_blocks triggers).
 */
import type { z } from 'zod';
import type { OwnerContext } from '../context.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid, notFound } from '../errors.js';
import { formatHHMM, localDate, parseHHMM } from '../core/time.js';
import { localParts, localSpan } from '../core/local-time.js';
import { calendarEntries, type CalendarEntry } from './calendar.js';
import { blockView } from './schedule.js';
import type { blockTimeInput, unblockTimeInput } from './inputs.js';

const KIND_NAME: Record<string, string> = { cleaning: 'cleaning', service_call: 'service call', own_job: 'own job', visit: 'visit', appointment: 'appointment' };

/** "2026-12-05 10:00-11:30" in the business's zone ("…-23:59" to midnight, dates named when it spans days). */
function localTimes(e: CalendarEntry, zone: string): string {
  const from = localParts(e.startMs, zone);
  const to = localParts(e.endMs, zone);
  const end = to.date === from.date ? formatHHMM(to.minute) : to.minute === 0 ? '23:59' : `${to.date} ${formatHHMM(to.minute)}`;
  return `${from.date} ${formatHHMM(from.minute)}-${end}`;
}

/** One entry in a sentence: what, whose, when, which id, and with whom for a visit. */
export function describeEntry(e: CalendarEntry, zone: string): string {
  const j = e.view;
  const id = j.kind === 'visit' ? 'visit_id' : 'booking_id';
  const tech = j.technician ? `, with ${j.technician}` : '';
  return `${KIND_NAME[j.kind] ?? j.kind} "${j.job}" for ${j.customerName}, ${localTimes(e, zone)}${tech} (${id} ${j.bookingId}, ${j.status})`;
}

/** One block in a sentence: its local span, reason and block_id (for unblock_time). */
export function describeBlock(b: { id: string; start: Date; end: Date; label: string }, zone: string): string {
  const v = blockView(b, zone);
  return `blocked time ${v.date} ${v.wholeDay ? 'all day' : `${v.start}-${v.end}`} (${v.reason ? `"${v.reason}", ` : ''}block_id ${v.blockId})`;
}

/** The refusal names every entry in the way, so the owner can decide on each. */
const inTheWay = (entries: CalendarEntry[], zone: string) => {
  if (entries.length === 0) return new AppError('job_conflict', 'An entry was just booked into that time. Read schedule and block a different time.');
  const list = entries.map((e) => describeEntry(e, zone)).join('; ');
  const them = entries.length === 1 ? 'it' : 'them';
  return new AppError(
    'job_conflict',
    `That time holds ${entries.length === 1 ? 'an entry' : `${entries.length} entries`} of your schedule: ${list}. ` +
      `First move ${them} with reschedule_job or cancel ${them} with cancel_job (booking_id, or visit_id; the customer is told, a paid appointment refunded), or block a different time.`,
    { booking_id: entries[0]!.view.bookingId, booking_ids: entries.map((e) => e.view.bookingId), kinds: entries.map((e) => e.view.kind) },
  );
};

export async function blockTimeService(input: z.output<typeof blockTimeInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const { timeZone: zone } = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
  const startMinute = input.start ? parseHHMM(input.start) : 0;
  // Times of day are 00:00-23:59: an end of 23:59 is the end of the day.
  const endMinute = !input.end || input.end === '23:59' ? 1440 : parseHHMM(input.end);
  if (endMinute <= startMinute) throw invalid(`end (${input.end ?? '23:59'}) must be after start (${input.start ?? '00:00'}).`);
  if (input.date < localDate(now, zone)) throw invalid(`${input.date} is in the past; block today or a later day.`);
  const span = localSpan(input.date, startMinute, endMinute, zone)!;
  if (span.end <= now) throw invalid(`That part of ${input.date} is already over.`);

  const conflicts = () => calendarEntries(ctx.prisma, businessId, zone, span.start, span.end, now);
  const found = await conflicts();
  if (found.length) throw inTheWay(found, zone);
  try {
    const block = await ctx.transaction(async (tx) => {
      const created = await tx.block.create({ data: { businessId, start: new Date(span.start), end: new Date(span.end), label: input.reason ?? '' } });
      ctx.search.patchAfterCommit(tx, businessId, { add: [{ ref: created.id, start: span.start, end: span.end }] });
      return created;
    });
    return blockView(block, zone);
  } catch (err) {
    // An entry was confirmed into that time while the block was being written.
    if (isExclusionViolation(err)) throw inTheWay(await conflicts(), zone);
    throw err;
  }
}

export async function unblockTimeService(input: z.output<typeof unblockTimeInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const removed = await ctx.transaction(async (tx) => {
    const deleted = await tx.block.deleteMany({ where: { id: input.block_id, businessId } });
    if (deleted.count) ctx.search.patchAfterCommit(tx, businessId, { remove: input.block_id });
    return deleted.count;
  });
  if (removed === 0) throw notFound('Your business has no block with that block_id. Use a block_id from schedule.');
  return { blockId: input.block_id, removed: true };
}
