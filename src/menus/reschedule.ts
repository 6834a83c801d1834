/**
 * Moving a confirmed menu visit to another start: reschedule_visit (its customer, by the
 * conversation's tokens) and reschedule_job (its owner). Under the business's visits lock the
 * start is asked exactly as book_visit (customers) or confirm_visit_request (owners, no notice)
 * asks it, with the visit's own time free to it; its technician keeps it when they can, else
 * another qualified one takes it. The technician exclusion constraint and the blocks trigger
 * refuse what the check missed. The move is posted in the conversation, the customer gets the
 * moved calendar event (.ics REQUEST, higher SEQUENCE), the owner a visit.rescheduled event.
 */
import { moveStart } from '../calendar/moves.js';
import type { z } from 'zod';
import type { Context } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { isExclusionViolation } from '../db/errors.js';
import { AppError, invalid, notFound } from '../errors.js';
import { hashToken } from '../auth/tokens.js';
import { DAY, MINUTE, isoWithOffset } from '../core/time.js';
import { instantsInWords } from '../core/for-people.js';
import { postToConversation } from '../conversations/conversation.js';
import { answerMail, newMessageMail } from '../conversations/mail.js';
import { inviteAttachment, nextSequence } from '../calendar/invites.js';
import { candidates, type VisitPlan } from './schedule.js';
import { loadMenuState } from './store.js';
import { describeItems, visitView } from './views.js';
import { findVisit, lockBusinessVisits, QUEUED, SELF_CANCEL_MS } from './visits.js';
import type { rescheduleVisitInput } from './inputs.js';
import { openChannels } from '../mail/reach.js';

export interface VisitMove {
  where: Prisma.VisitWhereInput;
  by: 'customer' | 'business';
  start: string;
  notFound: string;
}

