import { z } from 'zod';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';
import { customerPhoneInput, normalisePhone } from '../sms/phone.js';

export interface ContactInput {
  customer_name?: string;
  customer_email?: string;
  customer_phone?: string;
}

/**
 * The customer's name, e-mail and phone: from the body or, failing that, the assistant's
 * X-User-* headers, or the personal key's own name and e-mail. A name is always required.
 */
export function customerContact(input: ContactInput, ctx: Context) {
  const name = (input.customer_name ?? ctx.user.name ?? ctx.credential?.name ?? '').trim();
  const email = input.customer_email ?? ctx.user.email ?? ctx.credential?.email;
  const phone = input.customer_phone ?? ctx.user.phone;
  // Header values get the same checks as the body fields they stand in for.
  if (!input.customer_email && email && !z.email().max(200).safeParse(email).success) {
    throw invalid('The X-User-Email header is not an e-mail address; pass customer_email instead.');
  }
  if (name.length > 100) throw invalid('customer_name (or X-User-Name) must be at most 100 characters.');
  if (phone && phone.length > 30) throw invalid('customer_phone (or X-User-Phone) must be at most 30 characters.');
  if (!name) throw invalid("customer_name is required: pass it, or send the user's name in the X-User-Name header.");
  // Kept in E.164: texts go to it, and the customer's answers from it are matched to them.
  const e164 = phone ? customerPhoneInput(phone, input.customer_phone ? 'customer_phone' : 'The X-User-Phone header') : null;
  return { name, email: email ?? null, phone: e164 };
}

/**
 * The customer's contact as their live bookings are counted by it: the e-mail in lower case
 * without a +tag (one mailbox), else the phone in E.164; null without a usable one.
 */
export function contactKey(contact: { email: string | null; phone: string | null }): string | null {
  if (contact.email) {
    const [local = '', domain = ''] = contact.email.toLowerCase().split(/@(?=[^@]*$)/);
    return `email:${local.replace(/\+.*$/, '')}@${domain}`;
  }
  const phone = normalisePhone(contact.phone);
  return phone ? `phone:${phone.e164}` : null;
}

/**
 * A contact the business can reach, for what is booked at once with nothing paid (book_visit, a
 * free appointment): the business must be able to ask whether the customer is coming.
 */
export function reachableContact(contact: { email: string | null; phone: string | null }, why: string): string {
  const key = contactKey(contact);
  if (key) return key;
  if (contact.phone) throw invalid("customer_phone (or X-User-Phone) is not a phone number; pass the customer's real number, or customer_email.");
  throw invalid(`${why}, so the business needs a way to reach the customer: pass customer_email or customer_phone (or send the X-User-Email or X-User-Phone header).`);
}
