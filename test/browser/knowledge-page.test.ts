/**
 * The published knowledge page on /b/<slug> in headless Chromium: a source holding markup and
 * script is shown as text and never runs, the page reads on a phone's width, and the contact
 * page's form starts a conversation.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, businessKey, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';

const HOSTILE =
  'Brake check $40.\n</div><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"><a href="javascript:window.pwned=3">free</a>\n' +
  'A very long word that a phone must wrap: ' + 'x'.repeat(300);

describe.skipIf(!chromiumPath)('the published knowledge page in a real browser', () => {
  let rig: BrowserRig;
  let app: TestApp;
  let browser: Browser;
  let page: Page;
  let slug: string;
  const shots = mkdtempSync(join(tmpdir(), 'porchlight-shots-'));

  beforeAll(async () => {
    rig = await startBrowserRig();
    ({ app, browser } = rig);
    slug = (await app.services.prisma.business.findFirstOrThrow({ where: { kind: 'auto_repair', receptionist: null }, orderBy: { slug: 'asc' } })).slug;
    const owner = bearer(await businessKey(app, slug));
    const added = await app.rest('add_receptionist_source', { note: HOSTILE }, owner);
    expect(added.status).toBe(200);
    expect((await app.rest('update_receptionist', { publish: true }, owner)).status).toBe(200);
    page = await (await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true })).newPage();
  }, 60_000);

  afterAll(async () => {
    await rig?.close();
  });

  it('renders a source holding <script> as text, runs nothing, and fits a phone screen', async () => {
    const res = await page.goto(`${rig.origin}/b/${slug}`);
    expect(res?.status()).toBe(200);
    const knowledge = page.locator('#knowledge');
    const shown = await knowledge.innerText();
    expect(shown).toContain('<script>window.pwned = 1</script>');
    expect(shown).toContain('<img src=x onerror="window.pwned = 2">');
    expect(shown).toContain('Brake check $40.');
    expect(await knowledge.locator('script, img, a').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: unknown }).pwned)).toBeUndefined();
    // Nothing scrolls sideways on a 375 px screen, the long word included.
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, view: window.innerWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.view);
    await page.screenshot({ path: join(shots, 'knowledge.png'), fullPage: true });
  });

  it('sends a message from the contact page', async () => {
    await page.goto(`${rig.origin}/b/${slug}`);
    await Promise.all([page.waitForURL(`**/b/${slug}/contact`), page.click('#contact')]);
    await page.fill('#customer_name', 'Lee <Browser>');
    await page.fill('#customer_email', 'lee.browser@example.com');
    await page.fill('#message', 'Can you look at my brakes on Friday?');
    await Promise.all([page.waitForLoadState('load'), page.click('#send')]);
    await expect.poll(() => page.locator('#outcome').innerText()).toMatch(/Sent\. .* answers by e-mail at lee\.browser@example\.com/);
    const conversation = await app.services.prisma.conversation.findFirst({ where: { business: { slug }, customerEmail: 'lee.browser@example.com' } });
    expect(conversation?.customerName).toBe('Lee <Browser>');
  });
});
