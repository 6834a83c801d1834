import { z } from 'zod';
import type { Context } from '../context.js';
import { invalid } from '../errors.js';

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
  return { name, email: email ?? null, phone: phone ?? null };
}
