import { z } from 'zod';
import { builder } from '../builder.js';
import { aliasOperation, defineOperation, definePrismaOperation } from '../registry/operation.js';
import { FEE_NOTE, SAFETY } from '../pricing/service-call.js';
import { hashToken } from '../auth/tokens.js';
import { notFound } from '../errors.js';
import { signedIn } from '../auth/credentials.js';
import { bookCleaningService, byConfirmToken, cancelBookingService, confirmBookingService, messageAboutBookingService } from './service.js';
import { bookServiceCallService } from './service-call.js';
import { rescheduleBookingService } from './reschedule.js';
import { NO_MATCH, bookingAccess } from './access.js';
import { bookCleaningInput, bookServiceCallInput, bookingStatusInput, cancelBookingInput, messageInput, rescheduleBookingInput } from './inputs.js';
import { BookCleaningResult, BookServiceCallResult, CancelResult, ConfirmResult, MyBookingsResult, RescheduleBookingResult, SentResult } from './types.js';

export const bookCleaning = defineOperation({
  name: 'book_cleaning',
  domain: 'bookings',
  result: BookCleaningResult,
  resolve: bookCleaningService,
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: false, openWorldHint: true },
  requestKey: true,
  description:
    'Book a cleaning at a start from find_cleaners or available_times, after the user confirms. Pending until the customer confirms from our e-mail (or text): relay ' +
    '`next`. Keep manage_token: without the same key, only it checks, messages or cancels. price: the total shown (changed: 400 price_changed). The customer pays the ' +
    'business, nothing here; the business pays a $5 service fee once confirmed. Needs name, e-mail, street address (customer_* fields or X-User-* headers).',
  input: bookCleaningInput,
  example: {
    input: {
      pro_id: 'DEMO_CLEANER', bedrooms: 2, bathrooms: 1.5, start: 'DEMO_START', price: 'DEMO_PRICE', address: '1100 S Congress Ave, Austin TX', zip: 'DEMO_ZIP',
      customer_name: 'Alex Rivera', customer_email: 'alex@example.com',
    },
    // Never run for the document (it would book); placeholders are filled from the demo data.
    response: {
      booking_id: 'DEMO_BOOKING', status: 'pending', manage_token: 'DEMO_MANAGE_TOKEN', manage_url: 'DEMO_MANAGE_URL', hold_until: 'DEMO_HOLD_UNTIL',
      price: 'DEMO_PRICE', duration_minutes: 'DEMO_DURATION', visits: [{ start: 'DEMO_START' }],
      next: 'Pending, not booked yet: DEMO_CLEANER_NAME for DEMO_START, $DEMO_PRICE with no added fees. We e-mailed alex@example.com a link to confirm; ' +
        'the booking stays pending until the customer confirms it there, and if that has not happened by DEMO_HOLD_UNTIL it lapses and the time is released. ' +
        'Cancellation is free until 24 hours before the start.',
    },
  },
});

export const bookServiceCall = defineOperation({
  name: 'book_service_call',
  domain: 'bookings',
  result: BookServiceCallResult,
  resolve: bookServiceCallService,
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: false, openWorldHint: true },
  requestKey: true,
  description:
    'Book a plumbing or HVAC service call at a find_service_call arrival window (start = window start), after the user confirms. The fee covers visit and ' +
    'diagnosis, not the repair; changed fee: 400 price_changed. The customer pays the business, nothing here; the business pays a $5 service fee once confirmed. Pending ' +
    'until the customer confirms from our e-mail (or text): relay `next` and `safety`. Keep manage_token. Needs name, e-mail, street address (customer_* fields or ' +
    'X-User-* headers).',
  input: bookServiceCallInput,
  example: {
    input: {
      pro_id: 'hill-country-plumbing-co-austin', trade: 'plumbing', issue: 'leak', details: 'Water drips under the kitchen sink.',
      start: '2026-12-01T09:00:00-06:00', price: 89, address: '1100 S Congress Ave, Austin TX', zip: '78704',
      customer_name: 'Alex Rivera', customer_email: 'alex@example.com',
    },
    // Never run for the document (it would book).
    response: {
      booking_id: 'booking_id returned by book_service_call', status: 'pending', manage_token: 'manage_token returned by book_service_call',
      manage_url: 'DEMO_MANAGE_URL', hold_until: 'DEMO_HOLD_UNTIL', fee: 89, window: { start: '2026-12-01T09:00:00-06:00', end: '2026-12-01T11:00:00-06:00' },
      trade: 'plumbing', issue: 'leak',
      fee_note: FEE_NOTE,
      safety: SAFETY,
      next: 'Pending, not booked yet: a plumbing service call with Hill Country Plumbing Co., arriving between 2026-12-01T09:00:00-06:00 and 2026-12-01T11:00:00-06:00; the service-call fee is $89 ' +
        'for the visit and diagnosis only, and any repair is quoted on site before work starts. We e-mailed alex@example.com a link to confirm; ' +
        'the booking stays pending until the customer confirms it there, and if that has not happened by DEMO_HOLD_UNTIL it lapses and the time is released. ' +
        'Cancellation is free until 24 hours before the start.',
    },
  },
});

