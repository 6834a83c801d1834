import { z } from 'zod';
import { builder } from '../builder.js';
import { defineOperation } from '../registry/operation.js';
import { date, identifier, positiveMoney, text, timeWindow, zip } from '../registry/fields.js';
import { jobFields } from './job.js';
import { bookJobService, cancelJobService, confirmJobDoneService, openTimesService, quoteJobService, quoteView, reportNoShowService } from './jobs.js';

const CancelJobResult = builder.objectRef<Awaited<ReturnType<typeof cancelJobService>>>('CancelJobResult').implement({
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status'),
    customerTold: t.exposeString('customerTold', {
      nullable: true,
      description: 'How the customer was told ("e-mailed …" or "texted …"); null for a job you booked yourself: tell that customer yourself.',
    }),
  }),
});

const JobDoneResult = builder.objectRef<Awaited<ReturnType<typeof confirmJobDoneService>>>('ConfirmJobDoneResult').implement({
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status'),
    counted: t.exposeBoolean('counted', { description: 'Counts toward the jobs_confirmed_done customers see (jobs booked through the service; not own jobs).' }),
  }),
});

const NoShowResult = builder.objectRef<Awaited<ReturnType<typeof reportNoShowService>>>('ReportNoShowResult').implement({
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status'),
    feeWaived: t.exposeFloat('feeWaived', { description: 'USD of service fee waived for this booking (5).' }),
  }),
});

const BookJobResult = builder.objectRef<Awaited<ReturnType<typeof bookJobService>>>('BookJobResult').implement({
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status', { description: 'confirmed: it is on the schedule.' }),
    start: t.exposeString('start'),
    end: t.exposeString('end'),
    kind: t.exposeString('kind'),
    price: t.exposeFloat('price', { nullable: true, description: 'Cleaning: the total in USD.' }),
    fee: t.exposeFloat('fee', { nullable: true, description: 'Service call: the fee in USD.' }),
    serviceFee: t.exposeFloat('serviceFee', { description: 'Always 0: own jobs carry no service fee.' }),
    job: t.exposeString('job'),
    customerName: t.exposeString('customerName'),
    address: t.exposeString('address'),
    leadId: t.exposeString('leadId', { nullable: true }),
  }),
});

const OpenTimesResult = builder.objectRef<Awaited<ReturnType<typeof openTimesService>>>('OpenTimesResult').implement({
  fields: (t) => ({
    starts: t.exposeStringList('starts', { description: 'Open starts, ISO 8601 with the business\'s UTC offset; pass one to book_job.' }),
    durationMinutes: t.exposeInt('durationMinutes'),
    job: t.exposeString('job', { nullable: true }),
  }),
});

export const LineItem = builder.objectRef<{ label: string; amount: number }>('LineItem').implement({
  fields: (t) => ({ label: t.exposeString('label'), amount: t.exposeFloat('amount', { description: 'USD.' }) }),
});

export const QuoteType = builder.objectRef<ReturnType<typeof quoteView>>('JobQuote').implement({
  description: "A firm quote from the business's own price list: exactly what a customer would be charged booking that job.",
  fields: (t) => ({
    total: t.exposeFloat('total', { nullable: true, description: 'Cleaning: the firm total in USD.' }),
    fee: t.exposeFloat('fee', { nullable: true, description: 'Service call: the firm service-call fee in USD (visit and diagnosis; repairs are quoted on site).' }),
    lineItems: t.field({ type: [LineItem], resolve: (q) => q.lineItems }),
    estimatedHours: t.exposeFloat('estimatedHours', { description: 'Cleaning: the job length; service call: the arrival window the booking holds.' }),
    durationMinutes: t.exposeInt('durationMinutes'),
    job: t.exposeString('job'),
  }),
});

const bookingId = identifier('booking_id', 60).describe('A booking_id from schedule or book_job.');

export const cancelJobInput = z.object({
  booking_id: bookingId,
  message: text('message', 500).optional().describe('A message for the customer, max 500, sent with the cancellation.'),
});

export const cancelJob = defineOperation({
  name: 'cancel_job',
  domain: 'owners',
  method: 'POST',
  auth: 'owner',
  result: CancelJobResult,
  resolve: cancelJobService,
  annotations: { destructiveHint: true, idempotentHint: true },
  description:
    'Cancel an upcoming job (booking_id from schedule or book_job), every remaining visit of it. Confirm with the owner first. ' +
    'Customers who booked through the service are e-mailed (or texted); no service fee is charged. The customer\'s subscribers get bookingUpdated.',
  input: cancelJobInput,
  example: { input: { booking_id: 'booking_id from schedule' }, response: { booking_id: 'booking_id from schedule', status: 'cancelled', customer_told: 'e-mailed alex@example.com' } },
});

export const jobIdInput = z.object({ booking_id: bookingId });

export const confirmJobDone = defineOperation({
  name: 'confirm_job_done',
  domain: 'owners',
  method: 'POST',
  auth: 'owner',
  result: JobDoneResult,
  resolve: confirmJobDoneService,
  annotations: { idempotentHint: true },
  description:
    'Mark a confirmed job done once it has ended (a series: after its last visit). Jobs booked through the service count toward the jobs_confirmed_done customers see in search.',
  input: jobIdInput,
  example: { input: { booking_id: 'booking_id from schedule' }, response: { booking_id: 'booking_id from schedule', status: 'done', counted: true } },
});

export const reportNoShowInput = z.object({
  booking_id: bookingId,
  note: text('note', 500).optional().describe('What happened, max 500 (kept with the event).'),
});

