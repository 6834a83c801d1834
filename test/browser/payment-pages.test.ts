/**
 * The payment sandbox's hosted pages in headless Chromium with JavaScript off: a customer pays
 * on the checkout page (after a declined card), an owner finishes onboarding on the provider's
 * form (after a mistake), and each lands on the page the provider sends them back to, while the
 * change itself arrives by the signed webhook.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, businessKey, type TestApp } from '../helpers/harness.js';
import { chromiumPath, startBrowserRig, type BrowserRig } from '../helpers/browser.js';

const SALON = 'velvet-hair-studio-san-francisco';

describe.skipIf(!chromiumPath)('payment sandbox pages in a real browser', () => {
  let rig: BrowserRig;
  let app: TestApp;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    rig = await startBrowserRig();
    app = rig.app;
    // The pages must work without scripts (their CSP allows none anyway).
    context = await rig.browser.newContext({ javaScriptEnabled: false });
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await rig?.close();
  });

  async function bookUpfront() {
    const c = await app.rest('contact_business', { business: SALON, customer_name: 'Robin Browser', message: 'A blow-dry please' });
    const times = await app.rest('appointment_times', { business: SALON, service_id: 'express-blow-dry' });
    const b = await app.rest('book_appointment', {
      inquiry_id: c.body.inquiry_id, reply_token: c.body.reply_token, service_id: 'express-blow-dry', start: times.body.starts[0], expected_price_cents: times.body.price_cents, customer_authorized: true,
    });
    expect(b.body.status).toBe('awaiting_payment');
    return b.body as { booking_id: string; checkout_url: string };
  }
  const status = async (id: string) => (await app.services.prisma.appointment.findUniqueOrThrow({ where: { id } })).status;

  it('pays on the checkout page: a declined card is shown, a good one pays and returns to the done page', async () => {
    const b = await bookUpfront();
    const res = await page.goto(b.checkout_url);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("default-src 'none'");
    expect(await page.textContent('h1')).toBe('Pay Velvet Hair Studio');
    expect(await page.textContent('#total')).toBe('$54.00');

    await page.fill('#card_number', '4000 0000 0000 0002');
    await page.fill('#expiry', '12/30');
    await page.fill('#cvc', '123');
    await page.fill('#name', 'Robin <b>Browser</b>');
    await page.click('#pay');
    expect(await page.textContent('#error')).toBe('Your card was declined. Try another card.');
    expect(await page.inputValue('#name')).toBe('Robin <b>Browser</b>');
    expect(await page.inputValue('#card_number')).toBe('');
    expect(await status(b.booking_id)).toBe('awaiting_payment');

    await page.fill('#card_number', '4242 4242 4242 4242');
    await page.fill('#expiry', '12/30');
    await page.fill('#cvc', '123');
    await page.click('#pay');
    expect(new URL(page.url()).pathname).toBe('/payments/checkout/done');
    expect(await page.textContent('#title')).toBe('Payment submitted');
    await app.services.payments.sandbox!.flush();
    expect(await status(b.booking_id)).toBe('confirmed');

    // Back on the checkout: it says it is paid, and paying again charges nothing more.
    await page.goto(b.checkout_url);
    expect(await page.textContent('#outcome')).toContain('Paid.');
    expect(await app.services.prisma.sandboxPaymentObject.count({ where: { type: 'payment_intent', data: { path: ['sessionId'], equals: new URL(b.checkout_url).pathname.split('/').pop()! } } })).toBe(1);
  });

  it('leaving the checkout changes nothing', async () => {
    const b = await bookUpfront();
    await page.goto(b.checkout_url);
    await page.click('#leave');
    expect(new URL(page.url()).pathname).toBe('/payments/checkout/left');
    expect(await page.textContent('#message')).toContain('Nothing was charged');
    expect(await status(b.booking_id)).toBe('awaiting_payment');
  });

  it('finishes onboarding on the provider page: a mistake is shown, then the account can take payments', async () => {
    const account = await app.services.prisma.paymentAccount.findFirstOrThrow({ where: { chargesEnabled: false }, include: { business: true } });
    const owner = bearer(await businessKey(app, account.business.slug));
    const link = (await app.rest('customer_payment_onboarding', {}, owner)).body.url as string;
    const res = await page.goto(link);
    expect(res?.status()).toBe(200);
    expect(await page.inputValue('#business_name')).toBe(account.business.name);
    await page.fill('#tax_id', '00-0000000');
    await page.fill('#routing_number', '110000001');
    await page.fill('#account_number', '000123456789');
    await page.fill('#representative_name', 'Alex Owner');
    await page.fill('#date_of_birth', '1980-01-15');
    await page.fill('#ssn_last4', '0000');
    await page.click('#submit');
    expect(await page.textContent('#error-routing_number')).toContain('Not a valid US routing number');
    expect(await page.inputValue('#representative_name')).toBe('Alex Owner');
    expect(await page.inputValue('#account_number')).toBe('');

    for (const [field, value] of Object.entries({ tax_id: '000000000', routing_number: '110000000', account_number: '000123456789', date_of_birth: '1980-01-15', ssn_last4: '0000' })) {
      await page.fill(`#${field}`, value);
    }
    await page.click('#submit');
    expect(new URL(page.url()).pathname).toBe('/payments/onboarding/done');
    expect(await page.textContent('#title')).toBe('Details sent to the payment provider');
    await app.services.payments.sandbox!.flush();
    expect((await app.rest('booking_setup', {}, owner)).body.payment_account_ready).toBe(true);
  });
});
