/**
 * iCalendar text as written by src/calendar/ics.ts, read back with an independent
 * parser (ical.js): instants, UIDs, SEQUENCE, METHOD and people's text survive exactly.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { customerInvite, eventUid, feedCalendar, icsAttachment } from '../../src/calendar/ics.js';
import { blockEvents, feedEvents, type FeedEntry } from '../../src/calendar/feed.js';
import { inviteAttachment, mailbox } from '../../src/calendar/invites.js';
import { isoWithOffset } from '../../src/core/time.js';

const BASE = 'https://porchlight.example';
const NOW = new Date('2026-11-23T15:00:00Z');

function read(text: string) {
  const cal = new ICAL.Component(ICAL.parse(text));
  return {
    method: cal.getFirstPropertyValue('method') as string | null,
    events: cal.getAllSubcomponents('vevent').map((v) => {
      const e = new ICAL.Event(v);
      return {
        uid: e.uid,
        start: e.startDate.toJSDate().getTime(),
        end: e.endDate.toJSDate().getTime(),
        summary: e.summary,
        description: e.description,
        location: e.location,
        sequence: e.sequence,
        status: v.getFirstPropertyValue('status') as string | null,
        transp: v.getFirstPropertyValue('transp') as string | null,
        organizer: v.getFirstPropertyValue('organizer') as string | null,
        attendee: v.getFirstPropertyValue('attendee') as string | null,
      };
    }),
  };
}

/** Text people type: any characters but controls (which no form or API input lets through). */
const typed = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s) && s.trim() === s && s.length > 0);

// The clock changes in Chicago (2026-03-08 spring forward, 2026-11-01 fall back) and plain days.
const DST_EDGES = ['2026-03-08T07:30:00Z', '2026-03-08T08:00:00Z', '2026-11-01T06:30:00Z', '2026-11-01T07:00:00Z', '2026-06-15T14:00:00Z'].map(Date.parse);
const instant = fc.oneof(
  fc.constantFrom(...DST_EDGES),
  fc.integer({ min: Date.parse('2026-01-01T00:00:00Z') / 60_000, max: Date.parse('2027-12-31T00:00:00Z') / 60_000 }).map((m) => m * 60_000),
);

describe('eventUid', () => {
  it('is the id at the host of BASE_URL, whatever its port or path', () => {
    expect(eventUid('https://porchlight.example', 'b1')).toBe('b1@porchlight.example');
    expect(eventUid('http://127.0.0.1:3000', 'b1')).toBe('b1@127.0.0.1');
    expect(eventUid('https://x.example/base', 'abc')).toBe('abc@x.example');
  });
});

describe('mailbox', () => {
  it('takes the address out of MAIL_FROM', () => {
    expect(mailbox('Porchlight <bookings@porchlight.test>')).toBe('bookings@porchlight.test');
    expect(mailbox('bookings@porchlight.test')).toBe('bookings@porchlight.test');
    expect(mailbox(' "A, B" <a@b.test> ')).toBe('a@b.test');
  });
});

