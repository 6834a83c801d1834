/**
 * Twilio's voice side over the official SDK: a number's calls routed to Porchlight's voice
 * webhooks by updating its IncomingPhoneNumber (VoiceUrl and StatusCallback, both POST), and the
 * account's completed calls to a number read from the Calls list. Webhooks are signed with the
 * account's auth token (checked with the SDK's validateRequest in facades/voice-webhook.ts).
 */
import type Twilio from 'twilio';
import { lazyRequire } from '../core/lazy-require.js';

const twilio = lazyRequire<typeof Twilio>('twilio');
import { CarrierRefused } from './carrier.js';
import { CALL_PAGE_LIMIT, type VoiceCarrier } from './voice-carrier.js';
import { twilioCall as call, type TwilioCarrierSettings } from './twilio.js';

export function twilioVoice(settings: TwilioCarrierSettings): VoiceCarrier {
  const client = twilio()(settings.accountSid, settings.authToken, { httpClient: settings.httpClient, timeout: 15_000 });
  return {
    webhookKey: settings.authToken,

    async routeCalls(input) {
      const updated = await call('route calls to the receptionist', () =>
        client.incomingPhoneNumbers(input.carrierRef).update({ voiceUrl: input.voiceUrl, voiceMethod: 'POST', statusCallback: input.statusCallbackUrl, statusCallbackMethod: 'POST' }),
      );
      if (updated.phoneNumber !== input.number) throw new CarrierRefused(`Twilio's ${input.carrierRef} is ${updated.phoneNumber}, not ${input.number}.`);
    },

    async completedCalls(input) {
      const calls = await call('read the calls to a number', () => client.calls.list({ to: input.number, status: 'completed', startTimeAfter: input.since, limit: CALL_PAGE_LIMIT }));
      return calls
        .filter((c) => c.to === input.number && c.status === 'completed')
        .map((c) => ({ callSid: c.sid, from: c.from, to: c.to, status: c.status, durationSeconds: Number(c.duration) || 0, startedAt: c.startTime ? new Date(c.startTime).getTime() : 0 }));
    },
  };
}
