import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cannotText, parsePhone, textablePhone } from '../../src/core/phone.js';

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
/** Ten US digits with a possible area code and exchange (first digits 2-9). */
const usDigits = fc.tuple(fc.integer({ min: 2, max: 9 }), digits(2), fc.integer({ min: 2, max: 9 }), digits(6)).map(([a, b, c, d]) => `${a}${b}${c}${d}`);
/** The ways people type one US number. */
const typed = (d: string) => [
  `+1${d}`, d, `1${d}`, `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`, `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`,
  `+1 ${d.slice(0, 3)} ${d.slice(3, 6)} ${d.slice(6)}`, ` ${d.slice(0, 3)}-${d.slice(3, 6)}-${d.slice(6)} ext 12`,
];

describe('parsePhone', () => {
  it('reads every typed form of a valid US number as the same E.164 number', () => {
    fc.assert(
      fc.property(usDigits, (d) => {
        const canonical = parsePhone(`+1${d}`);
        for (const form of typed(d)) expect(parsePhone(form)?.e164 ?? null, form).toBe(canonical?.e164 ?? null);
        if (canonical) expect(canonical.e164).toBe(`+1${d}`);
      }),
      { numRuns: 200 },
    );
  });

  it('is idempotent and gives only E.164, whatever the text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), usDigits, digits(12).map((d) => `+${d}`)), (text) => {
        const phone = parsePhone(text);
        if (!phone) return;
        expect(phone.e164).toMatch(/^\+[1-9]\d{6,14}$/);
        expect(parsePhone(phone.e164)).toEqual(phone);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what is not a number', () => {
    for (const bad of ['', '   ', 'call me', '123', '555-0134', '+1 999 555 0100', '1'.repeat(30), null, undefined]) expect(parsePhone(bad), String(bad)).toBeNull();
  });
});

describe('textablePhone', () => {
  it('accepts mobiles and US numbers, in E.164', () => {
    expect(textablePhone('(512) 555-0134')).toEqual({ ok: true, phone: { e164: '+15125550134', type: 'FIXED_LINE_OR_MOBILE' } });
    expect(textablePhone('+44 7911 123456')).toMatchObject({ ok: true, phone: { e164: '+447911123456', type: 'MOBILE' } });
  });

  it('says why a number cannot receive texts', () => {
    expect(textablePhone('800-555-0123')).toEqual({ ok: false, problem: 'a toll-free number, which cannot receive text messages' });
    expect(textablePhone('+1 900 555 0123')).toEqual({ ok: false, problem: 'a premium-rate number, which cannot receive text messages' });
    expect(textablePhone('+44 20 7946 0958')).toEqual({ ok: false, problem: 'a landline, which cannot receive text messages' });
    expect(textablePhone('call me')).toEqual({ ok: false, problem: 'not a phone number' });
  });

  it('accepts a number exactly when it is valid and of a kind that takes texts', () => {
    fc.assert(
      fc.property(fc.oneof(usDigits, digits(10).map((d) => `+44${d}`), fc.string({ maxLength: 20 })), (text) => {
        const phone = parsePhone(text);
        const read = textablePhone(text);
        expect(read.ok).toBe(phone !== null && cannotText(phone) === null);
        if (read.ok) expect(read.phone).toEqual(phone);
      }),
      { numRuns: 500 },
    );
  });
});
