/** The dashboard home's view of a schedule, and the for-people pieces it uses. */
import { describe, expect, it } from 'vitest';
import { clockForPeople, dayForPeople, instantsInWords, localDateOf } from '../../src/core/for-people.js';
import { homeView, type ScheduleBody, type ScheduleEntry } from '../../facades/dashboard-home.js';
import { inWords } from '../../src/mail/words.js';

const ZONE = 'America/Chicago';
const NOW = Date.parse('2026-11-23T15:00:00Z'); // Mon, Nov 23, 9:00 AM CST

const entry = (over: Partial<ScheduleEntry>): ScheduleEntry => ({
  booking_id: 'b1', kind: 'cleaning', status: 'confirmed', start: '2026-11-23T13:00:00-06:00', end: '2026-11-23T15:30:00-06:00',
  customer_name: 'Robin <b>Park</b>', customer_phone: null, customer_email: null, address: '12 Oak St', price: 180, fee: null, source: 'porchlight',
  client_name: null, done: false, job: 'Standard clean', notes: null, details: null, technician: null, ...over,
});

const body = (jobs: ScheduleEntry[], extra: Partial<ScheduleBody> = {}): ScheduleBody => ({ jobs, awaiting_confirmation: [], blocks: [], time_zone: ZONE, notifications: [], ...extra });

describe('for-people pieces', () => {
  it('times of day, day headings and local dates in the zone, across DST', () => {
    expect(clockForPeople('2026-11-25T16:12:00-06:00', ZONE, false)).toBe('4:12 PM');
    expect(dayForPeople('2026-11-25T16:12:00-06:00', ZONE)).toBe('Wed, Nov 25');
    // 11 PM in Chicago is the next day in UTC: the local date is the zone's.
    expect(localDateOf('2026-11-26T05:00:00Z', ZONE)).toBe('2026-11-25');
    expect(clockForPeople('2026-03-08T08:30:00Z', ZONE, false)).toBe('3:30 AM');
    expect(() => clockForPeople('not a time', ZONE, false)).toThrow(RangeError);
  });

  it('rewrites every ISO instant of a text, and only those', () => {
    expect(instantsInWords('from 2026-11-25T16:12:00-06:00 to 2026-11-25T17:00:00.000Z; booking 2026-11-25', ZONE)).toBe(
      'from Wed, Nov 25, 4:12 PM CST to Wed, Nov 25, 11:00 AM CST; booking 2026-11-25',
    );
  });

  it('a mail in words keeps its attachments as they are', () => {
    const ics = { filename: 'invite.ics', content: 'DTSTART:20261125T221200Z', contentType: 'text/calendar' };
    const mail = inWords({ to: 'a@example.com', subject: 'Moved to 2026-11-25T16:12:00-06:00', text: 'Now 2026-11-25T16:12:00-06:00.', attachments: [ics] }, ZONE);
    expect(mail.subject).toBe('Moved to Wed, Nov 25, 4:12 PM CST');
    expect(mail.text).toBe('Now Wed, Nov 25, 4:12 PM CST.');
    expect(mail.attachments).toEqual([ics]);
  });
});

describe('homeView', () => {
  it('splits today from the next days, soonest first, blocks among them, in words', () => {
    const v = homeView(
      body(
        [
          entry({ booking_id: 'later', start: '2026-11-25T09:00:00-06:00', end: '2026-11-25T10:00:00-06:00', kind: 'appointment', price: 25, status: 'awaiting_payment' }),
          entry({ booking_id: 'today' }),
          entry({ booking_id: 'call', kind: 'service_call', status: 'pending', start: '2026-11-24T11:30:00-06:00', end: '2026-11-24T13:30:00-06:00', price: null, fee: 89, client_name: 'Claude' }),
          entry({ booking_id: 'own', kind: 'own_job', source: 'own', start: '2026-11-24T07:00:00-06:00', end: '2026-11-24T09:00:00-06:00' }),
        ],
        { blocks: [{ block_id: 'blk', whole_day: false, start_at: '2026-11-25T20:00:00-06:00', end_at: '2026-11-25T21:00:00-06:00', reason: null }] },
      ),
      NOW,
    );
    expect(v.todayHeading).toBe('Mon, Nov 23');
    expect(v.today.map((e) => [e.id, e.time, e.kind, e.status, e.money])).toEqual([['today', '1:00 – 3:30 PM', 'Cleaning', 'confirmed', 'Price $180.00']]);
    expect(v.week.map((d) => [d.heading, d.entries.map((e) => e.id)])).toEqual([
      ['Tue, Nov 24', ['own', 'call']],
      ['Wed, Nov 25', ['later', 'blk']],
    ]);
    const [own, call] = v.week[0]!.entries;
    expect(own).toMatchObject({ kind: 'Your own job', source: null });
    expect(call).toMatchObject({ time: 'Arrives 11:30 AM – 1:30 PM', kind: 'Service call', status: 'not yet confirmed by the customer', money: 'Service-call fee $89.00; repairs quoted on site', source: 'Booked through Claude' });
    const [appointment, block] = v.week[1]!.entries;
    expect(appointment).toMatchObject({ time: '9:00 – 10:00 AM', status: 'waiting for the customer to pay', money: 'Price $25.00' });
    expect(block).toMatchObject({ time: '8:00 – 9:00 PM', kind: 'Blocked time', block: true });
    // Names stay as typed: the template escapes them.
    expect(v.today[0]!.customer).toBe('Robin <b>Park</b>');
  });

  it('says notifications in words and leaves out blocks beyond the week', () => {
    const v = homeView(
      body([], {
        blocks: [{ block_id: 'far', whole_day: true, start_at: '2026-12-10T00:00:00-06:00', end_at: '2026-12-11T00:00:00-06:00', reason: 'Holiday' }],
        notifications: [{ type: 'booking.created', at: '2026-11-23T08:30:00-06:00', text: 'New booking: Sam for 2026-11-24T11:30:00-06:00.', read: false }],
      }),
      NOW,
    );
    expect(v.today).toEqual([]);
    expect(v.week).toEqual([]);
    expect(v.notifications).toEqual([{ when: 'Mon, Nov 23, 8:30 AM CST', text: 'New booking: Sam for Tue, Nov 24, 11:30 AM CST.' }]);
  });
});
