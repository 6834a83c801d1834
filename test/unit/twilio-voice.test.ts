/**
 * Twilio's voice side against the official SDK, without network: the SDK's requests go to an
 * injected httpClient that checks each against a recorded fixture (test/helpers/twilio.ts), as
 * twilio-carrier.test.ts does for numbers.
 */
import { describe, expect, it } from 'vitest';
import { CarrierRefused, CarrierUnavailable } from '../../src/phone/carrier.js';
import { TOKEN, fake } from '../helpers/twilio.js';

const NUMBER = '+17375550100';
const PN = 'PN0123456789abcdef0123456789abcdef';
const route = { carrierRef: PN, number: NUMBER, voiceUrl: 'https://book.example.com/webhooks/voice', statusCallbackUrl: 'https://book.example.com/webhooks/voice/status' };

describe("Twilio's voice side", () => {
  it('checks webhooks with the account auth token', () => {
    expect(fake().voice.webhookKey).toBe(TOKEN);
  });

  it("reads the month's completed calls to a number from the Calls list", async () => {
    const f = fake('calls-list');
    expect(await f.voice.completedCalls({ number: NUMBER, since: new Date('2026-11-16T12:00:00Z') })).toEqual([
      { callSid: 'CA11111111111111111111111111111111', from: '+15125550177', to: NUMBER, status: 'completed', durationSeconds: 187, startedAt: Date.parse('2026-11-24T17:02:12Z') },
      { callSid: 'CA22222222222222222222222222222222', from: '+14155550142', to: NUMBER, status: 'completed', durationSeconds: 45, startedAt: Date.parse('2026-11-16T14:00:00Z') },
    ]);
    expect(f.mismatches).toEqual([]);
    expect(f.left()).toBe(0);
  });

  it('an unanswered Calls list is CarrierUnavailable (refresh says so and tries again later)', async () => {
    const f = fake('calls-list-unavailable');
    await expect(f.voice.completedCalls({ number: NUMBER, since: new Date('2026-11-16T12:00:00Z') })).rejects.toBeInstanceOf(CarrierUnavailable);
    expect(f.mismatches).toEqual([]);
  });

  it("routes a number's calls and status callbacks to the voice webhooks; a number not in the account is refused", async () => {
    const f = fake('incoming-route-voice', 'incoming-route-voice-missing', 'incoming-route-voice');
    await f.voice.routeCalls(route);
    await expect(f.voice.routeCalls(route)).rejects.toBeInstanceOf(CarrierRefused);
    // The sid names another number than the one asked for: refused, never trusted.
    await expect(f.voice.routeCalls({ ...route, number: '+17375550199' })).rejects.toThrow(/not \+17375550199/);
    expect(f.mismatches).toEqual([]);
    expect(f.left()).toBe(0);
  });
});