export const bookingStatus = definePrismaOperation({
  name: 'booking_status',
  domain: 'bookings',
  result: 'Booking',
  resolve: async (query, input, ctx) => {
    const booking = await ctx.prisma.booking.findFirst({ ...query, where: bookingAccess(ctx, input.booking_id, input.manage_token) });
    if (!booking) throw notFound(NO_MATCH);
    return booking;
  },
  method: 'GET',
  auth: 'public',
  description:
    'Status and details of a cleaning or service-call booking, with its messages. Needs booking_id and its manage_token. Next: message_about_booking or ' +
    'cancel_booking.',
  input: bookingStatusInput,
  example: {
    input: { booking_id: 'DEMO_BOOKING', manage_token: 'DEMO_MANAGE_TOKEN' },
    // No demo booking's manage_token is known, so this one is declared: the book_cleaning example after a message.
    response: {
      booking_id: 'DEMO_BOOKING', pro_id: 'DEMO_CLEANER', business_name: 'DEMO_CLEANER_NAME', kind: 'cleaning', status: 'pending', hold_until: 'DEMO_HOLD_UNTIL',
      customer_notes: null, frequency: 'once',
      price: 'DEMO_PRICE', fee: null, late: false, address: '1100 S Congress Ave, Austin TX', zip: 'DEMO_ZIP', created_at: 'DEMO_NOW',
      visits: [{ start: 'DEMO_START', end: 'DEMO_END', active: true }],
      messages: [{ at: 'DEMO_NOW', from: 'customer', text: 'The gate code is 4412.' }],
      next: "Waiting for the customer's confirmation: we e-mailed alex@example.com a link, and nothing is booked until they confirm there. " +
        'The time is held until DEMO_HOLD_UNTIL; unconfirmed by then, the booking lapses and the time is released.',
    },
  },
});

export const cancelBooking = defineOperation({
  name: 'cancel_booking',
  domain: 'bookings',
  result: CancelResult,
  resolve: cancelBookingService,
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
  description:
    'Cancel a booking (all remaining visits of a series), after the user confirms. Free until 24 hours before the start; later it cancels with late: true, and the business ' +
    'may charge under its own policy. The business is told.',
  input: cancelBookingInput,
  example: {
    input: { booking_id: 'DEMO_BOOKING', manage_token: 'DEMO_MANAGE_TOKEN' },
    response: { booking_id: 'DEMO_BOOKING', status: 'cancelled', late: false },
  },
});

export const myBookings = defineOperation({
  name: 'my_bookings',
  domain: 'bookings',
  result: MyBookingsResult,
  resolve: (_input, ctx) => ({ credentialId: signedIn(ctx.credential)?.id ?? null }),
  method: 'GET',
  auth: 'public',
  description:
    "The user's bookings, newest first: only those made through the same personal key or connection (none with the shared public key or no key). Details: booking_status.",
  input: z.object({}),
  example: { input: {} },
});

export const messageAboutBooking = defineOperation({
  name: 'message_about_booking',
  domain: 'bookings',
  result: SentResult,
  resolve: messageAboutBookingService,
  method: 'POST',
  auth: 'public',
  annotations: { idempotentHint: false, openWorldHint: true },
  description:
    'Message the business about a booked job (access, timing, wishes): e-mailed to it and shown on its schedule and in booking_status. No sign-in ' +
    'needed.',
  input: messageInput,
  example: {
    input: { booking_id: 'DEMO_BOOKING', manage_token: 'DEMO_MANAGE_TOKEN', message: 'The gate code is 4412.' },
    response: { sent: true },
  },
});

