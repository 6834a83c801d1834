import { defineOperation } from '../registry/operation.js';
import { flagBadLeadService, followUpsDueService, leadsService, logLeadService, updateLeadService } from './service.js';
import { pipelineReport } from './pipeline.js';
import { flagBadLeadInput, followUpsDueInput, leadsInput, logLeadInput, pipelineInput, updateLeadInput } from './inputs.js';
import { FlagBadLeadResult, FollowUpsDueResult, LeadsResult, LeadType, LogLeadResult, PipelineType } from './types.js';

export const logLead = defineOperation({
  name: 'log_lead',
  domain: 'leads',
  method: 'POST',
  auth: 'owner',
  result: LogLeadResult,
  resolve: logLeadService,
  requestKey: true,
  description:
    "Record a lead from a platform or direct message: the job (as quote_job) and what the platform charged (cost). Returns a firm quote, open starts and a reply " +
    "draft in the platform's manner. Platform leads: name and contact not stored; reply there. Follow-ups come due in follow_ups_due; book with book_job " +
    "and lead_id.",
  input: logLeadInput,
  example: {
    input: { platform: 'thumbtack', zip: '78704', bedrooms: 2, bathrooms: 1, cost: 18.5, message: 'Need a clean before my parents visit.' },
    response: {
      lead_id: 'lead_id of the new lead', platform: 'thumbtack',
      quote: { total: 150, fee: null, line_items: [{ label: 'Standard clean: 2 bedrooms, 1 bathroom', amount: 150 }], estimated_hours: 2.5, duration_minutes: 150, job: 'Standard clean: 2 bedrooms, 1 bathroom' },
      starts: ['2026-11-24T08:00:00-06:00'], zip_served: true, preferred_open: null,
      reply_draft: 'Hi, Thanks for your request on Thumbtack. We can do your standard clean: 2 bedrooms, 1 bathroom for $150, a firm price with no added fees. Open times: Tue Nov 24 at 8:00 AM. Which works for you? Reply here and I will lock it in.',
      contact_stored: false,
      lead: {
        lead_id: 'lead_id of the new lead', platform: 'thumbtack', status: 'quoted', zip: '78704', job: 'Standard clean: 2 bedrooms, 1 bathroom', total: 150, fee: null, cost: 18.5,
        customer_name: null, customer_phone: null, customer_email: null, message: 'Need a clean before my parents visit.', notes: null, quoted_at: '2026-11-23T09:00:00-06:00',
        contacted: false, follow_ups_sent: 0, last_follow_up_at: null, next_follow_up_at: '2026-11-24T09:00:00-06:00', replied: false, bad: false, bad_reason: null, booking_id: null,
      },
    },
  },
});

export const followUpsDue = defineOperation({
  name: 'follow_ups_due',
  domain: 'leads',
  method: 'GET',
  auth: 'owner',
  result: FollowUpsDueResult,
  resolve: followUpsDueService,
  description:
    'Quoted leads without a reply due a follow-up, each with a draft: 1 day after the quote, then 2 days later, none after that or once booked, lost or ' +
    'answered. After sending one, record it with update_lead contacted true.',
  input: followUpsDueInput,
  example: { input: {} },
});

export const updateLead = defineOperation({
  name: 'update_lead',
  domain: 'leads',
  method: 'POST',
  auth: 'owner',
  result: LeadType,
  resolve: updateLeadService,
  annotations: { destructiveHint: true, idempotentHint: false },
  description:
    'Update a lead: contacted true after sending a follow-up, replied true when the customer answered, status lost or booked, or notes. Returns the lead.',
  input: updateLeadInput,
  example: { input: { lead_id: 'lead_id from follow_ups_due', contacted: true } },
});

export const flagBadLead = defineOperation({
  name: 'flag_bad_lead',
  domain: 'leads',
  method: 'POST',
  auth: 'owner',
  result: FlagBadLeadResult,
  resolve: flagBadLeadService,
  annotations: { idempotentHint: true },
  description:
    "Mark a paid platform lead bad and prepare a lead-credit request: evidence, request text, our summary of the platform's policy. Sends nothing: the owner " +
    "submits it on the platform. Counted in pipeline's possible_credits.",
  input: flagBadLeadInput,
  example: { input: { lead_id: 'lead_id from log_lead', reason: 'The phone number on the lead is disconnected.' } },
});

export const pipeline = defineOperation({
  name: 'pipeline',
  domain: 'leads',
  method: 'GET',
  auth: 'owner',
  result: PipelineType,
  resolve: async (input, ctx) => {
    const businessId = ctx.business.id;
    const { timeZone } = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
    return pipelineReport(ctx, businessId, timeZone, input.month);
  },
  description:
    "One month's report (default this month), counted by the month booked: leads and spend by platform (porchlight: bookings here and their $5 fees), jobs and revenue per kind, cost per booked job, " +
    "possible lead credits and direct customers.",
  input: pipelineInput,
  example: { input: { month: '2026-11' } },
});

export const leads = defineOperation({
  name: 'leads',
  domain: 'leads',
  method: 'GET',
  auth: 'owner',
  result: LeadsResult,
  resolve: leadsService,
  description: 'Your logged leads, newest first, by status, platform or month. Then update_lead or book_job with lead_id.',
  input: leadsInput,
  example: { input: { status: 'quoted', month: '2026-11' } },
});

export const operations = [logLead, followUpsDue, updateLead, flagBadLead, pipeline, leads];
