import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { appointmentTimesService, bookAppointmentService, cancelAppointmentService } from './service.js';
import { rescheduleAppointmentService } from './reschedule.js';
import { bookingSetupService, cancelBusinessAppointmentService, updateBookingSetupService } from './setup.js';
import { appointmentTimesInput, bookAppointmentInput, cancelAppointmentInput, cancelBusinessAppointmentInput, rescheduleAppointmentInput, updateBookingSetupInput } from './inputs.js';
import { AppointmentBooking, AppointmentTimesResult, BookingSetupResult, CancelAppointmentResult, RescheduleAppointmentResult } from './types.js';

export const appointmentTimes = defineOperation({
  name: 'appointment_times',
  domain: 'appointments',
  method: 'GET',
  auth: 'public',
  result: AppointmentTimesResult,
  resolve: appointmentTimesService,
  description:
    "A business's appointment services (price, duration, payment); with service_id, its open starts on date (or the next 7 days). Reserves nothing; book in a " +
    "conversation (contact_business, then book_appointment). One appointment at a time per business.",
  input: appointmentTimesInput,
  example: { input: { business: 'DEMO_APPOINTMENT_BUSINESS' } },
});

export const bookAppointment = defineOperation({
  name: 'book_appointment',
  domain: 'appointments',
  method: 'POST',
  auth: 'public',
  annotations: { openWorldHint: true },
  requestKey: true,
  result: AppointmentBooking,
  resolve: bookAppointmentService,
  description:
    "Book an appointment in a contact_business conversation. expected_price_cents must equal the live price (else 400 price_changed). Free: confirmed at once; needs " +
    "customer_email or customer_phone (here, in contact_business or X-User-* headers). Upfront: paid by card at checkout_url; awaiting_payment holds the " +
    "time 30 minutes. A retry (same conversation, service, start) returns the same booking. 400 too_many_pending: limits per key, connection, address, customer; holds " +
    "take at most half a business's day.",
  input: bookAppointmentInput,
  example: { input: { inquiry_id: 'inquiry_id from contact_business', reply_token: 'reply_token from contact_business', service_id: 'DEMO_APPOINTMENT_SERVICE', start: 'DEMO_APPOINTMENT_START', expected_price_cents: 'DEMO_APPOINTMENT_PRICE_CENTS', customer_authorized: true, customer_email: 'alex@example.com' } },
});

export const cancelAppointment = defineOperation({
  name: 'cancel_appointment',
  domain: 'appointments',
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
  result: CancelAppointmentResult,
  resolve: cancelAppointmentService,
  description:
    'Cancel an appointment at least 24 hours before its start (an unpaid one any time), after the customer confirms. Releases the time, refunds an upfront payment (refund_pending, ' +
    'then refunded or refund_failed). Later: 400 too_late_to_cancel; ask the business in the conversation.',
  input: cancelAppointmentInput,
  example: {
    input: { booking_id: 'booking_id from book_appointment', inquiry_id: 'inquiry_id from contact_business', reply_token: 'reply_token from contact_business' },
    response: { booking_id: 'booking_id from book_appointment', status: 'cancelled' },
  },
});

export const bookingSetup = defineOperation({
  name: 'booking_setup',
  domain: 'appointments',
  method: 'GET',
  auth: 'owner',
  result: BookingSetupResult,
  resolve: (_input, ctx) => bookingSetupService(ctx),
  description:
    'Appointment setup: services (ids, prices, durations, payment timing), hours, whether the payment account is ready, and booked appointments. Change it with ' +
    'update_booking_setup.',
  input: z.object({}),
  example: { input: {} },
});

export const updateBookingSetup = defineOperation({
  name: 'update_booking_setup',
  domain: 'appointments',
  method: 'POST',
  auth: 'owner',
  annotations: { destructiveHint: true, idempotentHint: true },
  result: BookingSetupResult,
  resolve: updateBookingSetupService,
  description:
    'Change appointment setup (show the owner first): services added or replaced by service_id, others kept unless in remove_service_ids; hours only inside opening ' +
    'hours. Upfront payment needs a ready payment account (else 400 not_configured; see customer_payment_onboarding). One appointment at a time.',
  input: updateBookingSetupInput,
  example: {
    input: {
      services: [{ service_id: 'consultation', name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' }],
      hours: { tuesday: '09:00-17:00', saturday: 'closed' },
    },
  },
});

export const cancelBusinessAppointment = defineOperation({
  name: 'cancel_business_appointment',
  domain: 'appointments',
  method: 'POST',
  auth: 'owner',
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
  result: CancelAppointmentResult,
  resolve: cancelBusinessAppointmentService,
  description:
    'Cancel an appointment any time (booking_id from booking_setup), after the owner confirms. Releases the time and refunds an upfront payment (on refund_failed, a repeat ' +
    'retries the refund). The customer sees it in the conversation.',
  input: cancelBusinessAppointmentInput,
  example: { input: { booking_id: 'booking_id from book_appointment', message: 'We have to close that day; sorry for the trouble.' } },
});

export const rescheduleAppointment = defineOperation({
  name: 'reschedule_appointment',
  domain: 'appointments',
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: false, openWorldHint: true },
  requestKey: true,
  result: RescheduleAppointmentResult,
  resolve: rescheduleAppointmentService,
  description:
    "Move an appointment to a start from appointment_times. Atomic; an upfront payment stays with it (no refund, no new checkout); the " +
    "business and the customer's calendar are told. Refused within 24 h of the start (too_late_to_change: ask in the conversation) or on a taken start (time_unavailable).",
  input: rescheduleAppointmentInput,
  example: { input: { booking_id: 'booking_id from book_appointment', inquiry_id: 'inquiry_id from contact_business', reply_token: 'reply_token from contact_business', start: 'DEMO_APPOINTMENT_MOVE_START' } },
});

export const operations = [appointmentTimes, bookAppointment, cancelAppointment, rescheduleAppointment, bookingSetup, updateBookingSetup, cancelBusinessAppointment];
