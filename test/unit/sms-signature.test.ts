import { describe, expect, it } from 'vitest';
import { smsSignature, validSmsSignature } from '../../src/sms/signature.js';

// Twilio's published example (docs: "Webhooks security"): auth token 12345, this URL and these
// POST parameters sign to this value. Pinning it ties the scheme to Twilio's, not to ourselves.
const TOKEN = '12345';
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };
const SIGNATURE = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';

describe('text-message webhook signatures', () => {
  it("reproduces Twilio's published example", () => {
    expect(smsSignature(TOKEN, URL_, PARAMS)).toBe(SIGNATURE);
  });

  it('sorts parameters by name, whatever order they arrive in', () => {
    const shuffled = { To: PARAMS.To, Digits: PARAMS.Digits, From: PARAMS.From, CallSid: PARAMS.CallSid, Caller: PARAMS.Caller };
    expect(smsSignature(TOKEN, URL_, shuffled)).toBe(SIGNATURE);
  });

  it('accepts the right signature and refuses any change to key, URL, parameters or signature', () => {
    expect(validSmsSignature(TOKEN, URL_, PARAMS, SIGNATURE)).toBe(true);
    expect(validSmsSignature('54321', URL_, PARAMS, SIGNATURE)).toBe(false);
    expect(validSmsSignature(TOKEN, 'https://mycompany.com/myapp.php?foo=1&bar=3', PARAMS, SIGNATURE)).toBe(false);
    expect(validSmsSignature(TOKEN, URL_, { ...PARAMS, Digits: '9999' }, SIGNATURE)).toBe(false);
    expect(validSmsSignature(TOKEN, URL_, { ...PARAMS, Extra: '' }, SIGNATURE)).toBe(false);
    expect(validSmsSignature(TOKEN, URL_, PARAMS, SIGNATURE.slice(0, -2))).toBe(false);
    expect(validSmsSignature(TOKEN, URL_, PARAMS, undefined)).toBe(false);
    expect(validSmsSignature(TOKEN, URL_, PARAMS, '')).toBe(false);
  });

  it('signs values byte for byte (UTF-8), so non-ASCII text verifies', () => {
    const params = { Body: 'Café ☕ at 9?', From: '+15125550100' };
    expect(validSmsSignature('secret', 'http://x.test/webhooks/sms', params, smsSignature('secret', 'http://x.test/webhooks/sms', params))).toBe(true);
  });
});
