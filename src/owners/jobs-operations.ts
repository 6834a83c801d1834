import { defineOperation } from '../registry/operation.js';
import { bookJobService, cancelJobService, confirmJobDoneService, openTimesService, quoteJobService, reportNoShowService, rescheduleJobService } from './jobs.js';
import { bookJobInput, cancelJobInput, jobIdInput, openTimesInput, quoteJobInput, reportNoShowInput, rescheduleJobInput } from './inputs.js';
import { BookJobResult, CancelJobResult, JobDoneResult, NoShowResult, OpenTimesResult, RescheduleJobResult } from './types.js';
import { QuoteType } from '../pricing/types.js';

export const cancelJob = defineOperation({
  name: 'cancel_job',
  domain: 'owners',
  method: 'POST',
  auth: 'owner',
  result: CancelJobResult,
  resolve: cancelJobService,
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
  description:
    "Cancel an upcoming schedule entry (booking_id, or a menu visit's visit_id): a job with all remaining visits, a visit (as cancel_business_visit) or an appointment " +
    "(as cancel_business_appointment, refunding it). Customers who booked through the service are told; no service fee is charged.",
  input: cancelJobInput,
  example: { input: { booking_id: 'booking_id from book_job' }, response: { booking_id: 'booking_id from book_job', status: 'cancelled', customer_told: 'texted 512-555-0148' } },
});

export const confirmJobDone = defineOperation({
  name: 'confirm_job_done',
  domain: 'owners',
  method: 'POST',
  auth: 'owner',
  result: JobDoneResult,
  resolve: confirmJobDoneService,
  annotations: { idempotentHint: true },
  description:
    'Mark a confirmed schedule entry (job, visit or appointment) done once it has ended (a series: after its last visit). Entries booked through the service count toward the ' +
    'jobs_confirmed_done customers see in search.',
  input: jobIdInput,
  example: { input: { booking_id: 'DEMO_ENDED_JOB' }, response: { booking_id: 'DEMO_ENDED_JOB', status: 'done', counted: true } },
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
    "Report that the customer of an entry booked here (job, visit or appointment) neither showed nor cancelled (after its start). Waives the job's $5 " +
    "service fee (visits and appointments have none) and releases later visits of a series.",
  input: reportNoShowInput,
  example: { input: { booking_id: 'DEMO_ENDED_JOB_2' }, response: { booking_id: 'DEMO_ENDED_JOB_2', status: 'no_show', fee_waived: 5 } },
});

export const quoteJob = defineOperation({
  name: 'quote_job',
  domain: 'owners',
  method: 'GET',
  auth: 'owner',
  result: QuoteType,
  resolve: quoteJobService,
  description:
    "Price a job from the business's own price list, with line items and estimated hours: a cleaning or a service call (issue). Customers see the same prices, so a quote " +
    "equals the bookable price. Next: open_times, book_job.",
  input: quoteJobInput,
  example: {
    input: { bedrooms: 3, bathrooms: 2, clean_type: 'deep' },
    response: {
      total: 285, fee: null, line_items: [{ label: 'Deep clean: 3 bedrooms, 2 bathrooms', amount: 285 }], estimated_hours: 5, duration_minutes: 300,
      job: 'Deep clean: 3 bedrooms, 2 bathrooms',
    },
  },
});

export const openTimes = defineOperation({
  name: 'open_times',
  domain: 'owners',
  method: 'GET',
  auth: 'owner',
  result: OpenTimesResult,
  resolve: openTimesService,
  description:
    "Open start times on the owner's schedule for a job (described like quote_job, or duration_minutes), within weekly hours, around jobs and blocks; from now on, " +
    "without the notice customers need. Pass one to book_job.",
  input: openTimesInput,
  example: { input: { bedrooms: 2, bathrooms: 1.5, days: 3 }, response: { starts: ['2026-11-24T08:00:00-06:00', '2026-11-24T08:30:00-06:00'], duration_minutes: 180, job: 'Standard clean: 2 bedrooms, 1.5 bathrooms' } },
});

export const bookJob = defineOperation({
  name: 'book_job',
  domain: 'owners',
  method: 'POST',
  auth: 'owner',
  result: BookJobResult,
  resolve: bookJobService,
  requestKey: true,
  description:
    "Put a job on the owner's own schedule (a caller, a platform lead), priced from the price list unless price is given; described like quote_job. Needs customer_name, " +
    "address and customer_phone or customer_email. Confirmed at once, no service fee, nothing sent to the customer. Never overlaps a job or block (400 time_unavailable). " +
    "Find starts with open_times.",
  input: bookJobInput,
  example: {
    input: { customer_name: 'Dana Ortiz', customer_phone: '512-555-0148', address: '2400 S 1st St, Austin TX 78704', start: 'DEMO_JOB_START', bedrooms: 2, bathrooms: 1 },
    response: {
      booking_id: 'booking_id of the new job', status: 'confirmed', start: 'DEMO_JOB_START', end: 'DEMO_JOB_END', kind: 'cleaning',
      price: 150, fee: null, service_fee: 0, job: 'Standard clean: 2 bedrooms, 1 bathroom', customer_name: 'Dana Ortiz', address: '2400 S 1st St, Austin TX 78704', lead_id: null,
    },
  },
});

export const rescheduleJob = defineOperation({
  name: 'reschedule_job',
  domain: 'owners',
  method: 'POST',
  auth: 'owner',
  result: RescheduleJobResult,
  resolve: rescheduleJobService,
  annotations: { destructiveHint: false, openWorldHint: true },
  requestKey: true,
  description:
    'Move any schedule entry (booking_id from schedule) to another start; a series: visit_start, default the next visit. Atomic; never into ' +
    'the past, a block or another entry (time_unavailable). The customer gets the moved calendar event (not for own jobs).',
  input: rescheduleJobInput,
  example: {
    input: { booking_id: 'booking_id from book_job', start: 'DEMO_JOB_MOVE_START' },
    response: { booking_id: 'booking_id from book_job', kind: 'cleaning', status: 'confirmed', start: 'DEMO_JOB_MOVE_START', end: 'DEMO_JOB_MOVE_END', customer_told: 'texted 512-555-0148' },
  },
});

export const operations = [cancelJob, confirmJobDone, reportNoShow, bookJob, rescheduleJob, openTimes, quoteJob];
