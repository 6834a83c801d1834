/**
 * Leads: log_lead (firm quote, open starts, a reply draft), follow_ups_due, update_lead and
 * flag_bad_lead. Platform leads never store the customer's name or contact: the reply goes
 * inside the platform, and any phone number or e-mail address in the customer's message is
 * removed before it is stored.
 */
import type { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import type { Prisma } from '../generated/prisma/client.js';
import { invalid, notFound } from '../errors.js';
import { slotQuery, querySpan, type TimeFilters } from '../availability/schedule.js';
import { openStarts } from '../core/slots.js';
import { dateToDayNumber, dayNumberToDate, isoWithOffset, localDate, parseHHMM } from '../core/time.js';
import { localSpan } from '../core/local-time.js';
import { nearest } from '../availability/nearest-starts.js';
import { normalisePhone, phoneInput, withoutContactDetails } from '../sms/phone.js';
import { priceJob, cleaningSummary, serviceCallSummary } from '../owners/job.js';
import { quoteView } from '../owners/jobs.js';
import { followUpDraft, replyDraft, type DraftFacts } from './drafts.js';
import { dueBetween, nextFollowUp, MAX_FOLLOW_UPS } from './follow-ups.js';
import { CREDIT_POLICY, isPlatform, PLATFORM_STYLE, type LeadSource } from './platforms.js';
import type { flagBadLeadInput, followUpsDueInput, leadsInput, logLeadInput, updateLeadInput } from './inputs.js';
import { monthSpan } from './pipeline.js';
import { businessZone } from '../db/business-zone.js';

const STARTS_SHOWN = 6;
const STARTS_DAYS = 7;
const MAX_DUE = 100;
const NO_LEAD = 'Your business has no lead with that lead_id. Use a lead_id from log_lead or follow_ups_due.';

const leadBusinessSelect = {
  id: true,
  name: true,
  kind: true,
  phone: true,
  slug: true,
  timeZone: true,
  priceList: true,
  minNoticeMinutes: true,
  hours: { select: { weekday: true, startMinute: true, endMinute: true } },
} satisfies Prisma.BusinessSelect;

type LeadRow = Prisma.LeadGetPayload<{ include: { ownJob: { select: { bookingId: true } } } }>;

const summaryOf = (job: Prisma.JsonValue): { summary: string; kind: 'cleaning' | 'service_call' } => {
  const j = (job ?? {}) as Record<string, unknown>;
  return j.issue !== undefined
    ? { summary: serviceCallSummary(j as { trade?: string; issue?: string }), kind: 'service_call' }
    : { summary: cleaningSummary(j as Parameters<typeof cleaningSummary>[0]), kind: 'cleaning' };
};

/** A lead as the owner reads it. Names, messages and notes are human-typed data. */
export function leadView(lead: LeadRow, zone: string) {
  const { summary, kind } = summaryOf(lead.job);
  const next = nextFollowUp(lead);
  const amount = lead.quoteCents / 100;
  return {
    leadId: lead.id,
    platform: lead.platform,
    status: lead.status,
    zip: lead.zip,
    job: summary,
    total: kind === 'cleaning' ? amount : null,
    fee: kind === 'service_call' ? amount : null,
    cost: lead.costCents === null ? null : lead.costCents / 100,
    customerName: lead.customerName,
    customerPhone: lead.customerPhone,
    customerEmail: lead.customerEmail,
    message: lead.message,
    notes: lead.notes,
    quotedAt: isoWithOffset(lead.quotedAt.getTime(), zone),
    contacted: lead.followUps > 0,
    followUpsSent: lead.followUps,
    lastFollowUpAt: lead.lastFollowUpAt && isoWithOffset(lead.lastFollowUpAt.getTime(), zone),
    nextFollowUpAt: next && isoWithOffset(next.dueAt, zone),
    replied: lead.repliedAt !== null,
    bad: lead.flaggedAt !== null,
    badReason: lead.badReason,
    bookingId: lead.ownJob?.bookingId ?? null,
  };
}

/** Days either side of a full preferred day searched for the starts nearest it. */
const NEAR_DAYS = 3;

/**
 * Open starts to offer the customer, following the customer rules (notice included), as in
 * search: inside the customer's preferred day and time window when one is given; when nothing is
 * open then, the starts nearest it (days before and after), or without a preferred day the next
 * ones. `dayFull` says the preferred day has no open start at any time.
 */
async function openStartsFor(ctx: Context, business: Prisma.BusinessGetPayload<{ select: typeof leadBusinessSelect }>, minutes: number, preferred: TimeFilters) {
  const now = ctx.clock.now();
  const asked = Boolean(preferred.date || preferred.start_after || preferred.finish_by);
  const span = querySpan(now, preferred.date, STARTS_DAYS);
  const busy = (await ctx.search.busyOf([business.id], span.from, span.to)).get(business.id)!;
  // limit undefined: every open start, to pick the nearest from.
  const find = (f: TimeFilters, days: number, limit: number | undefined) =>
    openStarts(slotQuery(business, busy, minutes, now, f, days, limit)).map((s) => isoWithOffset(s, business.timeZone));
  const soonest = () => find({}, STARTS_DAYS, STARTS_SHOWN);
  if (!asked) return { starts: soonest(), offered: null, preferredOpen: null, dayFull: false };
  const inside = find(preferred, preferred.date ? 1 : STARTS_DAYS, STARTS_SHOWN);
  if (inside.length) return { starts: inside, offered: null, preferredOpen: true, dayFull: false };
  // A day already over has no nearest starts to speak of: the next ones.
  if (!preferred.date || preferred.date < localDate(now, business.timeZone)) return { starts: soonest(), offered: null, preferredOpen: false, dayFull: false };
  // Nearest the middle of the asked window (the day's noon when only the day was asked).
  const day = dateToDayNumber(preferred.date)!;
  const window = localSpan(preferred.date, preferred.start_after ? parseHHMM(preferred.start_after) : 0, preferred.finish_by ? parseHHMM(preferred.finish_by) : 1440, business.timeZone)!;
  const around = find({ date: dayNumberToDate(day - NEAR_DAYS) }, 2 * NEAR_DAYS + 1, undefined);
  const wanted = (window.start + window.end) / 2;
  const near = nearest(around, wanted, STARTS_SHOWN);
  return {
    starts: near.length ? near : soonest(),
    // The draft shows three: the three nearest, so it offers times both before and after the day.
    offered: near.length ? nearest(near, wanted) : null,
    preferredOpen: false,
    dayFull: !around.some((s) => s.startsWith(preferred.date!)),
  };
}

export async function logLeadService(input: z.output<typeof logLeadInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const business = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: leadBusinessSelect });
  const priced = priceJob(business, input);
  const platform = isPlatform(input.platform);
  if (!platform && !input.customer_name) throw invalid('customer_name is required for a direct lead (a customer who contacted you themselves).');
  // A platform lead's cost feeds spend and cost per booked job: a missing one is not free.
  if (platform && input.cost === undefined) {
    throw invalid(`cost is required for a ${input.platform} lead: what the platform charged in USD (0 if it was free), or "unknown" when you do not know yet.`);
  }
  const phone = platform || !input.customer_phone ? null : normalisePhone(phoneInput(input.customer_phone, 'customer_phone'));
  const now = ctx.clock.now();
  const preferred = { date: input.date, start_after: input.start_after, finish_by: input.finish_by };
  const [served, { starts, offered, preferredOpen, dayFull }] = await Promise.all([
    ctx.prisma.serviceZip.count({ where: { businessId, zip: input.zip } }).then((n) => n > 0),
    openStartsFor(ctx, business, priced.minutes, preferred),
  ]);
  // In a transaction, like every write an operation's request_key can claim (registry/request-keys.ts).
  const lead = await ctx.transaction((tx) => tx.lead.create({
    data: {
      businessId,
      platform: input.platform,
      zip: input.zip,
      job: priced.stored as Prisma.InputJsonObject,
      quoteCents: priced.priceCents,
      quoteMinutes: priced.minutes,
      costCents: input.cost === 'unknown' ? null : Math.round((input.cost ?? 0) * 100),
      message: input.message === undefined ? null : platform ? withoutContactDetails(input.message) : input.message,
      // Platform leads: the platform keeps the customer's identity; we keep none of it.
      customerName: platform ? null : input.customer_name!,
      customerEmail: platform ? null : input.customer_email?.toLowerCase() ?? null,
      customerPhone: phone?.e164 ?? null,
      phoneKey: phone?.e164 ?? null,
      quotedAt: new Date(now),
      createdAt: new Date(now),
      updatedAt: new Date(now),
    },
    include: { ownJob: { select: { bookingId: true } } },
  }));
  const facts: DraftFacts = {
    source: input.platform,
    businessName: business.name,
    businessPhone: business.phone,
    bookingPage: ctx.links.businessPage(business.slug),
    customerName: input.customer_name ?? null,
    summary: priced.summary,
    kind: priced.kind,
    price: priced.priceCents / 100,
    starts: offered ?? starts,
    zip: input.zip,
    zipServed: served,
    preferredOpen,
    fullDay: dayFull ? input.date! : null,
  };
  return {
    leadId: lead.id,
    platform: input.platform,
    quote: quoteView(priced),
    starts,
    zipServed: served,
    preferredOpen,
    replyDraft: replyDraft(facts),
    contactStored: !platform,
    lead: leadView(lead, business.timeZone),
  };
}

