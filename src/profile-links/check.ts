/**
 * Checking profile links: the page is read (pages.ts) and verified when it carries the
 * business's code or links back to its page (core/profile-page.ts), its AggregateRating read as
 * it stands. A new link is checked once its add commits (a one-off job); every link is checked
 * again daily by a recurring job. A link whose check fails is no longer verified, so search
 * stops showing it.
 */
import type { Services } from '../context.js';
import type { Jobs } from '../jobs/jobs.js';
import { AppError } from '../errors.js';
import { DAY, HOUR } from '../core/time.js';
import { inspectProfilePage } from '../core/profile-page.js';
import type { Wanted } from '../receptionist/fetch.js';
import type { LinkStatus } from '../generated/prisma/enums.js';
import { Prisma } from '../generated/prisma/client.js';

export const CHECK_JOB = 'check-profile-link';
const RECHECK_JOB = 'recheck-profile-links';
/** The sweep runs hourly and takes the links checked a day ago (an hour's slack keeps each daily). */
const SWEEP_MS = HOUR;
const DUE_AFTER_MS = DAY - HOUR;
/** Links one sweep takes; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

const PAGE: Wanted = {
  types: ['text/html', 'application/xhtml+xml'],
  maxBytes: 3 * 1024 * 1024,
  otherwise: 'Give the address of a web page (HTML) about the business.',
};

const text = (body: Buffer, charset: string | null) => {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
};

/** Checks one link now and records the outcome; null when the link is gone. */
export async function checkProfileLink(services: Services, linkId: string): Promise<LinkStatus | null> {
  const link = await services.prisma.businessLink.findUnique({
    where: { id: linkId },
    select: { url: true, status: true, businessId: true, business: { select: { slug: true, linkCode: true } } },
  });
  if (!link) return null;
  const backLink = services.links.businessPage(link.business.slug);
  let outcome: { status: LinkStatus; rating: number | null; ratingCount: number | null; problem: string | null };
  try {
    const page = await services.profilePages.get(link.url, PAGE);
    // A link that redirects to this service's own pages proves nothing about the business.
    if (!services.profilePages.inProcess(link.url) && new URL(page.url).host === new URL(services.config.baseUrl).host) {
      throw new AppError('invalid_input', "The link leads to this service's own pages; give the business's website or its profile on another site.");
    }
    const found = inspectProfilePage(text(page.body, page.charset), { pageUrl: page.url, code: link.business.linkCode ?? '', backLink });
    outcome =
      found.carriesCode || found.linksBack ?
        { status: 'verified', rating: found.rating?.value ?? null, ratingCount: found.rating?.count ?? null, problem: null }
      : {
          // Never verified: still waiting for the code. Verified before: the proof is gone.
          status: link.status === 'verified' ? 'failed' : 'pending',
          rating: null,
          ratingCount: null,
          problem: `The page carries neither the verification code nor a link to ${backLink}.`,
        };
  } catch (err) {
    // The fetcher's refusals (unreachable, not public, not HTML, too large) are the check's outcome; anything else is retried.
    if (!(err instanceof AppError)) throw err;
    outcome = { status: 'failed', rating: null, ratingCount: null, problem: err.message };
  }
  const checkedAt = services.clock.date();
  await services.transaction(async (tx) => {
    const updated = await tx.businessLink.updateMany({ where: { id: linkId }, data: { ...outcome, checkedAt } });
    // Search shows verified links with their rating and check time: it reads the business again.
    if (updated.count && (outcome.status === 'verified' || link.status === 'verified')) services.search.reloadAfterCommit(tx, 'catalog', link.businessId);
  });
  return outcome.status;
}

/**
 * The daily check: links last checked a day ago or never. This service's own pages (the demo's)
 * are checked here and now; the others become one-off jobs, so a slow site holds nothing up.
 */
export async function recheckProfileLinks(services: Services): Promise<{ checked: number; queued: number }> {
  const due = await services.prisma.businessLink.findMany({
    where: { OR: [{ checkedAt: null }, { checkedAt: { lte: new Date(services.clock.now() - DUE_AFTER_MS) } }] },
    select: { id: true, url: true },
    orderBy: [{ checkedAt: { sort: 'asc', nulls: 'first' } }, { id: 'asc' }],
    take: SWEEP_BATCH,
  });
  const own = due.filter((l) => services.profilePages.inProcess(l.url));
  const web = due.filter((l) => !services.profilePages.inProcess(l.url));
  for (const link of own) await checkProfileLink(services, link.id);
  let queued = 0;
  if (web.length) {
    // A link whose check is already queued (just added, or left from the last sweep) is not queued twice.
    const waiting = await services.prisma.$queryRaw<{ linkId: string }[]>(
      Prisma.sql`SELECT payload->>'linkId' AS "linkId" FROM "Job" WHERE queue = ${CHECK_JOB} AND payload->>'linkId' IN (${Prisma.join(web.map((l) => l.id))})`,
    );
    const skip = new Set(waiting.map((w) => w.linkId));
    const fresh = web.filter((l) => !skip.has(l.id));
    if (fresh.length) {
      await services.transaction(async (tx) => {
        for (const link of fresh) await services.jobs.enqueue(tx, CHECK_JOB, { linkId: link.id });
      });
    }
    queued = fresh.length;
  }
  return { checked: own.length, queued };
}

/** The one-off check and the daily sweep, on the job primitive. */
export function defineProfileLinkJobs(jobs: Jobs, services: Services): void {
  jobs.define<{ linkId: string }>(CHECK_JOB, 'checking a profile link failed', ({ linkId }) => checkProfileLink(services, linkId), { maxAttempts: 3 });
  jobs.every(RECHECK_JOB, 'checking profile links again failed', SWEEP_MS, () => recheckProfileLinks(services));
}
