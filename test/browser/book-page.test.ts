/**
 * Booking from the business page with JavaScript off (issue 24), in headless Chromium: a person
 * books a cleaning, a service call, a visit and an appointment on /b/<slug>, confirms from the
 * mail, moves and cancels on the manage (or conversation) page. Every page keeps its headers,
 * has a real title, fits 320 px, shows no ISO time and passes axe-core at 390×844 and 1280×800
 * with no serious or critical violation. A form post without its CSRF token is refused.
 * Screenshots: /work/notes/shots/bookpage (or BOOK_PAGE_SHOTS), looked at by hand.
 */
import { mkdirSync } from 'node:fs';
import axeCore from 'axe-core';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { lastMailTo, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';

const SHOTS = process.env.BOOK_PAGE_SHOTS ?? '/tmp/book-page-shots';
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
const AUTOMOTIVE = 'fog-city-automotive-san-francisco';

describe.skipIf(!chromiumPath)('booking from the business page, JavaScript off', { timeout: 90_000 }, () => {
  let rig: BrowserRig;
  let app: TestApp;
  let origin: string;
  let context: BrowserContext;
  let axeContext: BrowserContext;
  let page: Page;
  let axePage: Page;

  const local = (link: string) => {
    const u = new URL(link, 'http://porchlight.test');
    return `${origin}${u.pathname}${u.search}`;
  };
  const hoursAway = (iso: string) => (Date.parse(iso) - app.services.clock.now()) / 3600_000;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rig = await startBrowserRig({ env: { DEV_OUTBOX: '1' } });
    ({ app, origin } = rig);
    context = await rig.browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    page = await context.newPage();
    // axe-core is a script: it checks each page's HTML in a second context with scripts on (and
    // the CSP, which allows none, bypassed); the headers themselves are checked on every response.
    // axe-core is loaded once and each page's HTML swapped in under it (loading it per check, as
    // @axe-core/playwright does, costs seconds a page on a busy machine).
    axeContext = await rig.browser.newContext({ bypassCSP: true });
    axePage = await axeContext.newPage();
    await axePage.setContent('<!doctype html><html lang="en"><head><title>axe</title></head><body></body></html>');
    await axePage.addScriptTag({ content: axeCore.source });
  });
  afterAll(async () => {
    await context?.close();
    await axeContext?.close();
    await rig?.close();
  });

  /** Headers, title, no ISO, width at 320 px, axe and a screenshot at both sizes. */
  async function look(res: Response | null, name: string, title: RegExp) {
    const problem = (res?.status() ?? 500) >= 400 ? await page.locator('#error').innerText().catch(() => '') : '';
    expect(`${res?.status()} ${problem}`, name).toMatch(/^[23]\d\d /);
    const headers = res!.headers();
    expect(headers['content-security-policy'], name).toContain("default-src 'none'");
    expect(headers['content-security-policy'], name).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options'], name).toBe('DENY');
    const t = await page.title();
    expect(t, name).toMatch(title);
    expect(t, name).toMatch(/ · Porchlight$/);
    const text = await page.locator('body').innerText();
    expect(text, name).not.toMatch(ISO);
    expect(text, name).not.toMatch(/\b(undefined|null|NaN)\b/);
    expect(text, name).not.toMatch(/\b(move_out|service_call|no_cool|water_heater|awaiting_payment|refund_pending)\b/);
    const html = await page.content();
    // The page's own document in place of the axe page's (axe stays loaded on its window).
    await axePage.evaluate((markup) => {
      const doc = new DOMParser().parseFromString(markup, 'text/html');
      document.replaceChild(document.adoptNode(doc.documentElement), document.documentElement);
    }, html);
    for (const size of [{ name: 'narrow', width: 320, height: 640 }, ...SIZES]) {
      await axePage.setViewportSize({ width: size.width, height: size.height });
      const sideways = await axePage.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(sideways, `${name} scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(0);
      if (size.name === 'narrow') continue;
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.screenshot({ path: `${SHOTS}/${name}-${size.name}.png`, fullPage: true });
      const axe = await axePage.evaluate(() =>
        (window as unknown as { axe: typeof axeCore }).axe.run(document, { resultTypes: ['violations'] }),
      );
      const bad = axe.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
      expect(bad, `${name} at ${size.width} px`).toEqual([]);
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }

  const click = async (selector: string) => {
    const [res] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
    return res;
  };
  /** Checks the first offered start at least `hours` away (and not `except`); returns its value. */
  async function chooseStart(hours: number, except?: string) {
    // Later days until one qualifies.
    for (let i = 0; i < 6; i++) {
      const values = await page.locator('input[name="start"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
      if (values.some((v) => hoursAway(v) > hours && v !== except) || !(await page.locator('#later').count())) break;
      await click('#later');
    }
    const values = await page.locator('input[name="start"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    const start = values.find((v) => hoursAway(v) > hours && v !== except);
    expect(start, `a start ${hours} hours away`).toBeTruthy();
    await page.check(`input[name="start"][value="${start}"]`);
    return start!;
  }
  async function details(name: string, email: string, address?: { street: string; zip?: string }) {
    await page.fill('#customer_name', name);
    await page.fill('#customer_email', email);
    if (address) {
      await page.fill('#address', address.street);
      if (address.zip) await page.fill('#zip', address.zip);
    }
  }
  async function confirmFromMail(email: string) {
    const mail = await lastMailTo(app, email);
    const link = /https?:\/\/\S*\/confirm\/ct_\S+/.exec(mail!.text)![0];
    let res = await page.goto(local(link));
    await look(res, `${email.split('@')[0]}-confirm`, /^Confirm your booking with /);
    res = await click('#confirm');
    expect(await page.locator('h1').innerText()).toBe('Booking confirmed');
    res = await click('#manage');
    return res;
  }

  it('books a cleaning, confirms from the mail, moves and cancels it', async () => {
    let res = await page.goto(`${origin}/b/${demoIds.cleanerAustin}`);
    await look(res, 'cleaning-business', /^Sparkle & Shine/);
    expect(await page.locator('#prices').innerText()).not.toMatch(/×|Clean type:|half bath: half/);
    await page.selectOption('#bedrooms', '2');
    await page.selectOption('#bathrooms', '1.5');
    await page.check('input[name="add_ons"][value="fridge"]');
    res = await click('#choose-cleaning');
    expect(new URL(page.url()).pathname).toBe(`/b/${demoIds.cleanerAustin}/book/cleaning/times`);
    await look(res, 'cleaning-times', /^Choose a time with /);
    expect(await page.locator('#price').innerText()).toMatch(/^\$\d+\.\d\d, firm/);
    expect(await page.locator('#what').innerText()).toContain('inside the fridge');
    const start = await chooseStart(48);
    res = await click('#choose-time');
    await look(res, 'cleaning-details', /^Your details · /);
    await details('Casey Clean', 'casey.clean@example.com', { street: '1100 S Congress Ave', zip: demoIds.austinZip });
    res = await click('#book-now');
    expect(new URL(page.url()).pathname).toMatch(/^\/manage\/mt_/);
    await look(res, 'cleaning-booked', /^Your booking with /);
    expect(await page.locator('#outcome').innerText()).toMatch(/^Booked\. We sent you an e-mail/);
    expect(await page.locator('#status').innerText()).toBe('waiting for your confirmation');
    // The same booking an assistant would make: pending, with the page as its source.
    const booking = await app.services.prisma.booking.findFirstOrThrow({ where: { customerEmail: 'casey.clean@example.com' }, include: { visits: true } });
    expect(booking).toMatchObject({ status: 'pending', bedrooms: 2, bathrooms: 1.5, addOns: ['fridge'], clientName: 'Porchlight business page' });
    expect(booking.visits[0]!.start.toISOString()).toBe(new Date(start).toISOString());

    res = await confirmFromMail('casey.clean@example.com');
    await look(res, 'cleaning-manage', /^Your booking with /);
    const before = await page.locator('#visits').innerText();
    res = await click('#move');
    await look(res, 'cleaning-move', /^Move your booking with /);
    await chooseStart(48, start);
    res = await click('#choose-time');
    await look(res, 'cleaning-moved', /^Your booking with /);
    expect(await page.locator('#outcome').innerText()).toMatch(/^Moved to the new time/);
    expect(await page.locator('#visits').innerText()).not.toBe(before);
    expect(await page.locator('#status').innerText()).toBe('confirmed');
    res = await click('#cancel');
    await look(res, 'cleaning-cancelled', /^Your booking with /);
    expect(await page.locator('#status').innerText()).toBe('cancelled');
    expect(await page.locator('#outcome').innerText()).toBe('Cancelled, free of charge.');
  });

  it('books a service call, confirms, moves and cancels it', async () => {
    let res = await page.goto(`${origin}/b/${demoIds.plumberAustin}`);
    await look(res, 'service-call-business', /^Hill Country Plumbing/);
    await page.selectOption('#issue', 'leak');
    await page.fill('#sc_zip', demoIds.austinZip);
    res = await click('#choose-service-call');
    await look(res, 'service-call-times', /^Choose a time with /);
    expect(await page.locator('#price').innerText()).toMatch(/^Service-call fee \$\d+\.\d\d, firm/);
    const start = await chooseStart(48);
    res = await click('#choose-time');
    await look(res, 'service-call-details', /^Your details · /);
    expect(await page.inputValue('#zip')).toBe(demoIds.austinZip);
    await details('Sam Pipe', 'sam.pipe@example.com', { street: '500 W 2nd St' });
    res = await click('#book-now');
    await look(res, 'service-call-booked', /^Your booking with /);
    res = await confirmFromMail('sam.pipe@example.com');
    await look(res, 'service-call-manage', /^Your booking with /);
    res = await click('#move');
    await look(res, 'service-call-move', /^Move your booking with /);
    await chooseStart(48, start);
    res = await click('#choose-time');
    expect(await page.locator('#outcome').innerText()).toMatch(/^Moved/);
    res = await click('#cancel');
    expect(await page.locator('#status').innerText()).toBe('cancelled');
  });

  it('books a visit at a garage, moves and cancels it on its conversation page', async () => {
    let res = await page.goto(`${origin}/b/${AUTOMOTIVE}`);
    await look(res, 'visit-business', /^Fog City Automotive/);
    // Three days on, so it can still be moved and cancelled.
    const min = await page.getAttribute('#visit_date', 'min');
    const day = new Date(Date.parse(`${min}T12:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);
    await page.fill('#visit_date', day);
    res = await click('#choose-visit');
    await look(res, 'visit-times', /^Choose a time with /);
    await chooseStart(30);
    res = await click('#choose-time');
    await look(res, 'visit-details', /^Your details · /);
    await details('Vic Wheels', 'vic.wheels@example.com');
    await page.check('#agree');
    res = await click('#book-now');
    expect(new URL(page.url()).pathname).toMatch(/^\/conversation\//);
    await look(res, 'visit-booked', /^Your visit with Fog City Automotive/);
    expect(await page.locator('#visit-status').innerText()).toBe('confirmed');
    const when = await page.locator('#visit-when').innerText();
    res = await click('#move-visit');
    await look(res, 'visit-move', /^Move your visit with /);
    await chooseStart(30);
    res = await click('#choose-time');
    expect(await page.locator('#outcome').innerText()).toBe('Moved to the new time.');
    expect(await page.locator('#visit-when').innerText()).not.toBe(when);
    res = await click('#cancel-visit');
    await look(res, 'visit-cancelled', /^Your visit with /);
    expect(await page.locator('#visit-status').innerText()).toBe('cancelled');
  });

  it('books an appointment at a salon, moves and cancels it; an upfront one leads to checkout', async () => {
    let res = await page.goto(`${origin}/b/${demoIds.beautySanFrancisco}`);
    await look(res, 'appointment-business', /^Velvet Hair Studio/);
    const min = await page.getAttribute('#appointment_date', 'min');
    const day = new Date(Date.parse(`${min}T12:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
    await page.check('#offer-appointment input[value="style-consultation"]');
    await page.fill('#appointment_date', day);
    res = await click('#choose-appointment');
    await look(res, 'appointment-times', /^Choose a time with /);
    await chooseStart(30);
    res = await click('#choose-time');
    await look(res, 'appointment-details', /^Your details · /);
    await details('Ari Style', 'ari.style@example.com');
    await page.check('#agree');
    res = await click('#book-now');
    await look(res, 'appointment-booked', /^Your appointment with Velvet Hair Studio/);
    expect(await page.locator('.appointment-status').first().innerText()).toBe('confirmed');
    const when = await page.locator('.appointment-when').first().innerText();
    res = await click('#move-appointment');
    await look(res, 'appointment-move', /^Move your appointment with /);
    await chooseStart(30);
    res = await click('#choose-time');
    expect(await page.locator('#outcome').innerText()).toBe('Moved to the new time.');
    expect(await page.locator('.appointment-when').first().innerText()).not.toBe(when);
    res = await click('#cancel-appointment');
    await look(res, 'appointment-cancelled', /^Your appointment with /);
    expect(await page.locator('.appointment-status').first().innerText()).toBe('cancelled');

    // Paid upfront: the page books it awaiting payment and links to the provider's checkout.
    await page.goto(`${origin}/b/${demoIds.beautySanFrancisco}`);
    await page.check('#offer-appointment input[value="express-blow-dry"]');
    await page.fill('#appointment_date', day);
    await click('#choose-appointment');
    await chooseStart(30);
    await click('#choose-time');
    await details('Bo Paid', 'bo.paid@example.com');
    await page.check('#agree');
    res = await click('#book-now');
    await look(res, 'appointment-awaiting-payment', /^Your appointment with /);
    expect(await page.locator('.appointment-status').first().innerText()).toBe('waiting for payment');
    expect(await page.locator('#outcome').innerText()).toMatch(/^Held for you: pay/);
    const pay = await page.getAttribute('#pay', 'href');
    expect(pay).toMatch(/\/sandbox\/checkout\//);
    res = await page.goto(local(pay!));
    expect(await page.title()).toMatch(/^Pay Velvet Hair Studio/);
  });

  it('refuses a form post without its CSRF token, with a page that says what to do', async () => {
    const post = (headers: Record<string, string> = {}, body = 'bedrooms=2&bathrooms=1') =>
      app.get(`/b/${demoIds.cleanerAustin}/book/cleaning`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
    for (const res of [await post(), await post({ cookie: `porchlight_form=${'a'.repeat(43)}` }, `bedrooms=2&csrf=${'b'.repeat(43)}`)]) {
      expect(res.status).toBe(403);
      const html = await res.text();
      expect(html).toContain('<title>Form refused · Porchlight</title>');
      expect(html).toContain('Open the page again and send the form from there; nothing was booked or changed.');
    }
    // The same for the manage page's forms.
    const manage = await app.get('/manage/mt_whatever/cancel', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    expect(manage.status).toBe(403);
    // From the browser: the same form without its token is refused, with it it goes on.
    await page.goto(`${origin}/b/${demoIds.cleanerAustin}`);
    const url = `${origin}/b/${demoIds.cleanerAustin}/book/cleaning`;
    expect((await page.request.post(url, { form: { bedrooms: '2', bathrooms: '1' }, maxRedirects: 0 })).status()).toBe(403);
    const csrf = (await page.getAttribute('#offer-cleaning input[name="csrf"]', 'value'))!;
    expect((await page.request.post(url, { form: { bedrooms: '2', bathrooms: '1', csrf }, maxRedirects: 0 })).status()).toBe(303);
  });
});
