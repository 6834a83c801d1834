import { describe, expect, it } from 'vitest';
import { cancellationTerms, FREE_CANCEL_MS } from '../../src/core/cancellation.js';
import { bookingView, linkParts } from '../../facades/pages.js';
import { receiptOf } from '../../facades/payments.js';

const HOUR = 3600_000;
const now = Date.parse('2026-11-24T15:00:00Z');
const booking = (over: Partial<Parameters<typeof bookingView>[0]> = {}) => ({
  bookingId: 'bk_1', proId: 'sparkle', status: 'confirmed', holdUntil: null, kind: 'cleaning', trade: null, businessName: 'Sparkle & Co',
  customerNotes: null, price: 180, fee: null, address: '1 Main St', frequency: 'once', late: false,
  visits: [{ start: new Date(now + 30 * HOUR).toISOString(), end: new Date(now + 33 * HOUR).toISOString(), active: true }],
  messages: [{ from: 'business', text: 'See you', at: new Date(now - HOUR).toISOString() }],
  ...over,
});

describe('cancellationTerms', () => {
  it('is free until 24 hours before the next visit, then late; started and closed bookings do not cancel here', () => {
    expect(cancellationTerms('confirmed', [now + 30 * HOUR], now)).toEqual({ kind: 'free', freeUntil: now + 30 * HOUR - FREE_CANCEL_MS });
    expect(cancellationTerms('confirmed', [now + 23 * HOUR], now)).toEqual({ kind: 'late', nextStart: now + 23 * HOUR });
    expect(cancellationTerms('confirmed', [now + 24 * HOUR], now)).toEqual({ kind: 'free', freeUntil: now });
    // A series: the next visit still ahead decides.
    expect(cancellationTerms('confirmed', [now - HOUR, now + 2 * HOUR], now)).toEqual({ kind: 'late', nextStart: now + 2 * HOUR });
    expect(cancellationTerms('confirmed', [now - HOUR], now)).toEqual({ kind: 'started' });
    // Nothing was booked before the customer confirmed: never late.
    expect(cancellationTerms('pending', [now + HOUR], now, now + 2 * HOUR)).toEqual({ kind: 'free', freeUntil: null });
    expect(cancellationTerms('pending', [now + HOUR], now, now - 1)).toEqual({ kind: 'closed' });
    expect(cancellationTerms('cancelled', [now + 30 * HOUR], now)).toEqual({ kind: 'closed' });
  });
});

describe('bookingView', () => {
  it('shows times in the business zone, money and status in words, and the terms that apply now', () => {
    const v = bookingView(booking(), 'America/Chicago', now);
    expect(v.b.visits).toEqual([{ when: 'Wed, Nov 25, 3:00 PM CST', active: true }]);
    expect(v.b.priceText).toBe('Price: $180.00, firm, no added fees.');
    expect(v.b.statusText).toBe('confirmed');
    expect(v.b.messages[0]).toEqual({ from: 'Sparkle & Co', text: 'See you', at: 'Tue, Nov 24, 8:00 AM CST' });
    expect(v.termsText).toBe('Cancelling is free until Tue, Nov 24, 3:00 PM CST (24 hours before the start); later, Sparkle & Co may charge under its own policy.');
  });

  it('inside 24 hours says a cancellation now is late, in the mail\'s words', () => {
    const v = bookingView(booking({ visits: [{ start: new Date(now + 5 * HOUR).toISOString(), end: new Date(now + 8 * HOUR).toISOString(), active: true }] }), 'America/Chicago', now);
    expect(v.terms.kind).toBe('late');
    expect(v.termsText).toContain('is less than 24 hours away, so cancelling is no longer free');
    expect(v.termsText).toContain('a cancellation now is late');
  });

  it('a pending booking past its hold reads as lapsed and offers nothing to cancel', () => {
    const v = bookingView(booking({ status: 'pending', holdUntil: new Date(now - HOUR).toISOString() }), 'America/Chicago', now);
    expect(v.b.lapsed).toBe(true);
    expect(v.b.statusText).toMatch(/^lapsed/);
    expect(v.b.holdUntil).toBeNull();
    expect(v.terms.kind).toBe('closed');
  });

  it('a service call shows its fee, not a price', () => {
    const v = bookingView(booking({ kind: 'service_call', trade: 'hvac', price: null, fee: 89 }), 'America/Los_Angeles', now);
    expect(v.b.what).toBe('Service call (heating and cooling)');
    expect(v.b.priceText).toBe('Service-call fee: $89.00, firm; repairs are quoted on site.');
    expect(v.b.visits[0]!.when).toBe('Wed, Nov 25, 1:00 PM PST');
  });
});

describe('receiptOf', () => {
  const a = { status: 'confirmed', priceCents: 5400, paidCents: 5400, serviceName: 'Express blow-dry', start: new Date('2026-11-25T18:00:00Z'), business: { name: 'Velvet Hair Studio', timeZone: 'America/Los_Angeles' } };
  it('says what was paid, when, and what happens next', () => {
    expect(receiptOf(a, now)).toMatchObject({ businessName: 'Velvet Hair Studio', when: 'Wed, Nov 25, 10:00 AM PST', amount: '$54.00', paid: true, status: 'Confirmed' });
  });
  it('claims no payment before the provider reported one', () => {
    const r = receiptOf({ ...a, status: 'awaiting_payment', paidCents: null }, now);
    expect(r).toMatchObject({ paid: false, amount: '$54.00', status: 'Waiting for the payment provider' });
    expect(r.next).toContain('nothing is confirmed');
  });
});

describe('linkParts', () => {
  it('makes web addresses links without their closing punctuation, and nothing else', () => {
    expect(linkParts('Confirm: http://x.test/confirm/ct_1?manage=mt_2. Then javascript:alert(1) (see https://y.test/a).')).toEqual([
      { text: 'Confirm: ' }, { text: 'http://x.test/confirm/ct_1?manage=mt_2', href: 'http://x.test/confirm/ct_1?manage=mt_2' },
      { text: '. Then javascript:alert(1) (see ' }, { text: 'https://y.test/a', href: 'https://y.test/a' }, { text: ').' },
    ]);
    expect(linkParts('no links')).toEqual([{ text: 'no links' }]);
  });
});

describe('layout', () => {
  it('escapes the title, which may carry a business name', async () => {
    const { layout } = await import('../../facades/html.js');
    const html = layout('Your booking with <script>x</script> & "Co"', '<p>body</p>');
    expect(html).toContain('<title>Your booking with &lt;script&gt;x&lt;/script&gt; &amp; &quot;Co&quot; · Porchlight</title>');
    expect(html).not.toContain('<script>');
  });
});
