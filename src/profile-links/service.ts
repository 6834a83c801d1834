/**
 * The business's website and profile pages (add_profile_link, remove_profile_link): an owner
 * gives an https address, the page is checked (check.ts) for the business's verification code or
 * a link back to its page, and search shows it once verified, with the rating the page states.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { OwnerContext } from '../context.js';
import type { Tx } from '../db/transaction.js';
import { invalid, notFound } from '../errors.js';
import { linkLabel } from '../core/profile-page.js';
import { formatInstant } from '../core/time.js';
import { httpsUrl } from '../receptionist/fetch.js';
import { checkAddress, ipLiteral } from '../receptionist/address.js';
import { CHECK_JOB } from './check.js';
import type { addProfileLinkInput, removeProfileLinkInput } from './inputs.js';

/** Links one business may have. */
export const MAX_LINKS = 10;

const CODE_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A new verification code: "porchlight-" and 16 letters and digits (about 79 bits). */
export function newLinkCode(): string {
  const bytes = randomBytes(16);
  return `porchlight-${[...bytes].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')}`;
}

/** The business's verification code, made the first time it is asked for, then the same for good. */
async function linkCode(tx: Tx, businessId: string): Promise<string> {
  const business = await tx.business.findUniqueOrThrow({ where: { id: businessId }, select: { linkCode: true } });
  if (business.linkCode) return business.linkCode;
  await tx.business.updateMany({ where: { id: businessId, linkCode: null }, data: { linkCode: newLinkCode() } });
  return (await tx.business.findUniqueOrThrow({ where: { id: businessId }, select: { linkCode: true } })).linkCode!;
}

/** The owner's address as one the check may read, or a 400 that says why not. */
function linkAddress(raw: string, ctx: OwnerContext): URL {
  const url = httpsUrl(raw.trim(), 'url');
  url.hash = '';
  const literal = ipLiteral(url.hostname);
  if (literal !== null) {
    const check = checkAddress(literal);
    if (!check.ok) throw invalid(`url points to ${check.reason}; give the public address of the website or profile page.`);
  }
  if (url.host === new URL(ctx.config.baseUrl).host) throw invalid("url is a page of this service; give the business's own website or its profile on another site.");
  return url;
}

const how = (code: string, backLink: string) =>
  `Put ${code} anywhere on the page (text, or <meta name="porchlight-verification" content="${code}">) or link the page to ${backLink}. ` +
  'It is checked now and daily; add the same url again to check it sooner.';

export async function addProfileLinkService(input: z.output<typeof addProfileLinkInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const url = linkAddress(input.url, ctx);
  return ctx.transaction(async (tx) => {
    const code = await linkCode(tx, businessId);
    const business = await tx.business.findUniqueOrThrow({ where: { id: businessId }, select: { slug: true, _count: { select: { links: true } } } });
    const backLink = ctx.links.businessPage(business.slug);
    const verification = { code, how: how(code, backLink) };
    if (url.href.includes(code)) throw invalid('url itself carries the verification code; the code must be on the page, not in its address.');
    const existing = await tx.businessLink.findUnique({ where: { businessId_url: { businessId, url: url.href } }, select: { id: true, status: true } });
    if (existing) {
      // The same address again: checked again at once.
      await ctx.jobs.enqueue(tx, CHECK_JOB, { linkId: existing.id });
      return { linkId: existing.id, url: url.href, status: existing.status, verification };
    }
    if (business._count.links >= MAX_LINKS) throw invalid(`A business can show at most ${MAX_LINKS} links; remove one with remove_profile_link first (my_business lists them).`);
    const link = await tx.businessLink.create({
      data: { businessId, url: url.href, label: linkLabel(url), position: business._count.links, createdAt: ctx.clock.date() },
      select: { id: true },
    });
    await ctx.jobs.enqueue(tx, CHECK_JOB, { linkId: link.id });
    return { linkId: link.id, url: url.href, status: 'pending' as const, verification };
  });
}

export async function removeProfileLinkService(input: z.output<typeof removeProfileLinkInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  return ctx.transaction(async (tx) => {
    const removed = await tx.businessLink.deleteMany({ where: { id: input.link_id, businessId } });
    if (!removed.count) throw notFound(`This business has no link with link_id "${input.link_id.slice(0, 100)}"; my_business lists its links.`);
    ctx.search.reloadAfterCommit(tx, 'catalog', businessId);
    return { linkId: input.link_id, removed: true };
  });
}

/** The business's links as its owner reads them (my_business), checked or not. */
export async function ownerProfileLinks(ctx: OwnerContext, businessId: string, zone: string) {
  const links = await ctx.prisma.businessLink.findMany({ where: { businessId }, orderBy: [{ position: 'asc' }, { createdAt: 'asc' }] });
  return links.map((l) => ({
    linkId: l.id,
    url: l.url,
    label: l.label,
    status: l.status,
    rating: l.rating,
    ratingCount: l.ratingCount,
    checkedAt: l.checkedAt ? formatInstant(l.checkedAt, zone) : null,
    problem: l.problem,
  }));
}
