import type { QueuedMail } from '../mail/outbox.js';
import { inWords } from '../mail/words.js';

// Plain-text mail and texts to customers about jobs the business changed. The owner's message
// goes in verbatim and is never interpreted.

export function jobCancelledMail(
  to: { email: string | null; phone: string | null },
  f: { bookingId: string; businessName: string; businessPhone: string | null; customerName: string; start: string; message: string | null; zone: string },
): QueuedMail | null {
  const mail = jobCancelledText(to, f);
  return mail && inWords(mail, f.zone);
}

function jobCancelledText(
  to: { email: string | null; phone: string | null },
  f: { bookingId: string; businessName: string; businessPhone: string | null; customerName: string; start: string; message: string | null },
): QueuedMail | null {
  const reach = f.businessPhone ? ` Questions: ${f.businessPhone}.` : '';
  if (to.email) {
    return {
      to: to.email,
      subject: `${f.businessName} cancelled your booking for ${f.start}`,
      text: [
        `Hello ${f.customerName},`,
        '',
        `${f.businessName} cancelled your booking starting ${f.start} (booking ${f.bookingId}). Nothing is charged for it.`,
        ...(f.message ? ['', `Their message (as they wrote it):`, f.message] : []),
        '',
        `To book again, ask your assistant or search Porchlight for another time.${reach}`,
      ].join('\n'),
      bookingId: f.bookingId,
    };
  }
  if (to.phone) {
    return {
      channel: 'sms',
      to: to.phone,
      subject: `${f.businessName} cancelled your booking`,
      text: `${f.businessName} cancelled your booking for ${f.start}; nothing is charged.${f.message ? ` ${f.message}` : ''}${reach}`,
      bookingId: f.bookingId,
    };
  }
  return null;
}
