// A booking's `next` says truthfully how the customer will be reached: by e-mail or by text when
// this server delivers them, otherwise that the business will contact them. A staging deployment
// runs texts as a sandbox here (SANDBOX_PROVIDERS) with real mail (SMTP_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { customerReach, openChannels, unreachable } from '../../src/mail/reach.js';
import { bookingNext } from '../../src/bookings/service.js';
import { startApp, type TestApp, templateSecretsKey } from '../helpers/harness.js';

const job = { bedrooms: 2, bathrooms: 1.5 };
let app: TestApp;

beforeAll(async () => {
  app = await startApp({
    env: {
      NODE_ENV: 'production',
      SANDBOX_PROVIDERS: 'texts,payments,phone',
      // Real mail: nothing listens there, so it stays queued, but it is the live transport.
      SMTP_URL: 'smtp://127.0.0.1:9',
      SECRETS_KEY: templateSecretsKey(),
      SEED_DEMO: 'true',
      LOG_LEVEL: 'silent',
    },
  });
}, 180_000);
afterAll(async () => app?.close());

/** A cleaner who texts customers, and an open start there. */
async function textingCleaner() {
  const texting = await app.services.prisma.business.findFirstOrThrow({
    where: { kind: 'cleaning', textsCustomers: true, serviceZips: { some: {} } },
    select: { slug: true, name: true, phone: true, serviceZips: { select: { zip: true }, take: 1 } },
    orderBy: { slug: 'asc' },
  });
  const times = await app.rest('available_times', { pro_id: texting.slug, ...job, days: 14 });
  return { ...texting, zip: texting.serviceZips[0]!.zip, starts: times.body.starts as string[] };
}

describe('on a staging server with real mail and sandbox texts', () => {
  it('says the confirmation was e-mailed when the customer gave an e-mail', async () => {
    const cleaner = await textingCleaner();
    const r = await app.rest('book_cleaning', {
      pro_id: cleaner.slug, ...job, start: cleaner.starts[0], zip: cleaner.zip, address: '2 Elm St', customer_name: 'Ana', customer_email: 'ana@example.com', customer_phone: '+1 512 555 0111',
    });
    expect(r.status).toBe(200);
    expect(r.body.next).toMatch(/We e-mailed ana@example\.com a link to confirm/);
    const status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body.next).toMatch(/^Waiting for the customer's confirmation: we e-mailed ana@example\.com a link/);
  });

  it('says the business will contact a phone-only customer, since texts reach nobody here', async () => {
    const cleaner = await textingCleaner();
    const r = await app.rest('book_cleaning', {
      pro_id: cleaner.slug, ...job, start: cleaner.starts[1], zip: cleaner.zip, address: '3 Elm St', customer_name: 'Pat', customer_phone: '+1 512 555 0199',
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('pending');
    expect(r.body.next).not.toMatch(/texted|e-mailed/);
    expect(r.body.next).toContain('This server cannot deliver text messages yet, so nothing we send reaches +15125550199: the business will contact you');
    expect(r.body.next).toContain(cleaner.name);
    expect(r.body.next).toMatch(/lapses and the time is released/);
    // booking_status says the same, by the same rule.
    const status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body.next).toMatch(/^Waiting for the customer's confirmation\. This server cannot deliver text messages yet.*the business will contact you/);
    expect(status.body.next).not.toMatch(/texted/);
    // Moving it claims no text either.
    const moved = await app.rest('reschedule_booking', { booking_id: r.body.booking_id, manage_token: r.body.manage_token, start: cleaner.starts.at(-1) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.next).toMatch(/^Moved to .*\. The booking still waits for the customer's confirmation; nothing this server sends reaches them, so the business will contact them\./);
    expect(moved.body.next).not.toMatch(/texted|link we sent/);
  });

  it('reports its providers on /healthz', async () => {
    expect(await (await app.get('/healthz')).json()).toEqual({ ok: true, providers: { mail: 'live', texts: 'sandbox', payments: 'sandbox', phone: 'sandbox' } });
  });
});

describe('the rule', () => {
  const staging = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'production', ...env });
  const both = { email: 'ana@example.com', phone: '+15125550111' };
  const phoneOnly = { email: null, phone: '+15125550199' };

  it('in development every channel reaches the developer (the outbox), as before', () => {
    const dev = loadConfig({ NODE_ENV: 'development' });
    expect(openChannels(dev)).toEqual({ email: true, sms: true });
    expect(customerReach(dev, both, true)).toEqual({ channel: 'email', to: 'ana@example.com' });
    expect(customerReach(dev, phoneOnly, true)).toEqual({ channel: 'sms', to: '+15125550199' });
  });

  it('in production only a real provider reaches anyone: mail, then text, then the business', () => {
    const noMail = staging({ TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+15125550100', SANDBOX_PROVIDERS: 'mail' });
    expect(customerReach(noMail, both, true)).toEqual({ channel: 'sms', to: '+15125550111' });
    // A business that does not text: its customer's phone is not for texts.
    expect(customerReach(noMail, both, false)).toBeNull();
    const nothing = staging({ SANDBOX_PROVIDERS: 'mail,texts' });
    expect(customerReach(nothing, both, true)).toBeNull();
    expect(unreachable(both, true, { name: 'Fog City Maids', phone: '+14155550100' })).toBe(
      'This server cannot deliver e-mail or text messages yet, so nothing we send reaches ana@example.com: the business will contact you (Fog City Maids, +14155550100).',
    );
    const pending = {
      status: 'pending', holdUntil: new Date('2026-12-01T12:00:00Z'), frequency: 'once', customerEmail: 'ana@example.com', customerPhone: null,
      business: { name: 'Fog City Maids', timeZone: 'America/Los_Angeles', phone: null, textsCustomers: false }, visits: [{ start: new Date('2026-12-02T17:00:00Z') }],
    };
    expect(bookingNext(pending, Date.parse('2026-12-01T10:00:00Z'), nothing)).toMatch(/cannot deliver e-mail yet.*the business will contact you \(Fog City Maids\)/);
    expect(bookingNext(pending, Date.parse('2026-12-01T10:00:00Z'), loadConfig({ NODE_ENV: 'development' }))).toMatch(/we e-mailed ana@example\.com a link/);
  });
});
