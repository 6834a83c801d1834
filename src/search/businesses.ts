/**
 * find_businesses: every kind of business near a ZIP or city, optionally matching what the
 * person asked for. The database does the matching (BusinessSearch's GIN-indexed document, kept
 * by triggers) and the ranking (relevance, then distance), one statement for the page and one for
 * its services, whatever the size of the catalog.
 */
import type { z } from 'zod';
import { Prisma } from '../generated/prisma/client.js';
import type { Context } from '../context.js';
import { usd } from '../core/money.js';
import { cityCentre, zipsNear } from './zips.js';
import { liveCity, zipsOfCity, LIVE_CITIES } from './catalog.js';
import { anyTermQuery, searchTerms, termQuery, type SearchTerm } from '../core/search-terms.js';
import type { findBusinessesInput } from './inputs.js';

const RADIUS_MILES = 25;
const PAGE_SIZE = 20;
const MATCHES_SHOWN = 3;

export interface ServiceMatch {
  serviceId: string;
  name: string;
  priceKind: string;
  priceCents: number | null;
  bookableAs: 'visit' | 'appointment';
}

export interface BusinessEntry {
  business: string;
  name: string;
  type: string;
  city: string;
  summary: string;
  miles: number;
  matches: ServiceMatch[];
  /** What the query matched (null without one): its services, its name, or only its type of business. */
  matchedOn: 'services' | 'name' | 'type' | null;
  /** Words of the query it matches nothing for (a partial match). */
  unmatched: string[];
  booking: { visits: boolean; appointments: boolean; requestOnly: boolean };
  next: string;
}

interface Row {
  id: string;
  slug: string;
  name: string;
  kind: string;
  city: string;
  state: string;
  miles: number;
  scheduling: boolean | null;
  hasMenu: boolean;
  hasAppointments: boolean;
  /** Terms the query asked for (not stop words only). */
  asked: number;
  unmatched: string[];
  byServices: number;
  offered: number;
}

interface ServiceRow {
  businessId: string;
  id: string;
  name: string;
  priceKind: string;
  priceCents: number | null;
  bookableAs: 'visit' | 'appointment';
  /** How many of the query's terms it matches. */
  matched: number;
}

const KIND_WORDS: Record<string, string> = {
  cleaning: 'House cleaning',
  plumbing: 'Plumbing',
  hvac: 'Heating and air',
  auto_repair: 'Auto repair',
  beauty: 'Beauty',
  retail: 'Shop',
  food: 'Food',
  services: 'Services',
};

/** Where to look: ZIPs by distance from the centre, and the ZIPs whose service areas count. */
function area(input: { zip?: string; city?: string }) {
  if (input.zip) return { near: zipsNear(input.zip, RADIUS_MILES), served: [input.zip], where: input.zip };
  const live = liveCity(input.city!);
  const centre = cityCentre(live.city, live.state)!;
  return { near: zipsNear(centre, RADIUS_MILES), served: zipsOfCity(input.city!), where: `${live.city} ${live.state}` };
}

function nextStep(row: Row, zipOrCity: string): string {
  if (row.kind === 'cleaning') return `Firm totals and open starts: find_cleaners (${zipOrCity}), then book_cleaning with pro_id ${row.slug}.`;
  if (row.kind === 'plumbing' || row.kind === 'hvac') return `Firm service-call fees and arrival windows: find_service_call (${zipOrCity}, trade ${row.kind}), then book_service_call with pro_id ${row.slug}.`;
  const steps: string[] = [];
  if (row.hasMenu) steps.push(row.scheduling ? 'service_menu, estimate_visit, visit_times, then book_visit' : 'service_menu, estimate_visit, then request_visit (the business confirms a time)');
  if (row.hasAppointments) steps.push('appointment_times, contact_business, then book_appointment');
  steps.push('business_info for its published page, contact_business to ask');
  return `Use business ${row.slug} with ${steps.join('; or ')}.`;
}

function summary(row: Row, services: ServiceRow[]): string {
  const place = `${row.city} ${row.state}`;
  if (row.kind === 'cleaning') return `House cleaning in ${place}: firm totals for your home, online booking.`;
  if (row.kind === 'plumbing' || row.kind === 'hvac') return `${KIND_WORDS[row.kind]} in ${place}: a firm service-call fee, repairs quoted on site.`;
  const priced = services.map((s) => s.priceCents).filter((c): c is number => c !== null);
  // A free service (a consultation) is not the price a customer compares: the lowest paid one is.
  const paid = priced.filter((c) => c > 0);
  const free = paid.length < priced.length ? (paid.length ? ' (some free)' : ', free') : '';
  const from = (paid.length ? `, from ${usd(Math.min(...paid))}` : '') + free;
  const how = row.hasMenu && row.scheduling ? 'book a visit online' : row.hasAppointments ? 'book an appointment online' : row.hasMenu ? 'request a visit' : 'ask the business';
  return `${KIND_WORDS[row.kind] ?? 'Business'} in ${place}: ${services.length} service${services.length === 1 ? '' : 's'}${from}; ${how}.`;
}

