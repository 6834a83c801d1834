import { z } from 'zod';
import { contactFields, date, identifier, minutes, requireWith, text, weeklyWindow } from '../registry/fields.js';
import { MENU_ID } from '../core/menu-ids.js';
import { daysInput } from '../core/hours.js';
import { HORIZON_DAYS } from './schedule.js';

const serviceId = z.string().regex(MENU_ID, 'service_id must be 1-64 letters, digits, underscores or hyphens.');

const bookingId = identifier('booking_id', 60).describe('booking_id from book_appointment.');

export const appointmentTimesInput = requireWith(
  z.object({
    business: identifier('business').describe('The business id from business_info.'),
    service_id: identifier('service_id', 64).optional().describe('Leave out to list the bookable services.'),
    date: date('date').optional().describe(`Business-local day within the next ${HORIZON_DAYS} days, only with service_id; left out: the next 7 days.`),
  }),
  { date: ['service_id'] },
  'date needs service_id: call appointment_times without both to list the services, then with a service_id (and a date) for its starts.',
);

export const bookAppointmentInput = z.object({
  inquiry_id: identifier('inquiry_id', 60).describe('From contact_business.'),
  reply_token: identifier('reply_token', 100).describe('From contact_business; private.'),
  service_id: identifier('service_id', 64).describe('A service_id from appointment_times.'),
  start: identifier('start', 50).describe('An exact start from appointment_times.'),
  expected_price_cents: z.number().int('expected_price_cents must be a whole number of cents.').min(0).max(1_000_000).describe('price_cents as shown to the customer.'),
  customer_authorized: z.boolean().describe('True once the customer agreed to service, start and price.'),
  customer_email: contactFields.customer_email.describe("Left out: the conversation's (contact_business) or X-User-Email."),
  customer_phone: contactFields.customer_phone,
});

export const cancelAppointmentInput = z.object({
  booking_id: bookingId,
  inquiry_id: identifier('inquiry_id', 60).describe('The conversation the appointment was booked in.'),
  reply_token: identifier('reply_token', 100).describe("That conversation's private reply_token."),
});

export const rescheduleAppointmentInput = cancelAppointmentInput.extend({
  start: z.string().min(1, 'start is required.').max(50, 'start must be at most 50 characters.').describe('New start from appointment_times.'),
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
    .describe('Added, or replacing the same service_id.'),
  remove_service_ids: z.array(serviceId).max(50).optional().describe('service_ids to stop offering.'),
  hours: z
    .union([z.array(weeklyWindow()).max(28), daysInput()])
    .optional()
    .describe(
      'When appointments start, only inside opening hours (rest in outside_opening_hours). By weekday {monday: "09:00-12:00,13:00-17:00", sunday: "closed"} (other days unchanged), or windows replacing all. Left out: unchanged.',
    ),
});

export const cancelBusinessAppointmentInput = z.object({
  booking_id: identifier('booking_id', 60).describe('From booking_setup.'),
  message: text('message', 500, 1).optional().describe('Why, for the customer; posted in the conversation.'),
});
