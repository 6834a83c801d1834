import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import {
  dateToDayNumber,
  dayNumberToDate,
  formatHHMM,
  isoWithOffset,
  isValidDate,
  isValidZone,
  localDate,
  parseHHMM,
  parseStart,
  zoneOffset,
} from '../../src/core/time.js';

describe('parseHHMM / formatHHMM', () => {
  it('parses valid times', () => {
    expect(parseHHMM('00:00')).toBe(0);
    expect(parseHHMM('09:30')).toBe(570);
    expect(parseHHMM('23:59')).toBe(1439);
  });
  it.each(['24:00', '9:30', '09:3', '09:60', '', ' 09:30', '09:30 ', '0930', 'ab:cd', '-1:00', '12:00:00'])(
    'rejects %j with RangeError',
    (s) => {
      expect(() => parseHHMM(s)).toThrow(RangeError);
    },
  );
  it('formats minutes, including 24:00 for an end-of-day bound', () => {
    expect(formatHHMM(0)).toBe('00:00');
    expect(formatHHMM(570)).toBe('09:30');
    expect(formatHHMM(1439)).toBe('23:59');
    expect(formatHHMM(1440)).toBe('24:00');
  });
  it('rejects out-of-range or fractional minutes', () => {
    for (const m of [-1, 1441, 1.5, Number.NaN]) expect(() => formatHHMM(m)).toThrow(RangeError);
  });
  it('round-trips every minute of the day', () => {
    for (let m = 0; m < 1440; m++) expect(parseHHMM(formatHHMM(m))).toBe(m);
  });
});

describe('isoWithOffset', () => {
  it('renders local time with a numeric offset and no milliseconds', () => {
    expect(isoWithOffset(Date.parse('2026-12-01T15:00:00.123Z'), 'America/Chicago')).toBe('2026-12-01T09:00:00-06:00');
    expect(isoWithOffset(Date.parse('2026-07-01T16:00:00Z'), 'America/Chicago')).toBe('2026-07-01T11:00:00-05:00');
    expect(isoWithOffset(Date.parse('2026-07-01T16:00:00Z'), 'America/Los_Angeles')).toBe('2026-07-01T09:00:00-07:00');
    expect(isoWithOffset(Date.parse('2026-07-01T16:00:00Z'), 'Asia/Kolkata')).toBe('2026-07-01T21:30:00+05:30');
  });
  it('never uses Z, even for UTC zones', () => {
    expect(isoWithOffset(0, 'UTC')).toBe('1970-01-01T00:00:00+00:00');
    expect(isoWithOffset(0, 'Etc/UTC')).toBe('1970-01-01T00:00:00+00:00');
    expect(isoWithOffset(Date.parse('2026-01-15T10:00:00Z'), 'Europe/London')).toBe('2026-01-15T10:00:00+00:00');
  });
  it('shows both offsets of a repeated fall-back hour', () => {
    expect(isoWithOffset(Date.parse('2026-11-01T06:30:00Z'), 'America/Chicago')).toBe('2026-11-01T01:30:00-05:00');
    expect(isoWithOffset(Date.parse('2026-11-01T07:30:00Z'), 'America/Chicago')).toBe('2026-11-01T01:30:00-06:00');
  });
  it('throws on an unknown zone', () => {
    expect(() => isoWithOffset(0, 'Mars/Olympus')).toThrow(RangeError);
  });
  it('round-trips through parseStart', () => {
    const t = Date.parse('2026-03-08T08:00:00Z');
    expect(parseStart(isoWithOffset(t, 'America/Chicago'))).toBe(t);
    expect(parseStart(isoWithOffset(t, 'UTC'))).toBe(t);
  });
});

