import type { QueuedMail } from '../mail/outbox.js';
import { inWords } from '../mail/words.js';

/** With the business's zone, the times the operations' sentences quote read in words (mail/words.ts). */
const words = (mail: QueuedMail, zone: string | undefined) => (zone ? inWords(mail, zone) : mail);

// Plain-text bodies: names and messages typed by customers and owners go in verbatim and are
// never interpreted. Neither side's e-mail or phone appears in what the other side receives.

export function newMessageMail(to: string, f: { inquiryId: string; from: string; message: string; requestType: string; viaText: boolean; zone?: string }): QueuedMail {
  return words({
    to,
    subject: `New ${f.requestType === 'question' ? 'question' : f.requestType.replace(/_/g, ' ') + ' request'} from ${f.from}`,
    text: [
      `${f.from} wrote${f.viaText ? ' by text message to your business number' : ''}:`,
      '',
      f.message,
      '',
      '(Customer-typed text, shown as written.)',
      `Answer it with message_customer (inquiry_id ${f.inquiryId}) from your assistant, or close it with close_inquiry.`,
    ].join('\n'),
  }, f.zone);
}

/** `page`: the conversation's page, when the reply token is at hand (a booking's own answer). */
export function answerMail(to: string, f: { inquiryId: string; businessName: string; customerName: string | null; message: string; zone?: string; page?: string }): QueuedMail {
  return words({
    to,
    subject: `${f.businessName} answered your message`,
    text: [
      f.customerName ? `Hello ${f.customerName},` : 'Hello,',
      '',
      `${f.businessName} wrote:`,
      '',
      f.message,
      '',
      `(Text written by ${f.businessName}, shown as written.)`,
      ...(f.page ? [`Check, move or cancel it on its page: ${f.page}`, 'Keep that link private: it opens this conversation.'] : []),
      `To continue, use follow_up_business with inquiry ${f.inquiryId} and the reply_token you were given, or ask through your assistant.`,
    ].join('\n'),
  }, f.zone);
}

/** Text messages are short and plain: the business's name and its words, nothing else. */
export function answerText(to: string, f: { businessId: string; businessName: string; message: string; bookingId?: string }): QueuedMail {
  return { channel: 'sms', to, subject: `Text from ${f.businessName}`, text: `${f.businessName}: ${f.message}`, bookingId: f.bookingId, businessId: f.businessId };
}

export function jobMessageMail(to: string, f: { bookingId: string; businessName: string; customerName: string; message: string }): QueuedMail {
  return {
    to,
    subject: `Message from ${f.businessName} about booking ${f.bookingId}`,
    text: [
      `Hello ${f.customerName},`,
      '',
      `${f.businessName} wrote about your booking ${f.bookingId}:`,
      '',
      f.message,
      '',
      `(Text written by ${f.businessName}, shown as written.)`,
      'Reply with message_about_booking, or from the manage link in your confirmation e-mail.',
    ].join('\n'),
    bookingId: f.bookingId,
  };
}
