import { instantsInWords } from '../core/for-people.js';
import type { QueuedMail } from './outbox.js';

/**
 * A mail as people read it: every ISO 8601 instant in its subject and text (the operations' own
 * sentences quote them so) written in words in the business's zone, "Tue, Nov 25, 4:12 PM CST".
 * Attachments (the .ics calendar events) are left exactly as they are.
 */
export function inWords<T extends QueuedMail>(mail: T, zone: string): T {
  return { ...mail, subject: instantsInWords(mail.subject, zone), text: instantsInWords(mail.text, zone) };
}