describe('parseStart', () => {
  it('accepts offsets and Z', () => {
    expect(parseStart('2026-12-01T09:00:00-06:00')).toBe(Date.parse('2026-12-01T15:00:00Z'));
    expect(parseStart('2026-12-01T15:00:00Z')).toBe(Date.parse('2026-12-01T15:00:00Z'));
    expect(parseStart('2026-12-01T15:00:00z')).toBe(Date.parse('2026-12-01T15:00:00Z'));
    expect(parseStart('2026-12-01T09:00-06:00')).toBe(Date.parse('2026-12-01T15:00:00Z'));
    expect(parseStart('2026-12-01T09:00:00.500-0600')).toBe(Date.parse('2026-12-01T15:00:00.500Z'));
    expect(parseStart('2026-12-01T20:30:00+05:30')).toBe(Date.parse('2026-12-01T15:00:00Z'));
    expect(parseStart('2026-12-01T09:00:00.123456789Z')).toBe(Date.parse('2026-12-01T09:00:00.123Z'));
    expect(parseStart('2028-02-29T09:00:00Z')).toBe(Date.parse('2028-02-29T09:00:00Z'));
    // 24:00 is the end of the day, the next day's midnight (ISO 8601, as luxon read it).
    expect(parseStart('2026-12-31T24:00:00-06:00')).toBe(Date.parse('2027-01-01T06:00:00Z'));
  });
  it('distinguishes the two 01:30s of a fall-back night by offset', () => {
    const a = parseStart('2026-11-01T01:30:00-05:00')!;
    const b = parseStart('2026-11-01T01:30:00-06:00')!;
    expect(b - a).toBe(3_600_000);
  });
  it.each([
    '2026-12-01T09:00:00', // no offset: ambiguous
    '2026-12-01',
    '2026-12-01 09:00:00Z',
    '2026-13-01T09:00:00Z',
    '2026-02-30T09:00:00Z',
    '2026-12-01T25:00:00Z',
    '2026-12-01T24:30:00Z',
    '2026-12-01T24:00:00.001Z',
    '2026-12-01T09:60:00Z',
    '2026-12-01T09:00:60Z',
    '2026-02-29T09:00:00Z',
    '2026-12-01T09:00:00+25:00',
    'tomorrow',
    '',
    '1764601200000',
    // Outside the years served: PostgreSQL cannot store year 0, and nothing is booked centuries away.
    '0000-01-02T09:00:00Z',
    '1999-12-31T09:00:00-06:00',
    '2100-01-01T09:00:00Z',
    '9999-12-31T23:00:00Z',
  ])('returns null for %j', (s) => {
    expect(parseStart(s)).toBeNull();
  });
});

describe('localDate / isValidDate', () => {
  it('uses the local calendar date, not the UTC one', () => {
    const t = Date.parse('2026-12-02T05:30:00Z'); // 23:30 on Dec 1 in Chicago
    expect(localDate(t, 'America/Chicago')).toBe('2026-12-01');
    expect(localDate(t, 'UTC')).toBe('2026-12-02');
    expect(localDate(t, 'Asia/Tokyo')).toBe('2026-12-02');
  });
  it('validates dates strictly', () => {
    expect(isValidDate('2026-12-01')).toBe(true);
    expect(isValidDate('2028-02-29')).toBe(true);
    expect(isValidDate('2026-02-29')).toBe(false);
    expect(isValidDate('2026-04-31')).toBe(false);
    expect(isValidDate('2026-00-10')).toBe(false);
    expect(isValidDate('2026-1-01')).toBe(false);
    expect(isValidDate('0026-01-01')).toBe(false);
    expect(isValidDate('2026-12-01T00:00')).toBe(false);
    expect(isValidDate('')).toBe(false);
  });
  it('converts dates to day numbers and back', () => {
    expect(dateToDayNumber('1970-01-01')).toBe(0);
    expect(dateToDayNumber('1970-01-02')).toBe(1);
    expect(dateToDayNumber('1969-12-31')).toBe(-1);
    expect(dayNumberToDate(dateToDayNumber('2026-03-08')!)).toBe('2026-03-08');
    expect(dateToDayNumber('2026-02-30')).toBeNull();
  });
  it('knows valid zones', () => {
    expect(isValidZone('America/Chicago')).toBe(true);
    expect(isValidZone('UTC')).toBe(true);
    expect(isValidZone('America/Austin')).toBe(false);
    expect(isValidZone('')).toBe(false);
  });
});

describe('isoWithOffset and zoneOffset agree with luxon everywhere', () => {
  const zones = ['America/Chicago', 'America/Los_Angeles', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'UTC'];
  it('for any instant between 2000 and 2060, in zones with odd offsets and DST rules', () => {
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2060, 0, 1) }), (zone, ms) => {
        const instant = Math.floor(ms / 1000) * 1000;
        const expected = DateTime.fromMillis(instant, { zone }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
        expect(isoWithOffset(instant, zone)).toBe(expected);
        expect(zoneOffset(zone, instant)).toBe(DateTime.fromMillis(instant, { zone }).offset);
      }),
      { numRuns: 3000 },
    );
  });

  it('on each side of the 2026 transitions in the live zones', () => {
    const cases: [string, string, string][] = [
      ['America/Chicago', '2026-03-08T07:59:59Z', '2026-03-08T01:59:59-06:00'],
      ['America/Chicago', '2026-03-08T08:00:00Z', '2026-03-08T03:00:00-05:00'],
      ['America/Chicago', '2026-11-01T06:59:59Z', '2026-11-01T01:59:59-05:00'],
      ['America/Chicago', '2026-11-01T07:00:00Z', '2026-11-01T01:00:00-06:00'],
      ['America/Los_Angeles', '2026-03-08T10:00:00Z', '2026-03-08T03:00:00-07:00'],
      ['America/Los_Angeles', '2026-11-01T09:00:00Z', '2026-11-01T01:00:00-08:00'],
    ];
    for (const [zone, utc, local] of cases) expect(isoWithOffset(Date.parse(utc), zone)).toBe(local);
  });
});
