/**
 * The owner dashboard at /app: sign-in with e-mail and password, the session cookie, CSRF on every
 * form, Manage with AI codes, and the business's keys and connections (issue 18 item 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock.js';
import { DEMO_PASSWORD, demoIds, demoOwnerEmail } from '../../src/demo/generate.js';
import { hashToken } from '../../src/auth/tokens.js';
import { createManageCode } from '../../src/auth/manage-codes.js';
import { BASE, bearer, startApp, type TestApp } from '../helpers/harness.js';
import { cookiesOf, csrfIn, formPost, signInToDashboard, type Dashboard } from '../helpers/dashboard.js';
import { dashboardGate, dashboardRoutes } from '../../facades/dashboard.js';
import { operationByName } from '../../src/operations.js';

const OWNER = demoIds.cleanerAustin;
let app: TestApp;
let businessId: string;
let otherId: string;
const logs: string[] = [];

beforeAll(async () => {
  app = await startApp({ logs });
  businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: OWNER } })).id;
  otherId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin } })).id;
});
afterAll(async () => app?.close());

/** A business key bought at /app/api/connect with a code (of `grantId`'s connection, if given). */
async function keyFor(forBusiness: string, grantId: string | null = null) {
  await app.services.rateLimits.code.reset('address:local');
  const { code } = await createManageCode(app.services, forBusiness, grantId);
  const res = await app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
  const { key } = (await res.json()) as { key: string };
  return { key, keyId: (await app.services.prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashToken(key) } })).id };
}

/** A connection of a registered client named `name`, with a refresh token, for the business. */
async function connectionOf(name: string, forBusiness = businessId) {
  const client = await app.services.prisma.oAuthClient.create({ data: { id: `pc_test_${Math.random().toString(36).slice(2)}`, name, redirectUris: ['https://assistant.example/cb'] } });
  const grant = await app.services.prisma.oAuthGrant.create({ data: { clientId: client.id, businessId: forBusiness, scopes: ['read', 'write'], createdAt: app.services.clock.date() } });
  await app.services.prisma.oAuthRefreshToken.create({ data: { grantId: grant.id, tokenHash: hashToken(`prt_${grant.id}`), expiresAt: new Date(app.services.clock.now() + 86400_000) } });
  return grant.id;
}

const works = async (key: string) => (await app.rest('my_business', {}, bearer(key))).status === 200;

