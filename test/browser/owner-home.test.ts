/**
 * The owner's dashboard home at /app (issue 24) in headless Chromium at a phone size (390×844)
 * and a desktop size (1280×800), JavaScript off: bookings of several kinds made beforehand through
 * the REST API (a service call, an own job and blocked time at a plumber; a menu visit with its
 * technician and an appointment at a salon) show under today and the next 7 days with times and
 * money in words; the owner creates a Manage with AI code that /app/api/connect accepts, reads the
 * calendar feed's address (it serves the feed) and replaces it (the old one stops); a form post
 * without its CSRF token is refused; axe-core finds no serious or critical violation; nothing
 * scrolls sideways at 320 px. Screenshots go to SHOTS (looked at by hand).
 */
import { mkdirSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoIds, demoOwnerEmail } from '../../src/demo/generate.js';
import { BASE, bearer, businessKey, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';
import { salonForVisitsAndAppointments } from '../helpers/salon.js';

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/owner-home-shots';
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
const PLUMBER = demoIds.plumberAustin;
const SALON = demoIds.beautySanFrancisco;
const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

describe.skipIf(!chromiumPath)('the owner dashboard home in a real browser', { timeout: 120_000 }, () => {
  let rig: BrowserRig;
  let app: TestApp;
  let origin: string;
  let context: BrowserContext;
  let page: Page;
  const seeded: Record<string, string> = {};

  const ok = async (name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
    const r = await app.rest(name, input, headers);
    expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };

  /** Bookings of every kind, made through the REST API as customers and owners would. */
  async function seed() {
    // The plumber (Austin): a customer's service call, the owner's own job, an evening block.
    const plumber = bearer(await businessKey(app, PLUMBER));
    const calls = await ok('find_service_call', { zip: demoIds.austinZip, trade: 'plumbing', issue: 'leak', days: 7 });
    const pro = calls.pros.find((p: { pro_id: string }) => p.pro_id === PLUMBER);
    const call = await ok('book_service_call', {
      pro_id: PLUMBER, trade: 'plumbing', issue: 'leak', start: pro.windows[0].start, price: pro.fee,
      customer_name: 'Sam Ortiz', customer_email: 'sam.ortiz@example.com', address: '1100 S Congress Ave, Austin TX', zip: demoIds.austinZip, details: 'Drip under the kitchen sink',
    });
    seeded.serviceCall = call.booking_id;
    const open = await ok('open_times', { issue: 'leak', date: '2026-11-24', days: 3 }, plumber);
    const own = await ok('book_job', { customer_name: 'Dana Lee', customer_phone: '512-555-0148', address: '2400 S 1st St, Austin TX 78704', start: open.starts[0], issue: 'leak', details: 'Garage hose bib' }, plumber);
    seeded.ownJob = own.booking_id;
    const block = await ok('block_time', { date: '2026-11-25', start: '20:00', end: '21:00', reason: 'School play' }, plumber);
    seeded.block = block.block_id;

    // The salon (San Francisco): a visit with its technician and an appointment.
    const salon = bearer(await businessKey(app, SALON));
    await salonForVisitsAndAppointments(app, SALON, salon);
    const selections = [{ service_id: 'mens', add_on_ids: [] }];
    const estimate = await ok('estimate_visit', { business: SALON, selections: JSON.stringify(selections) });
    const vt = await ok('visit_times', { business: SALON, selections: JSON.stringify(selections), date: '2026-11-24' });
    const visit = await ok('book_visit', {
      business: SALON, selections, customer_name: 'Vic Visitor', customer_email: 'vic@example.com', menu_revision: estimate.menu_revision, expected_estimate_cents: estimate.estimate_cents,
      customer_authorized: true, request_key: 'owner-home-visit-0001', start: vt.starts[0],
    });
    seeded.visit = visit.visit?.visit_id ?? visit.visit_id;
    const c = await ok('contact_business', { business: SALON, customer_name: 'Pat Doe', customer_email: 'pat@example.com', message: 'An appointment, please.', request_type: 'appointment' });
    const at = await ok('appointment_times', { business: SALON, service_id: 'consult', date: '2026-11-25' });
    const appointment = await ok('book_appointment', {
      inquiry_id: c.inquiry_id, reply_token: c.reply_token, service_id: 'consult', start: at.starts[0], expected_price_cents: 2500, customer_authorized: true,
    });
    seeded.appointment = appointment.booking_id;
  }

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    rig = await startBrowserRig({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    ({ app, origin } = rig);
    await seed();
    // axe-core runs as an injected script, which the pages' CSP (no scripts) would refuse, and
    // which needs JavaScript on; the headers are checked on every page below, and each page is
    // checked to carry no script of its own: forms and links only (test/browser/dashboard.test.ts
    // drives the dashboard with JavaScript off).
    context = await rig.browser.newContext({ bypassCSP: true });
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await rig?.close();
  });

  /** Headers, title, width at 320 px, and axe at both sizes, with a screenshot of each. */
  async function look(name: string, title: RegExp) {
    const res = await page.reload();
    const headers = res!.headers();
    expect(headers['content-security-policy'], name).toContain("default-src 'none'");
    expect(headers['x-frame-options'], name).toBe('DENY');
    expect(await page.title(), name).toMatch(title);
    expect(await page.locator('script').count(), name).toBe(0);
    for (const size of [...SIZES, { name: 'narrow', width: 320, height: 640 }]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${name} scrolls sideways at ${size.width} px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/${name}-${size.name}.png`, fullPage: true });
      if (size.name !== 'narrow') {
        const axe = await new AxeBuilder({ page }).analyze();
        const bad = axe.violations
          .filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
        expect(bad, `${name} at ${size.width} px`).toEqual([]);
      }
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }

  async function signIn(slug: string) {
    await page.goto(`${origin}/app`);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await page.fill('#email', demoOwnerEmail(slug));
    await page.fill('#password', DEMO_PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
    expect(new URL(page.url()).pathname).toBe('/app');
  }

  const text = (selector: string) => page.locator(selector).innerText();
  const entry = (id: string) => page.locator(`[data-entry="${id}"]`).first();

  it("shows the plumber's service call, own job and blocked time in words, under the right days", async () => {
    await signIn(PLUMBER);
    await look('home-plumber', /^Hill Country Plumbing Co\.? dashboard · Porchlight$/);
    const body = await text('body');
    expect(body).not.toMatch(ISO);
    expect(body).not.toMatch(/service_call|own_job|awaiting_payment|\bpending\b/);

    const call = await entry(seeded.serviceCall!).innerText();
    expect(call).toMatch(/Arrives \d{1,2}:\d\d( [AP]M)? – \d{1,2}:\d\d [AP]M · Service call\s+not yet confirmed by the customer/);
    expect(call).toContain('Sam Ortiz');
    expect(call).toContain('Drip under the kitchen sink');
    expect(call).toMatch(/Service-call fee \$\d+\.\d\d/);
    expect(call).toContain('Booked through Porchlight');

    const own = await entry(seeded.ownJob!).innerText();
    expect(own).toMatch(/Your own job\s+confirmed/);
    expect(own).toContain('Dana Lee');
    expect(await entry(seeded.ownJob!).locator('a[href^="tel:"]').count()).toBe(1);

    const block = await entry(seeded.block!).innerText();
    expect(block).toMatch(/8:00 – 9:00 PM · Blocked time/);
    expect(block).toContain('School play');
    // Wed, Nov 25 is a day of the week's list (today is Mon, Nov 23 in the test's clock).
    const days = await page.locator('#week h3').allInnerTexts();
    expect(days).toContain('Wed, Nov 25');
    expect(await text('#today-heading')).toBe('Today, Mon, Nov 23');
    const wednesday = page.locator('#week h3', { hasText: 'Wed, Nov 25' }).locator('xpath=following-sibling::ul[1]');
    expect(await wednesday.locator(`[data-entry="${seeded.block}"]`).count()).toBe(1);
  });

  it('creates a Manage with AI code from the home page that /app/api/connect accepts', async () => {
    await Promise.all([page.waitForNavigation(), page.click('#home-code-form #create-code')]);
    const code = (await text('#code')).trim();
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(await text('#expires')).toMatch(/until \d{1,2}:\d\d [AP]M C[SD]T\)/);
    await page.screenshot({ path: `${SHOTS}/code-phone.png`, fullPage: true });
    // Stored hashed: the code itself is nowhere in the database.
    const stored = await app.services.prisma.manageCode.findMany({ select: { codeHash: true } });
    expect(stored.some((r) => r.codeHash.includes(code))).toBe(false);
    const res = await app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    expect(res.status).toBe(200);
    const key = ((await res.json()) as { key: string }).key;
    expect((await app.rest('my_business', {}, bearer(key))).body.name).toMatch(/^Hill Country Plumbing Co/);
    // Once only.
    const again = await app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) });
    expect(again.status).toBe(400);
  });

  it('shows the calendar feed address, which serves the feed, and replaces it: the old one stops', async () => {
    await page.goto(`${origin}/app`);
    const feed = await page.inputValue('#calendar-feed-url');
    expect(feed).toMatch(/^http:\/\/porchlight\.test\/calendar\/\S+\.ics$/);
    expect(await page.getAttribute('#subscribe', 'href')).toBe(feed.replace(/^http:/, 'webcal:'));
    const path = (url: string) => url.slice(BASE.length);
    const before = await app.get(path(feed));
    expect(before.status).toBe(200);
    expect(before.headers.get('content-type')).toContain('text/calendar');
    await Promise.all([page.waitForNavigation(), page.click('#rotate')]);
    expect(new URL(page.url()).pathname).toBe('/app/calendar');
    expect(await text('#outcome')).toContain('Replaced');
    await look('calendar', /^Calendar · Porchlight$/);
    const after = await page.inputValue('#calendar-feed-url');
    expect(after).not.toBe(feed);
    expect((await app.get(path(feed))).status).toBe(404);
    expect((await app.get(path(after))).status).toBe(200);
  });

  it('refuses a form post without its CSRF token (403), and changes nothing', async () => {
    await page.goto(`${origin}/app`);
    const feed = await page.inputValue('#calendar-feed-url');
    // The page's own form, its token taken out: sent from this site, by this signed-in browser.
    await page.evaluate(() => document.querySelector('#rotate-form input[name="csrf"]')!.remove());
    const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/app/calendar/rotate')), page.click('#rotate')]);
    expect(res.status()).toBe(403);
    expect(await text('h1')).toBe('This form was refused');
    await page.goto(`${origin}/app`);
    expect(await page.inputValue('#calendar-feed-url')).toBe(feed);
    await page.click('#sign-out');
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
  });

  it("shows the salon's visit with its technician and its appointment, with prices in dollars", async () => {
    await signIn(SALON);
    await look('home-salon', /^Velvet Hair Studio dashboard · Porchlight$/);
    expect(await text('body')).not.toMatch(ISO);
    const visit = await entry(seeded.visit!).innerText();
    expect(visit).toMatch(/\d{1,2}:\d\d – \d{1,2}:\d\d [AP]M · Visit\s+confirmed/);
    expect(visit).toContain('Vic Visitor');
    expect(visit).toContain('With Ana');
    expect(visit).toContain('Price $40.00');
    const appointment = await entry(seeded.appointment!).innerText();
    expect(appointment).toMatch(/· Appointment\s+confirmed/);
    expect(appointment).toContain('Pat Doe');
    expect(appointment).toContain('Price $25.00');
    // What happened reads in words too.
    expect(await text('#news')).toMatch(/New appointment.*Pat Doe for (Mon|Tue|Wed|Thu|Fri|Sat|Sun), Nov \d+, \d{1,2}:\d\d [AP]M P[SD]T/);
  });
});
