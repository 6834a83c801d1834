import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { localParts, localSpan } from '../../src/core/local-time.js';
import { hoursMap, parseDayHours } from '../../src/core/hours.js';
import { outsideChangedHours } from '../../src/owners/schedule.js';
import { nextFollowUp } from '../../src/leads/follow-ups.js';
import { followUpDraft, replyDraft, type DraftFacts } from '../../src/leads/drafts.js';
import { normalisePhone, withoutContactDetails } from '../../src/sms/phone.js';

const H = 3_600_000;
const DAY = 24 * H;

describe('localSpan (blocks on local days)', () => {
  it('spans a whole ordinary day, a 23-hour spring day and a 25-hour fall day', () => {
    const day = (date: string, zone: string) => { const s = localSpan(date, 0, 1440, zone)!; return (s.end - s.start) / H; };
    expect(day('2026-12-01', 'America/Chicago')).toBe(24);
    expect(day('2027-03-14', 'America/Chicago')).toBe(23);
    expect(day('2027-11-07', 'America/Los_Angeles')).toBe(25);
  });

  it('reads a missing time as the moment the clock jumps, and a repeated hour as both of its passes', () => {
    const gap = localSpan('2027-03-14', 120 + 30, 180 + 30, 'America/Chicago')!; // 02:30-03:30 (02:30 does not exist)
    expect(new Date(gap.start).toISOString()).toBe('2027-03-14T08:00:00.000Z'); // 03:00 CDT
    expect(new Date(gap.end).toISOString()).toBe('2027-03-14T08:30:00.000Z'); // 03:30 CDT
    const twice = localSpan('2027-11-07', 60, 120, 'America/Chicago')!; // 01:00-02:00 happens twice
    expect((twice.end - twice.start) / H).toBe(2);
  });

  it('covers exactly the instants whose local clock reads inside the span (property, any zone and day)', () => {
    const zones = ['America/Chicago', 'America/Los_Angeles', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata'];
    fc.assert(
      fc.property(fc.constantFrom(...zones), fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 1, max: 1440 }), (zone, dayIndex, a, len) => {
        const date = new Date(Date.UTC(2026, 0, 1) + dayIndex * DAY).toISOString().slice(0, 10);
        const start = a;
        const end = Math.min(1440, a + len);
        const span = localSpan(date, start, end, zone)!;
        expect(span.end).toBeGreaterThanOrEqual(span.start);
        // Every 15 minutes inside reads a local time on that date within [start, end].
        for (let t = span.start; t < span.end; t += 15 * 60_000) {
          const p = localParts(t, zone);
          expect(p.date === date ? p.minute >= start - 60 && p.minute < end + 60 : end === 1440).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('weekly hours', () => {
  it('reads "HH:MM-HH:MM" (to midnight: "…-23:59") or closed, and refuses the rest', () => {
    expect(parseDayHours('08:00-17:00')).toEqual({ startMinute: 480, endMinute: 1020 });
    expect(parseDayHours('18:00-23:59')).toEqual({ startMinute: 1080, endMinute: 1440 });
    expect(parseDayHours('closed')).toBeNull();
    for (const bad of ['17:00-08:00', '08:00-08:00', '8:00-17:00', '08:00-24:30', '18:00-24:00', '24:00-24:00', 'open', '']) expect(() => parseDayHours(bad), bad).toThrow();
    expect(hoursMap([{ weekday: 1, startMinute: 480, endMinute: 1020 }])).toEqual({
      sunday: 'closed', monday: '08:00-17:00', tuesday: 'closed', wednesday: 'closed', thursday: 'closed', friday: 'closed', saturday: 'closed',
    });
  });

  it('finds jobs stranded by changed hours, only on changed days', () => {
    const zone = 'America/Chicago';
    const job = { start: Date.parse('2026-12-03T15:00:00Z'), end: Date.parse('2026-12-03T18:00:00Z') }; // Thursday 09:00-12:00
    expect(outsideChangedHours(job, new Map([[4, null]]), zone)).toBe(true);
    expect(outsideChangedHours(job, new Map([[4, { weekday: 4, startMinute: 600, endMinute: 1020 }]]), zone)).toBe(true);
    expect(outsideChangedHours(job, new Map([[4, { weekday: 4, startMinute: 540, endMinute: 720 }]]), zone)).toBe(false);
    expect(outsideChangedHours(job, new Map([[5, null]]), zone)).toBe(false);
  });
});

describe('lead follow-ups', () => {
  const quotedAt = new Date('2026-11-23T15:00:00Z');
  const base = { status: 'quoted', quotedAt, followUps: 0, lastFollowUpAt: null, repliedAt: null, flaggedAt: null };
  it('is due 1 day after the quote, then 2 days after the first follow-up, then never', () => {
    expect(nextFollowUp(base)).toEqual({ number: 1, dueAt: quotedAt.getTime() + DAY });
    const sent = new Date(quotedAt.getTime() + 30 * H);
    expect(nextFollowUp({ ...base, followUps: 1, lastFollowUpAt: sent })).toEqual({ number: 2, dueAt: sent.getTime() + 2 * DAY });
    expect(nextFollowUp({ ...base, followUps: 2, lastFollowUpAt: sent })).toBeNull();
  });
  it('is never due for a booked, lost, answered or flagged lead', () => {
    for (const change of [{ status: 'booked' }, { status: 'lost' }, { repliedAt: quotedAt }, { flaggedAt: quotedAt }]) expect(nextFollowUp({ ...base, ...change })).toBeNull();
  });
});

describe('drafts', () => {
  const facts: DraftFacts = {
    source: 'thumbtack', businessName: 'Sparkle', businessPhone: '+1-512-555-0172', bookingPage: 'https://x.test/b/sparkle', customerName: 'Maria Lopez',
    summary: 'Standard clean: 2 bedrooms, 1 bathroom', kind: 'cleaning', price: 150, starts: ['2026-11-24T08:00:00-06:00', '2026-11-24T11:00:00-06:00'], zip: '78704', zipServed: true,
  };
  it("writes in each platform's manner, keeping marketplace replies inside the platform", () => {
    const market = replyDraft(facts);
    expect(market).toBe('Hi Maria, Thanks for your request on Thumbtack. We can do your standard clean: 2 bedrooms, 1 bathroom for $150, a firm price with no added fees. Open times: Tue Nov 24 at 8:00 AM or Tue Nov 24 at 11:00 AM. Which works for you? Reply here and I will lock it in.');
    expect(replyDraft({ ...facts, source: 'nextdoor', customerName: null })).toMatch(/^Hi neighbor! .* text \+1-512-555-0172\.$/);
    expect(replyDraft({ ...facts, source: 'direct' })).toContain('https://x.test/b/sparkle');
    expect(replyDraft({ ...facts, source: 'instagram' })).toMatch(/^Hi Maria! Thanks for the message\./);
    expect(replyDraft({ ...facts, zipServed: false })).toMatch(/don't serve ZIP 78704/);
    expect(replyDraft({ ...facts, kind: 'service_call', summary: 'Plumbing service call: leak', price: 89 })).toMatch(/service-call fee is \$89: it covers the visit and diagnosis/);
    expect(followUpDraft(facts, 1)).toMatch(/^Hi Maria, just checking in/);
    expect(followUpDraft(facts, 2)).toMatch(/one last note/);
  });
});

describe('phone numbers', () => {
  it('normalises the ways people type US numbers to E.164', () => {
    for (const typed of ['512-555-0134', '(512) 555-0134', '+1 512 555 0134', '15125550134', '512.555.0134 ext 2']) expect(normalisePhone(typed)?.e164, typed).toBe('+15125550134');
    expect(normalisePhone('hello')).toBeNull();
    expect(normalisePhone('12345')).toBeNull();
  });
  it('removes phone numbers and e-mail addresses from text', () => {
    expect(withoutContactDetails('Text 512-555-0134 or (737) 555 0199, or a.b@example.com. 3 bedrooms.')).toBe('Text [phone removed] or [phone removed], or [e-mail removed]. 3 bedrooms.');
  });
});
