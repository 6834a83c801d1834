import type { QueuedMail } from '../mail/outbox.js';
import { inWords } from '../mail/words.js';

// Plain-text notices to the business about appointments. The customer's name goes in verbatim
// and is labelled as such; no customer e-mail or phone appears.

export function appointmentNoticeMail(to: string, f: { subject: string; text: string; bookingId: string; inquiryId: string; zone: string }): QueuedMail {
  return inWords({
    to,
    subject: f.subject,
    text: [
      f.text,
      '',
      '(Names are typed by the customer, shown as written.)',
      `Appointment ${f.bookingId}, conversation ${f.inquiryId}. See booking_setup; answer with message_customer, or cancel with cancel_business_appointment.`,
    ].join('\n'),
  }, f.zone);
}
