/**
 * Blocked time (block_time, unblock_time): a whole local day or part of one, taken out of every
 * search at once (Block rows feed the search snapshot, which drops busy time on every write and,
 * on other instances, on the commit's NOTIFY). A block never covers a job: the application
 * refuses one over a job holding the time, naming it, and the database refuses one over a
 * confirmed job even when both are written at the same moment (the Block_clear_of_jobs trigger).
 */
import type { z } from 'zod';
import type { OwnerContext } from '../context.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid, notFound } from '../errors.js';
import { localDate, parseHHMM } from '../core/time.js';
import { localSpan } from '../core/local-time.js';
import { blockView, holdingVisit, jobView, jobSelect, type JobView } from './schedule.js';
import type { blockTimeInput, unblockTimeInput } from './inputs.js';

const jobInTheWay = (jobs: JobView[]) => {
  const j = jobs[0];
  if (!j) return new AppError('job_conflict', 'A job was just booked into that time. Read schedule and block a different time.');
  const more = jobs.length > 1 ? ` and ${jobs.length - 1} more job${jobs.length > 2 ? 's' : ''}` : '';
  return new AppError(
    'job_conflict',
    `That time holds a job: ${j.job} for ${j.customerName}, ${j.start} to ${j.end} (booking_id ${j.bookingId}, ${j.status})${more}. ` +
      'Cancel it first with cancel_job (the customer is told), or block a different time.',
    { booking_id: j.bookingId, booking_ids: jobs.map((x) => x.bookingId) },
  );
};

export async function blockTimeService(input: z.output<typeof blockTimeInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const { timeZone: zone } = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
  const startMinute = input.start ? parseHHMM(input.start) : 0;
  const endMinute = input.end ? parseHHMM(input.end) : 1440;
  if (endMinute <= startMinute) throw invalid(`end (${input.end ?? '24:00'}) must be after start (${input.start ?? '00:00'}).`);
  if (input.date < localDate(now, zone)) throw invalid(`${input.date} is in the past; block today or a later day.`);
  const span = localSpan(input.date, startMinute, endMinute, zone)!;
  if (span.end <= now) throw invalid(`That part of ${input.date} is already over.`);

  const conflicts = () =>
    ctx.prisma.bookingVisit.findMany({
      where: { businessId, ...holdingVisit(now), start: { lt: new Date(span.end) }, end: { gt: new Date(span.start) } },
      orderBy: { start: 'asc' },
      select: { start: true, end: true, booking: { select: jobSelect } },
    });
  const inTheWay = await conflicts();
  if (inTheWay.length) throw jobInTheWay(inTheWay.map((v) => jobView(v.booking, v, zone)));
  try {
    const block = await ctx.transaction(async (tx) => {
      const created = await tx.block.create({ data: { businessId, start: new Date(span.start), end: new Date(span.end), label: input.reason ?? '' } });
      ctx.search.patchAfterCommit(tx, businessId, { add: [{ ref: created.id, start: span.start, end: span.end }] });
      return created;
    });
    return blockView(block, zone);
  } catch (err) {
    // A job was confirmed into that time while the block was being written.
    if (isExclusionViolation(err)) throw jobInTheWay((await conflicts()).map((v) => jobView(v.booking, v, zone)));
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
