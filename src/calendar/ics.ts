/**
 * iCalendar (RFC 5545) text, written by ical-generator so every value typed by a person (names,
 * addresses, reasons) is escaped as data. Times are written in UTC (`Z`): ical-generator would
 * print a plain Date's UTC clock as a TZID time, and UTC needs no VTIMEZONE.
 */
import ical, { ICalCalendarMethod, ICalEventBusyStatus, ICalEventStatus, ICalEventTransparency } from 'ical-generator';

const PRODUCT = { company: 'Porchlight', product: 'Porchlight calendar', language: 'EN' };

export type EntryStatus = 'pending' | 'confirmed' | 'cancelled' | 'done' | 'no_show' | string;

export interface IcsEvent {
  /** Globally unique and stable for the thing it describes (see eventUid). */
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  status: EntryStatus;
  description?: string | null;
  location?: string | null;
}

/** The UID of a booking's event as its customer's calendar keeps it: `<id>@<BASE_URL host>`. */
export function eventUid(baseUrl: string, id: string): string {
  return `${id}@${new URL(baseUrl).hostname}`;
}

/** Our statuses in iCalendar's words: a pending one is tentative, anything that stands is confirmed. */
function icsStatus(status: EntryStatus): ICalEventStatus {
  if (status === 'pending' || status === 'awaiting_payment') return ICalEventStatus.TENTATIVE;
  if (status === 'cancelled' || status === 'lapsed' || status === 'refunded' || status === 'refund_pending' || status === 'refund_failed') return ICalEventStatus.CANCELLED;
  return ICalEventStatus.CONFIRMED;
}

/** What a feed's event and an invitation's event share. */
const eventFields = (e: IcsEvent, now: Date) => ({
  id: e.uid,
  start: e.start,
  end: e.end,
  stamp: now,
  summary: e.summary,
  description: e.description ?? null,
  location: e.location ?? null,
});

/**
 * The owner's private feed: every schedule entry and every block, all busy time. A feed is
 * published (no METHOD needed by subscribers, but PUBLISH says so), refreshed about hourly.
 */
export function feedCalendar(f: { name: string; events: IcsEvent[]; blocks: IcsEvent[]; now: Date }): string {
  const cal = ical({ name: f.name, prodId: PRODUCT, method: ICalCalendarMethod.PUBLISH, ttl: 60 * 60 });
  for (const e of f.events) {
    cal.createEvent({
      ...eventFields(e, f.now),
      status: icsStatus(e.status),
      transparency: ICalEventTransparency.OPAQUE,
      busystatus: e.status === 'pending' ? ICalEventBusyStatus.TENTATIVE : ICalEventBusyStatus.BUSY,
    });
  }
  for (const b of f.blocks) {
    cal.createEvent({
      id: b.uid,
      start: b.start,
      end: b.end,
      stamp: f.now,
      summary: b.summary,
      description: b.description ?? null,
      status: ICalEventStatus.CONFIRMED,
      transparency: ICalEventTransparency.OPAQUE,
      busystatus: ICalEventBusyStatus.BUSY,
    });
  }
  return cal.toString();
}

export interface CustomerInvite {
  /** REQUEST: the event as it now stands (new or moved); CANCEL: it no longer happens. */
  method: 'REQUEST' | 'CANCEL';
  /** The business sends it (ORGANIZER is required by RFC 5546 for both methods). */
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  /** The booking's calendarSequence after the change: a client applies only a higher one. */
  sequence: number;
  /** One event per visit (a series has several, each with its own UID). */
  events: IcsEvent[];
  now: Date;
}

/** The `.ics` a customer's confirmation, change or cancellation mail carries (RFC 5546 iTIP). */
export function customerInvite(f: CustomerInvite): string {
  const method = f.method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST;
  const cal = ical({ prodId: PRODUCT, method });
  for (const e of f.events) {
    cal.createEvent({
      ...eventFields(e, f.now),
      sequence: f.sequence,
      status: f.method === 'CANCEL' ? ICalEventStatus.CANCELLED : icsStatus(e.status),
      organizer: f.organizer,
      attendees: [{ name: f.attendee.name, email: f.attendee.email, rsvp: false }],
    });
  }
  return cal.toString();
}

/** An `.ics` as a mail attachment; `method` in the content type lets mail clients offer to add it. */
export function icsAttachment(content: string, method: 'REQUEST' | 'CANCEL' | 'PUBLISH', filename = 'invite.ics') {
  return { filename, contentType: `text/calendar; charset=utf-8; method=${method}`, content };
}