/** A query's terms as the SQL reads them: any part of the document, what the business offers (its name, services and descriptions), its services only. */
function termsSql(terms: SearchTerm[]) {
  return Prisma.sql`terms(i, said, q, offer, services) AS (
      SELECT i, said, to_tsquery('english', anyq), to_tsquery('english', offerq), to_tsquery('english', servq)
      FROM unnest(${terms.map((t) => t.said)}::text[], ${terms.map((t) => termQuery(t))}::text[], ${terms.map((t) => termQuery(t, 'ACD'))}::text[], ${terms.map((t) => termQuery(t, 'CD'))}::text[])
        WITH ORDINALITY AS x(said, anyq, offerq, servq, i)),
    -- A term of stop words only ("the") matches nothing and is not asked for.
    live AS (SELECT * FROM terms WHERE numnode(q) > 0)`;
}

export async function findBusinessesService(input: z.output<typeof findBusinessesInput>, ctx: Context) {
  const { near, served, where } = area(input);
  const terms = searchTerms(input.query);
  const tsquery = anyTermQuery(terms);
  const matching = tsquery === null ? Prisma.sql`TRUE` : Prisma.sql`(numnode(q.q) = 0 OR s."document" @@ q.q)`;
  // The businesses within reach of the area, and the query; shared by the page and, when it is
  // empty, by the count of what nearby matches without the type or the query.
  const reach = Prisma.sql`
    WITH near(zip, miles) AS (SELECT * FROM unnest(${near.map((n) => n.zip)}::text[], ${near.map((n) => n.miles)}::int[])),
    cand AS (
      SELECT b.id, n.miles FROM "Business" b JOIN near n ON n.zip = b.zip
      UNION ALL
      SELECT z."businessId", 0 FROM "ServiceZip" z WHERE z.zip = ANY(${served}::text[])),
    best AS (SELECT id, min(miles)::int AS miles FROM cand GROUP BY id),
    q AS (SELECT to_tsquery('english', ${tsquery ?? ''}) AS q),
    ${termsSql(terms)}`;
  // Relevance: how many of the query's terms a business matches (only those matching the most
  // are listed: a partial match only when nothing nearby matches every term), then how many it
  // matches by what it offers rather than by its type; then distance.
  const rows = await ctx.prisma.$queryRaw<Row[]>(Prisma.sql`
    ${reach},
    scored AS (
      SELECT best.id, best.miles,
        (SELECT count(*) FROM live)::int AS asked,
        ARRAY(SELECT said FROM live WHERE NOT (s."document" @@ live.q) ORDER BY i) AS unmatched,
        (SELECT count(*) FROM live WHERE s."document" @@ live.offer)::int AS offered,
        (SELECT count(*) FROM live WHERE s."document" @@ live.services)::int AS "byServices",
        ts_rank_cd('{0.3, 1.0, 0.2, 0.8}', s."document", q.q) AS rank
      FROM best
      JOIN "Business" b ON b.id = best.id
      JOIN "BusinessSearch" s ON s."businessId" = b.id
      CROSS JOIN q
      WHERE ${matching} AND (${input.type ?? null}::text IS NULL OR b.kind::text = ${input.type ?? null}::text))
    SELECT b.id, b.slug, b.name, b.kind::text AS kind, b.city, b.state, sc.miles, sc.asked, sc.unmatched, sc.offered, sc."byServices",
      m."schedulingEnabled" AS scheduling,
      EXISTS (SELECT 1 FROM "MenuService" ms WHERE ms."businessId" = b.id) AS "hasMenu",
      EXISTS (SELECT 1 FROM "AppointmentService" a WHERE a."businessId" = b.id) AS "hasAppointments"
    FROM scored sc
    JOIN "Business" b ON b.id = sc.id
    LEFT JOIN "ServiceMenu" m ON m."businessId" = b.id
    WHERE cardinality(sc.unmatched) = (SELECT min(cardinality(unmatched)) FROM scored)
    ORDER BY sc.offered DESC, sc.miles, sc.rank DESC, b.name, b.id
    LIMIT ${PAGE_SIZE + 1} OFFSET ${(input.page - 1) * PAGE_SIZE}`);
  const shown = rows.slice(0, PAGE_SIZE);
  const services = shown.length ? await servicesOf(ctx, shown.map((r) => r.id), terms) : [];
  const byBusiness = new Map<string, ServiceRow[]>();
  for (const s of services) byBusiness.set(s.businessId, [...(byBusiness.get(s.businessId) ?? []), s]);
  const businesses: BusinessEntry[] = shown.map((row) => {
    const own = byBusiness.get(row.id) ?? [];
    const matches = (tsquery === null ? own : own.filter((s) => s.matched > 0)).slice(0, MATCHES_SHOWN);
    return {
      business: row.slug,
      name: row.name,
      type: row.kind,
      city: `${row.city} ${row.state}`,
      summary: summary(row, own),
      miles: row.miles,
      matches: matches.map(({ id, name, priceKind, priceCents, bookableAs }) => ({ serviceId: id, name, priceKind, priceCents, bookableAs })),
      matchedOn: row.asked === 0 ? null : row.byServices > 0 ? 'services' : row.offered > 0 ? 'name' : 'type',
      unmatched: row.unmatched,
      booking: { visits: Boolean(row.hasMenu && row.scheduling), appointments: row.hasAppointments, requestOnly: Boolean(row.hasMenu && !row.scheduling) },
      next: nextStep(row, input.zip ? `zip ${input.zip}` : `city ${where}`),
    };
  });
  let note: string | null = null;
  if (businesses.length) note = matchNote(input, where, businesses);
  else {
    note = emptyNote(input, where, near.length > 1);
    // The nearest alternative: the kinds nearby that match the query (when type left them out),
    // or, when the query matches nothing, the kinds there are nearby.
    if (near.length > 1 && input.page === 1 && (input.type || tsquery !== null)) {
      const byType = input.type && tsquery !== null ? matching : Prisma.sql`TRUE`;
      const kinds = await ctx.prisma.$queryRaw<{ kind: string; n: number }[]>(Prisma.sql`
        ${reach}
        SELECT b.kind::text AS kind, count(*)::int AS n FROM best
        JOIN "Business" b ON b.id = best.id JOIN "BusinessSearch" s ON s."businessId" = b.id CROSS JOIN q
        WHERE ${byType} GROUP BY b.kind ORDER BY n DESC, kind`);
      if (kinds.length) {
        const list = kinds.map((k) => `${k.kind} (${k.n})`).join(', ');
        note = input.type && tsquery !== null
          ? `No ${input.type} business within ${RADIUS_MILES} miles of ${where} matches "${input.query}"; these types do: ${list}. Search again without type, or with one of them.`
          : `${note} Types of business within ${RADIUS_MILES} miles: ${list}.`;
      }
    }
  }
  return { businesses, nextPage: rows.length > PAGE_SIZE ? input.page + 1 : null, note };
}

