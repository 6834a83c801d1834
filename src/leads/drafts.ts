/**
 * Reply and follow-up drafts for leads, in each platform's manner: marketplaces and review sites
 * keep the conversation (no phone number or link), neighbours and social messages are warmer
 * and may share the phone, direct customers get every way to book. Pure: the same lead always
 * gives the same draft. Customer-typed values (the first name) go in verbatim.
 */
import { DateTime } from 'luxon';
import { PLATFORM_STYLE, type LeadSource } from './platforms.js';

export interface DraftFacts {
  source: LeadSource;
  businessName: string;
  businessPhone: string | null;
  bookingPage: string | null;
  customerName: string | null;
  /** "standard clean for 2 bedrooms, 1.5 bathrooms" */
  summary: string;
  kind: 'cleaning' | 'service_call';
  price: number;
  /** Open starts (ISO with offset), soonest first. */
  starts: string[];
  zip: string;
  zipServed: boolean;
  /** The customer asked for a day or time: true when `starts` are inside it, false when none was open then. */
  preferredOpen?: boolean | null;
  /** The customer's preferred day (YYYY-MM-DD) when it has no open start at all; `starts` are then the nearest to it. */
  fullDay?: string | null;
}

const money = (n: number) => `$${Number.isInteger(n) ? n : n.toFixed(2)}`;

/** "Tue Dec 1 at 9:00 AM" in the business's own time (the offset in the ISO string). */
export const humanStart = (iso: string) => DateTime.fromISO(iso, { setZone: true }).toFormat("ccc LLL d 'at' h:mm a");

function offer(f: DraftFacts): string {
  const job = f.summary.charAt(0).toLowerCase() + f.summary.slice(1);
  return f.kind === 'cleaning'
    ? `We can do your ${job} for ${money(f.price)}, a firm price with no added fees.`
    : `For your ${job}, our service-call fee is ${money(f.price)}: it covers the visit and diagnosis, and we quote any repair on site before starting.`;
}

function times(f: DraftFacts): string {
  const shown = f.starts.slice(0, 3).map(humanStart);
  if (shown.length === 0) return 'Let me know which days suit you and I will find a time.';
  const list = shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
  const offered = f.kind === 'cleaning' ? `Open times: ${list}.` : `Open arrival windows start ${list}.`;
  if (f.preferredOpen === true) return `${f.kind === 'cleaning' ? 'At the time you asked for, we have' : 'At the time you asked for, arrival windows start'} ${list}.`;
  if (f.fullDay) {
    const day = DateTime.fromISO(f.fullDay).toFormat('ccc LLL d');
    return `We have no openings on ${day}. ${f.kind === 'cleaning' ? `The nearest open times: ${list}.` : `The nearest arrival windows start ${list}.`}`;
  }
  if (f.preferredOpen === false) return `We are already booked at the time you asked for. ${offered}`;
  return offered;
}

const firstName = (name: string | null) => name?.trim().split(/\s+/)[0] ?? null;

export function replyDraft(f: DraftFacts): string {
  const style = PLATFORM_STYLE[f.source];
  const name = firstName(f.customerName);
  const hi = style.register === 'neighborly' ? `Hi ${name ?? 'neighbor'}!` : style.register === 'social' ? `Hi${name ? ` ${name}` : ''}! Thanks for the message.` : `Hi${name ? ` ${name}` : ''},`;
  if (!f.zipServed) {
    return `${hi} Thank you for thinking of ${f.businessName}. We don't serve ZIP ${f.zip}, so we can't take this job, but we hope you find someone great.`;
  }
  const thanks =
    style.register === 'marketplace' || style.register === 'review_site'
      ? ` Thanks for your request on ${style.name}.`
      : style.register === 'direct'
        ? ` Thanks for contacting ${f.businessName}.`
        : '';
  const close =
    style.register === 'direct'
      ? `Reply with the time that works${f.businessPhone ? `, or call or text ${f.businessPhone}` : ''}${f.bookingPage ? `; you can also book at ${f.bookingPage}` : ''}.`
      : style.sharesContact && f.businessPhone
        ? `Which works for you? Reply here or text ${f.businessPhone}.`
        : 'Which works for you? Reply here and I will lock it in.';
  return `${hi}${thanks} ${offer(f)} ${times(f)} ${close}`.replace(/\s+/g, ' ').trim();
}

export function followUpDraft(f: DraftFacts, number: 1 | 2): string {
  const name = firstName(f.customerName);
  const hi = `Hi${name ? ` ${name}` : ''},`;
  const price = f.kind === 'cleaning' ? `the ${money(f.price)} quote` : `the ${money(f.price)} service-call fee`;
  if (number === 1) {
    return `${hi} just checking in on your request. ${price.charAt(0).toUpperCase()}${price.slice(1)} still stands. ${times(f)} Want me to hold one for you?`;
  }
  return `${hi} one last note from ${f.businessName}: ${price} is still good if you'd like to go ahead. I'll close this out for now; just reply here whenever you're ready.`;
}
