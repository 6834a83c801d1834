/**
 * Phone numbers as people type them ("(512) 555-0134", "512.555.0134 ext 2", "+1 512…"),
 * normalised with libphonenumber-js. Porchlight's cities are in the US, so a number without a
 * country code is read as a US number.
 */
import { findPhoneNumbersInText, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { parsePhone, textablePhone } from '../core/phone.js';
import { invalid } from '../errors.js';

export interface NormalisedPhone {
  /** E.164, e.g. +15125550134: the key numbers are matched on. */
  e164: string;
  /** The national significant number (ten digits for the US), as stored digits end. */
  national: string;
}

const NORMALISED_LIMIT = 10_000;
const normalised = new Map<string, NormalisedPhone | null>();

/** The number in E.164, or null when the text cannot be a phone number. */
export function normalisePhone(raw: string | null | undefined): NormalisedPhone | null {
  if (!raw) return null;
  // Parsing costs more than a call brief's own work; the same few numbers come back call after call.
  const kept = normalised.get(raw);
  if (kept !== undefined) return kept;
  const parsed = parsePhoneNumberFromString(raw, 'US');
  const phone = parsed?.isPossible() ? Object.freeze({ e164: parsed.number, national: parsed.nationalNumber }) : null;
  if (normalised.size >= NORMALISED_LIMIT) normalised.clear();
  normalised.set(raw, phone);
  return phone;
}

/**
 * A customer's number as given (customer_phone, X-User-Phone), in E.164: texts may be sent to it,
 * so one that cannot receive them is a 400 saying so and what to give instead.
 */
export function customerPhoneInput(raw: string, field: string, instead = 'customer_email'): string {
  const read = textablePhone(raw);
  if (read.ok) return read.phone.e164;
  throw invalid(`${field} is ${read.problem}: give a mobile number that can receive texts, e.g. (512) 555-0134 or +15125550134, or ${instead} instead.`);
}

/** A number that is called, not texted (an owner's phone, a lead's), in E.164; an invalid one is a 400. */
export function phoneInput(raw: string, field: string, clear = ''): string {
  const phone = parsePhone(raw);
  if (phone) return phone.e164;
  throw invalid(`${field} is not a phone number: give it as the owner gave it, e.g. (512) 555-0134 or +15125550134${clear}.`);
}

/** Whether two typed numbers are the same phone. */
export const samePhone = (a: string | null | undefined, b: NormalisedPhone) => normalisePhone(a)?.e164 === b.e164;

const EMAIL = /[A-Z0-9._%+-]+@[A-Z0-9.-]+\.[A-Z]{2,}/gi;

/** Text with every phone number and e-mail address in it replaced, for text that must not keep contact details. */
export function withoutContactDetails(text: string): string {
  const numbers = findPhoneNumbersInText(text, 'US');
  let out = text;
  for (const n of [...numbers].sort((a, b) => b.startsAt - a.startsAt)) out = `${out.slice(0, n.startsAt)}[phone removed]${out.slice(n.endsAt)}`;
  return out.replace(EMAIL, '[e-mail removed]');
}
