import { z } from 'zod';
import { date, hhmm, identifier, positiveMoney, text, timeWindow, usPhone, zip } from '../registry/fields.js';
import { WEEKDAY_NAMES, dayHours } from '../core/hours.js';
import { jobFields } from './job.js';

export const setCustomerNotesInput = z.object({
  notes: text('notes', 2000).describe('The complete new notes text, stored verbatim.'),
});

export const noteToOwnerInput = z.object({
  note: text('note', 300, 1).describe('The note, stored verbatim.'),
});

export const scheduleInput = z.object({
  days: z.int().min(1, 'days must be between 1 and 60.').max(60, 'days must be between 1 and 60.').default(14).describe('How many days of upcoming jobs to show.'),
});

export const setHoursInput = z.object(Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, dayHours(d).optional()])) as Record<(typeof WEEKDAY_NAMES)[number], z.ZodOptional<ReturnType<typeof dayHours>>>);

export const blockTimeInput = z.object({
  date: date('date').describe('Local date, today or later.'),
  start: hhmm('start').optional().describe('Local HH:MM; omit start and end to block the whole day, omit start alone to block from midnight.'),
  end: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'end must be a local 24-hour time HH:MM between 00:00 and 23:59, e.g. 17:00; to block to the end of the day pass 23:59 (24:00 is not a time of day).')
    .optional()
    .describe('Local HH:MM; 23:59 or omitted blocks to the end of the day.'),
  reason: text('reason', 200).optional().describe('Private reason, e.g. "dentist".'),
});

export const unblockTimeInput = z.object({ block_id: identifier('block_id').describe('A block_id from schedule or block_time.') });

const bookingId = identifier('booking_id', 60).describe('From schedule or book_job.');

export const cancelJobInput = z.object({
  booking_id: bookingId,
  message: text('message', 500).optional().describe('A message for the customer, sent with the cancellation.'),
});

export const jobIdInput = z.object({ booking_id: bookingId });

const startText = (what: string) => z.string().min(1, `${what} is required.`).max(50, `${what} must be at most 50 characters.`);

export const rescheduleJobInput = z.object({
  booking_id: bookingId,
  start: startText('start').describe('New start, ISO 8601 with offset.'),
  visit_start: startText('visit_start').optional().describe('Series: the current start of the visit to move.'),
});

export const reportNoShowInput = z.object({
  booking_id: bookingId,
  note: text('note', 500).optional().describe('What happened (kept with the event).'),
});

export const quoteJobInput = z.object(jobFields);

const durationMinutes = z.int().min(30, 'duration_minutes must be between 30 and 720.').max(720, 'duration_minutes must be between 30 and 720.');

export const openTimesInput = z.object({
  ...jobFields,
  duration_minutes: durationMinutes.optional().describe('The job length in minutes, instead of describing the job.'),
  ...timeWindow,
  date: date('date').optional().describe('First day (local); default today.'),
  days: z.int().min(1, 'days must be between 1 and 21.').max(21, 'days must be between 1 and 21.').default(7).describe('Days to look ahead.'),
});

export const bookJobInput = z.object({
  customer_name: text('customer_name', 100, 1).describe("The customer's name."),
  customer_phone: text('customer_phone', 30).optional().describe('Phone or e-mail is required.'),
  customer_email: z.email('customer_email must be an e-mail address.').max(200, 'customer_email must be at most 200 characters.').optional().describe('Or this, for the owner to reach them.'),
  address: text('address', 300, 3).describe('Street address of the job.'),
  zip: zip.optional().describe('ZIP of the address (read from the end of the address when omitted).'),
  start: z.string().min(1, 'start is required.').max(50, 'start must be at most 50 characters.').describe('ISO 8601 start with offset, e.g. from open_times.'),
  ...jobFields,
  price: positiveMoney('price').optional().describe('USD to charge if not the price-list price.'),
  duration_minutes: durationMinutes.optional().describe('Minutes the job takes if not the price list\'s estimate.'),
  notes: text('notes', 500).optional().describe('Access notes for the visit.'),
  lead_id: identifier('lead_id', 60).optional().describe('The lead this job comes from (marks it booked; pipeline counts it for its platform).'),
  outside_hours: z.boolean().default(false).describe('Book a start outside weekly hours (the owner asked for it).'),
});

export const callBriefInput = z.object({
  phone: usPhone('phone').describe("The caller's number as it arrived (US), e.g. +15125550134 or (512) 555-0134."),
});
