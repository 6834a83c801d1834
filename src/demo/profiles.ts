/**
 * The demo's profile pages (`/demo/profiles/<slug>`), standing in for a marketplace profile: a
 * page per demo business that carries its verification code, links back to its Porchlight page
 * and states a rating in schema.org AggregateRating (JSON-LD), as a real profile would. The demo
 * businesses' links point here and are checked like any owner's link (profile-links/check.ts),
 * so search shows them only once the check has read the page. The rating is the demo site's own
 * (a fixed number per business, said on the page to be demo data); search never makes one up.
 * Only businesses of the demo's owners have such a page.
 */
import { createHash } from 'node:crypto';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { Links } from '../links.js';

export const DEMO_PROFILES = '/demo/profiles/';
const DEMO_OWNERS = '%@demo.porchlight.test';
const LINK_ID = 'demo-link-';

/** The demo profile site's rating of a business: 3.8-5.0 and 4-400 reviews, the same every time. */
export function demoProfileRating(slug: string): { value: number; count: number } {
  const h = createHash('sha256').update(`demo-profile:${slug}`).digest();
  return { value: (38 + (h[0]! % 13)) / 10, count: 4 + (h.readUInt16BE(1) % 397) };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** JSON inside a script element: no "</script>" can close it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page at `path` (/demo/profiles/<slug>), or null when it names no demo business. */
export async function demoProfilePage(prisma: PrismaClient, links: Links, path: string): Promise<string | null> {
  if (!path.startsWith(DEMO_PROFILES)) return null;
  const slug = decodeURIComponent(path.slice(DEMO_PROFILES.length)).replace(/\/$/, '');
  if (!/^[a-z0-9-]{1,100}$/.test(slug)) return null;
  const business = await prisma.business.findFirst({
    where: { slug, owner: { email: { endsWith: DEMO_OWNERS.slice(1) } } },
    select: { name: true, city: true, state: true, linkCode: true },
  });
  if (!business?.linkCode) return null;
  const rating = demoProfileRating(slug);
  const page = links.businessPage(slug);
  const data = {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: business.name,
    address: { '@type': 'PostalAddress', addressLocality: business.city, addressRegion: business.state },
    aggregateRating: { '@type': 'AggregateRating', ratingValue: rating.value, bestRating: 5, reviewCount: rating.count },
  };
  const name = escapeHtml(business.name);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${name} · Demo profiles</title>
<meta name="porchlight-verification" content="${escapeHtml(business.linkCode)}">
<script type="application/ld+json">${scriptJson(data)}</script>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#222}.note{color:#555}</style>
</head><body>
<p class="note">Demo profiles: a stand-in for a review site, served by this Porchlight demo. Its ratings are demo data.</p>
<h1>${name}</h1>
<p>${escapeHtml(business.city)}, ${escapeHtml(business.state)}</p>
<p id="rating">Rated ${rating.value.toFixed(1)} out of 5 by ${rating.count} customers (demo).</p>
<p>Book on Porchlight: <a id="back-link" href="${escapeHtml(page)}">${escapeHtml(page)}</a></p>
</body></html>`;
}

/**
 * Gives every demo business its verification code and one link, to its demo profile page at this
 * BASE_URL (pending until checked); links to another BASE_URL's pages (a start on another
 * port) are replaced.
 */
export async function ensureDemoProfileLinks(prisma: PrismaClient, baseUrl: string): Promise<void> {
  const prefix = `${baseUrl}${DEMO_PROFILES}`;
  await prisma.$transaction([
    prisma.$executeRaw(Prisma.sql`
      UPDATE "Business" b SET "linkCode" = 'porchlight-' || substr(md5(gen_random_uuid()::text || b.id), 1, 16)
      FROM "Owner" o WHERE o.id = b."ownerId" AND o.email LIKE ${DEMO_OWNERS} AND b."linkCode" IS NULL`),
    prisma.$executeRaw(Prisma.sql`DELETE FROM "BusinessLink" WHERE id LIKE ${`${LINK_ID}%`} AND left(url, ${prefix.length}) <> ${prefix}`),
    prisma.$executeRaw(Prisma.sql`
      INSERT INTO "BusinessLink" (id, "businessId", url, label, position, status)
      SELECT ${LINK_ID} || b.slug, b.id, ${prefix} || b.slug, 'Demo profile', 0, 'pending'
      FROM "Business" b JOIN "Owner" o ON o.id = b."ownerId" WHERE o.email LIKE ${DEMO_OWNERS}
      ON CONFLICT DO NOTHING`),
  ]);
}
