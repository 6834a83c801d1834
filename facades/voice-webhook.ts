import { Hono, type Context } from 'hono';
import type * as TwilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import { lazyRequire } from '../src/core/lazy-require.js';
import type { Services } from '../src/context.js';
import { answerCall, callEnded } from '../src/phone/voice.js';
import { VOICE_ROUTES } from '../src/phone/voice-carrier.js';

// Twilio's signature check alone, loaded at the first call: the rest of the SDK is the live carrier's.
const webhooks = lazyRequire<typeof TwilioWebhooks>('twilio/lib/webhooks/webhooks.js');
const TWIML = { 'content-type': 'text/xml; charset=utf-8', 'cache-control': 'no-store' };

/**
 * The carrier's voice webhooks for receptionist numbers: POST /webhooks/voice (a call rings; the
 * answer is TwiML) and POST /webhooks/voice/status (the call's status callback). Twilio signs each
 * request (X-Twilio-Signature) with the account's auth token, the carrier sandbox with its own in
 * the same scheme; the SDK's validateRequest checks it against the public URL the carrier was
 * given before anything is read, and a forged request is a 403.
 */
export function voiceWebhookRoutes(services: Services) {
  const app = new Hono();

  /** The signed form's fields, or a refusal. */
  async function signedForm(c: Context, route: string): Promise<Record<string, string> | Response> {
    const form = await c.req.parseBody();
    const params = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'));
    // The URL the carrier was configured with: the public address, not the one a proxy forwarded to.
    const url = `${services.config.baseUrl}${route}${new URL(c.req.url).search}`;
    const signature = c.req.header('x-twilio-signature');
    if (!signature || !webhooks().validateRequest(services.phone.voice.webhookKey, signature, url, params)) {
      return c.json({ error: 'The request signature is not valid.', code: 'invalid_signature' }, 403);
    }
    return params;
  }

  app.post(VOICE_ROUTES.incoming, async (c) => {
    const params = await signedForm(c, VOICE_ROUTES.incoming);
    if (params instanceof Response) return params;
    const { CallSid: callSid, From: from = '', To: to } = params;
    if (!callSid || !to) return c.json({ error: 'CallSid and To are required.', code: 'invalid_input' }, 400);
    const answered = await answerCall(services, { callSid, from, to });
    return c.body(answered.twiml, 200, TWIML);
  });

  app.post(VOICE_ROUTES.status, async (c) => {
    const params = await signedForm(c, VOICE_ROUTES.status);
    if (params instanceof Response) return params;
    const { CallSid: callSid, CallStatus: status, CallDuration: duration } = params;
    if (!callSid || !status) return c.json({ error: 'CallSid and CallStatus are required.', code: 'invalid_input' }, 400);
    const seconds = duration !== undefined && /^\d{1,7}$/.test(duration) ? Number(duration) : null;
    const metered = await callEnded(services, { callSid, status, durationSeconds: seconds });
    // Twilio ignores the body of a status callback; a call unknown here is answered 200 too, so it is not retried.
    return c.json({ ok: true, known: metered.known, minutes: metered.minutes });
  });

  return app;
}