describe('customerInvite', () => {
  const base = {
    organizer: { name: 'Sparkle, Co; "best"', email: 'owner@sparkle.test' },
    attendee: { name: 'Zoë Smith', email: 'zoe@example.com' },
    now: NOW,
  };
  const visit = { uid: 'b1@porchlight.example', start: new Date('2026-12-04T15:00:00Z'), end: new Date('2026-12-04T18:00:00Z'), summary: 'Cleaning with Sparkle', status: 'pending' };

  it('requests: METHOD:REQUEST, the UID, SEQUENCE, organizer and attendee, times in UTC', () => {
    const text = customerInvite({ ...base, method: 'REQUEST', sequence: 0, events: [visit] });
    expect(text).toMatch(/^BEGIN:VCALENDAR\r\n/);
    expect(text).toContain('METHOD:REQUEST');
    expect(text).toContain('DTSTART:20261204T150000Z');
    expect(text).not.toContain('TZID');
    const r = read(text);
    expect(r.method).toBe('REQUEST');
    expect(r.events).toEqual([
      expect.objectContaining({ uid: visit.uid, start: visit.start.getTime(), end: visit.end.getTime(), sequence: 0, status: 'TENTATIVE', organizer: 'mailto:owner@sparkle.test', attendee: expect.stringMatching(/^mailto:zoe@example.com$/i) }),
    ]);
  });

  it('cancels: METHOD:CANCEL and STATUS:CANCELLED whatever the entry said, with the given SEQUENCE', () => {
    const r = read(customerInvite({ ...base, method: 'CANCEL', sequence: 3, events: [{ ...visit, status: 'confirmed' }] }));
    expect(r.method).toBe('CANCEL');
    expect(r.events[0]).toMatchObject({ uid: visit.uid, sequence: 3, status: 'CANCELLED' });
  });

  it('maps statuses: pending tentative, confirmed and done confirmed, cancelled cancelled', () => {
    const statuses = ['pending', 'awaiting_payment', 'confirmed', 'done', 'cancelled', 'lapsed'].map(
      (status) => read(customerInvite({ ...base, method: 'REQUEST', sequence: 1, events: [{ ...visit, status }] })).events[0]!.status,
    );
    expect(statuses).toEqual(['TENTATIVE', 'TENTATIVE', 'CONFIRMED', 'CONFIRMED', 'CANCELLED', 'CANCELLED']);
  });

  it('keeps any typed summary, location and description exactly (fast-check)', () => {
    fc.assert(
      fc.property(typed, typed, typed, instant, fc.integer({ min: 15, max: 600 }), fc.nat({ max: 50 }), (summary, location, description, start, minutes, sequence) => {
        const events = [{ ...visit, summary, location, description, start: new Date(start), end: new Date(start + minutes * 60_000) }];
        const r = read(customerInvite({ ...base, method: 'REQUEST', sequence, events }));
        expect(r.events).toHaveLength(1);
        expect(r.events[0]).toMatchObject({ summary, location, description, start, end: start + minutes * 60_000, sequence });
      }),
      { numRuns: 150 },
    );
  });

  it('folds every line to at most 75 octets, never inside a character, and ends each with CRLF (fast-check)', () => {
    const long = fc.string({ unit: 'grapheme', minLength: 60, maxLength: 300 }).filter((s) => !/[\u0000-\u001f\u007f]/.test(s) && s.trim() === s);
    fc.assert(
      fc.property(long, (description) => {
        const text = customerInvite({ ...base, method: 'REQUEST', sequence: 0, events: [{ ...visit, description }] });
        expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
        for (const line of text.slice(0, -2).split('\r\n')) {
          expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
          expect(line).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
        }
        expect(read(text).events[0]!.description).toBe(description);
      }),
      { numRuns: 150 },
    );
  });
});

describe('inviteAttachment', () => {
  const facts = {
    id: 'bk1',
    sequence: 2,
    status: 'confirmed',
    business: { name: 'Sparkle', email: null },
    customer: { name: 'Robin', email: 'robin@example.com' },
    summary: 'Cleaning with Sparkle',
    visits: [
      { id: 'v1', start: new Date('2026-12-04T15:00:00Z'), end: new Date('2026-12-04T17:00:00Z') },
      { id: 'v2', start: new Date('2026-12-11T15:00:00Z'), end: new Date('2026-12-11T17:00:00Z') },
    ],
    now: NOW,
  };
  const config = { baseUrl: BASE, mailFrom: 'Porchlight <bookings@porchlight.test>' };

  it("one event per visit: a single visit's UID is the booking's, a series' are the booking's and the visit's", () => {
    const single = read(inviteAttachment(config, { ...facts, method: 'REQUEST', visits: facts.visits.slice(0, 1) }).content);
    expect(single.events.map((e) => e.uid)).toEqual(['bk1@porchlight.example']);
    const series = read(inviteAttachment(config, { ...facts, method: 'REQUEST', series: true }).content);
    expect(series.events.map((e) => e.uid)).toEqual(['bk1.v1@porchlight.example', 'bk1.v2@porchlight.example']);
    expect(series.events.map((e) => e.sequence)).toEqual([2, 2]);
  });

  it("is sent by the business's address, or by MAIL_FROM's when it has none", () => {
    expect(read(inviteAttachment(config, { ...facts, method: 'REQUEST' }).content).events[0]!.organizer).toBe('mailto:bookings@porchlight.test');
    const own = inviteAttachment(config, { ...facts, method: 'REQUEST', business: { name: 'Sparkle', email: 'hi@sparkle.test' } });
    expect(read(own.content).events[0]!.organizer).toBe('mailto:hi@sparkle.test');
  });

  it('names the method in its content type and file name', () => {
    expect(inviteAttachment(config, { ...facts, method: 'REQUEST' })).toMatchObject({ filename: 'invite.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST' });
    expect(inviteAttachment(config, { ...facts, method: 'CANCEL' })).toMatchObject({ filename: 'cancelled.ics', contentType: 'text/calendar; charset=utf-8; method=CANCEL' });
    expect(icsAttachment('x', 'PUBLISH', 'a.ics')).toEqual({ filename: 'a.ics', contentType: 'text/calendar; charset=utf-8; method=PUBLISH', content: 'x' });
  });
});