describe('signing in', () => {
  it('sends a visitor without a session to the sign-in page, which is a plain form with the page headers', async () => {
    const home = await app.get('/app');
    expect(home.status).toBe(303);
    expect(home.headers.get('location')).toBe('/app/sign-in?next=%2Fapp');
    const page = await app.get('/app/sign-in?next=%2Fapp');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // Not no-referrer: under it a browser sends "Origin: null" with the form, which the CSRF check reads.
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/app/sign-in"');
    expect(html).not.toContain('<script');
    const cookie = page.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^porchlight_signin=[\w-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(csrfIn(html)).toBe(/=([\w-]{43})/.exec(cookie)![1]);
  });

  it('answers a wrong password on the page (400), keeping the e-mail escaped, and starts no session', async () => {
    const form = await app.get('/app/sign-in');
    const res = await formPost(app, '/app/sign-in', { csrf: csrfIn(await form.text())!, email: `${demoOwnerEmail(OWNER)}<b>`, password: 'wrong' }, { cookie: cookiesOf(form) });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('do not match');
    expect(html).toContain('&lt;b&gt;');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('porchlight_session='))).toBe(false);
    expect(await app.services.prisma.ownerSession.count()).toBe(0);
  });

  it('signs in with e-mail and password: an HttpOnly, SameSite=Lax cookie for 12 hours whose token is stored hashed', async () => {
    const form = await app.get('/app/sign-in');
    const res = await formPost(app, '/app/sign-in', { csrf: csrfIn(await form.text())!, email: demoOwnerEmail(OWNER).toUpperCase(), password: DEMO_PASSWORD }, { cookie: cookiesOf(form) });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app');
    const session = res.headers.getSetCookie().find((c) => c.startsWith('porchlight_session='))!;
    expect(session).toMatch(/^porchlight_session=ds_[\w-]+; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax$/);
    const token = /=(ds_[\w-]+)/.exec(session)![1]!;
    const row = await app.services.prisma.ownerSession.findUniqueOrThrow({ where: { tokenHash: hashToken(token) } });
    expect(row).toMatchObject({ businessId, revokedAt: null });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(12 * 3600_000);
    expect(JSON.stringify(await app.services.prisma.ownerSession.findMany())).not.toContain(token);
    const home = await app.get('/app', { headers: { cookie: `porchlight_session=${token}` } });
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('Sparkle');
    expect(html).toContain('href="/app/keys"');
    expect(html).toContain('href="/app/manage-with-ai"');
    expect(logs.join('\n')).not.toContain(token);
  });

  it('returns only to a dashboard path of this site after sign-in', async () => {
    const cases: [string, string][] = [
      ['/app/keys', '/app/keys'],
      ['/app/front-desk/port/fdport_x?a=1', '/app/front-desk/port/fdport_x?a=1'],
      ['https://evil.example/app', '/app'],
      ['//evil.example/app', '/app'],
      ['/\\evil.example', '/app'],
      ['/app/../evil', '/app'],
      ['/app/%2e%2e/evil', '/app'],
      ['/appevil', '/app'],
      ['javascript:alert(1)', '/app'],
      ['/app\u0000x', '/app'],
    ];
    for (const [next, location] of cases) {
      const form = await app.get(`/app/sign-in?${new URLSearchParams({ next })}`);
      const html = await form.text();
      const res = await formPost(app, '/app/sign-in', { csrf: csrfIn(html)!, next, email: demoOwnerEmail(OWNER), password: DEMO_PASSWORD }, { cookie: cookiesOf(form) });
      expect(res.headers.get('location'), next).toBe(location);
    }
  });

  it('refuses a sign-in posted from another site or without its form token (403)', async () => {
    const form = await app.get('/app/sign-in');
    const csrf = csrfIn(await form.text())!;
    const fields = { csrf, email: demoOwnerEmail(OWNER), password: DEMO_PASSWORD };
    for (const [what, headers, body] of [
      ['foreign Origin', { cookie: cookiesOf(form), origin: 'https://evil.example' }, fields],
      ['cross-site fetch', { cookie: cookiesOf(form), origin: '', 'sec-fetch-site': 'cross-site' }, fields],
      ['no form cookie', {}, fields],
      ['no token', { cookie: cookiesOf(form) }, { ...fields, csrf: '' }],
      ['another token', { cookie: cookiesOf(form) }, { ...fields, csrf: 'x'.repeat(43) }],
    ] as [string, Record<string, string>, Record<string, string>][]) {
      const h = { ...headers };
      if (h.origin === '') delete h.origin;
      const res = await app.get('/app/sign-in', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...(h.origin === undefined && !('sec-fetch-site' in h) ? { origin: BASE } : {}), ...h }, body: new URLSearchParams(body) });
      expect(res.status, what).toBe(403);
      expect(res.headers.getSetCookie().some((c) => c.startsWith('porchlight_session=')), what).toBe(false);
    }
  });
});

