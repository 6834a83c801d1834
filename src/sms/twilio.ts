import type { SmsProvider } from './contract.js';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The platform's sending number, E.164 (a business's own number replaces it for its texts). */
  from: string;
  /** Twilio's REST API; tests point it at a local fake server. */
  apiUrl?: string;
}

/** Twilio's Messages API over plain fetch: one form-encoded POST per text, Basic auth. */
export function twilioProvider(settings: TwilioSettings): SmsProvider {
  const api = (settings.apiUrl ?? 'https://api.twilio.com').replace(/\/$/, '');
  const url = `${api}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    name: 'twilio',
    webhookKey: settings.authToken,
    platformNumber: settings.from,
    async send(message) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ To: message.to, From: message.from ?? settings.from, Body: message.text }),
        signal: AbortSignal.timeout(15_000),
      });
      if (!res.ok) {
        // Twilio's error body names the problem (code, message); never the credentials.
        const detail = (await res.json().catch(() => ({}))) as { code?: number; message?: string };
        throw new Error(`Twilio refused the text message (HTTP ${res.status}${detail.code ? `, code ${detail.code}` : ''}): ${detail.message ?? res.statusText}`);
      }
    },
  };
}
