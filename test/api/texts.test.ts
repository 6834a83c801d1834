/**
 * Texts from the business (issue 23): once an owner turns texting on (update_front_desk
 * texts_customers, only with an active receptionist number), a phone-only customer's confirmation
 * and the owner's answers leave from that number, and the customer's reply to it lands in the
 * business's conversation with them. Without it, texts leave from the platform's number and name
 * the business. Every customer phone is kept in E.164; one that cannot receive texts is a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smsSignature } from '../../src/sms/signature.js';
import { SANDBOX_PLATFORM_NUMBER } from '../../src/sms/provider.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';
import { planHelpers } from '../helpers/receptionist-plans.js';
import { remindHolds } from '../../src/bookings/reminders.js';

const SECRET = 'texts-webhook-secret';
const job = { bedrooms: 2, bathrooms: 1 };
let app: TestApp;
let h: ReturnType<typeof planHelpers>;
let owner: { id: string; key: Record<string, string> };
let business: { slug: string; name: string; zip: string };
let number: string;

/** A text to a number, as Twilio (and the sandbox) post it: form-encoded and signed. */
const textIn = (params: Record<string, string>) =>
  app.get('/webhooks/sms', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': smsSignature(SECRET, `${BASE}/webhooks/sms`, params) },
    body: new URLSearchParams(params),
  });

/** What the sandbox provider was handed for a number, once the outbox has delivered. */
async function textsTo(to: string) {
  await app.services.outbox.flush();
  return app.services.outbox.smsProvider.sent!.filter((t) => t.to === to);
}

let startIndex = 0;
async function bookByPhone(phone: string, slug = business.slug, zip = business.zip) {
  const starts = (await app.rest('available_times', { pro_id: slug, ...job, days: 14 })).body.starts as string[];
  return app.rest('book_cleaning', { pro_id: slug, ...job, start: starts[startIndex++], zip, address: `${startIndex} Elm St`, customer_name: 'Pat', customer_phone: phone });
}

beforeAll(async () => {
  app = await startApp({ env: { SMS_WEBHOOK_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '100000' } });
  h = planHelpers(app);
  const [slug] = await h.planless(1);
  const row = await app.services.prisma.business.update({
    where: { slug: slug! },
    data: { textsCustomers: false },
    select: { slug: true, name: true, serviceZips: { select: { zip: true }, take: 1 } },
  });
  business = { slug: row.slug, name: row.name, zip: row.serviceZips[0]!.zip };
  owner = await h.withPlan(slug!);
});
afterAll(async () => app?.close());

