import { z } from 'zod';
import { date, identifier, month, text, timeWindow, zip } from '../registry/fields.js';
import { jobFields } from '../owners/job.js';
import { LEAD_SOURCES } from './platforms.js';

export const logLeadInput = z.object({
  platform: z.enum(LEAD_SOURCES).describe('The lead platform, or direct when the customer contacted the business.'),
  zip: zip.describe('ZIP of the job.'),
  ...jobFields,
  customer_name: text('customer_name', 100, 1).optional().describe('Direct leads: required, stored. Platform leads: draft only, not stored.'),
  customer_phone: text('customer_phone', 30).optional().describe('Direct leads only (platform leads: not stored).'),
  customer_email: z.email('customer_email must be an e-mail address.').max(200, 'customer_email must be at most 200 characters.').optional().describe('Direct leads only (platform leads: not stored).'),
  message: text('message', 2000).optional().describe("The customer's message (platform leads: stored without phones or e-mails)."),
  cost: z
    .union([z.number().min(0, 'cost must be between 0 and 1000.').max(1000, 'cost must be between 0 and 1000.'), z.literal('unknown')], { error: 'cost must be a number of USD 0-1000 or "unknown".' })
    .optional()
    .describe('USD the platform charged for the lead, or "unknown"; required for platform leads.'),
  date: date('date').optional().describe("The customer's preferred day: the draft offers starts that day, or the nearest."),
  ...timeWindow,
});

export const followUpsDueInput = z.object({});

export const updateLeadInput = z.object({
  lead_id: identifier('lead_id', 60).describe('A lead_id from log_lead or follow_ups_due.'),
  contacted: z.boolean().optional().describe('true: a follow-up was sent now (the next falls due 2 days later).'),
  replied: z.boolean().optional().describe('true: the customer answered, so no more follow-ups fall due.'),
  status: z.enum(['lost', 'booked']).optional().describe('lost or booked (book_job with lead_id also marks it booked).'),
  notes: text('notes', 2000).optional().describe('Private notes; replaces earlier notes.'),
});

export const flagBadLeadInput = z.object({
  lead_id: identifier('lead_id', 60).describe('A paid platform lead.'),
  reason: text('reason', 500, 1).describe('What was wrong, e.g. "Phone number disconnected".'),
});

export const pipelineInput = z.object({
  month: month('month').optional().describe('YYYY-MM, business-local; default this month.'),
});

export const LEAD_STATUSES = ['quoted', 'booked', 'lost'] as const;

export const leadsInput = z.object({
  status: z.enum(LEAD_STATUSES, { error: `status must be one of ${LEAD_STATUSES.join(', ')}.` }).optional().describe('Only leads with this status.'),
  platform: z.enum(LEAD_SOURCES, { error: `platform must be one of ${LEAD_SOURCES.join(', ')}.` }).optional().describe('Only leads from this platform.'),
  month: month('month').optional().describe('Only leads logged that month (local).'),
  cursor: identifier('cursor', 80).optional().describe('next_cursor of the previous page.'),
});
