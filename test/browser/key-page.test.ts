import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { lastMailTo, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';


const email = 'casey.browser@example.com';

describe.skipIf(!chromiumPath)('the /key page in a real browser', () => {
  let app: TestApp;
  let rig: BrowserRig;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let confirmUrl: string;

  beforeAll(async () => {
    rig = await startBrowserRig();
    ({ app, origin, browser } = rig);
    // JavaScript off: the pages must work as plain HTML forms.
    page = await browser.newPage({ javaScriptEnabled: false });
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('shows what is wrong with the form and keeps what was typed', async () => {
    await page.goto(`${origin}/key`);
    // Blanks pass the browser's `required` check; the server trims them and says what is missing.
    await page.fill('#name', '   ');
    await page.fill('#email', email);
    const [res] = await Promise.all([page.waitForNavigation(), page.click('#request')]);
    expect(res?.status()).toBe(400);
    expect(await page.locator('#errors').innerText()).toContain('Enter your name.');
    expect(await page.inputValue('#email')).toBe(email);
  });

  it('requests a key, follows the mailed link, presses the button and sees the key once', async () => {
    await page.goto(`${origin}/key`);
    await page.fill('#name', 'Casey <i>Browser</i>');
    await page.fill('#email', email);
    await Promise.all([page.waitForNavigation(), page.click('#request')]);
    expect(await page.locator('#sent').innerText()).toContain(email);

    const mail = await lastMailTo(app, email);
    const link = /https?:\/\/\S*\/key\/confirm\/kr_[\w-]+/.exec(mail!.text)?.[0];
    expect(link).toBeTruthy();
    confirmUrl = `${origin}${new URL(link!).pathname}`;

    const res = await page.goto(confirmUrl);
    expect(res?.status()).toBe(200);
    // The typed name is shown as text, never as markup.
    expect(await page.locator('body').innerText()).toContain('Casey <i>Browser</i>');
    expect(await page.locator('i').count()).toBe(0);
    expect(await app.services.prisma.apiKey.count()).toBe(0);

    await Promise.all([page.waitForNavigation(), page.click('#create')]);
    const key = await page.locator('#key').innerText();
    expect(key).toMatch(/^sk_live_[\w-]+$/);
    const r = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1 }, { authorization: `Bearer ${key}` });
    expect(r.status).toBe(200);

    // Reloading the link cannot show the key again.
    const again = await page.goto(confirmUrl);
    expect(again?.status()).toBe(400);
    expect(await page.locator('#error').innerText()).toContain('already used');
    expect(await page.content()).not.toContain(key);
  });
});
