import type { Prisma } from '../generated/prisma/client.js';
import type { SearchSnapshot } from './snapshot.js';
import type { BusinessKind } from '../generated/prisma/enums.js';
import { AppError, invalid } from '../errors.js';
import { zipsOfLiveCity } from './zips.js';

/** What pricing, slots and booking need to know about a business. */
export const catalogSelect = {
  id: true,
  slug: true,
  name: true,
  kind: true,
  timeZone: true,
  textsCustomers: true,
  priceList: true,
  minNoticeMinutes: true,
  jobsConfirmedDone: true,
  customerNotes: true,
  email: true,
  phone: true,
  hours: { select: { weekday: true, startMinute: true, endMinute: true } },
  links: { select: { url: true, label: true, rating: true }, orderBy: { position: 'asc' } },
} satisfies Prisma.BusinessSelect;

export type CatalogBusiness = Prisma.BusinessGetPayload<{ select: typeof catalogSelect }>;

export const LIVE_CITIES = [
  { city: 'Austin', state: 'TX', timeZone: 'America/Chicago' },
  { city: 'San Francisco', state: 'CA', timeZone: 'America/Los_Angeles' },
  { city: 'San Jose', state: 'CA', timeZone: 'America/Los_Angeles' },
] as const;

/** "Austin TX", "austin, tx", "San Jose" → the city's ZIPs; unknown cities are a 400. */
export function zipsOfCity(input: string): string[] {
  const cleaned = input.trim().replace(/\s+/g, ' ');
  const m = /^(.*?)(?:,?\s+([A-Za-z]{2}))?$/.exec(cleaned);
  const name = (m?.[1] ?? cleaned).trim().toLowerCase();
  const state = m?.[2]?.toUpperCase();
  const live = LIVE_CITIES.find((c) => c.city.toLowerCase() === name && (!state || c.state === state));
  if (!live) {
    throw invalid(`We don't serve "${input}" yet. Live cities: ${LIVE_CITIES.map((c) => `${c.city} ${c.state}`).join(', ')}; or pass a 5-digit zip.`);
  }
  return zipsOfLiveCity(live.city, live.state).map((z) => z.zip);
}

/** A cleaner or pro by its pro_id, as searches see it (the snapshot); a 400 when there is none of these kinds. */
export async function businessBySlug(snapshot: SearchSnapshot, slug: string, kinds: BusinessKind[]) {
  const business = await snapshot.business(slug);
  if (!business || !kinds.includes(business.kind)) {
    throw new AppError('not_found', `No ${kinds.includes('cleaning') ? 'cleaner' : 'pro'} has pro_id "${slug}". Use a pro_id from the search results.`);
  }
  return business;
}

