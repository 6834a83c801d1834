import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';

// GraphiQL (development only) must work on a machine with no network: every file it loads is
// served by the app, and its Content-Security-Policy lets nothing else in.

describe.skipIf(!chromiumPath)('GraphiQL in a real browser, offline', () => {
  let rig: BrowserRig;
  let origin: string;
  let browser: Browser;
  let page: Page;
  /** Requests the page tried to send to another host (all refused). */
  const elsewhere: string[] = [];
  /** What the page's policy refused, as the browser reports it. */
  const violations: string[] = [];
  const failures: string[] = [];
  /** The editor workers that loaded. */
  const workers = new Set<string>();

  beforeAll(async () => {
    rig = await startBrowserRig();
    ({ origin, browser } = rig);
    page = await browser.newPage();
    const host = new URL(origin).host;
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.host === host || url.protocol === 'data:' || url.protocol === 'blob:') return route.continue();
      elsewhere.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    page.on('requestfinished', (r) => /\.worker\.js$/.test(r.url()) && workers.add(r.url()));
    page.on('pageerror', (e) => failures.push(e.message));
    // Monaco sometimes asks for a worker twice and drops the first request (ERR_ABORTED): not a failure.
    page.on('requestfailed', (r) => r.failure()?.errorText !== 'net::ERR_ABORTED' && failures.push(`${r.url()}: ${r.failure()?.errorText}`));
    page.on('response', (r) => r.status() >= 400 && failures.push(`${r.url()}: ${r.status()}`));
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('renders its editor with the title filled, loading nothing from another host', async () => {
    const res = await page.goto(`${origin}/graphql`);
    expect(res?.status()).toBe(200);
    expect(await page.title()).toBe('Porchlight GraphQL');
    await page.locator('.graphiql-container').first().waitFor({ timeout: 20_000 });
    await page.locator('.monaco-editor').first().waitFor({ timeout: 20_000 });
    // The editor's three workers load after it shows.
    await expect.poll(() => workers.size, { timeout: 20_000 }).toBe(3);
    expect(elsewhere).toEqual([]);
    expect(violations).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('runs a query and shows its result', async () => {
    const query = '{ __typename }';
    for (const list of [elsewhere, violations, failures]) list.length = 0;
    await page.goto(`${origin}/graphql?query=${encodeURIComponent(query)}`);
    await page.locator('.graphiql-execute-button').waitFor({ timeout: 20_000 });
    await page.locator('.graphiql-execute-button').click();
    // (The editor shows spaces as no-break spaces.)
    const shown = async () => (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
    await expect.poll(shown, { timeout: 20_000 }).toContain('"__typename": "Query"');
    if (process.env.GRAPHIQL_SHOT) await page.screenshot({ path: process.env.GRAPHIQL_SHOT });
    expect(elsewhere).toEqual([]);
    expect(violations).toEqual([]);
    expect(failures).toEqual([]);
  });
});
