import type { QueuedMail } from '../mail/outbox.js';
import type { MailAttachment } from '../mail/transport.js';
import { inWords } from '../mail/words.js';
import { clockForPeople, dollarsForPeople, instantsInWords, localDateOf, wordsFor } from '../core/for-people.js';

// Mail bodies are plain text: customer- and owner-typed values (names, addresses, notes) go
// into them verbatim and are never interpreted.

/** What a service call's confirmation adds: the issue, the window and what the fee covers. */
export interface ServiceCallMail {
  job: string;
  issue: string;
  windowEnd: string;
  feeNote: string;
  safety: string;
}

interface BookingMailFacts {
  bookingId: string;
  businessName: string;
  businessPhone: string | null;
  customerName: string;
  address: string;
  starts: string[];
  price: number;
  confirmUrl: string;
  manageUrl: string;
  /** Until when the booking waits for confirmation (business-local ISO). */
  holdUntil: string;
  /** Whether cancelling is still free (the first start is 24 hours or more away). */
  freeCancellation: boolean;
  /** The business's notes for customers (owner-typed), if any. */
  customerNotes: string | null;
  /** Set for a service call: `price` is then its fee and `starts[0]` the arrival window's start. */
  serviceCall?: ServiceCallMail;
  /** The booking's calendar event (.ics), sent with the e-mail. */
  invite?: MailAttachment | null;
  /** The business's IANA zone: times are written in words in it. */
  zone: string;
}

const dollars = dollarsForPeople;

/** A window's end: its time of day when it ends the day it starts ("to 11:00 AM"), else in full. */
const windowEnd = (start: string, end: string, zone: string) =>
  localDateOf(start, zone) === localDateOf(end, zone) ? clockForPeople(end, zone, false) : end;

export function confirmationMail(to: { email: string | null; phone: string | null }, f: BookingMailFacts): QueuedMail {
  return inWords(confirmationText(to, f), f.zone);
}

function confirmationText(to: { email: string | null; phone: string | null }, f: BookingMailFacts): QueuedMail {
  const call = f.serviceCall && { ...f.serviceCall, issue: wordsFor(f.serviceCall.issue), windowEnd: windowEnd(f.starts[0]!, f.serviceCall.windowEnd, f.zone) };
  const job = call?.job ?? 'cleaning';
  const visits = call
    ? `Arrival window: ${f.starts[0]} to ${call.windowEnd}\nIssue: ${call.issue}`
    : f.starts.length > 1 ? `${f.starts.length} visits:\n${f.starts.map((s) => `  - ${s}`).join('\n')}` : `Start: ${f.starts[0]}`;
  if (!to.email) {
    return {
      channel: 'sms',
      to: to.phone!,
      subject: `Confirm your ${f.businessName} booking`,
      text: call
        ? `${f.businessName}: please confirm your ${job} by ${f.holdUntil} (arrival ${f.starts[0]} to ${call.windowEnd}, fee ${dollars(f.price)}, repairs quoted on site): ${f.confirmUrl} Manage or cancel: ${f.manageUrl} ${call.safety}`
        : `${f.businessName}: please confirm your cleaning by ${f.holdUntil} (${f.starts.length > 1 ? `${f.starts.length} visits from ` : ''}${f.starts[0]}, ${dollars(f.price)}${f.starts.length > 1 ? ' each' : ''}): ${f.confirmUrl} Manage or cancel: ${f.manageUrl}`,
      bookingId: f.bookingId,
    };
  }
  return {
    channel: 'email',
    to: to.email,
    subject: `Please confirm your ${job} with ${f.businessName}`,
    text: [
      `Hello ${f.customerName},`,
      '',
      `Your ${job} with ${f.businessName} is not booked yet: it is booked only once you confirm it with the link below.`,
      '',
      visits,
      `Address: ${f.address}`,
      call
        ? `Service-call fee: ${dollars(f.price)}. ${call.feeNote}`
        : `Price: ${dollars(f.price)}${f.starts.length > 1 ? ' per visit' : ''}, firm, no added fees.`,
      '',
      `Confirm the booking by ${f.holdUntil}: ${f.confirmUrl}`,
      'If it is not confirmed by then, it lapses and the time is released.',
      `Check, message or cancel it: ${f.manageUrl}`,
      '',
      f.freeCancellation
        ? 'Cancellation is free until 24 hours before the start; later, the business may charge under its own policy.'
        : 'The start is less than 24 hours away, so cancelling is no longer free: the business may charge under its own policy.',
      f.businessPhone ? `${f.businessName} can be reached at ${f.businessPhone}.` : '',
      ...(f.customerNotes ? ['', `Notes from ${f.businessName} for customers (as the business wrote them):`, f.customerNotes] : []),
      ...(call ? ['', call.safety] : []),
      '',
      ...(f.invite ? ['The attached calendar event (invite.ics) adds the booking to your calendar; later changes arrive the same way.', ''] : []),
      `Booking ${f.bookingId}`,
    ].join('\n'),
    bookingId: f.bookingId,
    attachments: f.invite ? [f.invite] : null,
  };
}

export function businessMessageMail(to: string, f: { bookingId: string; customerName: string; message: string; start: string; zone: string }): QueuedMail {
  // The time in words; the customer's own words are left exactly as written.
  return {
    to,
    subject: `Message from ${f.customerName} about booking ${f.bookingId}`,
    text: `${f.customerName} wrote about the booking starting ${instantsInWords(f.start, f.zone)}:\n\n${f.message}\n\n(Customer-typed text, shown as written.)`,
    bookingId: f.bookingId,
  };
}

/** `invite` (the customer's copy only): the .ics that removes the booking from their calendar. */
export function cancellationMail(to: string, f: { bookingId: string; businessName: string; late: boolean; start: string; invite?: MailAttachment | null; zone: string }): QueuedMail {
  return inWords({
    to,
    subject: `Cancelled: booking ${f.bookingId} with ${f.businessName}`,
    text: `The booking ${f.bookingId} with ${f.businessName} (starting ${f.start}) is cancelled.${
      f.late ? ' It was cancelled within 24 hours of the start; the business may charge under its own policy.' : ''
    }`,
    bookingId: f.bookingId,
    attachments: f.invite ? [f.invite] : null,
  }, f.zone);
}
