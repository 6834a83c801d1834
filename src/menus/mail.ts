import type { QueuedMail } from '../mail/outbox.js';
import type { MailAttachment } from '../mail/transport.js';
import { inWords } from '../mail/words.js';

// Plain-text notices to the business about visits. Names, notes and preferences typed by
// customers go in verbatim and are labelled as such; no customer e-mail or phone appears.

export function visitNoticeMail(
  to: string,
  f: { subject: string; customerName: string; lines: string[]; inquiryId: string; visitId: string; next: string; zone: string },
): QueuedMail {
  return inWords({
    to,
    subject: f.subject,
    text: [
      ...f.lines,
      '',
      `(Names, preferences and notes are typed by the customer, shown as written.)`,
      `Visit ${f.visitId}, conversation ${f.inquiryId}. ${f.next}`,
    ].join('\n'),
  }, f.zone);
}

/** The customer's note on a visit they booked at once (they may have no conversation e-mail otherwise). */
/** `invite`: the visit's calendar event (.ics, METHOD:REQUEST), sent with it. */
/** `page`: the visit's conversation page, where the customer checks, moves or cancels it. */
export function visitBookedCustomerMail(to: string, f: { businessName: string; customerName: string; summary: string; inquiryId: string; page: string; invite?: MailAttachment; zone: string }): QueuedMail {
  return inWords({
    to,
    subject: `Your visit with ${f.businessName} is confirmed`,
    text: [
      `Hello ${f.customerName},`,
      '',
      f.summary,
      '',
      `Check, move or cancel it (free until 24 hours before the start) on its page: ${f.page}`,
      `Keep that link private: it opens your conversation with ${f.businessName}. Your assistant can do the same with conversation ${f.inquiryId} and the reply_token it was given.`,
      ...(f.invite ? ['', 'The attached calendar event (invite.ics) adds the visit to your calendar.'] : []),
    ].join('\n'),
    attachments: f.invite ? [f.invite] : null,
  }, f.zone);
}
