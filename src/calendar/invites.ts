/**
 * The calendar event a customer's mail carries (.ics, RFC 5546): METHOD:REQUEST when a booking is
 * made or moves, METHOD:CANCEL when it is cancelled. Its UID stays the booking's; its SEQUENCE is
 * the booking's calendarSequence, raised by nextSequence in the same transaction as the change, so
 * a calendar applies a later mail over an earlier one and never the reverse.
 */
import type { Tx } from '../db/transaction.js';
import type { MailAttachment } from '../mail/transport.js';
import { customerInvite, eventUid, icsAttachment, type EntryStatus } from './ics.js';

export type Sequenced = 'booking' | 'visit' | 'appointment';

/**
 * Raises the SEQUENCE of a booking, visit or appointment's event and returns the new value. Call it
 * inside the transaction that moves or cancels it (reschedules too), before building the mail.
 */
export async function nextSequence(tx: Tx, of: Sequenced, id: string): Promise<number> {
  const data = { calendarSequence: { increment: 1 } };
  const select = { calendarSequence: true } as const;
  const row =
    of === 'booking' ? await tx.booking.update({ where: { id }, data, select })
    : of === 'visit' ? await tx.visit.update({ where: { id }, data, select })
    : await tx.appointment.update({ where: { id }, data, select });
  return row.calendarSequence;
}

/** The address in MAIL_FROM ("Name <address>" or a bare address). */
export function mailbox(from: string): string {
  return /<([^<>\s]+)>\s*$/.exec(from)?.[1] ?? from.trim();
}

export interface InviteFacts {
  method: 'REQUEST' | 'CANCEL';
  /** The booking, visit or appointment id: the UID's stable part. */
  id: string;
  /** A recurring booking: each of its visits is its own event, `<id>.<visit id>@host`. */
  series?: boolean;
  sequence: number;
  status: EntryStatus;
  business: { name: string; email: string | null };
  customer: { name: string; email: string };
  /** What it is, e.g. "Standard cleaning with Sparkle Co". */
  summary: string;
  location?: string | null;
  description?: string | null;
  visits: { id: string; start: Date; end: Date }[];
  now: Date;
}

/** The .ics attachment of a customer's mail. */
export function inviteAttachment(config: { baseUrl: string; mailFrom: string }, f: InviteFacts): MailAttachment {
  const content = customerInvite({
    method: f.method,
    // Replies go to the business when it has an address, else to the service's own.
    organizer: { name: f.business.name, email: f.business.email ?? mailbox(config.mailFrom) },
    attendee: f.customer,
    sequence: f.sequence,
    now: f.now,
    events: f.visits.map((v) => ({
      uid: eventUid(config.baseUrl, f.series ? `${f.id}.${v.id}` : f.id),
      start: v.start,
      end: v.end,
      summary: f.summary,
      status: f.status,
      location: f.location ?? null,
      description: f.description ?? null,
    })),
  });
  return icsAttachment(content, f.method, f.method === 'CANCEL' ? 'cancelled.ics' : 'invite.ics');
}