export const reportNoShow = defineOperation({
  name: 'report_no_show',
  domain: 'owners',
  method: 'POST',
  auth: 'owner',
  result: NoShowResult,
  resolve: reportNoShowService,
  annotations: { idempotentHint: true },
  description:
    'Report that the customer of a job booked through the service did not show (after its start, if they neither showed nor cancelled). ' +
    'The $5 service fee of that booking is waived; later visits of a series are released. Confirm with the owner first.',
  input: reportNoShowInput,
  example: { input: { booking_id: 'booking_id from schedule' }, response: { booking_id: 'booking_id from schedule', status: 'no_show', fee_waived: 5 } },
});

export const quoteJobInput = z.object(jobFields);

export const quoteJob = defineOperation({
  name: 'quote_job',
  domain: 'owners',
  method: 'GET',
  auth: 'owner',
  result: QuoteType,
  resolve: quoteJobService,
  description:
    "Price a job from the business's own price list, with line items and estimated hours: a cleaning (bedrooms, bathrooms, clean_type, sqft, add_ons, pets) for a cleaner, " +
    'a service call (issue) for a plumber or HVAC pro. The same prices customers are shown, so a quote always equals the bookable price.',
  input: quoteJobInput,
  example: {
    input: { bedrooms: 3, bathrooms: 2, clean_type: 'deep' },
    response: {
      total: 285, fee: null, line_items: [{ label: 'Deep clean: 3 bedrooms, 2 bathrooms', amount: 285 }], estimated_hours: 5, duration_minutes: 300,
      job: 'Deep clean: 3 bedrooms, 2 bathrooms',
    },
  },
});

const durationMinutes = z.int().min(30, 'duration_minutes must be between 30 and 720.').max(720, 'duration_minutes must be between 30 and 720.');

export const openTimesInput = z.object({
  ...jobFields,
  duration_minutes: durationMinutes.optional().describe('The job length in minutes, 30-720, instead of describing the job.'),
  ...timeWindow,
  date: date('date').optional().describe('First day, YYYY-MM-DD (local); default today.'),
  days: z.int().min(1, 'days must be between 1 and 21.').max(21, 'days must be between 1 and 21.').default(7).describe('Days to look ahead, 1-21, default 7.'),
});

export const openTimes = defineOperation({
  name: 'open_times',
  domain: 'owners',
  method: 'GET',
  auth: 'owner',
  result: OpenTimesResult,
  resolve: openTimesService,
  description:
    'Open start times on the owner\'s schedule for a job of this size (described like quote_job, or duration_minutes), within weekly hours, around jobs and blocked time. ' +
    'The owner\'s view: from now on, without the notice customers need. Pass one to book_job.',
  input: openTimesInput,
  example: { input: { bedrooms: 2, bathrooms: 1.5, days: 3 }, response: { starts: ['2026-11-24T08:00:00-06:00', '2026-11-24T08:30:00-06:00'], duration_minutes: 180, job: 'Standard clean: 2 bedrooms, 1.5 bathrooms' } },
});

export const bookJobInput = z.object({
  customer_name: text('customer_name', 100, 1).describe("The customer's name, 1-100."),
  customer_phone: text('customer_phone', 30).optional().describe('Phone or e-mail is required.'),
  customer_email: z.email('customer_email must be an e-mail address.').max(200, 'customer_email must be at most 200 characters.').optional(),
  address: text('address', 300, 3).describe('Street address of the job, 3-300.'),
  zip: zip.optional().describe('ZIP of the address (read from the end of the address when omitted).'),
  start: z.string().min(1, 'start is required.').max(50, 'start must be at most 50 characters.').describe('ISO 8601 start with offset, e.g. from open_times.'),
  ...jobFields,
  price: positiveMoney('price').optional().describe('USD to charge if not the price-list price.'),
  duration_minutes: durationMinutes.optional().describe('Minutes the job takes if not the price list\'s estimate, 30-720.'),
  notes: text('notes', 500).optional().describe('Access notes, max 500.'),
  lead_id: identifier('lead_id', 60).optional().describe('The lead this job comes from (marks it booked; pipeline counts it for its platform).'),
  outside_hours: z.boolean().default(false).describe('Book a start outside weekly hours (the owner asked for it).'),
});

export const bookJob = defineOperation({
  name: 'book_job',
  domain: 'owners',
  method: 'POST',
  auth: 'owner',
  result: BookJobResult,
  resolve: bookJobService,
  annotations: { idempotentHint: false },
  description:
    "Put a job on the owner's own schedule (a customer who called, a platform lead): customer_name, address and customer_phone or customer_email are required; " +
    'the job is described like quote_job and priced from the price list unless price is given. It is confirmed at once, carries no service fee, and nothing is sent to the customer. ' +
    'It can never overlap another job or blocked time (refused with time_unavailable). Confirm with the owner first.',
  input: bookJobInput,
  example: {
    input: { customer_name: 'Dana Ortiz', customer_phone: '512-555-0148', address: '2400 S 1st St, Austin TX 78704', start: '2026-12-02T09:00:00-06:00', bedrooms: 2, bathrooms: 1 },
    response: {
      booking_id: 'booking_id of the new job', status: 'confirmed', start: '2026-12-02T09:00:00-06:00', end: '2026-12-02T11:30:00-06:00', kind: 'cleaning',
      price: 150, fee: null, service_fee: 0, job: 'Standard clean: 2 bedrooms, 1 bathroom', customer_name: 'Dana Ortiz', address: '2400 S 1st St, Austin TX 78704', lead_id: null,
    },
  },
});

export const operations = [cancelJob, confirmJobDone, reportNoShow, bookJob, openTimes, quoteJob];
