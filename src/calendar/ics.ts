/**
 * iCalendar (RFC 5545) text, written here: every value typed by a person (names, addresses,
 * reasons) is escaped as data, and lines are folded at 75 octets. (ical-generator wrote it
 * before, at ~1.5 ms an invitation, most of it a TextEncoder made per character to fold lines:
 * a third of a booking's CPU.) Times are written in UTC (`Z`), which needs no VTIMEZONE.
 */
import { icalUtc } from '../core/time.js';

const PRODUCT = '-//Porchlight//Porchlight calendar//EN';

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
function icsStatus(status: EntryStatus): 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED' {
  if (status === 'pending' || status === 'awaiting_payment') return 'TENTATIVE';
  if (status === 'cancelled' || status === 'lapsed' || status === 'refunded' || status === 'refund_pending' || status === 'refund_failed') return 'CANCELLED';
  return 'CONFIRMED';
}

/** A TEXT value: backslash, semicolon and comma escaped, line breaks as \n. */
const text = (value: string) => value.replace(/[\\;,]/g, '\\$&').replace(/\r\n|\r|\n/g, '\\n');

/** A quoted parameter value (CN): backslash and quote escaped, as ical-generator wrote them. */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, '\\$&').replace(/\r\n|\r|\n/g, '\\n')}"`;

/** UTF-8 octets of the code point at `i` and the UTF-16 units it takes (a lone surrogate is written as U+FFFD). */
function octetsAt(line: string, i: number): [octets: number, units: number] {
  const c = line.charCodeAt(i);
  if (c < 0x80) return [1, 1];
  if (c < 0x800) return [2, 1];
  if (c >= 0xd800 && c <= 0xdbff) {
    const next = line.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return [4, 2];
  }
  return [3, 1];
}

/** A content line folded so no line passes 75 octets (RFC 5545 3.1), never inside a character. */
function fold(line: string): string {
  // Most lines are short ASCII: nothing to count.
  if (line.length <= 74 && !/[^\x00-\x7f]/.test(line)) return line;
  let out = '';
  let octets = 0;
  for (let i = 0; i < line.length; ) {
    const [size, units] = octetsAt(line, i);
    octets += size;
    if (octets > 74) {
      out += '\r\n ';
      octets = size;
    }
    out += line.slice(i, i + units);
    i += units;
  }
  return out;
}

/** The lines of one VEVENT, in the order ical-generator wrote them. */
function eventLines(e: IcsEvent, f: { now: Date; sequence: number; status: string; transparency?: 'OPAQUE'; busy?: 'BUSY' | 'TENTATIVE'; organizer?: { name: string; email: string }; attendee?: { name: string; email: string } }): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `SEQUENCE:${f.sequence}`,
    `DTSTAMP:${icalUtc(f.now)}`,
    `DTSTART:${icalUtc(e.start)}`,
    `DTEND:${icalUtc(e.end)}`,
    `SUMMARY:${text(e.summary)}`,
    ...(f.transparency ? [`TRANSP:${f.transparency}`] : []),
    ...(e.location ? [`LOCATION:${text(e.location)}`] : []),
    ...(e.description ? [`DESCRIPTION:${text(e.description)}`] : []),
    ...(f.organizer ? [`ORGANIZER;CN=${quoted(f.organizer.name)}:mailto:${f.organizer.email}`] : []),
    ...(f.attendee ? [`ATTENDEE;ROLE=REQ-PARTICIPANT;RSVP=FALSE;CN=${quoted(f.attendee.name)}:MAILTO:${text(f.attendee.email)}`] : []),
    `STATUS:${f.status}`,
    ...(f.busy ? [`X-MICROSOFT-CDO-BUSYSTATUS:${f.busy}`] : []),
    'END:VEVENT',
  ];
}

/** A VCALENDAR of these lines, folded, CRLF-terminated. */
const calendar = (head: string[], events: string[][]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODUCT}`, ...head, ...events.flat(), 'END:VCALENDAR'].map(fold).join('\r\n') + '\r\n';

/**
 * The owner's private feed: every schedule entry and every block, all busy time. A feed is
 * published (no METHOD needed by subscribers, but PUBLISH says so), refreshed about hourly.
 */
export function feedCalendar(f: { name: string; events: IcsEvent[]; blocks: IcsEvent[]; now: Date }): string {
  const name = text(f.name);
  return calendar(
    ['METHOD:PUBLISH', `NAME:${name}`, `X-WR-CALNAME:${name}`, 'REFRESH-INTERVAL;VALUE=DURATION:PT1H', 'X-PUBLISHED-TTL:PT1H'],
    [
      ...f.events.map((e) =>
        eventLines(e, { now: f.now, sequence: 0, status: icsStatus(e.status), transparency: 'OPAQUE', busy: e.status === 'pending' ? 'TENTATIVE' : 'BUSY' }),
      ),
      ...f.blocks.map((b) => eventLines({ ...b, location: null }, { now: f.now, sequence: 0, status: 'CONFIRMED', transparency: 'OPAQUE', busy: 'BUSY' })),
    ],
  );
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
  return calendar(
    [`METHOD:${f.method}`],
    f.events.map((e) =>
      eventLines(e, { now: f.now, sequence: f.sequence, status: f.method === 'CANCEL' ? 'CANCELLED' : icsStatus(e.status), organizer: f.organizer, attendee: f.attendee }),
    ),
  );
}

/** An `.ics` as a mail attachment; `method` in the content type lets mail clients offer to add it. */
export function icsAttachment(content: string, method: 'REQUEST' | 'CANCEL' | 'PUBLISH', filename = 'invite.ics') {
  return { filename, contentType: `text/calendar; charset=utf-8; method=${method}`, content };
}
