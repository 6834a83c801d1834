import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Twilio's request signature: base64 HMAC-SHA1, keyed with the auth token, over the full
 * request URL followed by every POST parameter name and value, sorted by name.
 */
export function smsSignature(key: string, url: string, params: Record<string, string>): string {
  const data = Object.keys(params)
    .sort()
    .reduce((acc, name) => acc + name + params[name], url);
  return createHmac('sha1', key).update(data, 'utf8').digest('base64');
}

/** Constant-time check of an X-Twilio-Signature header. */
export function validSmsSignature(key: string, url: string, params: Record<string, string>, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(smsSignature(key, url, params));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
