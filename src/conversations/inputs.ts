import { z } from 'zod';
import { identifier, text, zip } from '../registry/fields.js';
import { bookingAddOns, cleaningJobFields } from '../pricing/job.js';

export const REQUEST_TYPES = ['question', 'appointment', 'service_visit', 'store_visit', 'pickup', 'other'] as const;

const inquiryId = identifier('inquiry_id', 60).describe("The conversation's inquiry_id.");

const replyToken = identifier('reply_token', 100).describe("The conversation's private reply_token.");

const message = text('message', 500, 1).describe('Stored and shown verbatim.');

export const contactBusinessInput = z.object({
  business: identifier('business').describe('Business id (slug) from find_businesses or the business, or a pro_id.'),
  customer_name: text('customer_name', 100, 1).optional().describe('Required: the customer\'s name (or the X-User-Name header).'),
  message,
  request_type: z.enum(REQUEST_TYPES).default('question').describe('What the person wants to do.'),
  customer_email: z.email('customer_email must be an e-mail address.').max(200, 'customer_email must be at most 200 characters.').optional()
    .describe('Only if the user wants the answer by e-mail.'),
  customer_phone: text('customer_phone', 30).optional().describe('Only if the user gave it.'),
});

export const inquiryStatusInput = z.object({ inquiry_id: inquiryId, reply_token: replyToken });

export const followUpBusinessInput = z.object({ inquiry_id: inquiryId, reply_token: replyToken, message });

export const askBusinessInput = z.object({
  pro_id: identifier('pro_id').describe('A pro_id from search results, or a business id (slug).'),
  question: text('question', 500, 1).describe('The question; stored and shown verbatim.'),
  zip: zip.optional(),
  bedrooms: cleaningJobFields.bedrooms.optional(),
  bathrooms: cleaningJobFields.bathrooms.optional(),
  clean_type: cleaningJobFields.clean_type,
  sqft: cleaningJobFields.sqft,
  add_ons: bookingAddOns,
  pets: cleaningJobFields.pets,
});

export const messageCustomerInput = z.object({
  booking_id: identifier('booking_id', 60).optional().describe('A confirmed job of this business (from schedule).'),
  inquiry_id: inquiryId.optional().describe('A conversation received by this business (from inquiries).'),
  message,
  follow_up: z.boolean().default(false).describe('true sends it anyway.'),
});

export const closeInquiryInput = z.object({
  inquiry_id: inquiryId,
  notes: text('notes', 2000).optional().describe('Private owner notes kept with the conversation; replaces earlier notes.'),
});
