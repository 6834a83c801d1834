import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { US_PHONE, usPhone } from '../../src/registry/fields.js';
import { normalisePhone } from '../../src/sms/phone.js';

// The phone forms the OpenAPI document states (call_brief, phone_portability, prepare_number_port)
// are all numbers the services can read: a schema-valid number is never refused later.
describe('US_PHONE', () => {
  it('matches only texts that are possible US numbers', () => {
    fc.assert(
      fc.property(fc.stringMatching(US_PHONE), (text) => {
        const phone = normalisePhone(text);
        expect(phone, text).not.toBeNull();
        expect(phone!.e164).toMatch(/^\+1\d{10}$/);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts the stated forms and refuses others with a message naming them', () => {
    for (const ok of ['+15125550134', '15125550134', '5125550134', '(512) 555-0134', '512.555.0134', '+1 512-555-0134']) expect(usPhone('phone').safeParse(ok).success, ok).toBe(true);
    for (const bad of ['555-0134', '+44 20 7946 0958', '(012) 555-0134', '512.555.0134 ext 2', '0000000']) {
      const r = usPhone('phone').safeParse(bad);
      expect(r.success, bad).toBe(false);
      expect(r.error!.issues[0]!.message).toMatch(/^phone must be a US phone number of 10 digits/);
    }
  });
});