describe('the feed', () => {
  const entry = (e: Partial<FeedEntry>): FeedEntry => ({
    id: 'b1', kind: 'cleaning', start: '2026-12-04T09:00:00-06:00', end: '2026-12-04T12:00:00-06:00', status: 'confirmed', summary: 'Alex: cleaning', ...e,
  });

  it('gives each entry a UID of its own: a series adds its start, kinds stay apart', () => {
    const uids = feedEvents(BASE, [
      entry({}),
      entry({ id: 's1', start: '2026-12-04T13:00:00-06:00', end: '2026-12-04T14:00:00-06:00' }),
      entry({ id: 's1', start: '2026-12-11T13:00:00-06:00', end: '2026-12-11T14:00:00-06:00' }),
      entry({ id: 'a1', kind: 'appointment' }),
    ]).map((e) => e.uid);
    expect(uids).toEqual([
      'feed.cleaning.b1@porchlight.example',
      `feed.cleaning.s1.${Date.parse('2026-12-04T19:00:00Z')}@porchlight.example`,
      `feed.cleaning.s1.${Date.parse('2026-12-11T19:00:00Z')}@porchlight.example`,
      'feed.appointment.a1@porchlight.example',
    ]);
  });

  it('labels every kind and marks blocks busy', () => {
    const kinds = ['cleaning', 'service_call', 'own_job', 'visit', 'appointment'];
    const events = feedEvents(BASE, kinds.map((kind, i) => entry({ id: `e${i}`, kind })));
    expect(events.map((e) => e.summary.split(' · ')[0])).toEqual(['Cleaning', 'Service call', 'Own job', 'Visit', 'Appointment']);
    const text = feedCalendar({
      name: 'Sparkle',
      events,
      blocks: blockEvents(BASE, [
        { id: 'k1', start: new Date('2026-12-05T06:00:00Z'), end: new Date('2026-12-06T06:00:00Z'), reason: 'School play, 2pm; bring "snacks"' },
        { id: 'k2', start: new Date('2026-12-07T15:00:00Z'), end: new Date('2026-12-07T16:00:00Z'), reason: null },
      ]),
      now: NOW,
    });
    const r = read(text);
    expect(r.method).toBe('PUBLISH');
    expect(r.events).toHaveLength(7);
    expect(r.events.every((e) => e.transp === 'OPAQUE')).toBe(true);
    expect(r.events.slice(5).map((e) => e.summary)).toEqual(['Blocked · School play, 2pm; bring "snacks"', 'Blocked']);
    expect(text).toContain('X-WR-CALNAME:Sparkle');
  });

  it("parses back to every entry's own start, end and summary, across DST changes (fast-check)", () => {
    const zones = ['America/Chicago', 'America/New_York', 'UTC', 'Asia/Kolkata'];
    const entries = fc.array(
      fc.record({ start: instant, minutes: fc.integer({ min: 1, max: 24 * 60 }), summary: typed, kind: fc.constantFrom('cleaning', 'service_call', 'own_job', 'visit', 'appointment'), status: fc.constantFrom('pending', 'confirmed'), zone: fc.constantFrom(...zones) }),
      { maxLength: 25 },
    );
    fc.assert(
      fc.property(entries, (list) => {
        const feed = list.map((x, i) => {
          // The schedule's local ISO with its offset, as schedule writes them; the instant must survive.
          const at = (ms: number) => isoWithOffset(ms, x.zone);
          return entry({ id: `e${i}`, kind: x.kind, status: x.status, summary: x.summary, start: at(x.start), end: at(x.start + x.minutes * 60_000) });
        });
        const r = read(feedCalendar({ name: 'B', events: feedEvents(BASE, feed), blocks: [], now: NOW }));
        expect(r.events).toHaveLength(list.length);
        list.forEach((x, i) => {
          expect(r.events[i]).toMatchObject({ start: x.start, end: x.start + x.minutes * 60_000, status: x.status === 'pending' ? 'TENTATIVE' : 'CONFIRMED' });
          expect(r.events[i]!.summary.endsWith(` · ${x.summary}`)).toBe(true);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('reads instants written with a local offset the same as in UTC', () => {
    const [e] = feedEvents(BASE, [entry({ start: '2026-03-08T01:30:00-06:00', end: '2026-03-08T03:30:00-05:00' })]);
    expect([e!.start.toISOString(), e!.end.toISOString()]).toEqual(['2026-03-08T07:30:00.000Z', '2026-03-08T08:30:00.000Z']);
  });
});