export async function moveVisit(ctx: Context, m: VisitMove) {
  const now = ctx.clock.now();
  const start = moveStart(m.start, now, 'visit_times');
  const found = await ctx.prisma.visit.findFirst({ where: m.where, select: { id: true, businessId: true } });
  if (!found) throw notFound(m.notFound);
  const customer = m.by === 'customer';
  const taken = (to: string) =>
    new AppError('time_unavailable', `No technician who does this visit can take all of it at ${to} (hours, time off, other visits, blocked time${customer ? ', notice' : ''}). ${customer ? 'Call visit_times' : 'Check service_setup'} for open starts.`);
  try {
    return await ctx.transaction(async (tx) => {
      await lockBusinessVisits(ctx, tx, found.businessId);
      const visit = (await findVisit(tx, { id: found.id }))!;
      const held = await tx.visit.findUniqueOrThrow({ where: { id: visit.id }, select: { technicianId: true, busyUntil: true, outcome: true } });
      const zone = visit.business.timeZone;
      const name = visit.business.name;
      if (visit.status !== 'confirmed' || !visit.start || !visit.end || held.outcome) {
        throw invalid(
          visit.status === 'pending'
            ? `This is a visit request with no time yet: ${customer ? `${name} confirms a time; ask in the conversation (follow_up_business)` : 'confirm a time with confirm_visit_request'}.`
            : `This visit is ${held.outcome ? (held.outcome === 'done' ? 'done' : 'closed as a no-show') : visit.status}; only an upcoming confirmed visit can be moved.`,
        );
      }
      const from = isoWithOffset(visit.start.getTime(), zone);
      const to = isoWithOffset(start, zone);
      if (visit.start.getTime() <= now) throw invalid(`This visit started at ${from}; only an upcoming visit can be moved.`);
      if (customer && visit.start.getTime() - now < SELF_CANCEL_MS) {
        throw new AppError(
          'too_late_to_change',
          `This visit starts ${from}, less than 24 hours from now, so it can no longer be moved here. Ask ${name} in the conversation (follow_up_business with the inquiry_id and reply_token); they can move it.`,
        );
      }
      // A retry of a move already made changes nothing and tells nobody again.
      if (visit.start.getTime() === start) return { view: visitView(visit, zone), moved: false, customerTold: null as string | null };
      const state = await loadMenuState(tx, { id: visit.business.id }, start - 2 * DAY, start + 2 * DAY);
      if (customer && !state.menu.schedulingEnabled) {
        throw new AppError('not_configured', `${name} does not book visit times online now; ask for another time in the conversation (follow_up_business).`);
      }
      // The visit's own time is free to it.
      const team = state.team.map((t) =>
        t.id === held.technicianId ? { ...t, visits: t.visits.filter((v) => !(v.start === visit.start!.getTime() && v.end === held.busyUntil?.getTime())) } : t,
      );
      const plan: VisitPlan = {
        zone,
        businessHours: state.business.hours,
        blocks: state.blocks,
        minNoticeMinutes: customer ? state.business.minNoticeMinutes : 0,
        now,
        bufferMinutes: state.menu.bufferMinutes,
        durationMinutes: visit.durationMinutes!,
        serviceIds: visit.serviceIds,
        ...(customer ? {} : { stepMinutes: 1 }),
      };
      const tech = candidates(plan, team, start, held.technicianId ?? undefined)[0];
      if (!tech) throw taken(to);
      const end = start + visit.durationMinutes! * MINUTE;
      const at = new Date(now);
      await tx.visit.update({
        where: { id: visit.id },
        data: { start: new Date(start), end: new Date(end), busyUntil: new Date(end + state.menu.bufferMinutes * MINUTE), technicianId: tech.id, technicianName: tech.name },
      });
      const what = `${describeItems(visit.selections)} moved from ${from} to ${to}, with ${tech.name}.`;
      const text = customer ? `Moved the visit: ${what}` : `${name} moved your visit: ${what}`;
      await postToConversation(tx, visit.conversationId, m.by, text, at);
      if (customer && visit.business.email) {
        await ctx.outbox.enqueue(tx, newMessageMail(visit.business.email, { inquiryId: visit.conversationId, from: visit.customerName, message: text, requestType: 'service_visit', viaText: false, zone }));
      }
      let customerTold: string | null = 'told in the visit\'s conversation';
      const email = visit.conversation.customerEmail;
      if (email) {
        const mail = answerMail(email, { inquiryId: visit.conversationId, businessName: name, customerName: visit.customerName, message: text, zone });
        mail.subject = instantsInWords(`Moved: your visit with ${name} is now ${to}`, zone);
        mail.attachments = [
          inviteAttachment(ctx.config, {
            method: 'REQUEST',
            id: visit.id,
            sequence: await nextSequence(tx, 'visit', visit.id),
            status: 'confirmed',
            business: visit.business,
            customer: { name: visit.customerName, email },
            summary: `Visit with ${name}`,
            description: text,
            visits: [{ id: visit.id, start: new Date(start), end: new Date(end) }],
            now: at,
          }),
        ];
        await ctx.outbox.enqueue(tx, mail);
        customerTold = openChannels(ctx.config).email ? `e-mailed ${email} and told in the visit's conversation` : "told in the visit's conversation";
      }
      ctx.search.reloadAfterCommit(tx, 'schedule', visit.business.id);
      await ctx.emit(tx, {
        type: 'visit.rescheduled',
        businessId: visit.business.id,
        inquiryId: visit.conversationId,
        clientName: ctx.clientName,
        data: { customerName: visit.customerName, start: to, text: `from ${from} to ${to}`, visitId: visit.id, ...(customer ? {} : { by: 'business' as const }) },
      });
      return { view: visitView((await findVisit(tx, { id: visit.id }))!, zone), moved: true, customerTold };
    }, QUEUED);
  } catch (err) {
    if (isExclusionViolation(err)) throw taken(m.start);
    throw err;
  }
}

export async function rescheduleVisitService(input: z.output<typeof rescheduleVisitInput>, ctx: Context) {
  const r = await moveVisit(ctx, {
    where: { id: input.visit_id, conversationId: input.inquiry_id, conversation: { replyTokenHash: hashToken(input.reply_token) } },
    by: 'customer',
    start: input.start,
    notFound: 'No visit matches that visit_id, inquiry_id and reply_token. Use the values returned by book_visit.',
  });
  return {
    visit: r.view,
    next:
      `${r.moved ? 'Moved to' : 'Already at'} ${r.view.start} with ${r.view.technician}; the customer's calendar event moves with it. ` +
      'Move or cancel free until 24 hours before the start (reschedule_visit, cancel_visit_request); later, ask the team in the conversation.',
  };
}