export async function followUpsDueService(_input: z.output<typeof followUpsDueInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.now();
  const business = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: leadBusinessSelect });
  const leads = await ctx.prisma.lead.findMany({
    where: dueBetween(businessId, undefined, now),
    orderBy: { quotedAt: 'asc' },
    take: MAX_DUE,
    include: { ownJob: { select: { bookingId: true } } },
  });
  const due = leads.map((lead) => ({ lead, next: nextFollowUp(lead)! })).sort((a, b) => a.next.dueAt - b.next.dueAt);
  // Drafts offer current open starts for each job length (fetched once per length).
  const startsByMinutes = new Map<number, Promise<string[]>>();
  const startsFor = (minutes: number) => {
    if (!startsByMinutes.has(minutes)) startsByMinutes.set(minutes, openStartsFor(ctx, business, minutes, {}).then((o) => o.starts));
    return startsByMinutes.get(minutes)!;
  };
  return {
    leads: await Promise.all(
      due.map(async ({ lead, next }) => {
        const { summary, kind } = summaryOf(lead.job);
        const draft = followUpDraft(
          {
            source: lead.platform as LeadSource,
            businessName: business.name,
            businessPhone: business.phone,
            bookingPage: null,
            customerName: lead.customerName,
            summary,
            kind,
            price: lead.quoteCents / 100,
            starts: await startsFor(lead.quoteMinutes),
            zip: lead.zip,
            zipServed: true,
          },
          next.number,
        );
        return {
          leadId: lead.id,
          platform: lead.platform,
          dueAt: isoWithOffset(next.dueAt, business.timeZone),
          followUpNumber: next.number,
          draft,
          lead: leadView(lead, business.timeZone),
        };
      }),
    ),
  };
}

