import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { lastMailTo, startApp, type TestApp } from '../helpers/harness.js';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => Boolean(p) && existsSync(p!),
);

const email = 'casey.browser@example.com';

describe.skipIf(!executablePath)('the /key page in a real browser', () => {
  let app: TestApp;
  let server: ServerType;
  let origin: string;
  let browser: Browser;
  let page: Page;
  let confirmUrl: string;

  beforeAll(async () => {
    app = await startApp();
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
      s.once('listening', () => resolve(s));
      s.once('error', reject);
    });
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    // JavaScript off: the pages must work as plain HTML forms.
    page = await browser.newPage({ javaScriptEnabled: false });
  });

  afterAll(async () => {
    await browser?.close().catch(() => {});
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await app?.close();
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
