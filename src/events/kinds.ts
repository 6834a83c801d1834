/** The kinds of events, and what subscribers receive of one; shared by emit and pubsub. */
/**
 * Moves of an appointment (its booking_id is the event's bookingId): booked (confirmed, or
 * awaiting payment), confirmed by payment, lapsed unpaid, cancelled, and its refund's progress.
 */
const APPOINTMENT_EVENT_TYPES = [
  'appointment.booked',
  'appointment.confirmed',
  'appointment.lapsed',
  'appointment.cancelled',
  // Moved to another start (reschedule_appointment, reschedule_job).
  'appointment.rescheduled',
  'appointment.refund_pending',
  'appointment.refunded',
  'appointment.refund_failed',
] as const;

/** Changes the business's owner hears about (ownerEvents, updates). */
export const OWNER_EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.lapsed',
  'booking.done',
  'booking.no_show',
  'message.received',
  'visit.requested',
  'visit.booked',
  'visit.confirmed',
  'visit.cancelled',
  // Moved to another start by the customer or the business (reschedule_*).
  'booking.rescheduled',
  'visit.rescheduled',
  // A visit or an appointment closed by the business once it ended (confirm_job_done, report_no_show).
  'visit.done',
  'visit.no_show',
  'appointment.done',
  'appointment.no_show',
  'receptionist.updated',
  'receptionist.published',
  'front_desk.updated',
  ...APPOINTMENT_EVENT_TYPES,
  // The receptionist's plan (from the payment provider), number (from the carrier) and limit.
  'receptionist.plan_active',
  'receptionist.plan_cancelled',
  'receptionist.number_active',
  'receptionist.limit_reached',
] as const;

/** Changes a booking's subscribers hear about (bookingUpdated). */
export const BOOKING_EVENT_TYPES = ['booking.confirmed', 'booking.cancelled', 'booking.lapsed', 'booking.updated', 'booking.rescheduled', 'booking.done', 'booking.no_show'] as const;

/**
 * Changes a conversation's subscribers hear about (inquiryReplied): the business's answers, and
 * the visit a conversation carries being confirmed or cancelled (a visit's customer holds its
 * inquiry_id and reply_token, not a manage_token), and every move of an appointment booked in it.
 */
export const CONVERSATION_EVENT_TYPES = ['inquiry.replied', 'visit.confirmed', 'visit.cancelled', 'visit.rescheduled', ...APPOINTMENT_EVENT_TYPES] as const;

export type EventType = (typeof OWNER_EVENT_TYPES)[number] | (typeof BOOKING_EVENT_TYPES)[number] | (typeof CONVERSATION_EVENT_TYPES)[number];

/** What subscribers receive: the stored event without its customer-typed facts. */
export interface PublishedEvent {
  position: string;
  type: EventType;
  at: string;
  businessId: string;
  bookingId?: string;
  inquiryId?: string;
  clientName?: string;
}