async function ownLead(ctx: Context, businessId: string, leadId: string) {
  const lead = await ctx.prisma.lead.findFirst({ where: { id: leadId, businessId }, include: { ownJob: { select: { bookingId: true } } } });
  if (!lead) throw notFound(NO_LEAD);
  return lead;
}


export async function updateLeadService(input: z.output<typeof updateLeadInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  if (input.contacted === undefined && input.replied === undefined && input.status === undefined && input.notes === undefined) {
    throw invalid('Pass at least one of contacted, replied, status or notes.');
  }
  const now = new Date(ctx.clock.now());
  const lead = await ownLead(ctx, businessId, input.lead_id);
  const data: Prisma.LeadUpdateInput = { updatedAt: now };
  // A follow-up sent: the next one falls due 2 days after it (at most two are ever due).
  if (input.contacted) {
    data.followUps = Math.min(MAX_FOLLOW_UPS, lead.followUps + 1);
    data.lastFollowUpAt = now;
  }
  if (input.replied !== undefined) data.repliedAt = input.replied ? lead.repliedAt ?? now : null;
  if (input.status !== undefined) data.status = input.status;
  if (input.notes !== undefined) data.notes = input.notes;
  const updated = await ctx.prisma.lead.update({ where: { id: lead.id }, data, include: { ownJob: { select: { bookingId: true } } } });
  return leadView(updated, await businessZone(ctx.prisma, businessId));
}

