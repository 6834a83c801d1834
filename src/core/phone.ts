/**
 * The rule for phone numbers people give: parsed with libphonenumber-js's full metadata, a number
 * without a country code read as a US number (Porchlight's cities are in the US), kept in E.164.
 * A number that can be called may still be unable to receive a text: a landline where the metadata
 * can tell (outside the US and Canada; there every geographic number may be a mobile), a toll-free,
 * premium-rate or shared-cost number, a pager or a voicemail access number.
 */
import { parsePhoneNumberFromString, type NumberType } from 'libphonenumber-js/max';

export interface Phone {
  /** E.164, e.g. +15125550134 (an extension is dropped). */
  e164: string;
  /** What kind of line the metadata says it is; undefined when it cannot tell. */
  type: NumberType;
}

/** Lines that cannot receive a text message, as a person would call them. */
const CANNOT_TEXT: Partial<Record<NonNullable<NumberType>, string>> = {
  FIXED_LINE: 'a landline',
  TOLL_FREE: 'a toll-free number',
  PREMIUM_RATE: 'a premium-rate number',
  SHARED_COST: 'a shared-cost number',
  UAN: 'a company switchboard number',
  PAGER: 'a pager number',
  VOICEMAIL: 'a voicemail access number',
};

/** The number in E.164 when it is a valid number (US when it has no country code), else null. */
export function parsePhone(raw: string | null | undefined): Phone | null {
  const text = raw?.trim();
  if (!text || text.length > 40) return null;
  const parsed = parsePhoneNumberFromString(text, 'US');
  if (!parsed?.isValid()) return null;
  return { e164: parsed.number, type: parsed.getType() };
}

/** What a number is when it cannot receive texts ("a toll-free number"), or null when it can. */
export function cannotText(phone: Phone): string | null {
  return (phone.type && CANNOT_TEXT[phone.type]) ?? null;
}

export type TextablePhone = { ok: true; phone: Phone } | { ok: false; problem: string };

/**
 * A number texts can be sent to, or the problem in words that finish "customer_phone is …":
 * "not a phone number" or "a toll-free number, which cannot receive text messages".
 */
export function textablePhone(raw: string | null | undefined): TextablePhone {
  const phone = parsePhone(raw);
  if (!phone) return { ok: false, problem: 'not a phone number' };
  const kind = cannotText(phone);
  if (kind) return { ok: false, problem: `${kind}, which cannot receive text messages` };
  return { ok: true, phone };
}