describe('turning texting on', () => {
  it('is refused without an active receptionist number, naming activate_phone_number, on REST, MCP and GraphQL', async () => {
    await h.refused('update_front_desk', { texts_customers: true }, 'not_configured', /no receptionist number yet.*activate_phone_number/, owner.key);
    expect((await h.ok('graphql', 'front_desk', {}, owner.key)).texts_customers).toBe(false);
  });

  it('with an active number: front_desk and my_business show it, and texts leave from it', async () => {
    number = (await h.ok('rest', 'phone_numbers', {}, owner.key)).numbers[0].number;
    expect(await h.ok('rest', 'activate_phone_number', { number, owner_approved: true }, owner.key)).toMatchObject({ status: 'active' });
    const on = await h.ok('mcp', 'update_front_desk', { texts_customers: true }, owner.key);
    expect(on).toMatchObject({ texts_customers: true, texts_from: number, changed: ['texts_customers'] });
    expect(await h.ok('rest', 'update_front_desk', { texts_customers: true }, owner.key)).toMatchObject({ changed: [] });
    expect(await h.ok('graphql', 'front_desk', {}, owner.key)).toMatchObject({ texts_customers: true, texts_from: number });
    expect((await h.ok('rest', 'my_business', {}, owner.key)).texts_customers).toBe(true);

    // A phone-only booking: the customer's number is kept in E.164 and the confirmation leaves from the business's number.
    const booked = await bookByPhone('(512) 555-0177');
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body.next).toMatch(/We texted \+15125550177 a link to confirm/);
    // A long text leaves as numbered segments, each from the business's number.
    const confirmation = await textsTo('+15125550177');
    expect(confirmation.length).toBeGreaterThan(0);
    for (const segment of confirmation) expect(segment).toMatchObject({ from: number, to: '+15125550177' });
    expect(confirmation.map((t) => t.text).join(' ')).toContain(`${business.name}: please confirm your cleaning`);

    // The customer answers that number: the text lands in the business's conversation with them.
    const reply = await textIn({ From: '+15125550177', To: number, Body: 'Can you bring <eco> products?', MessageSid: 'SMtexts1' });
    expect(reply.status).toBe(200);
    const conversations = (await h.ok('rest', 'inquiries', {}, owner.key)).inquiries.filter((i: { channel: string }) => i.channel === 'sms');
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ customer_phone: '+15125550177', status: 'waiting_for_response' });
    expect(conversations[0].messages.map((m: { text: string }) => m.text)).toEqual(['Can you bring <eco> products?']);

    // The owner's answer goes back from the same number.
    expect(await h.ok('rest', 'message_customer', { inquiry_id: conversations[0].inquiry_id, message: 'Yes, gladly.' }, owner.key)).toMatchObject({ sent: true, via: 'sms' });
    expect((await textsTo('+15125550177')).at(-1)).toEqual({ from: number, to: '+15125550177', text: `${business.name}: Yes, gladly.` });
  });

  it("reminds a phone-only customer once from the business's number before the hold runs out; the reminder's link confirms", async () => {
    const booked = await bookByPhone('(512) 555-0179');
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const id = booked.body.booking_id as string;
    const now = app.services.clock.now();
    // Not yet due: 45 minutes left.
    await app.services.prisma.booking.update({ where: { id }, data: { createdAt: new Date(now - 75 * 60_000), holdUntil: new Date(now + 45 * 60_000) } });
    expect(await remindHolds(app.services)).toBe(0);
    await app.services.prisma.booking.update({ where: { id }, data: { createdAt: new Date(now - 100 * 60_000), holdUntil: new Date(now + 20 * 60_000) } });
    const before = (await textsTo('+15125550179')).length;
    expect(await remindHolds(app.services)).toBe(1);
    expect(await remindHolds(app.services)).toBe(0);
    const reminder = (await textsTo('+15125550179')).slice(before);
    for (const segment of reminder) expect(segment).toMatchObject({ from: number, to: '+15125550179' });
    const text = reminder.map((t) => t.text).join('');
    expect(text).toContain(`${business.name}: your cleaning on `);
    expect(text).toContain('is not booked until you confirm it by');
    const token = /\/confirm\/(ct_[\w-]+)/.exec(text)?.[1];
    expect(token).toBeDefined();
    const confirmed = await app.graphql('mutation ($t: String!) { confirmBooking(confirmToken: $t) { bookingId status } }', { t: token });
    expect(confirmed.body.data?.confirmBooking).toEqual({ bookingId: id, status: 'confirmed' });
  });

  it('refuses a number that cannot receive texts with a 400 that says so and what to give instead', async () => {
    for (const [phone, problem] of [
      ['1-800-555-0123', /customer_phone is a toll-free number, which cannot receive text messages: give a mobile number.*or customer_email instead/],
      ['call me', /customer_phone is not a phone number: give a mobile number/],
    ] as const) {
      const r = await bookByPhone(phone);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_input', error: expect.stringMatching(problem) });
    }
    const mcp = await app.tool('contact_business', { business: business.slug, customer_name: 'Pat', customer_phone: '+1 900 555 0123', message: 'Hi' });
    expect(mcp.isError).toBe(true);
    expect(mcp.body.error).toMatch(/premium-rate number, which cannot receive text messages/);
  });
});

describe('texting off', () => {
  it('the owner answers from the platform number, naming the business; phone-only bookings need an e-mail', async () => {
    expect(await h.ok('graphql', 'update_front_desk', { texts_customers: false }, owner.key)).toMatchObject({ texts_customers: false, texts_from: null, changed: ['texts_customers'] });
    const reply = await textIn({ From: '+15125550178', To: number, Body: 'Are you open Sunday?' });
    expect(reply.status).toBe(200);
    const conversation = (await h.ok('rest', 'inquiries', {}, owner.key)).inquiries.find((i: { customer_phone: string }) => i.customer_phone === '+15125550178');
    await h.ok('rest', 'message_customer', { inquiry_id: conversation.inquiry_id, message: 'Closed Sundays.' }, owner.key);
    expect((await textsTo('+15125550178')).at(-1)).toEqual({ from: SANDBOX_PLATFORM_NUMBER, to: '+15125550178', text: `${business.name}: Closed Sundays.` });
    expect((await bookByPhone('512-555-0179')).body.error).toMatch(/confirms bookings by e-mail only/);
  });

  it('a business that texts without a number of its own texts from the platform number, naming itself', async () => {
    const other = await app.services.prisma.business.findFirstOrThrow({
      where: { kind: 'cleaning', textsCustomers: true, receptionistNumber: null, serviceZips: { some: {} } },
      select: { slug: true, name: true, serviceZips: { select: { zip: true }, take: 1 } },
    });
    const booked = await bookByPhone('+1 415 555 0180', other.slug, other.serviceZips[0]!.zip);
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const confirmation = await textsTo('+14155550180');
    expect(new Set(confirmation.map((t) => t.from))).toEqual(new Set([SANDBOX_PLATFORM_NUMBER]));
    expect(confirmation[0]!.text).toContain(`${other.name}: please confirm`);
  });
});
