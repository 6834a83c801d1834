/**
 * Calls in tests: the carrier sandbox places a simulated call through the app's own signed voice
 * webhooks (src/phone/sandbox-voice.ts), and webhooks can be sent by hand, signed as the carrier
 * signs them (or not), to try the routes' checks.
 */
import twilio from 'twilio';
import type { TestApp } from './harness.js';
import { VOICE_ROUTES } from '../../src/phone/voice-carrier.js';

/** A simulated call of `minutes` to `to`; `statusCallback: false` loses the completed callback on the way. */
export function placeCall(app: TestApp, to: string, minutes: number, opts: { from?: string; statusCallback?: boolean } = {}) {
  const sandbox = app.services.phone.voiceSandbox;
  if (!sandbox) throw new Error('placeCall needs the carrier sandbox');
  return sandbox.placeCall({ to, minutes, ...opts });
}

/** Posts a voice webhook form, signed with the carrier's key unless `signature` is given. */
export async function postVoiceWebhook(app: TestApp, route: keyof typeof VOICE_ROUTES, params: Record<string, string>, signature?: string) {
  const url = `${app.services.config.baseUrl}${VOICE_ROUTES[route]}`;
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  const sig = signature ?? twilio.getExpectedTwilioSignature(app.services.phone.voice.webhookKey, url, params);
  if (sig) headers['x-twilio-signature'] = sig;
  return app.get(VOICE_ROUTES[route], { method: 'POST', headers, body: new URLSearchParams(params).toString() });
}
