import * as oauth from 'oauth4webapi';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenVerifier } from '../../src/auth/oauth/access-token.js';
import type { TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';


const OWNER = { email: 'owner+sparkle-shine-cleaning-austin@demo.porchlight.test', password: 'porchlight-demo' };
/** The assistant's loopback redirect; the browser's request to it is intercepted, so nothing needs to listen. */
const REDIRECT = 'http://127.0.0.1:9/callback';

describe.skipIf(!chromiumPath)('the sign-in window in a real browser', () => {
  let app: TestApp;
  let rig: BrowserRig;
  let origin: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    rig = await startBrowserRig();
    ({ app, origin, browser } = rig);
    // The page works without JavaScript; prove it by turning JavaScript off.
    page = await browser.newPage({ javaScriptEnabled: false });
  });

  afterAll(async () => {
    await rig?.close();
  });

  /** Opens the sign-in window for the public client; resolves with the URL the browser is sent back to. */
  async function open(state: string) {
    const verifier = oauth.generateRandomCodeVerifier();
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: 'porchlight-public',
      redirect_uri: REDIRECT,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    let landed: (url: string) => void;
    const back = new Promise<string>((resolve) => (landed = resolve));
    await page.unroute('http://127.0.0.1:9/**');
    await page.route('http://127.0.0.1:9/**', (route) => {
      landed(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<h1 id="done">Back in the assistant</h1>' });
    });
    const res = await page.goto(`${origin}/authorize?${query}`);
    expect(res?.status()).toBe(200);
    return { verifier, back };
  }

  it('signs in with e-mail and password, allows, and lands on the redirect URI with a code', async () => {
    const { verifier, back } = await open('browser-state');
    expect(await page.locator('#client-name').innerText()).toBe('Porchlight public client');
    expect(await page.locator('#redirect-host').innerText()).toBe('127.0.0.1:9');
    await page.fill('#email', OWNER.email);
    await page.fill('#password', OWNER.password);
    await Promise.all([page.waitForURL(`${origin}/authorize`), page.click('#sign-in')]);
    expect(await page.locator('h1').innerText()).toBe('Allow access to your business');
    expect(await page.locator('#business-name').innerText()).toBeTruthy();
    await page.click('#allow');
    const url = new URL(await back);
    await page.waitForSelector('#done');
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(url.searchParams.get('state')).toBe('browser-state');
    const code = url.searchParams.get('code');
    expect(code).toMatch(/^pac_/);

    const res = await app.get('/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: code!, client_id: 'porchlight-public', redirect_uri: REDIRECT, code_verifier: verifier }),
    });
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: 'sparkle-shine-cleaning-austin' } });
    expect((await accessTokenVerifier(app.services, access_token))?.businessId).toBe(business.id);
  });

  it('shows a wrong password on the page and keeps the e-mail', async () => {
    await open('s2');
    await page.fill('#email', OWNER.email);
    await page.fill('#password', 'wrong password');
    await Promise.all([page.waitForURL(`${origin}/authorize`), page.click('#sign-in')]);
    expect(await page.locator('#error').innerText()).toContain('do not match');
    expect(await page.inputValue('#email')).toBe(OWNER.email);
    expect(await page.inputValue('#password')).toBe('');
  });

  it('cancelling sends the browser back with access_denied', async () => {
    const { back } = await open('s3');
    await page.click('#deny');
    const url = new URL(await back);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('s3');
    expect(url.searchParams.get('code')).toBeNull();
  });
});
