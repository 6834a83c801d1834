import { Hono } from 'hono';
import type { Services } from '../src/context.js';
import { validSmsSignature } from '../src/sms/signature.js';
import { relayTextMessage } from '../src/conversations/text-relay.js';

/** Twilio expects TwiML back; an empty response sends no automatic reply. */
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * POST /webhooks/sms: text messages to a business phone, relayed into a conversation. Twilio
 * signs each request (X-Twilio-Signature) with the account's auth token; the sandbox uses
 * SMS_WEBHOOK_SECRET with the same scheme, so a forged request is refused before it is read.
 */
export function smsWebhookRoutes(services: Services) {
  const app = new Hono();
  app.post('/webhooks/sms', async (c) => {
    const key = services.outbox.smsProvider.webhookKey;
    if (!key) {
      return c.json({ error: 'Inbound text messages are not configured: set the Twilio settings or SMS_WEBHOOK_SECRET.', code: 'not_configured' }, 400);
    }
    const form = await c.req.parseBody();
    const params = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'));
    // The URL Twilio was configured with: the public address, not the one a proxy forwarded to.
    const url = `${services.config.baseUrl}/webhooks/sms${new URL(c.req.url).search}`;
    if (!validSmsSignature(key, url, params, c.req.header('x-twilio-signature'))) {
      return c.json({ error: 'The request signature is not valid.', code: 'invalid_signature' }, 403);
    }
    const { From: from, To: to, Body: body = '' } = params;
    if (!from || !to) return c.json({ error: 'From and To are required.', code: 'invalid_input' }, 400);
    // A picture-only message carries no text to relay.
    if (body.trim() === '') return c.body(EMPTY_TWIML, 200, { 'content-type': 'text/xml' });
    const relayed = await relayTextMessage(services, { from, to, body });
    if (!relayed) return c.json({ error: 'No business has the number this message was sent to.', code: 'not_found' }, 400);
    return c.body(EMPTY_TWIML, 200, { 'content-type': 'text/xml' });
  });
  return app;
}
