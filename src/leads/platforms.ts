/**
 * Where leads come from, and what each platform expects: the tone of a reply and its policy on
 * crediting bad leads. The policy texts are data (shown to the owner and quoted in credit
 * requests as our summary), never logic: platforms change their terms, so every request tells
 * the owner to check the current one.
 */

/** Lead platforms (contract) and `direct` for customers who reached the business themselves. */
export const PLATFORMS = ['thumbtack', 'angi', 'yelp', 'google', 'nextdoor', 'facebook', 'instagram', 'other'] as const;
export const LEAD_SOURCES = [...PLATFORMS, 'direct'] as const;
export type LeadSource = (typeof LEAD_SOURCES)[number];

export const isPlatform = (source: string) => source !== 'direct';

export interface PlatformStyle {
  name: string;
  /** How replies are written there. */
  register: 'marketplace' | 'review_site' | 'neighborly' | 'social' | 'direct';
  /** Whether a reply may carry a link or a phone number (marketplaces keep contact inside). */
  sharesContact: boolean;
}

export const PLATFORM_STYLE: Record<LeadSource, PlatformStyle> = {
  thumbtack: { name: 'Thumbtack', register: 'marketplace', sharesContact: false },
  angi: { name: 'Angi', register: 'marketplace', sharesContact: false },
  yelp: { name: 'Yelp', register: 'review_site', sharesContact: false },
  google: { name: 'Google', register: 'review_site', sharesContact: false },
  nextdoor: { name: 'Nextdoor', register: 'neighborly', sharesContact: true },
  facebook: { name: 'Facebook', register: 'social', sharesContact: true },
  instagram: { name: 'Instagram', register: 'social', sharesContact: true },
  other: { name: 'the lead platform', register: 'marketplace', sharesContact: false },
  direct: { name: 'direct', register: 'direct', sharesContact: true },
};

/** Our summary of each paid platform's lead-credit policy (data; the owner checks the current terms). */
export const CREDIT_POLICY: Partial<Record<LeadSource, string>> = {
  thumbtack:
    'Thumbtack reviews requests for a credit on a lead charge when the lead was not genuine: for example spam or a fake request, a job outside the pro\'s chosen services or travel area, ' +
    'or contact details that do not reach the customer. Requests are made from the lead in the pro\'s account, with the reason.',
  angi:
    'Angi reviews lead-credit requests for leads that were invalid: for example a wrong or disconnected phone number, a duplicate of a lead already sent, a job outside the pro\'s ' +
    'services or area, or a customer who did not request the work. Requests are made soon after the lead arrives, with the reason.',
  yelp:
    'Yelp reviews requests about charges for Request-a-Quote and ad leads that were spam, duplicates or not a real customer request; requests go through Yelp for Business support with the details.',
  google:
    'Google Local Services Ads lets a business dispute a charged lead that was not valid: for example spam, a job type or area the business does not serve, or a repeat call from the same customer. ' +
    'Disputes are made from the lead in the Local Services account within the allowed period.',
  nextdoor: 'Nextdoor ads are charged for delivery and clicks, not per lead; bad responses are reported to Nextdoor support with the details.',
  facebook: 'Facebook and Instagram ads are charged for delivery and clicks, not per lead; spam messages can be reported to Meta, and ad billing questions go to Meta support.',
  instagram: 'Facebook and Instagram ads are charged for delivery and clicks, not per lead; spam messages can be reported to Meta, and ad billing questions go to Meta support.',
  other: 'Most lead platforms credit leads that were spam, duplicates, unreachable, or outside the services and area the business chose; check the platform\'s own terms.',
};
