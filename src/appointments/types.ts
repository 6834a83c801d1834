import { builder } from '../builder.js';
import { OutsideOpeningHours } from '../menus/types.js';
import type { appointmentTimesService, bookAppointmentService } from './service.js';
import type { bookingSetupService } from './setup.js';

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

export const AppointmentTimesResult = builder.objectRef<Times>('AppointmentTimesResult').implement({
  fields: (t) => ({
    business: t.exposeString('business'),
    name: t.exposeString('name'),
    services: t.field({ type: [BookableServiceType], description: 'The services bookable now.', resolve: (r) => r.services }),
    serviceId: t.exposeString('serviceId', { nullable: true }),
    priceCents: t.exposeInt('priceCents', { nullable: true, description: 'Pass as expected_price_cents.' }),
    durationMinutes: t.exposeInt('durationMinutes', { nullable: true }),
    payment: t.exposeString('payment', { nullable: true }),
    date: t.exposeString('date', { nullable: true }),
    note: t.exposeString('note', { nullable: true, description: 'Set when a past date was read as today.' }),
    starts: t.exposeStringList('starts', { description: 'Open starts, business-local ISO with offset; nothing is reserved.' }),
  }),
});

export const AppointmentBooking = builder.objectRef<Awaited<ReturnType<typeof bookAppointmentService>>>('AppointmentBooking').implement({
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

export const CancelAppointmentResult = builder.objectRef<{ bookingId: string; status: string }>('CancelAppointmentResult').implement({
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status', { description: 'cancelled (nothing paid), or refund_pending, later refunded or refund_failed.' }),
  }),
});

export const RescheduleAppointmentResult = builder.objectRef<{ bookingId: string; status: string; start: string; end: string; next: string }>('RescheduleAppointmentResult').implement({
  fields: (t) => ({
    bookingId: t.exposeID('bookingId'),
    status: t.exposeString('status', { description: 'Unchanged by a move: confirmed, or awaiting_payment.' }),
    start: t.exposeString('start'),
    end: t.exposeString('end'),
    next: t.exposeString('next', { description: 'A message to relay to the customer.' }),
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

export const BookingSetupResult = builder.objectRef<Setup>('BookingSetupResult').implement({
  fields: (t) => ({
    services: t.field({ type: [BookableServiceType], resolve: (s) => s.services }),
    hours: t.field({ type: [WeeklyWindow], description: 'Appointment hours; only their part inside opening hours (set_hours) is booked.', resolve: (s) => s.hours }),
    outsideOpeningHours: t.field({ type: [OutsideOpeningHours], description: 'Parts of appointment hours outside opening hours: never offered nor booked.', resolve: (s) => s.outsideOpeningHours }),
    paymentAccountReady: t.exposeBoolean('paymentAccountReady', { description: 'Upfront payment possible (customer_payment_onboarding sets it up).' }),
    paymentProvider: t.exposeString('paymentProvider', { description: 'stripe or sandbox.' }),
    appointments: t.field({ type: [SetupAppointment], description: 'Ahead and of the last 30 days, soonest first.', resolve: (s) => s.appointments }),
  }),
});
