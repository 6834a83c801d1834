import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { identifier, positiveMoney, text, zip } from '../registry/fields.js';
import { bookingAddOns, cleaningJobFields } from '../pricing/job.js';
import { FEE_NOTE, issueOfTrade, SAFETY, serviceCallFields } from '../pricing/service-call.js';

const start = z.string().min(1, 'start is required.').max(50, 'start must be at most 50 characters.');
const bookingId = identifier('booking_id', 60).describe('The booking_id returned when the booking was made.');
const manageToken = z.string().min(1, 'manage_token must not be empty.').max(200, 'manage_token must be at most 200 characters.');
const message = text('message', 500, 1).describe('The message, 1-500 characters. Stored and shown verbatim.');
/** Who the booking is for; book_cleaning and book_service_call share the contact rules. */
const customerFields = {
  customer_name: text('customer_name', 100).optional(),
  customer_email: z.email('customer_email must be an e-mail address.').max(200, 'customer_email must be at most 200 characters.').optional(),
  customer_phone: text('customer_phone', 30).optional().describe('Only if the user already gave it.'),
};

export const bookCleaning = defineOperation({
  name: 'book_cleaning',
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  description:
    'Book a cleaning at a start from find_cleaners or available_times. Confirm with the user first. ' +
    'The booking is pending until the customer confirms from the e-mail we send (or a text message for a phone-only customer of a business that texts); relay the `next` message. ' +
    'Keep manage_token: it is the only way to check, message about or cancel this booking later without the same key. ' +
    'price is the total shown to the user; if the business changed it the booking is refused with code price_changed. ' +
    'A recurring frequency books a series (same weekday and time, up to 60 days ahead; visits 2-10 including the first); visit_starts books one clean per guest checkout instead. ' +
    "Customer name, e-mail and street address are required in effect: pass customer_* fields or send X-User-Name / X-User-Email / X-User-Phone headers.",
  input: z.object({
    pro_id: identifier('pro_id').describe('A pro_id from find_cleaners.'),
    ...cleaningJobFields,
    add_ons: bookingAddOns,
    visits: z.int('visits must be a whole number.').min(2, 'visits must be between 2 and 10.').max(10, 'visits must be between 2 and 10.').optional()
      .describe('With a recurring frequency: number of visits including the first, 2-10; default as many as fit within 60 days.'),
    visit_starts: z.array(start).min(2, 'visit_starts must hold 2 to 10 starts.').max(10, 'visit_starts must hold 2 to 10 starts.').optional()
      .describe('Rental turnovers: one start per guest checkout (values from available_times), 2-10; used instead of frequency, and start is then ignored.'),
    start: start.describe('A start from find_cleaners or available_times (the first visit).'),
    price: positiveMoney('price').optional().describe('The total shown to the user, USD; the booking is refused if the business changed it.'),
    address: text('address', 300, 3).describe('Street address of the home, 3-300 characters.'),
    zip,
    notes: text('notes', 500).optional().describe('Access notes and wishes, max 500.'),
    ...customerFields,
  }),
  example: {
    input: {
      pro_id: 'DEMO_CLEANER', bedrooms: 2, bathrooms: 1.5, start: 'DEMO_START', price: 'DEMO_PRICE', address: '1100 S Congress Ave, Austin TX', zip: 'DEMO_ZIP',
      customer_name: 'Alex Rivera', customer_email: 'alex@example.com',
    },
    // Never run for the document (it would book); placeholders are filled from the demo data.
    response: {
      booking_id: 'DEMO_BOOKING', status: 'pending', manage_token: 'DEMO_MANAGE_TOKEN', manage_url: 'DEMO_MANAGE_URL',
      price: 'DEMO_PRICE', duration_minutes: 'DEMO_DURATION', visits: [{ start: 'DEMO_START' }],
      next: 'Booked with DEMO_CLEANER_NAME for DEMO_START, $DEMO_PRICE with no added fees. We e-mailed alex@example.com a link to confirm; ' +
        'the booking stays pending until the customer confirms it there. Cancellation is free until 24 hours before the start.',
    },
  },
});