describe('signed in', () => {
  let owner: Dashboard;
  beforeAll(async () => {
    owner = await signInToDashboard(app, OWNER);
  });

  it('creates a Manage with AI code that /app/api/connect accepts; it is shown once and never logged', async () => {
    const page = await owner.get('/app/manage-with-ai');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="create-code"');
    const res = await owner.post('/app/manage-with-ai');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const code = /id="code"[^>]*>([A-HJ-NP-Z2-9]{8})</.exec(await res.text())![1]!;
    expect(await app.services.prisma.manageCode.findUniqueOrThrow({ where: { codeHash: hashToken(code) } })).toMatchObject({ businessId, grantId: null, usedAt: null });
    expect(logs.join('\n')).not.toContain(code);
    const connect = await app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    expect(connect.status).toBe(200);
    expect(((await connect.json()) as { key: string }).key).toMatch(/^sk_pro_/);
  });

  it('lists keys and connections, with what made each key; app names are shown as text', async () => {
    const grantId = await connectionOf('<img src=x onerror=alert(1)> Helper');
    const made = await keyFor(businessId, grantId);
    const mine = await keyFor(businessId);
    const theirs = await keyFor(otherId);
    const res = await owner.get('/app/keys');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`id="connection-${grantId}"`);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; Helper');
    expect(html).not.toContain('<img');
    expect(html).toContain(`id="key-${made.keyId}"`);
    expect(html).toContain(`id="key-${mine.keyId}"`);
    expect(html).toContain(mine.key.slice(0, 12));
    expect(html).not.toContain(mine.key);
    expect(html).not.toContain(theirs.keyId);
    expect(html).toMatch(new RegExp(`id="key-${made.keyId}"[\\s\\S]*?through &lt;img`));
  });

  it('revokes a key and disconnects an app from the page; both are refused at once', async () => {
    const { key, keyId } = await keyFor(businessId);
    const res = await owner.post('/app/keys/revoke', { id: keyId });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/app/keys?done=key');
    expect(await works(key)).toBe(false);
    expect(await (await owner.get('/app/keys?done=key')).text()).toContain('The key was revoked.');

    const grantId = await connectionOf('Calendar helper');
    const made = await keyFor(businessId, grantId);
    const off = await owner.post('/app/keys/revoke', { id: grantId });
    expect(off.headers.get('location')).toBe('/app/keys?done=connection');
    expect(await works(made.key)).toBe(false);
    expect(await app.services.prisma.oAuthGrant.findUniqueOrThrow({ where: { id: grantId } })).toMatchObject({ revokedAt: expect.any(Date) });
  });

  it("cannot revoke another business's key: the page says not found and the key keeps working", async () => {
    const theirs = await keyFor(otherId);
    const res = await owner.post('/app/keys/revoke', { id: theirs.keyId });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('No key or connection of this business has that id');
    expect(html).not.toContain(theirs.keyId);
    expect(await works(theirs.key)).toBe(true);
  });

  it('refuses every form posted without its token, with another session\'s, or from another site (403), and does nothing', async () => {
    const { key, keyId } = await keyFor(businessId);
    const other = await signInToDashboard(app, demoIds.plumberAustin);
    const codes = await app.services.prisma.manageCode.count();
    const attempts: [string, Record<string, string>, Record<string, string>][] = [
      ['no token', { csrf: '' }, {}],
      ['a made-up token', { csrf: 'A'.repeat(43) }, {}],
      ["another session's token", { csrf: other.csrf }, {}],
      ['foreign Origin', {}, { origin: 'https://evil.example' }],
      ['Origin null', {}, { origin: 'null' }],
      ['a sibling site', {}, { origin: 'http://evil.porchlight.test' }],
    ];
    for (const [what, fields, headers] of attempts) {
      for (const [path, body] of [['/app/keys/revoke', { id: keyId }], ['/app/manage-with-ai', {}], ['/app/sign-out', {}], ['/app/business', { business_id: businessId }]] as const) {
        const res = await owner.post(path, { ...body, ...fields }, headers);
        expect(res.status, `${what} ${path}`).toBe(403);
      }
    }
    // Without Origin, a browser's Sec-Fetch-Site tells a cross-site form apart.
    const noOrigin = (more: Record<string, string>) =>
      app.get('/app/keys/revoke', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: owner.cookie, ...more }, body: new URLSearchParams({ csrf: owner.csrf, id: keyId }) });
    expect((await noOrigin({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await noOrigin({ 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect(await works(key)).toBe(true);
    expect(await app.services.prisma.manageCode.count()).toBe(codes);
    expect((await owner.get('/app')).status).toBe(200);
    // The same form from the dashboard itself goes through.
    expect((await noOrigin({ 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    expect(await works(key)).toBe(false);
  });

  it('switches between the owner\'s businesses, and only to theirs', async () => {
    const ownerId = (await app.services.prisma.business.findUniqueOrThrow({ where: { id: businessId } })).ownerId!;
    const second = await app.services.prisma.business.findFirstOrThrow({ where: { slug: demoIds.hvacSanJose } });
    await app.services.prisma.business.update({ where: { id: second.id }, data: { ownerId } });
    try {
      const home = await (await owner.get('/app')).text();
      expect(home).toContain(`value="${second.id}"`);
      expect((await owner.post('/app/business', { business_id: otherId })).status).toBe(400);
      expect((await owner.post('/app/business', { business_id: second.id })).status).toBe(303);
      expect(await (await owner.get('/app')).text()).toMatch(new RegExp(`id="business">${second.name.replace(/&/g, '&amp;')}<`));
      const { keyId } = await keyFor(second.id);
      expect(await (await owner.get('/app/keys')).text()).toContain(keyId);
      expect((await owner.post('/app/business', { business_id: businessId })).status).toBe(303);
    } finally {
      await app.services.prisma.business.update({ where: { id: second.id }, data: { ownerId: second.ownerId } });
    }
  });

  it('ends the session after 12 hours, and at sign-out', async () => {
    const session = await signInToDashboard(app, OWNER);
    const realClock = app.services.clock;
    app.services.clock = new Clock(realClock.now() + 12 * 3600_000 + 1000);
    try {
      expect((await session.get('/app/keys')).headers.get('location')).toBe('/app/sign-in?next=%2Fapp%2Fkeys');
    } finally {
      app.services.clock = realClock;
    }
    const out = await session.post('/app/sign-out');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/app/sign-in');
    expect(out.headers.getSetCookie()[0]).toMatch(/^porchlight_session=; Max-Age=0;/);
    expect((await session.get('/app')).status).toBe(303);
    expect((await owner.get('/app')).status).toBe(200);
  });
});

describe('on https', () => {
  it('uses __Host- cookies marked Secure', async () => {
    // The same services with an https BASE_URL, the dashboard's routes served on their own.
    const services = { ...app.services, config: { ...app.services.config, baseUrl: 'https://porchlight.test' } };
    const gate = dashboardGate(services);
    const routes = dashboardRoutes(services, { yoga: app.app.yoga, byName: operationByName, run: app.app.run }, gate);
    const send = (path: string, init: RequestInit = {}) => Promise.resolve(routes.fetch(new Request(`https://porchlight.test${path}`, init)));
    const form = await send('/app/sign-in');
    expect(form.headers.getSetCookie()[0]).toMatch(/^__Host-porchlight_signin=[\w-]{43}; Max-Age=3600; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    const post = (cookie: string, origin: string) =>
      send('/app/sign-in', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin, host: 'porchlight.test' },
        body: new URLSearchParams({ csrf: /=([\w-]{43})/.exec(cookie)![1]!, email: demoOwnerEmail(OWNER), password: DEMO_PASSWORD }),
      });
    expect((await post(cookiesOf(form), 'http://porchlight.test')).status).toBe(403);
    const res = await post(cookiesOf(form), 'https://porchlight.test');
    expect(res.status).toBe(303);
    const session = res.headers.getSetCookie().find((c) => c.startsWith('__Host-porchlight_session='))!;
    expect(session).toMatch(/^__Host-porchlight_session=ds_[\w-]+; Max-Age=43200; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect((await send('/app/keys', { headers: { cookie: session.split(';')[0]! } })).status).toBe(200);
    // The plain name means nothing there.
    expect((await send('/app/keys', { headers: { cookie: session.split(';')[0]!.replace('__Host-', '') } })).status).toBe(303);
  });
});

describe('limits', () => {
  it('limits failed sign-ins with the sign-in window\'s budgets: 429 with Retry-After', async () => {
    const slug = demoIds.beautySanFrancisco;
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const form = await app.get('/app/sign-in');
      const res = await formPost(app, '/app/sign-in', { csrf: csrfIn(await form.text())!, email: demoOwnerEmail(slug), password: `wrong ${i}` }, { cookie: cookiesOf(form) });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses.at(-1)).toBe(429);
    await app.services.rateLimits.signIn.reset('address:local');
  });
});