/** What a page of results matched, when it is less than the query asked for. */
function matchNote(input: z.output<typeof findBusinessesInput>, where: string, found: BusinessEntry[]): string | null {
  if (input.query !== undefined && found.every((b) => b.matchedOn === null)) {
    return `"${input.query}" has no words to search for; these are all the businesses near ${where}.`;
  }
  if (found.some((b) => b.unmatched.length)) {
    const inAll = found[0]!.unmatched.filter((w) => found.every((b) => b.unmatched.includes(w)));
    return `No business within ${RADIUS_MILES} miles of ${where} matches all of "${input.query}": these match the most of it, and unmatched lists the words each lacks` +
      `${inAll.length ? ` (none of them offers ${inAll.map((w) => `"${w}"`).join(' or ')})` : ''}. Try other words, or ask a business (contact_business).`;
  }
  if (found.some((b) => b.matchedOn === 'type')) {
    return `Entries matched by type only are businesses of a kind "${input.query}" names, none of whose services or name match it: check service_menu or ask them (contact_business).`;
  }
  return null;
}

/** The page's menu and bookable services, those matching most of the query's terms first, then in menu order. */
function servicesOf(ctx: Context, ids: string[], terms: SearchTerm[]) {
  const matched = (text: Prisma.Sql) =>
    terms.length === 0
      ? Prisma.sql`0`
      : Prisma.sql`(SELECT count(*)::int FROM unnest(${terms.map((t) => termQuery(t))}::text[]) AS t(q) WHERE to_tsvector('english', ${text}) @@ to_tsquery('english', t.q))`;
  return ctx.prisma.$queryRaw<ServiceRow[]>(Prisma.sql`
    SELECT * FROM (
      SELECT s."businessId", s.id, s.name, s."priceKind"::text AS "priceKind", s."priceCents", 'visit' AS "bookableAs", s.position,
        ${matched(Prisma.sql`s.name || ' ' || coalesce(s."group", '') || ' ' || s.description`)} AS matched
      FROM "MenuService" s WHERE s."businessId" = ANY(${ids}::text[])
      UNION ALL
      SELECT a."businessId", a.id, a.name, 'fixed', a."priceCents", 'appointment', a.position, ${matched(Prisma.sql`a.name`)}
      FROM "AppointmentService" a WHERE a."businessId" = ANY(${ids}::text[])
    ) x ORDER BY "businessId", matched DESC, "bookableAs" DESC, position`);
}

/** Why nothing was found, and what to try instead. */
function emptyNote(input: z.output<typeof findBusinessesInput>, where: string, knownArea: boolean): string {
  const live = `Live cities: ${LIVE_CITIES.map((c) => `${c.city} ${c.state}`).join(', ')}.`;
  if (!knownArea && input.zip) return `No business on Porchlight is near ${input.zip} yet. ${live}`;
  if (input.page > 1) return 'No more results: this page is past the last one.';
  const what = [input.query && `"${input.query}"`, input.type].filter(Boolean).join(' of type ');
  return `No business within ${RADIUS_MILES} miles of ${where} matches ${what || 'this search'}. Try other words, drop type, or search without query to see every business near ${where}.`;
}
