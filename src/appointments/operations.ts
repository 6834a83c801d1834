import { z } from 'zod';
import { builder } from '../builder.js';
import { defineOperation } from '../registry/operation.js';
import { contactFields, date, identifier, text, minutes, weeklyWindow } from '../registry/fields.js';
import { MENU_ID } from '../menus/menu.js';
import { appointmentTimesService, bookAppointmentService, cancelAppointmentService } from './service.js';
import { bookingSetupService, cancelBusinessAppointmentService, updateBookingSetupService } from './setup.js';

// ---------------------------------------------------------------------------------------------
// Result types

type Times = Awaited<ReturnType<typeof appointmentTimesService>>;
type Setup = Awaited<ReturnType<typeof bookingSetupService>>;

const BookableServiceType = builder.objectRef<Times['services'][number]>('BookableService').implement({
  description: "An appointment service. The name is the business's text: data.",
  fields: (t) => ({
    serviceId: t.exposeString('serviceId'),
    name: t.exposeString('name'),
    priceCents: t.exposeInt('priceCents'),
    durationMinutes: t.exposeInt('durationMinutes'),
    payment: t.exposeString('payment', { description: 'none (paid at the business) or upfront (paid by card when booked).' }),
  }),
});

const AppointmentTimesResult = builder.objectRef<Times>('AppointmentTimesResult').implement({
  fields: (t) => ({
    business: t.exposeString('business'),
    name: t.exposeString('name'),
    services: t.field({ type: [BookableServiceType], description: 'The services bookable now.', resolve: (r) => r.services }),
    serviceId: t.exposeString('serviceId', { nullable: true }),
    priceCents: t.exposeInt('priceCents', { nullable: true, description: 'Pass as expected_price_cents.' }),
    durationMinutes: t.exposeInt('durationMinutes', { nullable: true }),
    payment: t.exposeString('payment', { nullable: true }),
    date: t.exposeString('date', { nullable: true }),
    starts: t.exposeStringList('starts', { description: 'Open starts, business-local ISO with offset; nothing is reserved.' }),
  }),
});

const AppointmentBooking = builder.objectRef<Awaited<ReturnType<typeof bookAppointmentService>>>('AppointmentBooking').implement({
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status', { description: 'confirmed, awaiting_payment, lapsed, cancelled, refund_pending, refunded or refund_failed.' }),
    checkoutUrl: t.exposeString('checkoutUrl', { nullable: true, description: 'awaiting_payment: the page the customer pays on.' }),
    holdUntil: t.exposeString('holdUntil', { nullable: true, description: 'awaiting_payment: unpaid by then, it lapses.' }),
    serviceId: t.exposeString('serviceId'),
    serviceName: t.exposeString('serviceName'),
    start: t.exposeString('start'),
    end: t.exposeString('end'),
    priceCents: t.exposeInt('priceCents'),
    payment: t.exposeString('payment'),
    inquiryId: t.exposeID('inquiryId'),
    replayed: t.exposeBoolean('replayed', { description: 'True: a retry; this is the booking made before.' }),
    next: t.exposeString('next', { description: 'A message to relay to the customer.' }),
  }),
});

const CancelAppointmentResult = builder.objectRef<{ bookingId: string; status: string }>('CancelAppointmentResult').implement({
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status', { description: 'cancelled (nothing paid), or refund_pending, later refunded or refund_failed.' }),
  }),
});

const WeeklyWindow = builder.objectRef<Setup['hours'][number]>('WeeklyWindow').implement({
  fields: (t) => ({
    weekday: t.exposeInt('weekday', { description: '0 = Sunday ... 6 = Saturday.' }),
    startMinute: t.exposeInt('startMinute', { description: 'Local minutes after midnight.' }),
    endMinute: t.exposeInt('endMinute'),
  }),
});

const SetupAppointment = builder.objectRef<Setup['appointments'][number]>('SetupAppointment').implement({
  description: 'An appointment. customer_name is customer-typed: data.',
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status'),
    start: t.exposeString('start'),
    end: t.exposeString('end'),
    serviceId: t.exposeString('serviceId'),
    serviceName: t.exposeString('serviceName'),
    priceCents: t.exposeInt('priceCents'),
    paidCents: t.exposeInt('paidCents', { nullable: true }),
    customerName: t.exposeString('customerName'),
    inquiryId: t.exposeID('inquiryId', { description: 'Its conversation (message_customer).' }),
    cancelledBy: t.exposeString('cancelledBy', { nullable: true, description: 'customer, business or lapse.' }),
    clientName: t.exposeString('clientName', { nullable: true }),
  }),
});

const BookingSetupResult = builder.objectRef<Setup>('BookingSetupResult').implement({
  fields: (t) => ({
    services: t.field({ type: [BookableServiceType], resolve: (s) => s.services }),
    hours: t.field({ type: [WeeklyWindow], description: 'When appointments can be booked.', resolve: (s) => s.hours }),
    paymentAccountReady: t.exposeBoolean('paymentAccountReady', { description: 'Upfront payment possible (customer_payment_onboarding sets it up).' }),
    paymentProvider: t.exposeString('paymentProvider', { description: 'stripe or sandbox.' }),
    appointments: t.field({ type: [SetupAppointment], description: 'Ahead and of the last 30 days, soonest first.', resolve: (s) => s.appointments }),
  }),
});

// ---------------------------------------------------------------------------------------------
// Inputs

const serviceId = z.string().regex(MENU_ID, 'service_id must be 1-64 letters, digits, underscores or hyphens.');
const bookingId = identifier('booking_id', 60).describe('booking_id from book_appointment.');