export async function flagBadLeadService(input: z.output<typeof flagBadLeadInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const lead = await ownLead(ctx, businessId, input.lead_id);
  if (!isPlatform(lead.platform)) throw invalid('This is a direct lead: no platform charged for it, so there is no credit to ask for.');
  if (lead.costCents === null) throw invalid('This lead\'s cost was logged as unknown; a credit request needs what the platform charged. Check the charge on the platform first.');
  if (lead.costCents <= 0) throw invalid('This lead cost nothing, so there is no credit to ask for. Log its cost with the lead to flag a paid lead.');
  const costCents = lead.costCents;
  const now = ctx.clock.now();
  const [zone, served] = await Promise.all([
    businessZone(ctx.prisma, businessId),
    ctx.prisma.serviceZip.count({ where: { businessId, zip: lead.zip } }).then((n) => n > 0),
  ]);
  const flagged = await ctx.prisma.lead.update({
    where: { id: lead.id },
    data: { badReason: input.reason, flaggedAt: lead.flaggedAt ?? new Date(now), updatedAt: new Date(now) },
    include: { ownJob: { select: { bookingId: true } } },
  });
  const view = leadView(flagged, zone);
  const platform = PLATFORM_STYLE[lead.platform as LeadSource].name;
  const cost = `$${(costCents / 100).toFixed(2)}`;
  const evidence = [
    `Lead received ${view.quotedAt} on ${platform}, charged ${cost}.`,
    `Request: ${view.job}, ZIP ${lead.zip}${served ? '' : ' (outside our service area)'}.`,
    `Quoted $${view.total ?? view.fee} on ${view.quotedAt}; follow-ups sent: ${lead.followUps}${view.lastFollowUpAt ? ` (latest ${view.lastFollowUpAt})` : ''}; customer replied: ${view.replied ? 'yes' : 'no'}.`,
    `What was wrong (owner's words): ${input.reason}`,
    ...(lead.message ? [`The customer's message (contact details removed): ${lead.message}`] : []),
  ];
  const policy = CREDIT_POLICY[lead.platform as LeadSource] ?? CREDIT_POLICY.other!;
  const text =
    `Hello ${platform} support, we are asking for a credit for the lead charged ${cost} on ${view.quotedAt.slice(0, 10)} (our reference ${lead.id}). ` +
    `The lead was not a valid request: ${input.reason} ` +
    `Details: ${evidence.slice(0, 3).join(' ')} ` +
    'We believe this qualifies under your lead-credit policy. Thank you for reviewing it.';
  return {
    leadId: lead.id,
    creditRequest: { platform: lead.platform, amount: costCents / 100, evidence, text, policy, policyNote: 'Our summary of the platform\'s policy; check its current terms before sending.' },
    lead: view,
  };
}

const LEADS_PAGE = 50;

/** The owner's leads, newest first, by status, platform and business-local month; paged by a (created, id) cursor. */
export async function leadsService(input: z.output<typeof leadsInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const zone = await businessZone(ctx.prisma, businessId);
  const span = input.month ? monthSpan(input.month, zone, ctx.clock.now()) : null;
  const m = input.cursor ? /^(\d{1,15})_(.+)$/.exec(input.cursor) : null;
  if (input.cursor && !m) throw invalid('cursor must be the next_cursor of the previous leads page.');
  const after = m ? { at: new Date(Number(m[1])), id: m[2]! } : null;
  const rows = await ctx.prisma.lead.findMany({
    where: {
      businessId,
      ...(input.status ? { status: input.status } : {}),
      ...(input.platform ? { platform: input.platform } : {}),
      AND: [
        ...(span ? [{ createdAt: { gte: span.from, lt: span.to } }] : []),
        ...(after ? [{ OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] }] : []),
      ],
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: LEADS_PAGE + 1,
    include: { ownJob: { select: { bookingId: true } } },
  });
  const page = rows.slice(0, LEADS_PAGE);
  const last = page.at(-1);
  return {
    leads: page.map((lead) => leadView(lead, zone)),
    nextCursor: rows.length > LEADS_PAGE && last ? `${last.createdAt.getTime()}_${last.id}` : null,
  };
}
