import { describe, expect, it } from 'vitest';
import { centsForPeople, dollarsForPeople, whenForPeople, wordsFor } from '../../src/core/for-people.js';

const CHICAGO = 'America/Chicago';
const LA = 'America/Los_Angeles';

describe('whenForPeople', () => {
  it('writes an instant in the business zone in words, whatever offset the ISO string carries', () => {
    expect(whenForPeople('2026-11-25T16:12:00-06:00', CHICAGO)).toBe('Wed, Nov 25, 4:12 PM CST');
    expect(whenForPeople('2026-11-25T22:12:00Z', CHICAGO)).toBe('Wed, Nov 25, 4:12 PM CST');
    expect(whenForPeople(Date.parse('2026-11-25T22:12:00Z'), LA)).toBe('Wed, Nov 25, 2:12 PM PST');
    expect(whenForPeople(new Date('2026-07-04T15:00:00Z'), CHICAGO)).toBe('Sat, Jul 4, 10:00 AM CDT');
  });

  it('uses the offset in force on each side of a DST change', () => {
    // Spring forward 2027-03-14 at 2:00 in Chicago: 1:59 CST is followed by 3:00 CDT.
    expect(whenForPeople('2027-03-14T07:59:00Z', CHICAGO)).toBe('Sun, Mar 14, 1:59 AM CST');
    expect(whenForPeople('2027-03-14T08:00:00Z', CHICAGO)).toBe('Sun, Mar 14, 3:00 AM CDT');
    // Fall back 2026-11-01 at 2:00: 1:30 happens twice, once in each zone abbreviation.
    expect(whenForPeople('2026-11-01T06:30:00Z', CHICAGO)).toBe('Sun, Nov 1, 1:30 AM CDT');
    expect(whenForPeople('2026-11-01T07:30:00Z', CHICAGO)).toBe('Sun, Nov 1, 1:30 AM CST');
    // Midday on both DST days is on the day itself, not shifted by the hour.
    expect(whenForPeople('2026-11-01T18:00:00Z', CHICAGO)).toBe('Sun, Nov 1, 12:00 PM CST');
    expect(whenForPeople('2027-03-14T17:00:00Z', CHICAGO)).toBe('Sun, Mar 14, 12:00 PM CDT');
  });

  it('adds the year only when it is not the current year in that zone', () => {
    const now = Date.parse('2026-12-31T12:00:00Z');
    expect(whenForPeople('2026-12-31T23:00:00Z', CHICAGO, now)).toBe('Thu, Dec 31, 5:00 PM CST');
    // Past midnight UTC but still Dec 31 in Chicago.
    expect(whenForPeople('2027-01-01T05:00:00Z', CHICAGO, now)).toBe('Thu, Dec 31, 11:00 PM CST');
    expect(whenForPeople('2027-01-04T15:00:00Z', CHICAGO, now)).toBe('Mon, Jan 4, 2027, 9:00 AM CST');
  });

  it('never prints an ISO string, a narrow space or "Invalid Date"', () => {
    const out = whenForPeople('2026-11-25T16:12:00-06:00', CHICAGO);
    expect(out).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(out).not.toMatch(/[\u202F\u00A0]/);
    expect(() => whenForPeople('not a date', CHICAGO)).toThrow(RangeError);
    expect(() => whenForPeople('2026-11-25T16:12:00-06:00', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('money for people', () => {
  it('writes dollars with cents and thousands separators', () => {
    expect(dollarsForPeople(180)).toBe('$180.00');
    expect(dollarsForPeople(54.5)).toBe('$54.50');
    expect(dollarsForPeople(0.1 + 0.2)).toBe('$0.30');
    expect(dollarsForPeople(1234.5)).toBe('$1,234.50');
    expect(dollarsForPeople(-12)).toBe('-$12.00');
    expect(centsForPeople(6500)).toBe('$65.00');
    expect(centsForPeople(5)).toBe('$0.05');
    expect(() => dollarsForPeople(Number.NaN)).toThrow(RangeError);
  });
});

describe('wordsFor', () => {
  it('says statuses and kinds as words, never enum names', () => {
    expect(wordsFor('pending')).toBe('waiting for your confirmation');
    expect(wordsFor('service_call')).toBe('service call');
    expect(wordsFor('no_show')).toBe('marked as a no-show');
    expect(wordsFor('biweekly')).toBe('every two weeks');
    expect(wordsFor('some_new_state')).toBe('some new state');
    expect(wordsFor(null)).toBe('');
  });
});
