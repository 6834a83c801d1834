/**
 * The front desk: how the AI receptionist answers (greeting, tone, hand-off, hours of
 * answering), with where its knowledge stands, the business's public contact page and agent
 * information link, and the limits connections meet. Saving it changes preferences only: no
 * voice service, number, port, card or billing is touched here.
 */
import type { z } from 'zod';
import type { OwnerContext } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { AppError, invalid } from '../errors.js';
import type { Tx } from '../db/transaction.js';
import { businessTextNumber } from '../sms/sender.js';
import { phoneInput } from '../sms/phone.js';
import { WEEKDAY_NAMES, hoursMap, parseDayHours, type DayWindow } from '../core/hours.js';
import { publishedPage } from './knowledge.js';
import type { updateFrontDeskInput } from './inputs.js';
import { formatInstant } from '../core/time.js';

const DEFAULTS = { greeting: '', tone: '', handOff: '', handOffPhone: null as string | null, answerWhen: 'always', answerHours: [] as DayWindow[], completedAt: null as Date | null };

const SAVED_ONLY =
  'Saving the front desk stores preferences only: it does not turn on phone answering, buy or port a number, collect a card or start billing.';

export async function frontDeskService(ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const business = await ctx.prisma.business.findUniqueOrThrow({
    where: { id: businessId },
    select: {
      slug: true,
      timeZone: true,
      textsCustomers: true,
      frontDesk: true,
      receptionist: { select: { draft: true, instructions: true, published: true, publishedAt: true } },
      _count: { select: { sources: true } },
    },
  });
  const shared = await ctx.prisma.receptionistSource.count({ where: { businessId, shareable: true } });
  const desk = business.frontDesk ?? DEFAULTS;
  const r = business.receptionist;
  const page = publishedPage(r, business.timeZone);
  const { config, links } = ctx;
  const textsFrom = business.textsCustomers ? await businessTextNumber(ctx.prisma, businessId) : null;
  return {
    greeting: desk.greeting,
    tone: desk.tone,
    handOff: desk.handOff,
    handOffPhone: desk.handOffPhone,
    answerWhen: desk.answerWhen,
    answerHours: hoursMap(desk.answerHours as unknown as DayWindow[]),
    textsCustomers: business.textsCustomers,
    // Null while texting is off, or the number is not active (texts then leave from the platform's number).
    textsFrom,
    complete: desk.completedAt !== null,
    completedAt: desk.completedAt ? formatInstant(desk.completedAt, business.timeZone) : null,
    publication: {
      published: page !== null,
      publishedAt: page?.publishedAt ?? null,
      // The draft holds changes customers do not see yet.
      draftUnpublished: (r?.draft ?? '') !== (page?.text ?? ''),
      sources: business._count.sources,
      sharedSources: shared,
      instructionsSet: (r?.instructions ?? '').trim() !== '',
    },
    contactPage: links.businessContact(business.slug),
    agentInfoUrl: links.agentInfo(business.slug),
    connectionLimits: {
      requestsPerMinute: config.requestsPerMinute,
      pendingPerRequester: config.pendingLimits.perRequester,
      pendingPerContact: config.pendingLimits.perContact,
      pendingHoldMinutes: config.pendingHoldMinutes,
      maxBodyBytes: config.maxBodyBytes,
    },
    note: SAVED_ONLY,
  };
}

type Input = z.output<typeof updateFrontDeskInput>;

/** Days sent in answer_hours replace those days; the rest of the week stays. */
function mergedHours(current: DayWindow[], days: NonNullable<Input['answer_hours']>): DayWindow[] {
  const byDay = new Map(current.map((w) => [w.weekday, w]));
  WEEKDAY_NAMES.forEach((name, weekday) => {
    const value = days[name];
    if (value === undefined) return;
    const span = parseDayHours(value);
    if (span) byDay.set(weekday, { weekday, ...span });
    else byDay.delete(weekday);
  });
  return [...byDay.values()].sort((a, b) => a.weekday - b.weekday);
}

/**
 * Turns texting customers on or off; on needs the business's active receptionist number, which its
 * texts then leave from. Returns whether it changed.
 */
async function textingChange(tx: Tx, businessId: string, on: boolean): Promise<boolean> {
  const [business] = await tx.$queryRaw<{ textsCustomers: boolean; number: string | null; status: string | null }[]>`
    SELECT b."textsCustomers", n."number", n."status" FROM "Business" b LEFT JOIN "ReceptionistNumber" n ON n."businessId" = b."id"
    WHERE b."id" = ${businessId} FOR UPDATE OF b`;
  if (on && business?.status !== 'active') {
    const now = business?.number ? `Your number ${business.number} is ${business.status}, not active yet` : 'Your business has no receptionist number yet';
    throw new AppError(
      'not_configured',
      `${now}: texts to customers leave from it. Pick one with phone_numbers and activate it with activate_phone_number (or finish its transfer), then send texts_customers true again.`,
    );
  }
  if (business?.textsCustomers === on) return false;
  await tx.business.update({ where: { id: businessId }, data: { textsCustomers: on } });
  return true;
}

export async function updateFrontDeskService(input: Input, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.date();
  let handOffPhone: string | null | undefined;
  if (input.hand_off_phone !== undefined) {
    handOffPhone = input.hand_off_phone.trim() === '' ? null : phoneInput(input.hand_off_phone, 'hand_off_phone', ', or "" to clear it');
  }
  const changed = await ctx.transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`front_desk:${businessId}`}))`;
    const before = (await tx.frontDesk.findUnique({ where: { businessId } })) ?? { ...DEFAULTS };
    const beforeHours = before.answerHours as unknown as DayWindow[];
    const after = {
      greeting: input.greeting ?? before.greeting,
      tone: input.tone ?? before.tone,
      handOff: input.hand_off ?? before.handOff,
      handOffPhone: handOffPhone === undefined ? before.handOffPhone : handOffPhone,
      answerWhen: input.answer_when ?? before.answerWhen,
      answerHours: input.answer_hours ? mergedHours(beforeHours, input.answer_hours) : beforeHours,
      completedAt: input.complete === undefined ? before.completedAt : input.complete ? (before.completedAt ?? now) : null,
    };
    if (after.answerWhen === 'custom' && after.answerHours.length === 0) {
      throw invalid('answer_when custom needs answer_hours: the days and local hours to answer, e.g. {"saturday": "09:00-13:00"}.');
    }
    const fields: [keyof typeof after, string][] = [
      ['greeting', 'greeting'], ['tone', 'tone'], ['handOff', 'hand_off'], ['handOffPhone', 'hand_off_phone'], ['answerWhen', 'answer_when'], ['answerHours', 'answer_hours'], ['completedAt', 'complete'],
    ];
    const changed = fields.filter(([k]) => JSON.stringify(after[k]) !== JSON.stringify(before[k])).map(([, name]) => name);
    if (input.texts_customers !== undefined) {
      const texting = await textingChange(tx, businessId, input.texts_customers);
      if (texting) {
        changed.push('texts_customers');
        ctx.search.reloadAfterCommit(tx, 'catalog', businessId);
      }
    }
    if (!changed.length) return changed;
    const data = { ...after, answerHours: after.answerHours as unknown as Prisma.InputJsonValue, updatedAt: now };
    await tx.frontDesk.upsert({ where: { businessId }, create: { businessId, ...data }, update: data });
    await ctx.emit(tx, { type: 'front_desk.updated', businessId, clientName: ctx.clientName ?? null, data: { by: 'business', change: changed.join(',') } });
    return changed;
  });
  return { ...(await frontDeskService(ctx)), changed };
}
