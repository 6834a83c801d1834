/**
 * The pages people read (issue 24), in headless Chromium at a phone size (390×844) and a desktop
 * size (1280×800): the front page, confirm and manage pages, the sandbox checkout and its receipt,
 * the sign-in window and the development outbox. Each must have a real title, keep the page
 * headers, fit 320 px without sideways scroll, show times and money in words, and pass axe-core
 * with no serious or critical violation. Screenshots go to /tmp/pages-shots (looked at by hand).
 */
import { mkdirSync } from 'node:fs';
import * as oauth from 'oauth4webapi';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { lastMailTo, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';

const SHOTS = '/tmp/pages-shots';
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
/** "Wed, Nov 25, 4:12 PM CST" */
const WORDS_TIME = /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{1,2}:\d\d (AM|PM) [A-Z]{2,4}\b/;
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

describe.skipIf(!chromiumPath)('pages for people in a real browser', () => {
  let rig: BrowserRig;
  let app: TestApp;
  let origin: string;
  let context: BrowserContext;
  let page: Page;

  const local = (link: string) => {
    const u = new URL(link, 'http://porchlight.test');
    return `${origin}${u.pathname}${u.search}`;
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rig = await startBrowserRig({ env: { DEV_OUTBOX: '1' } });
    ({ app, origin } = rig);
    // axe-core runs as an injected script: the pages' CSP (script-src 'none') would refuse it.
    // The headers themselves are checked on every response below.
    context = await rig.browser.newContext({ bypassCSP: true });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await rig?.close();
  });

  /** Headers, title, width and axe at both sizes (and 320 px wide), with a screenshot of each. */
  async function look(res: Response | null, name: string, title: RegExp) {
    expect(res?.status(), name).toBeLessThan(400);
    const headers = res!.headers();
    expect(headers['content-security-policy'], name).toContain("default-src 'none'");
    expect(headers['content-security-policy'], name).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options'], name).toBe('DENY');
    expect(await page.title(), name).toMatch(title);
    expect(await page.title(), name).toMatch(/ · Porchlight$/);
    for (const size of [...SIZES, { name: 'narrow', width: 320, height: 640 }]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(0);
      if (size.name !== 'narrow') {
        await page.screenshot({ path: `${SHOTS}/${name}-${size.name}.png`, fullPage: true });
        const axe = await new AxeBuilder({ page }).analyze();
        const bad = axe.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
        expect(bad, `${name} at ${size.width} px`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }

  const body = () => page.locator('body').innerText();

  it('front page: what Porchlight is, where the API is, and the demo businesses', async () => {
    const res = await page.goto(`${origin}/`);
    await look(res, 'front', /^Book local services/);
    expect(await page.locator('h1').innerText()).toBe('Porchlight');
    expect(await page.locator('#api a[href="/openapi.json"]').count()).toBe(1);
    expect(await body()).toContain('/mcp');
    expect(await body()).toContain('/graphql');
    const demo = await page.locator('#demo a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(demo).toContain(`/b/${demoIds.cleanerAustin}`);
    expect(demo).toContain(`/b/${demoIds.beautySanFrancisco}`);
    await page.click(`#demo a[href="/b/${demoIds.cleanerAustin}"]`);
    expect(await page.locator('#name').innerText()).toBeTruthy();

    // An API client asking for JSON gets JSON.
    const json = await app.get('/', { headers: { accept: 'application/json' } });
    expect(json.status).toBe(200);
    expect(await json.json()).toMatchObject({ openapi: 'http://porchlight.test/openapi.json', mcp: 'http://porchlight.test/mcp' });
    // The page headers are the front page's only, not every route's.
    expect((await app.get('/healthz')).headers.get('x-frame-options')).toBeNull();
  });

  it('confirm page: times in words, then "Booking confirmed" with a link to the manage page', async () => {
    const customer = { customer_name: 'Robin People', customer_email: 'robin.people@example.com', address: '1100 S Congress Ave, Austin TX' };
    const job = { bedrooms: 2, bathrooms: 1.5 };
    const t = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, days: 14 });
    // Later than 24 hours from now, so cancelling is still free.
    const start = (t.body.starts as string[]).find((s) => Date.parse(s) - app.services.clock.now() > 48 * 3600_000)!;
    const r = await app.rest('book_cleaning', { pro_id: demoIds.cleanerAustin, ...job, start, price: t.body.price, zip: demoIds.austinZip, ...customer });
    expect(r.status).toBe(200);
    const mail = await lastMailTo(app, customer.customer_email);
    const confirmLink = /https?:\/\/\S*\/confirm\/ct_\S+/.exec(mail!.text)![0];
    expect(confirmLink).toContain('?manage=mt_');

    let res = await page.goto(local(confirmLink));
    await look(res, 'confirm-pending', /^Confirm your booking with /);
    const visits = await page.locator('#visits').innerText();
    expect(visits).toMatch(WORDS_TIME);
    expect(visits).toMatch(/ C[SD]T$/);
    expect(await body()).not.toMatch(ISO);
    expect(await page.locator('#status').innerText()).toBe('waiting for your confirmation');
    expect(await page.locator('#price').innerText()).toMatch(/^Price: \$\d+\.\d\d, firm/);
    expect(await page.locator('#hold').innerText()).toMatch(WORDS_TIME);

    [res] = await Promise.all([page.waitForNavigation(), page.click('#confirm')]);
    await look(res, 'confirm-done', /^Booking confirmed with /);
    expect(await page.locator('h1').innerText()).toBe('Booking confirmed');
    expect(await page.locator('#outcome').innerText()).toContain('Booking confirmed');
    expect(await page.locator('#status').innerText()).toBe('confirmed');

    [res] = await Promise.all([page.waitForNavigation(), page.click('#manage')]);
    await look(res, 'manage', /^Your booking with /);
    expect(new URL(page.url()).pathname).toMatch(/^\/manage\/mt_/);
    const terms = await page.locator('#terms').innerText();
    expect(terms).toMatch(/^Cancelling is free until /);
    expect(terms).toMatch(WORDS_TIME);
    expect(await body()).not.toMatch(ISO);
  });

  it('manage page inside 24 hours: says a cancellation now is late, as the mail does', async () => {
    const customer = { customer_name: 'Sam Soon', customer_email: 'sam.soon@example.com', address: '1100 S Congress Ave, Austin TX' };
    const job = { bedrooms: 1, bathrooms: 1 };
    const t = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, days: 14 });
    const soon = (t.body.starts as string[]).find((s) => Date.parse(s) - app.services.clock.now() < 24 * 3600_000);
    // At the tests' fixed clock the demo cleaner has open times later the same day.
    expect(soon).toBeTruthy();
    const r = await app.rest('book_cleaning', { pro_id: demoIds.cleanerAustin, ...job, start: soon!, price: t.body.price, zip: demoIds.austinZip, ...customer });
    expect(r.status).toBe(200);
    const mail = await lastMailTo(app, customer.customer_email);
    expect(mail!.text).toContain('cancelling is no longer free');
    await page.goto(local(/https?:\/\/\S*\/confirm\/ct_\S+/.exec(mail!.text)![0]));
    await Promise.all([page.waitForNavigation(), page.click('#confirm')]);
    const res = await page.goto(local(r.body.manage_url));
    await look(res, 'manage-late', /^Your booking with /);
    expect(await page.locator('#terms').innerText()).toMatch(/less than 24 hours away, so cancelling is no longer free: a cancellation now is late/);
    expect(await page.locator('#cancel').innerText()).toBe('Cancel booking (late)');
  });

  it('sandbox checkout: the deadline in the business zone, and a receipt that says what was paid', async () => {
    const SALON = demoIds.beautySanFrancisco;
    const c = await app.rest('contact_business', { business: SALON, customer_name: 'Robin People', message: 'A blow-dry please' });
    const times = await app.rest('appointment_times', { business: SALON, service_id: 'express-blow-dry' });
    const b = await app.rest('book_appointment', {
      inquiry_id: c.body.inquiry_id, reply_token: c.body.reply_token, service_id: 'express-blow-dry', start: times.body.starts[0], expected_price_cents: times.body.price_cents, customer_authorized: true,
    });
    expect(b.body.status).toBe('awaiting_payment');

    let res = await page.goto(b.body.checkout_url);
    await look(res, 'checkout', /^Pay Velvet Hair Studio/);
    expect(await page.locator('#deadline').innerText()).toMatch(WORDS_TIME);
    expect(await page.locator('#deadline').innerText()).toMatch(/ P[SD]T\.$/);
    expect(await page.locator('#items').innerText()).toMatch(WORDS_TIME);
    expect(await body()).not.toMatch(ISO);
    expect(await body()).not.toContain('(UTC)');

    await page.fill('#card_number', '4242 4242 4242 4242');
    await page.fill('#expiry', '12/30');
    await page.fill('#cvc', '123');
    await page.fill('#name', 'Robin People');
    [res] = await Promise.all([page.waitForNavigation(), page.click('#pay')]);
    expect(new URL(page.url()).pathname).toBe('/payments/checkout/done');
    await app.services.payments.sandbox!.flush();
    res = await page.reload();
    await look(res, 'receipt', /^Payment received/);
    expect(await page.locator('#business').innerText()).toBe('Velvet Hair Studio');
    expect(await page.locator('#amount').innerText()).toBe('$54.00');
    expect(await page.locator('#appointment').innerText()).toMatch(WORDS_TIME);
    expect(await page.locator('#status').innerText()).toBe('Confirmed');
    expect(await page.locator('#message').innerText()).toMatch(/Velvet Hair Studio expects you/);
    expect(await body()).not.toContain('inquiry_status');
    expect(await body()).not.toMatch(ISO);
  });

  it('sign-in window: says truthfully how an owner gets a code', async () => {
    const query = new URLSearchParams({
      response_type: 'code', client_id: 'porchlight-public', redirect_uri: 'http://127.0.0.1:9/callback',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier()), code_challenge_method: 'S256', state: 'people',
    });
    const res = await page.goto(`${origin}/authorize?${query}`);
    await look(res, 'sign-in', /^Sign in/);
    const help = await page.locator('#code-help').innerText();
    expect(help).toContain('npm run manage-code -- <your business id>');
    expect(help).toContain('Assistants cannot create codes');
    expect(help).not.toContain('Porchlight dashboard');
  });

  it('development outbox: a list that fits a phone, with links that work', async () => {
    const res = await page.goto(`${origin}/dev/outbox`);
    await look(res, 'outbox', /^Outbox \(development\)/);
    expect(await page.locator('#outbox > li').count()).toBeGreaterThan(0);
    const manage = page.locator('#outbox a[href*="/manage/mt_"]').first();
    expect(await manage.count()).toBe(1);
    // Links end at the address: no closing punctuation in them.
    const hrefs = await page.locator('#outbox a').evaluateAll((as) => as.map((a) => a.getAttribute('href')!));
    for (const h of hrefs) expect(h).toMatch(/^https?:\/\/[^\s]+[^.,;:!?)]$/);
    await Promise.all([page.waitForNavigation(), manage.click()]);
    expect(new URL(page.url()).pathname).toMatch(/^\/manage\/mt_/);
  });
});
