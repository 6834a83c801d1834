import { Hono } from 'hono';
import type { Services } from '../src/context.js';
import { AppError } from '../src/errors.js';
import { validPortWebhook } from '../src/phone/twilio-ports.js';
import { carrierPortChanged } from '../src/phone/ports.js';
import { PORT_WEBHOOK_PATH } from '../src/phone/carrier.js';

export { PORT_WEBHOOK_PATH };

/**
 * POST /webhooks/carrier/port-in: Twilio's porting webhook (its port_in_target_url). Twilio signs
 * each request with the account's auth token (X-Twilio-Signature; a JSON body through the
 * bodySHA256 query parameter), checked with the SDK before the body is read as anything. The
 * message only names the port-in request: its status is then read back from Twilio, so a replayed
 * or reordered notification changes nothing that Twilio does not say. The carrier sandbox sends
 * no webhooks (its transfers settle on receptionist_refresh).
 */
export function carrierWebhookRoutes(services: Services) {
  const app = new Hono();
  app.post(PORT_WEBHOOK_PATH, async (c) => {
    const token = services.config.carrier?.authToken;
    if (!token) {
      return c.json({ error: 'Port-in webhooks come from Twilio, and the carrier is the sandbox here: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN.', code: 'not_configured' }, 400);
    }
    const raw = await c.req.text();
    // The URL Twilio was configured with: the public address, not the one a proxy forwarded to.
    const url = `${services.config.baseUrl}${PORT_WEBHOOK_PATH}${new URL(c.req.url).search}`;
    const json = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
    const body = json ? { json: raw } : { form: Object.fromEntries(new URLSearchParams(raw)) };
    if (!validPortWebhook(token, c.req.header('x-twilio-signature'), url, body)) {
      return c.json({ error: 'The request signature is not valid.', code: 'invalid_signature' }, 403);
    }
    let sid: unknown;
    if ('json' in body) {
      try {
        sid = (JSON.parse(raw) as { port_in_request_sid?: unknown }).port_in_request_sid;
      } catch {
        return c.json({ error: 'The body is not valid JSON.', code: 'invalid_input' }, 400);
      }
    } else sid = body.form.port_in_request_sid;
    if (typeof sid !== 'string' || !/^KW[0-9a-fA-F]{32}$/.test(sid)) {
      return c.json({ error: 'port_in_request_sid (KW followed by 32 hex digits) is required.', code: 'invalid_input' }, 400);
    }
    try {
      return c.json({ ok: true, known: await carrierPortChanged(services, sid) });
    } catch (err) {
      // The carrier did not answer: Twilio retries a failed webhook.
      if (err instanceof AppError && err.code === 'provider_unavailable') return c.json({ error: err.message, code: err.code }, 503);
      throw err;
    }
  });
  return app;
}