export const bookServiceCall = defineOperation({
  name: 'book_service_call',
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: true },
  description:
    'Book a plumbing or HVAC service call in an arrival window from find_service_call: start is the beginning of the window. Confirm with the user first. ' +
    'The fee is a firm service-call fee for the visit and diagnosis only, never the repair price: the pro quotes any repair on site before work starts. ' +
    'price is the fee shown to the user; if the business changed it the booking is refused with code price_changed. ' +
    'The booking is pending until the customer confirms from the e-mail we send (or a text message for a phone-only customer of a business that texts); relay the `next` message and the `safety` instruction. ' +
    'Keep manage_token: it is the only way to check, message about or cancel this booking later without the same key. ' +
    "Customer name, e-mail and street address are required in effect: pass customer_* fields or send X-User-Name / X-User-Email / X-User-Phone headers.",
  input: z
    .object({
      pro_id: identifier('pro_id').describe('A pro_id from find_service_call.'),
      ...serviceCallFields,
      start: start.describe('The start of an arrival window from find_service_call.'),
      price: positiveMoney('price').optional().describe('The service-call fee shown to the user, USD; the booking is refused if the business changed it.'),
      address: text('address', 300, 3).describe('Street address of the visit, 3-300 characters.'),
      zip,
      notes: text('notes', 500).optional().describe('Access notes, max 500.'),
      ...customerFields,
    })
    .superRefine(issueOfTrade),
  example: {
    input: {
      pro_id: 'hill-country-plumbing-co-austin', trade: 'plumbing', issue: 'leak', details: 'Water drips under the kitchen sink.',
      start: '2026-12-01T09:00:00-06:00', price: 89, address: '1100 S Congress Ave, Austin TX', zip: '78704',
      customer_name: 'Alex Rivera', customer_email: 'alex@example.com',
    },
    // Never run for the document (it would book).
    response: {
      booking_id: 'booking_id returned by book_service_call', status: 'pending', manage_token: 'manage_token returned by book_service_call',
      manage_url: 'DEMO_MANAGE_URL', fee: 89, window: { start: '2026-12-01T09:00:00-06:00', end: '2026-12-01T11:00:00-06:00' },
      trade: 'plumbing', issue: 'leak',
      fee_note: FEE_NOTE,
      safety: SAFETY,
      next: 'Booked a plumbing service call with Hill Country Plumbing Co., arriving between 2026-12-01T09:00:00-06:00 and 2026-12-01T11:00:00-06:00; the service-call fee is $89 ' +
        'for the visit and diagnosis only, and any repair is quoted on site before work starts. We e-mailed alex@example.com a link to confirm; ' +
        'the booking stays pending until the customer confirms it there. Cancellation is free until 24 hours before the window starts.',
    },
  },
});

export const bookingStatus = defineOperation({
  name: 'booking_status',
  method: 'GET',
  auth: 'public',
  description: 'Status and details of a cleaning or service-call booking, with the messages exchanged about it. Needs the booking_id and its manage_token.',
  input: z.object({ booking_id: bookingId, manage_token: manageToken.describe('The manage_token returned by the booking.') }),
  example: {
    input: { booking_id: 'DEMO_BOOKING', manage_token: 'DEMO_MANAGE_TOKEN' },
    // The demo data has no bookings, so this one is declared: the book_cleaning example after a message.
    response: {
      booking_id: 'DEMO_BOOKING', pro_id: 'DEMO_CLEANER', business_name: 'DEMO_CLEANER_NAME', kind: 'cleaning', status: 'pending', frequency: 'once',
      price: 'DEMO_PRICE', fee: null, late: false, address: '1100 S Congress Ave, Austin TX', zip: 'DEMO_ZIP', created_at: 'DEMO_NOW',
      visits: [{ start: 'DEMO_START', end: 'DEMO_END', active: true }],
      messages: [{ at: 'DEMO_NOW', from: 'customer', text: 'The gate code is 4412.' }],
    },
  },
});

export const cancelBooking = defineOperation({
  name: 'cancel_booking',
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: true, idempotentHint: true },
  description:
    'Cancel a booking (every remaining visit of a series). Confirm with the user first. Free until 24 hours before the start; later it still cancels, with late: true, and the business may charge under its own policy. ' +
    'manage_token is required unless the booking was made through the same key or connection.',
  input: z.object({ booking_id: bookingId, manage_token: manageToken.optional() }),
  example: {
    input: { booking_id: 'DEMO_BOOKING', manage_token: 'DEMO_MANAGE_TOKEN' },
    response: { booking_id: 'DEMO_BOOKING', status: 'cancelled', late: false },
  },
});

export const myBookings = defineOperation({
  name: 'my_bookings',
  method: 'GET',
  auth: 'public',
  description: "The user's bookings, newest first: only those made through the same personal key or connection. With the shared public key, or with no key, it lists none.",
  input: z.object({}),
  example: { input: {} },
});

const messageInput = z.object({
  booking_id: bookingId,
  manage_token: manageToken.optional().describe('Required unless the booking was made through the same signed-in key or connection.'),
  message,
});

export const messageAboutBooking = defineOperation({
  name: 'message_about_booking',
  method: 'POST',
  auth: 'public',
  annotations: { idempotentHint: false },
  description: 'Send the business a message about a booked job (access, timing, wishes). The business receives it by e-mail and on its schedule; booking_status shows it. No sign-in needed.',
  input: messageInput,
  example: {
    input: { booking_id: 'DEMO_BOOKING', manage_token: 'DEMO_MANAGE_TOKEN', message: 'The gate code is 4412.' },
    response: { sent: true },
  },
});

export const messageCleaner = defineOperation({
  ...messageAboutBooking,
  name: 'message_cleaner',
  field: messageAboutBooking.field,
  description: `Older name of message_about_booking, with the same inputs and result; prefer message_about_booking. ${messageAboutBooking.description}`,
});

export const operations = [bookCleaning, bookServiceCall, bookingStatus, cancelBooking, myBookings, messageAboutBooking, messageCleaner];
