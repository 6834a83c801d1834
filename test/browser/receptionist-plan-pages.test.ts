/**
 * The receptionist plan's pages in headless Chromium with JavaScript off: an owner subscribes on
 * the sandbox's checkout page (after a declined card), lands on the page the provider returns to
 * while the plan itself arrives by the signed webhook, opens the billing portal (which changes
 * nothing) and schedules the plan's end there, and finishes a number transfer on the dashboard's
 * front-desk page after signing in to the dashboard.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demoIds, demoOwnerEmail } from '../../src/demo/generate.js';
import { bearer, businessKey, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';

describe.skipIf(!chromiumPath)('receptionist plan pages in a real browser', () => {
  let rig: BrowserRig;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;
  let owner: Record<string, string>;

  beforeAll(async () => {
    rig = await startBrowserRig();
    app = rig.app;
    context = await rig.browser.newContext({ javaScriptEnabled: false });
    page = await context.newPage();
    owner = bearer(await businessKey(app, demoIds.cleanerAustin));
  });
  afterAll(async () => {
    await context?.close();
    await rig?.close();
  });

  const service = async () => (await app.rest('receptionist_service', {}, owner)).body;

  it('subscribes on the checkout page: a declined card is shown, a good one returns to the done page and the webhook activates the plan', async () => {
    const { url } = (await app.rest('receptionist_checkout', { owner_approved: true }, owner)).body;
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.textContent('h1')).toBe('Pay Porchlight');
    expect(await page.textContent('#terms')).toContain('$49.00 a month, 300 minutes included, then $0.20 a minute');
    expect(await page.textContent('#pay')).toBe('Subscribe');

    await page.fill('#card_number', '4000 0000 0000 0002');
    await page.fill('#expiry', '12/30');
    await page.fill('#cvc', '123');
    await page.fill('#name', 'Alex Owner');
    await page.click('#pay');
    expect(await page.textContent('#error')).toBe('Your card was declined. Try another card.');
    expect((await service()).plan.status).toBe('none');

    await page.fill('#card_number', '4242 4242 4242 4242');
    await page.fill('#expiry', '12/30');
    await page.fill('#cvc', '123');
    await page.click('#pay');
    expect(new URL(page.url()).pathname).toBe('/payments/plan/done');
    expect(await page.textContent('#title')).toBe('Payment submitted');
    await app.services.payments.sandbox!.flush();
    expect((await service()).plan).toMatchObject({ status: 'active', monthly_dollars: 49 });
  });

  it('opens the billing portal without changing anything, and schedules the end of the plan there', async () => {
    const { url } = (await app.rest('receptionist_billing_portal', {}, owner)).body;
    const webhooks = await app.services.prisma.sandboxWebhook.count();
    await page.goto(url);
    expect(await page.textContent('h1')).toBe('Billing');
    expect(await page.textContent('.plan')).toContain('Renews on');
    expect(await page.textContent('#invoices')).toContain('$49.00');
    await page.reload();
    expect(await app.services.prisma.sandboxWebhook.count()).toBe(webhooks);
    expect((await service()).plan.cancels_at_period_end).toBe(false);

    await page.click('#cancel');
    expect(await page.textContent('#outcome')).toContain('The plan ends on');
    await app.services.payments.sandbox!.flush();
    expect((await service()).plan).toMatchObject({ status: 'active', cancels_at_period_end: true });
    await page.click('#keep');
    await app.services.payments.sandbox!.flush();
    expect((await service()).plan.cancels_at_period_end).toBe(false);
    await page.click('#return');
    expect(new URL(page.url()).pathname).toBe('/payments/portal/return');
  });

  it('finishes a number transfer on the front-desk page: a mistake is shown without echoing the PIN, then it goes to the carrier', async () => {
    const draft = (await app.rest('prepare_number_port', { number: '(512) 555-0142', owner_requested: true }, owner)).body;
    expect(draft.status).toBe('draft');
    // The link asks for the owner's dashboard sign-in first, then comes back to the page.
    await page.goto(draft.dashboard_url);
    expect(new URL(page.url()).pathname).toBe('/app/sign-in');
    await page.fill('#email', demoOwnerEmail(demoIds.cleanerAustin));
    await page.fill('#password', DEMO_PASSWORD);
    await page.click('#sign-in');
    expect(page.url()).toBe(draft.dashboard_url);
    expect(await page.textContent('#status')).toBe('draft');
    for (const [field, value] of Object.entries({ customer_name: 'Sparkle & Shine', authorised_person: 'Alex Owner', authorised_email: 'alex@example.com', street: '1100 S Congress Ave', city: 'Austin', state: 'TX', zip: '7870', account_number: 'ACCT-1234', pin: '9876' })) {
      await page.fill(`#${field}`, value);
    }
    await page.setInputFiles('#bill', { name: 'bill.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% bill\n%%EOF\n') });
    await page.check('#consent');
    await page.click('#submit');
    expect(await page.textContent('#error-zip')).toContain('5-digit ZIP');
    expect(await page.inputValue('#customer_name')).toBe('Sparkle & Shine');
    expect(await page.inputValue('#pin')).toBe('');
    expect(await page.inputValue('#account_number')).toBe('');

    await page.fill('#zip', '78704');
    await page.fill('#account_number', 'ACCT-1234');
    await page.fill('#pin', '9876');
    await page.setInputFiles('#bill', { name: 'bill.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n% bill\n%%EOF\n') });
    await page.check('#consent');
    await page.click('#submit');
    expect(await page.textContent('#status')).toBe('submitted');
    expect(await page.textContent('#outcome')).toContain('with the carrier');
    expect((await service()).phone.port).toMatchObject({ port_id: draft.port_id, status: 'submitted' });
  });
});
