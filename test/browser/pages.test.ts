import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { whenForPeople } from '../../src/core/for-people.js';
import { lastMailTo, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';


const job = { bedrooms: 2, bathrooms: 1.5 };
const pro = demoIds.cleanerAustin;
const zip = demoIds.austinZip;
const customer = { customer_name: 'Robin Browser', customer_email: 'robin.browser@example.com', address: '1100 S Congress Ave, Austin TX' };

describe.skipIf(!chromiumPath)('booking pages in a real browser', () => {
  let app: TestApp;
  let rig: BrowserRig;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let booking: { booking_id: string; manage_token: string; start: string };
  let confirmPath: string;
  let managePath: string;
  const shots = mkdtempSync(join(tmpdir(), 'porchlight-shots-'));

  /** The app's links carry BASE_URL (http://porchlight.test); the browser goes to the real port. */
  const local = (link: string) => {
    const u = new URL(link, 'http://porchlight.test');
    return `${origin}${u.pathname}${u.search}`;
  };
  const status = async () => (await app.rest('booking_status', { booking_id: booking.booking_id, manage_token: booking.manage_token })).body;

  beforeAll(async () => {
    rig = await startBrowserRig();
    ({ app, origin, browser } = rig);
    page = await browser.newPage();

    const t = await app.rest('available_times', { pro_id: pro, ...job, days: 14 });
    expect(t.status).toBe(200);
    const start = t.body.starts[0] as string;
    const r = await app.rest('book_cleaning', { pro_id: pro, ...job, start, price: t.body.price, zip, ...customer });
    expect(r.status).toBe(200);
    booking = { booking_id: r.body.booking_id, manage_token: r.body.manage_token, start };
    const mail = await lastMailTo(app, customer.customer_email);
    expect(mail).toBeTruthy();
    const confirmLink = /https?:\/\/\S*\/confirm\/ct_[\w-]+/.exec(mail!.text)?.[0];
    const manageLink = /https?:\/\/\S*\/manage\/mt_[\w-]+/.exec(mail!.text)?.[0];
    expect(confirmLink).toBeTruthy();
    expect(manageLink).toBeTruthy();
    confirmPath = local(confirmLink!);
    managePath = local(manageLink!);
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('shows the booking on the confirm page without confirming it, then confirms on click', async () => {
    const res = await page.goto(confirmPath);
    expect(res?.status()).toBe(200);
    const business = await app.services.prisma.business.findUnique({ where: { slug: pro }, select: { name: true } });
    expect(business?.name).toBeTruthy();
    const body = await page.locator('body').innerText();
    expect(body).toContain(business!.name);
    expect(await page.locator('#visits').innerText()).toBe(whenForPeople(booking.start, 'America/Chicago', app.services.clock.now()));
    expect(await page.locator('#status').innerText()).toBe('waiting for your confirmation');
    expect((await status()).status).toBe('pending');

    await Promise.all([page.waitForURL(confirmPath), page.waitForLoadState('load'), page.click('#confirm')]);
    await expect.poll(() => page.locator('#status').innerText()).toBe('confirmed');
    expect(await page.locator('#outcome').innerText()).toContain('Booking confirmed');
    expect(await page.locator('#confirm').count()).toBe(0);
    expect((await status()).status).toBe('confirmed');
  });

  it('shows a typed message literally on the manage page and never runs it', async () => {
    const res = await page.goto(managePath);
    expect(res?.status()).toBe(200);
    expect(await page.locator('#status').innerText()).toBe('confirmed');
    const text = 'Gate code 4412 <script>window.pwned=1</script>';
    await page.fill('#message', text);
    await Promise.all([page.waitForNavigation(), page.click('#messages ~ form button[type=submit]')]);
    expect(await page.locator('#outcome').innerText()).toContain('Message sent');
    expect(await page.locator('#messages').innerText()).toContain(text);
    expect(await page.locator('#messages script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
    const messages = (await status()).messages as Array<{ from: string; text: string }>;
    expect(messages.map((m) => m.text)).toContain(text);
    await page.screenshot({ path: join(shots, 'manage.png'), fullPage: true });
  });

  it('cancels from the manage page', async () => {
    await page.goto(managePath);
    await Promise.all([page.waitForNavigation(), page.click('#cancel')]);
    expect(await page.locator('#status').innerText()).toBe('cancelled');
    expect(await page.locator('#outcome').innerText()).toMatch(/Cancelled/);
    expect(await page.locator('#cancel').count()).toBe(0);
    expect((await status()).status).toBe('cancelled');
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
  });

  it('answers an invalid token with a 400 error page', async () => {
    for (const path of ['/confirm/ct_not-a-real-token', '/manage/mt_not-a-real-token']) {
      const res = await page.goto(`${origin}${path}`);
      expect(res?.status()).toBe(400);
      expect(await page.locator('h1').innerText()).toBe('Something is not right');
      expect(await page.locator('#error').innerText()).not.toBe('');
    }
  });
});