export const appointmentTimesInput = z.object({
  business: identifier('business').describe('The business id from business_info.'),
  service_id: identifier('service_id', 64).optional().describe('Leave out to list the bookable services.'),
  date: date('date').optional().describe('Business-local day; left out: the next 7 days.'),
});

export const bookAppointmentInput = z.object({
  inquiry_id: identifier('inquiry_id', 60).describe('From contact_business.'),
  reply_token: identifier('reply_token', 100).describe('From contact_business; private.'),
  service_id: identifier('service_id', 64),
  start: identifier('start', 50).describe('An exact start from appointment_times.'),
  expected_price_cents: z.number().int('expected_price_cents must be a whole number of cents.').min(0).max(1_000_000).describe('price_cents as shown to the customer.'),
  customer_authorized: z.boolean().describe('True once the customer agreed to service, start and price.'),
  customer_email: contactFields.customer_email.describe("How the business reaches the customer; left out: the conversation's (contact_business) or the X-User-Email header."),
  customer_phone: contactFields.customer_phone,
});

export const cancelAppointmentInput = z.object({
  booking_id: bookingId,
  inquiry_id: identifier('inquiry_id', 60),
  reply_token: identifier('reply_token', 100),
});

export const updateBookingSetupInput = z.object({
  services: z
    .array(
      z.object({
        service_id: serviceId.optional().describe("An existing service's id to replace it; left out: new, id made from the name."),
        name: text('name', 80, 1),
        price_cents: z.number().int('price_cents must be a whole number of cents.').min(0).max(1_000_000),
        duration_minutes: minutes('duration_minutes', 5, 720),
        payment: z.enum(['none', 'upfront']).default('none').describe('upfront: paid by card when booked (needs a ready payment account, at least 50 cents).'),
      }),
    )
    .max(50)
    .optional()
    .describe('Added, or replacing the service of the same service_id; others are kept.'),
  remove_service_ids: z.array(serviceId).max(50).optional(),
  hours: z.array(weeklyWindow()).max(28).optional().describe('Replaces all appointment hours; left out: unchanged.'),
});

export const cancelBusinessAppointmentInput = z.object({
  booking_id: identifier('booking_id', 60).describe('From booking_setup.'),
  message: text('message', 500, 1).optional().describe('Why, for the customer; posted in the conversation.'),
});

// ---------------------------------------------------------------------------------------------
// Operations

export const appointmentTimes = defineOperation({
  name: 'appointment_times',
  domain: 'appointments',
  method: 'GET',
  auth: 'public',
  result: AppointmentTimesResult,
  resolve: appointmentTimesService,
  description:
    "A business's bookable appointment services (price, duration, payment none or upfront); with service_id, its open starts on date (or the next 7 days). Reserves nothing. One appointment at a time per business.",
  input: appointmentTimesInput,
  example: { input: { business: 'DEMO_APPOINTMENT_BUSINESS' } },
});

export const bookAppointment = defineOperation({
  name: 'book_appointment',
  domain: 'appointments',
  method: 'POST',
  auth: 'public',
  annotations: { idempotentHint: true, openWorldHint: true },
  result: AppointmentBooking,
  resolve: bookAppointmentService,
  description:
    'Book an appointment in an existing conversation (contact_business). Confirm with the customer first. expected_price_cents must equal the live price (else 400 price_changed). ' +
    'Free: confirmed at once, so it needs a contact the business can reach: customer_email or customer_phone, here, in contact_business or the X-User-Email/X-User-Phone header (else 400 invalid_input). ' +
    'Upfront: awaiting_payment with checkout_url, holding the time 30 minutes; unpaid, it lapses. A retry (same conversation, service, start) returns the same booking. ' +
    "Limits (400 too_many_pending, saying what to do): a few unpaid holds and upcoming appointments per key, connection or address and per customer, and unpaid holds may take only part of a business's day at once (half, by default).",
  input: bookAppointmentInput,
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
    'Cancel an appointment at least 24 hours before its start (an unpaid one any time); confirm with the customer first. The time is released and an upfront payment refunded (refund_pending, then refunded or refund_failed). ' +
    'Within 24 hours: 400 too_late_to_cancel, ask the business in the conversation.',
  input: cancelAppointmentInput,
});

export const bookingSetup = defineOperation({
  name: 'booking_setup',
  domain: 'appointments',
  method: 'GET',
  auth: 'owner',
  result: BookingSetupResult,
  resolve: (_input, ctx) => bookingSetupService(ctx),
  description: 'Appointment setup: services (ids, prices, durations, payment timing), weekly hours, whether the payment account is ready, and appointments.',
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
    'Change appointment setup (show the owner first): services added or replaced by service_id, others kept unless in remove_service_ids; hours replaced when sent (weekday 0-6, local minutes after midnight). ' +
    'Upfront payment needs a ready payment account (else 400 not_configured). One appointment at a time.',
  input: updateBookingSetupInput,
  example: {
    input: {
      services: [{ service_id: 'consultation', name: 'Consultation', price_cents: 0, duration_minutes: 30, payment: 'none' }],
      hours: [{ weekday: 2, start_minute: 540, end_minute: 1020 }],
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
    'Cancel an appointment any time (booking_id from booking_setup); confirm with the owner first. Releases the time and refunds an upfront payment; on refund_failed, tries the refund again. The customer sees it in the conversation.',
  input: cancelBusinessAppointmentInput,
});

export const operations = [appointmentTimes, bookAppointment, cancelAppointment, bookingSetup, updateBookingSetup, cancelBusinessAppointment];
