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
import { slotQuery, querySpan } from '../availability/schedule.js';
import { openStarts } from '../core/slots.js';
import { isoWithOffset } from '../core/time.js';
import { normalisePhone, withoutContactDetails } from '../sms/phone.js';
import { priceJob, cleaningSummary, serviceCallSummary } from '../owners/job.js';
import { quoteView } from '../owners/jobs.js';
import { followUpDraft, replyDraft, type DraftFacts } from './drafts.js';
import { dueBetween, nextFollowUp, MAX_FOLLOW_UPS } from './follow-ups.js';
import { CREDIT_POLICY, isPlatform, PLATFORM_STYLE, type LeadSource } from './platforms.js';
import type { flagBadLeadInput, followUpsDueInput, logLeadInput, updateLeadInput } from './inputs.js';
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
    cost: lead.costCents / 100,
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

async function openStartsFor(ctx: Context, business: Prisma.BusinessGetPayload<{ select: typeof leadBusinessSelect }>, minutes: number) {
  const now = ctx.clock.now();
  const span = querySpan(now, undefined, STARTS_DAYS);
  const busy = (await ctx.search.busyOf([business.id], span.from, span.to)).get(business.id)!;
  // What the customer is offered follows the customer rules (notice included), as in search.
  return openStarts(slotQuery(business, busy, minutes, now, {}, STARTS_DAYS, STARTS_SHOWN)).map((s) => isoWithOffset(s, business.timeZone));
}

export async function logLeadService(input: z.output<typeof logLeadInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const business = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: leadBusinessSelect });
  const priced = priceJob(business, input);
  const platform = isPlatform(input.platform);
  if (!platform && !input.customer_name) throw invalid('customer_name is required for a direct lead (a customer who contacted you themselves).');
  const phone = platform ? null : normalisePhone(input.customer_phone);
  const now = ctx.clock.now();
  const [served, starts] = await Promise.all([
    ctx.prisma.serviceZip.count({ where: { businessId, zip: input.zip } }).then((n) => n > 0),
    openStartsFor(ctx, business, priced.minutes),
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
      costCents: Math.round((input.cost ?? 0) * 100),
      message: input.message === undefined ? null : platform ? withoutContactDetails(input.message) : input.message,
      // Platform leads: the platform keeps the customer's identity; we keep none of it.
      customerName: platform ? null : input.customer_name!,
      customerEmail: platform ? null : input.customer_email?.toLowerCase() ?? null,
      customerPhone: platform ? null : input.customer_phone ?? null,
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
    starts,
    zip: input.zip,
    zipServed: served,
  };
  return {
    leadId: lead.id,
    platform: input.platform,
    quote: quoteView(priced),
    starts,
    zipServed: served,
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
    if (!startsByMinutes.has(minutes)) startsByMinutes.set(minutes, openStartsFor(ctx, business, minutes));
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
  if (lead.costCents <= 0) throw invalid('This lead cost nothing, so there is no credit to ask for. Log its cost with the lead to flag a paid lead.');
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
  const cost = `$${(lead.costCents / 100).toFixed(2)}`;
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
    creditRequest: { platform: lead.platform, amount: lead.costCents / 100, evidence, text, policy, policyNote: 'Our summary of the platform\'s policy; check its current terms before sending.' },
    lead: view,
  };
}