export const messageCleaner = aliasOperation(
  messageAboutBooking,
  'message_cleaner',
  'Older name of message_about_booking: same inputs and result. Prefer message_about_booking.',
);

export const rescheduleBooking = defineOperation({
  name: 'reschedule_booking',
  domain: 'bookings',
  result: RescheduleBookingResult,
  resolve: rescheduleBookingService,
  method: 'POST',
  auth: 'public',
  annotations: { destructiveHint: false, openWorldHint: true },
  requestKey: true,
  description:
    'Move a cleaning or service call to another start (a series: visit_start, default the next visit). Atomic; the customer gets the moved ' +
    'calendar event. Refused within 24 h of the start (too_late_to_change: ask the business), on a taken start (time_unavailable) or a changed price (price_changed: pass ' +
    'price).',
  input: rescheduleBookingInput,
  example: {
    input: { booking_id: 'DEMO_BOOKING', manage_token: 'DEMO_MANAGE_TOKEN', start: 'DEMO_RESCHEDULE_START' },
    response: { booking_id: 'DEMO_BOOKING', status: 'confirmed', visits: [{ start: 'DEMO_RESCHEDULE_START' }], window: null, price: 'DEMO_PRICE', fee: null, next: 'Moved to DEMO_RESCHEDULE_START with DEMO_CLEANER_NAME.' },
  },
});

export const operations = [bookCleaning, bookServiceCall, bookingStatus, cancelBooking, rescheduleBooking, myBookings, messageAboutBooking, messageCleaner];

// Fields behind the confirm and manage pages (links from the mail); not assistant operations,
// but guarded like them.
builder.queryField('bookingByManageToken', (t) =>
  t.prismaField({
    type: 'Booking',
    access: 'public',
    args: { manageToken: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const booking = await ctx.prisma.booking.findUnique({ ...query, where: { manageTokenHash: hashToken(args.manageToken) } });
      if (!booking) throw notFound('This manage link is not valid.');
      return booking;
    },
  }),
);

/** The cleaning a booking is for: what its manage page asks available_times for when the customer moves it. */
const BookingJob = builder
  .objectRef<{ bedrooms: number; bathrooms: number; cleanType: string; sqft: number | null; addOns: string[]; pets: boolean; frequency: string }>('BookingJob')
  .implement({
    description: 'The job of a cleaning booking, as booked.',
    fields: (t) => ({
      bedrooms: t.exposeInt('bedrooms'),
      bathrooms: t.exposeFloat('bathrooms'),
      cleanType: t.exposeString('cleanType'),
      sqft: t.exposeInt('sqft', { nullable: true }),
      addOns: t.exposeStringList('addOns'),
      pets: t.exposeBoolean('pets'),
      frequency: t.exposeString('frequency'),
    }),
  });

builder.queryField('bookingJobByManageToken', (t) =>
  t.field({
    type: BookingJob,
    nullable: true,
    access: 'public',
    description: 'The job of the booking behind a manage link; null for a service call.',
    args: { manageToken: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const b = await ctx.prisma.booking.findUnique({
        where: { manageTokenHash: hashToken(args.manageToken) },
        select: { kind: true, bedrooms: true, bathrooms: true, cleanType: true, sqft: true, addOns: true, pets: true, frequency: true },
      });
      if (!b) throw notFound('This manage link is not valid.');
      if (b.kind !== 'cleaning' || b.bedrooms === null || b.bathrooms === null) return null;
      return { bedrooms: b.bedrooms, bathrooms: b.bathrooms, cleanType: b.cleanType ?? 'standard', sqft: b.sqft, addOns: b.addOns, pets: b.pets, frequency: b.frequency };
    },
  }),
);

builder.queryField('bookingByConfirmToken', (t) =>
  t.prismaField({
    type: 'Booking',
    access: 'public',
    args: { confirmToken: t.arg.string({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const booking = await ctx.prisma.booking.findFirst({ ...query, where: byConfirmToken(args.confirmToken) });
      if (!booking) throw notFound('This confirmation link is not valid. Use the link from the most recent e-mail.');
      return booking;
    },
  }),
);

builder.mutationField('confirmBooking', (t) =>
  t.field({
    type: ConfirmResult,
    access: 'public',
    args: { confirmToken: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => confirmBookingService(args.confirmToken, ctx),
  }),
);
