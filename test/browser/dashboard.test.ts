/**
 * The owner dashboard in headless Chromium at a phone's size with JavaScript off: the owner signs
 * in, creates a Manage with AI code that /app/api/connect accepts, sees the key it bought under
 * Keys and connections, revokes it there (it is refused at once), is protected from a form on
 * another site, and signs out.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoIds, demoOwnerEmail } from '../../src/demo/generate.js';
import { hashToken } from '../../src/auth/tokens.js';
import { bearer, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';

describe.skipIf(!chromiumPath)('the owner dashboard in a real browser', () => {
  let rig: BrowserRig;
  let app: TestApp;
  let origin: string;
  let context: BrowserContext;
  let page: Page;
  let key: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    ({ app, origin } = rig);
    context = await rig.browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await rig?.close();
  });

  it('signs in with e-mail and password (a wrong one is shown on the page)', async () => {
    const res = await page.goto(`${origin}/app`);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await page.fill('#email', demoOwnerEmail(demoIds.cleanerAustin));
    await page.fill('#password', 'not the password');
    await page.click('#sign-in');
    expect(await page.textContent('#error')).toContain('do not match');
    expect(await page.inputValue('#email')).toBe(demoOwnerEmail(demoIds.cleanerAustin));
    await page.fill('#password', DEMO_PASSWORD);
    await page.click('#sign-in');
    expect(new URL(page.url()).pathname).toBe('/app');
    expect(await page.textContent('#business')).toBe('Sparkle & Shine Cleaning');
    const [session] = (await context.cookies()).filter((c) => c.name === 'porchlight_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('creates a Manage with AI code that /app/api/connect exchanges for a key', async () => {
    await page.click('#manage-with-ai');
    expect(await page.textContent('h1')).toBe('Manage with AI');
    await page.click('#create-code');
    const code = (await page.textContent('#code'))!.trim();
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(await page.textContent('#expires')).toContain('works once');
    const res = await app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    expect(res.status).toBe(200);
    key = ((await res.json()) as { key: string }).key;
    expect((await app.rest('my_business', {}, bearer(key))).status).toBe(200);
  });

  it('lists the key under Keys and connections and revokes it there: it is refused at once', async () => {
    const { id } = await app.services.prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashToken(key) } });
    await page.click('#nav >> text=Keys and connections');
    expect(await page.textContent('h1')).toBe('Keys and connections');
    const item = page.locator(`#key-${id}`);
    expect(await item.textContent()).toContain(key.slice(0, 12));
    expect(await item.textContent()).not.toContain(key);
    await item.locator('button').click();
    expect(new URL(page.url()).pathname).toBe('/app/keys');
    expect(await page.textContent('#outcome')).toBe('The key was revoked.');
    expect(await page.locator(`#key-${id}`).count()).toBe(0);
    expect((await app.rest('my_business', {}, bearer(key))).status).toBe(401);
  });

  it('refuses a form another site makes the signed-in browser send (403); the key keeps working', async () => {
    const keyId = (await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken('sk_pro_browser-victim'), hint: 'sk_pro_brows', businessId: (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).id, scopes: ['read', 'write'] } })).id;
    await page.route('http://evil.test/**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<form method="post" action="${origin}/app/keys/revoke"><input type="hidden" name="id" value="${keyId}"><input type="hidden" name="csrf" value="guess"><button id="go">Win a prize</button></form>`,
      }),
    );
    await page.goto('http://evil.test/prize');
    const [res] = await Promise.all([page.waitForResponse(`${origin}/app/keys/revoke`), page.click('#go')]);
    expect(res.status()).toBe(403);
    expect((await app.services.prisma.apiKey.findUniqueOrThrow({ where: { id: keyId } })).revokedAt).toBeNull();
    await page.unroute('http://evil.test/**');
  });

  it('signs out: the dashboard asks for the sign-in again', async () => {
    await page.goto(`${origin}/app`);
    await page.click('#sign-out');
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await page.goto(`${origin}/app/keys`);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/app/keys');
  });
});
