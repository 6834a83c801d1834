/**
 * Links that were checked (add_profile_link, remove_profile_link, search's `links`): pages on a
 * local https server (its certificate and address allowed by the test app's fetch policy only)
 * verified by the business's code or by a link back to its page, their AggregateRating read;
 * a page with neither stays pending; a page that loses the code drops out of search at the next
 * daily check; the demo's links are its own profile pages, verified at start.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFilesServer, testFetchPolicy, type FilesServer } from '../helpers/files.js';
import { BASE, bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { demoIds } from '../../src/demo/generate.js';
import { demoProfileRating } from '../../src/demo/profiles.js';
import { recheckProfileLinks } from '../../src/profile-links/check.js';

const CLEANER = demoIds.cleanerAustin;
const OTHER = demoIds.cleanerSanFrancisco;
const SEARCH = { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1 };

describe('profile links', () => {
  let app: TestApp;
  let files: FilesServer;
  let owner: Record<string, string>;
  let other: Record<string, string>;
  /** What the pages carry; set once add_profile_link has said the code. */
  const page = { code: 'not yet', flakyHasCode: true };
  const html = (res: import('node:http').ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body>${body}</body></html>`);
  const jsonLd = (value: number, count: number) =>
    `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'HouseCleaning', aggregateRating: { '@type': 'AggregateRating', ratingValue: String(value), reviewCount: count } })}</script>`;

  beforeAll(async () => {
    files = await startFilesServer({
      '/by-code': (_req, res) => html(res, `<h1>Sparkle</h1><p>porchlight: ${page.code}</p>${jsonLd(4.6, 120)}`),
      '/by-link': (_req, res) =>
        html(
          res,
          `<div itemscope itemtype="https://schema.org/LocalBusiness"><a href="${BASE}/b/${CLEANER}">Book us</a>
           <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating"><span itemprop="ratingValue">4.8</span> from <span itemprop="reviewCount">33</span></div></div>`,
        ),
      '/neither': (_req, res) => html(res, '<p>Rated 5 stars by everyone!</p>'),
      '/flaky': (_req, res) => html(res, page.flakyHasCode ? `<meta name="porchlight-verification" content="${page.code}">` : '<p>redesigned</p>'),
      '/no-rating': (_req, res) => html(res, `<p>${page.code}</p>`),
    });
    app = await startApp({ fetchPolicy: { ...testFetchPolicy(files), timeoutMs: 15_000 } });
    owner = bearer(await businessKey(app, CLEANER));
    other = bearer(await businessKey(app, OTHER));
  });
  afterAll(async () => {
    await app?.close();
    await files?.close();
  });

  const add = (url: string, headers = owner) => app.rest('add_profile_link', { url }, headers);
  /** Waits for the check that add_profile_link queued. */
  const checked = (linkId: string) =>
    vi.waitFor(
      async () => {
        const link = await app.services.prisma.businessLink.findUniqueOrThrow({ where: { id: linkId } });
        expect(link.checkedAt).not.toBeNull();
        return link;
      },
      { timeout: 15_000, interval: 50 },
    );
  const ownerLinks = async () => (await app.rest('my_business', {}, owner)).body.profile_links as Record<string, unknown>[];
  const searchLinks = async () => {
    const res = await app.rest('find_cleaners', SEARCH);
    expect(res.status).toBe(200);
    const cleaner = (res.body.cleaners as { pro_id: string; links: Record<string, unknown>[] }[]).find((c) => c.pro_id === CLEANER);
    expect(cleaner, 'the demo cleaner is found').toBeDefined();
    return cleaner!.links;
  };

  it("shows the demo's links verified from the demo's own profile pages, the rating read from there", async () => {
    const links = await searchLinks();
    const rating = demoProfileRating(CLEANER);
    expect(links).toEqual([
      { url: `${BASE}/demo/profiles/${CLEANER}`, label: 'Demo profile', rating: rating.value, rating_count: rating.count, checked_at: expect.stringMatching(/^2026-11-23T\d\d:\d\d:\d\d-06:00$/) },
    ]);
    const res = await app.get(`/demo/profiles/${CLEANER}`);
    expect(res.status).toBe(200);
    const body = await res.text();
    const code = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: CLEANER } })).linkCode!;
    expect(body).toContain(code);
    expect(body).toContain(`href="${BASE}/b/${CLEANER}"`);
    expect((await app.get('/demo/profiles/no-such-business')).status).toBe(404);
  });

  it('verifies a page that carries the code, with its JSON-LD rating, and search shows it', async () => {
    const res = await add(`${files.named}/by-code`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      link_id: expect.any(String),
      url: `${files.named}/by-code`,
      status: 'pending',
      verification: { code: expect.stringMatching(/^porchlight-[a-z0-9]{16}$/), how: expect.stringContaining(`${BASE}/b/${CLEANER}`) },
    });
    page.code = res.body.verification.code;
    // The same code for every link of the business, and again on another add.
    expect((await app.services.prisma.business.findUniqueOrThrow({ where: { slug: CLEANER } })).linkCode).toBe(page.code);
    const link = await checked(res.body.link_id);
    expect(link).toMatchObject({ status: 'verified', rating: 4.6, ratingCount: 120, problem: null });
    expect(await ownerLinks()).toContainEqual({
      link_id: res.body.link_id, url: `${files.named}/by-code`, label: 'Website', status: 'verified', rating: 4.6, rating_count: 120, checked_at: expect.any(String), problem: null,
    });
    await vi.waitFor(async () =>
      expect(await searchLinks()).toContainEqual({ url: `${files.named}/by-code`, label: 'Website', rating: 4.6, rating_count: 120, checked_at: expect.stringMatching(/-06:00$/) }),
    );
  });

  it('verifies a page that links back to the business page, with its microdata rating; no rating is null, never made up', async () => {
    const byLink = await add(`${files.named}/by-link`);
    expect(byLink.body.verification.code).toBe(page.code);
    expect(await checked(byLink.body.link_id)).toMatchObject({ status: 'verified', rating: 4.8, ratingCount: 33 });
    const bare = await app.tool('add_profile_link', { url: `${files.named}/no-rating` }, owner);
    expect(bare.isError).toBe(false);
    expect(await checked(bare.structured.link_id)).toMatchObject({ status: 'verified', rating: null, ratingCount: null });
    // Search reads the business again once the check has committed.
    await vi.waitFor(async () => {
      const shown = await searchLinks();
      expect(shown).toContainEqual(expect.objectContaining({ url: `${files.named}/by-link`, rating: 4.8, rating_count: 33 }));
      expect(shown).toContainEqual(expect.objectContaining({ url: `${files.named}/no-rating`, rating: null, rating_count: null }));
    });
  });

  it('keeps a page with neither the code nor a link back pending, out of search, and says why', async () => {
    const res = await add(`${files.named}/neither`);
    const link = await checked(res.body.link_id);
    expect(link.status).toBe('pending');
    expect(link.rating).toBeNull();
    expect(link.problem).toContain('neither the verification code nor a link');
    expect((await searchLinks()).map((l) => l.url)).not.toContain(`${files.named}/neither`);
    // Adding it again checks it again, and answers the same link.
    const again = await add(`${files.named}/neither`);
    expect(again.body).toMatchObject({ link_id: res.body.link_id, status: 'pending' });
  });

  it('drops a link from search when the daily check finds the code gone', async () => {
    const res = await add(`${files.named}/flaky`);
    expect((await checked(res.body.link_id)).status).toBe('verified');
    await vi.waitFor(async () => expect((await searchLinks()).map((l) => l.url)).toContain(`${files.named}/flaky`));
    page.flakyHasCode = false;
    // A day later: the sweep queues its check again (only links checked a day ago).
    await app.services.prisma.businessLink.update({ where: { id: res.body.link_id }, data: { checkedAt: new Date(app.services.clock.now() - 25 * 3_600_000) } });
    const swept = await recheckProfileLinks(app.services);
    expect(swept.queued).toBeGreaterThanOrEqual(1);
    await vi.waitFor(async () => expect((await searchLinks()).map((l) => l.url)).not.toContain(`${files.named}/flaky`), { timeout: 15_000 });
    expect((await ownerLinks()).find((l) => l.link_id === res.body.link_id)).toMatchObject({ status: 'failed', problem: expect.stringContaining('neither') });
  });

  it('removes a link over GraphQL and MCP alike; another business cannot remove it (400 not_found)', async () => {
    const res = await add(`${files.named}/by-code?copy=1`);
    await checked(res.body.link_id);
    const theirs = await app.rest('remove_profile_link', { link_id: res.body.link_id }, other);
    // As every owner operation answers another business's id: 400 not_found.
    expect(theirs.status).toBe(400);
    expect(theirs.body).toMatchObject({ code: 'not_found', error: expect.stringContaining('my_business') });
    const gql = await app.graphql('mutation($i: RemoveProfileLinkInput!) { removeProfileLink(input: $i) { linkId removed } }', { i: { linkId: res.body.link_id } }, owner);
    expect(gql.body).toEqual({ data: { removeProfileLink: { linkId: res.body.link_id, removed: true } } });
    await vi.waitFor(async () => expect((await searchLinks()).map((l) => l.url)).not.toContain(`${files.named}/by-code?copy=1`));
    const again = await app.tool('remove_profile_link', { link_id: res.body.link_id }, owner);
    expect(again.isError).toBe(true);
    expect(again.body.code).toBe('not_found');
  });

  it('refuses what is not a public https address with a 400 that says why; a name that reaches nothing public fails its check', async () => {
    const refused: [string, RegExp][] = [
      [`${files.named}/by-code\u0000x`, /control characters/],
      ['ftp://files.example/page', /https/],
      ['http://sparkle.example/', /https/],
      ['javascript:alert(1)', /https/],
      ['not a link', /web address/],
      ['https://10.0.0.7/profile', /private network/],
      ['https://[::1]/', /loopback/],
      ['https://169.254.169.254/latest', /link-local/],
      [`${BASE}/b/${CLEANER}`.replace('http:', 'https:'), /page of this service/],
      [`${files.named}/?proof=${page.code}`, /carries the verification code/],
    ];
    for (const [url, message] of refused) {
      const res = await add(url);
      expect(res.status, url).toBe(400);
      expect(res.body.code, url).toBe('invalid_input');
      expect(res.body.error, url).toMatch(message);
    }
    const unauthenticated = await app.rest('add_profile_link', { url: `${files.named}/by-code` });
    expect(unauthenticated.status).toBe(401);
    for (const [name, reason] of [['internal.test', /private network/], ['metadata.test', /link-local/], ['nowhere.test', /.+/]] as const) {
      const res = await add(`https://${name}/profile`);
      expect(res.status, name).toBe(200);
      const link = await checked(res.body.link_id);
      expect(link.status, name).toBe('failed');
      expect(link.problem, name).toMatch(reason);
    }
    expect((await searchLinks()).map((l) => l.url).filter((u) => /internal|metadata|nowhere/.test(String(u)))).toEqual([]);
  });
});
