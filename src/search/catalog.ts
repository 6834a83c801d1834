import { Prisma } from '../generated/prisma/client.js';
import type { SqlQuery } from '../db/sql.js';
import type { BusinessKind } from '../generated/prisma/enums.js';
import { invalid } from '../errors.js';
import { zipsOfLiveCity } from './zips.js';
import { formatInstant } from '../core/time.js';

/**
 * A verified website or profile link as customers see it: the rating and count read from the page
 * at its last check (null when it states none), checked_at in the business's zone.
 */
export interface ShownLink {
  url: string;
  label: string;
  rating: number | null;
  ratingCount: number | null;
  checkedAt: string;
}

/** Verified links as stored (checkedAt a timestamp) in the form results show. */
export const shownLinks = (links: { url: string; label: string; rating: number | null; ratingCount: number | null; checkedAt: Date | string | null }[], zone: string): ShownLink[] =>
  links.map((l) => ({ url: l.url, label: l.label, rating: l.rating, ratingCount: l.ratingCount, checkedAt: formatInstant(new Date(l.checkedAt ?? 0), zone) }));

/** What pricing, slots and booking need to know about a business. */
export interface CatalogBusiness {
  id: string;
  slug: string;
  name: string;
  kind: BusinessKind;
  timeZone: string;
  textsCustomers: boolean;
  priceList: Prisma.JsonValue;
  minNoticeMinutes: number;
  jobsConfirmedDone: number;
  customerNotes: string;
  email: string | null;
  phone: string | null;
  hours: { weekday: number; startMinute: number; endMinute: number }[];
  links: ShownLink[];
}

/** A catalog entry with the ZIPs the business serves. */
export type CatalogRow = CatalogBusiness & { zips: string[] };

/**
 * Catalog entries of the businesses `where` picks (a condition on "Business" b), one row each with
 * hours, links and ZIPs folded in. A ZIP's first search reads hundreds of businesses; through the
 * ORM that was four statements and ~75 ms of mapping, here it is one statement.
 */
export const catalogRows = async (query: SqlQuery, where: Prisma.Sql): Promise<CatalogRow[]> =>
  (await query<CatalogRow>(Prisma.sql`
    SELECT b.id, b.slug, b.name, b.kind::text AS kind, b."timeZone", b."textsCustomers", b."priceList",
      b."minNoticeMinutes", b."jobsConfirmedDone", b."customerNotes", b.email, b.phone,
      COALESCE((SELECT json_agg(json_build_object('weekday', h.weekday, 'startMinute', h."startMinute", 'endMinute', h."endMinute") ORDER BY h.weekday)
        FROM "WeeklyHours" h WHERE h."businessId" = b.id), '[]') AS hours,
      COALESCE((SELECT json_agg(json_build_object('url', l.url, 'label', l.label, 'rating', l.rating, 'ratingCount', l."ratingCount", 'checkedAt', l."checkedAt") ORDER BY l.position, l."createdAt", l.id)
        FROM "BusinessLink" l WHERE l."businessId" = b.id AND l.status = 'verified'), '[]') AS links,
      ARRAY(SELECT z.zip FROM "ServiceZip" z WHERE z."businessId" = b.id ORDER BY z.zip) AS zips
    FROM "Business" b
    WHERE ${where}`)).map((row) => ({ ...row, links: shownLinks(row.links, row.timeZone) }));

export const LIVE_CITIES = [
  { city: 'Austin', state: 'TX', timeZone: 'America/Chicago' },
  { city: 'San Francisco', state: 'CA', timeZone: 'America/Los_Angeles' },
  { city: 'San Jose', state: 'CA', timeZone: 'America/Los_Angeles' },
] as const;

/** "Austin TX", "austin, tx", "San Jose" → the live city; unknown cities are a 400. */
export function liveCity(input: string): (typeof LIVE_CITIES)[number] {
  const cleaned = input.trim().replace(/\s+/g, ' ');
  const m = /^(.*?)(?:,?\s+([A-Za-z]{2}))?$/.exec(cleaned);
  const name = (m?.[1] ?? cleaned).trim().toLowerCase();
  const state = m?.[2]?.toUpperCase();
  const live = LIVE_CITIES.find((c) => c.city.toLowerCase() === name && (!state || c.state === state));
  if (!live) {
    throw invalid(`We don't serve "${input}" yet. Live cities: ${LIVE_CITIES.map((c) => `${c.city} ${c.state}`).join(', ')}; or pass a 5-digit zip.`);
  }
  return live;
}

/** The ZIPs of a city a search names (see liveCity). */
export function zipsOfCity(input: string): string[] {
  const live = liveCity(input);
  return zipsOfLiveCity(live.city, live.state).map((z) => z.zip);
}

