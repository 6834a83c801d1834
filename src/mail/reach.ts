/**
 * How a customer is reached, said truthfully. Mail and texts leave through the outbox; they reach
 * someone only when their provider is real, or in development, where the developer reads the
 * outbox (/dev/outbox). A staging deployment that runs mail or texts as a sandbox
 * (SANDBOX_PROVIDERS) reaches nobody that way, and what is said to the customer must not claim it.
 */
import type { Config } from '../config.js';

export interface CustomerReach {
  channel: 'email' | 'sms';
  to: string;
}

type ReachConfig = Pick<Config, 'development' | 'smtpUrl' | 'twilio'>;

/** Which channels deliver on this server. */
export function openChannels(config: ReachConfig): { email: boolean; sms: boolean } {
  return { email: config.development || Boolean(config.smtpUrl), sms: config.development || Boolean(config.twilio) };
}

/**
 * By e-mail when the customer gave one and mail is delivered; else by text when they gave a phone,
 * texts are allowed for them (`texts`: e.g. a business that texts) and delivered; else null: nothing
 * this server sends reaches them, and the business will contact them.
 */
export function customerReach(config: ReachConfig, contact: { email: string | null; phone: string | null }, texts: boolean): CustomerReach | null {
  const open = openChannels(config);
  if (contact.email && open.email) return { channel: 'email', to: contact.email };
  if (contact.phone && texts && open.sms) return { channel: 'sms', to: contact.phone };
  return null;
}

/** "e-mailed a@b.c" or "texted +1…". */
export const toldBy = (reach: CustomerReach) => (reach.channel === 'sms' ? `texted ${reach.to}` : `e-mailed ${reach.to}`);

/**
 * The sentence for a customer nothing reaches: which channel this server cannot deliver, and that
 * the business will contact them.
 */
export function unreachable(contact: { email: string | null; phone: string | null }, texts: boolean, business: { name: string; phone: string | null }): string {
  const channels = [contact.email ? 'e-mail' : null, contact.phone && texts ? 'text messages' : null].filter(Boolean).join(' or ') || 'e-mail or text messages';
  return (
    `This server cannot deliver ${channels} yet, so nothing we send reaches ${contact.email ?? contact.phone ?? 'the customer'}: ` +
    `the business will contact you${business.phone ? ` (${business.name}, ${business.phone})` : ` (${business.name})`}.`
  );
}
