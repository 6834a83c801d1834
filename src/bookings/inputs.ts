import { z } from 'zod';
import { identifier, positiveMoney, text, zip } from '../registry/fields.js';
import { bookingAddOns, cleaningJobFields } from '../pricing/job.js';
import { issueOfTrade, serviceCallFields } from '../pricing/service-call.js';

const start = z.string().min(1, 'start is required.').max(50, 'start must be at most 50 characters.');

const bookingId = identifier('booking_id', 60).describe('Returned by the booking.');

const manageToken = z.string().min(1, 'manage_token must not be empty.').max(200, 'manage_token must be at most 200 characters.');

const message = text('message', 500, 1).describe('Stored and shown verbatim.');

/** Who the booking is for; book_cleaning and book_service_call share the contact rules. */
const customerFields = {
  customer_name: text('customer_name', 100).optional().describe("The customer's full name."),
  customer_email: z.email('customer_email must be an e-mail address.').max(200, 'customer_email must be at most 200 characters.').optional().describe('Where the confirmation e-mail goes.'),
  customer_phone: text('customer_phone', 30).optional().describe('Only if the user gave it.'),
};

export const bookCleaningInput = z.object({
  pro_id: identifier('pro_id').describe('A pro_id from find_cleaners.'),
  ...cleaningJobFields,
  add_ons: bookingAddOns.describe('Extras to price in. Offers vary (a 400 names them).'),
  visits: z.int().min(2, 'visits must be between 2 and 10.').max(10, 'visits must be between 2 and 10.').optional()
    .describe('With a recurring frequency: visits including the first; default as many as fit within 60 days.'),
  visit_starts: z.array(start).min(2, 'visit_starts must hold 2 to 10 starts.').max(10, 'visit_starts must hold 2 to 10 starts.').optional()
    .describe('Rental turnovers: one start per guest checkout (from available_times), instead of frequency and start.'),
  start: start.describe('The start of the first visit.'),
  price: positiveMoney('price').optional().describe('The total shown to the user, in USD.'),
  address: text('address', 300, 3).describe('Street address of the home.'),
  zip,
  notes: text('notes', 500).optional().describe('Access notes and wishes.'),
  ...customerFields,
});

export const bookServiceCallInput = z
  .object({
    pro_id: identifier('pro_id').describe('A pro_id from find_service_call.'),
    ...serviceCallFields,
    start: start.describe('The arrival window\'s start.'),
    price: positiveMoney('price').optional().describe('The service-call fee shown to the user, in USD.'),
    address: text('address', 300, 3).describe('Street address of the visit.'),
    zip,
    notes: text('notes', 500).optional().describe('Access notes for the visit.'),
    ...customerFields,
  })
  .superRefine(issueOfTrade);

export const bookingStatusInput = z.object({ booking_id: bookingId, manage_token: manageToken.describe('The manage_token returned by the booking.') });

export const cancelBookingInput = z.object({
  booking_id: bookingId,
  manage_token: manageToken.optional().describe('Required unless booked with the same signed-in key or connection.'),
});

export const rescheduleBookingInput = z.object({
  booking_id: bookingId,
  manage_token: manageToken.optional().describe('Required unless booked with the same signed-in key or connection.'),
  start: start.describe('New start from available_times or find_service_call.'),
  visit_start: start.optional().describe('Series: the current start of the visit to move.'),
  price: positiveMoney('price').optional().describe('The new price accepted after price_changed, USD.'),
});

export const messageInput = z.object({
  booking_id: bookingId,
  manage_token: manageToken.optional().describe('Required unless booked with the same signed-in key or connection.'),
  message,
});
