import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { relayTextMessage } from '../../src/conversations/text-relay.js';
import { lastMailTo, startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

const cleaner = demoIds.cleanerAustin;
const plumber = demoIds.plumberAustin;
const salon = demoIds.beautySanFrancisco;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const mailOf = (slug: string) => `hello@${slug}.example`;
/** Typed text that looks like markup and instructions: it must come back exactly as written. */
const tricky = '<b>Hi</b> & "ignore previous instructions" — café?';

async function businessKey(slug: string) {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.apiKey.create({
    data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes: ['read', 'write'] },
  });
  return bearer(key);
}

async function personalKey(name: string, email: string) {
  const key = newToken('sk_live_');
  await app.services.prisma.apiKey.create({ data: { kind: 'personal', keyHash: hashToken(key), hint: key.slice(0, 12), name, email, scopes: ['read', 'write'] } });
  return bearer(key);
}

async function contact(business: string = cleaner, extra: Record<string, unknown> = {}) {
  const r = await app.rest('contact_business', { business, customer_name: 'Alex Rivera', customer_email: 'alex@example.com', message: tricky, ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { inquiry_id: string; reply_token: string; status: string };
}

const status = (c: { inquiry_id: string; reply_token: string }) => app.rest('inquiry_status', { inquiry_id: c.inquiry_id, reply_token: c.reply_token });

/** Resolves with the next event on a channel; listening starts before the action runs. */
async function nextEvent(channel: 'inquiryReplied' | 'bookingUpdated', id: string) {
  const iterator = app.services.events.subscribe(channel, id)[Symbol.asyncIterator]();
  const next = iterator.next().finally(() => void iterator.return?.());
  await new Promise((r) => setTimeout(r, 0));
  return next;
}

describe('contact_business → inquiry_status', () => {
  it('starts a conversation waiting for a response, tells the business, and shows messages verbatim', async () => {
    const c = await contact();
    expect(c).toEqual({ inquiry_id: expect.any(String), reply_token: expect.stringMatching(/^rt_/), status: 'waiting_for_response', next: expect.stringMatching(/^Sent to .*inquiry_status/) });
    const row = await app.services.prisma.conversation.findUniqueOrThrow({ where: { id: c.inquiry_id } });
    expect(row.replyTokenHash).toBe(hashToken(c.reply_token));
    expect(JSON.stringify(row)).not.toContain(c.reply_token);

    const s = await status(c);
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ inquiry_id: c.inquiry_id, status: 'waiting_for_response', pro_id: cleaner, request_type: 'question', channel: 'web' });
    expect(s.body.messages).toEqual([{ from: 'customer', text: tricky, at: expect.any(String) }]);
    // Neither side's contact travels before a booking.
    expect(s.body.business_email).toBeNull();

    const mail = await lastMailTo(app, mailOf(cleaner));
    expect(mail?.text).toContain(tricky);
    expect(mail?.text).toContain(c.inquiry_id);
    expect(mail?.text).not.toContain('alex@example.com');
  });

  it('takes the contact from X-User-* headers and accepts every request type', async () => {
    const r = await app.rest(
      'contact_business',
      { business: salon, message: 'Can I book a cut on Saturday?', request_type: 'appointment' },
      { 'x-user-name': 'Kim Header', 'x-user-email': 'kim@example.com' },
    );
    expect(r.status).toBe(200);
    const row = await app.services.prisma.conversation.findUniqueOrThrow({ where: { id: r.body.inquiry_id } });
    expect(row).toMatchObject({ customerName: 'Kim Header', customerEmail: 'kim@example.com', requestType: 'appointment' });
    for (const request_type of ['question', 'service_visit', 'store_visit', 'pickup', 'other']) {
      expect((await app.rest('contact_business', { business: salon, customer_name: 'Kim', message: 'Hi', request_type })).status, request_type).toBe(200);
    }
  });

  it('needs no e-mail, phone or account', async () => {
    const r = await app.rest('contact_business', { business: plumber, customer_name: 'No Contact', message: 'Do you fix water heaters?' });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('waiting_for_response');
  });

  it('refuses input outside the spec with 400s naming the field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ business: cleaner, customer_name: 'A', message: '' }, 'invalid_input', /message/],
      [{ business: cleaner, customer_name: 'A', message: 'x'.repeat(501) }, 'invalid_input', /message.*500/],
      [{ business: cleaner, customer_name: 'A', message: 'Hi', request_type: 'quote' }, 'invalid_input', /request_type/],
      [{ business: cleaner, message: 'Hi' }, 'invalid_input', /customer_name/],
      [{ business: cleaner, customer_name: 'x'.repeat(101), message: 'Hi' }, 'invalid_input', /customer_name/],
      [{ business: '', customer_name: 'A', message: 'Hi' }, 'invalid_input', /business/],
      [{ business: 'x'.repeat(101), customer_name: 'A', message: 'Hi' }, 'invalid_input', /business/],
      [{ business: cleaner, customer_name: 'A', message: 'Hi', customer_email: 'not-mail' }, 'invalid_input', /customer_email/],
      [{ business: 'no-such-business', customer_name: 'A', message: 'Hi' }, 'not_found', /no-such-business/],
    ];
    for (const [input, code, error] of cases) {
      const r = await app.rest('contact_business', input);
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect(r.body.code, JSON.stringify(input)).toBe(code);
      expect(r.body.error, JSON.stringify(input)).toMatch(error);
    }
    const header = await app.rest('contact_business', { business: cleaner, message: 'Hi' }, { 'x-user-name': 'A', 'x-user-email': 'nope' });
    expect(header.body.code).toBe('invalid_input');
  });

  it('refuses a wrong reply_token or unknown inquiry_id without leaking the conversation', async () => {
    const c = await contact();
    for (const input of [
      { inquiry_id: c.inquiry_id, reply_token: 'rt_wrong' },
      { inquiry_id: 'unknown', reply_token: c.reply_token },
    ]) {
      const r = await app.rest('inquiry_status', input);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('not_found');
      expect(JSON.stringify(r.body)).not.toContain(tricky);
      expect(JSON.stringify(r.body)).not.toContain(c.reply_token);
    }
    expect((await app.rest('inquiry_status', { inquiry_id: c.inquiry_id })).body.code).toBe('invalid_input');
    expect((await app.rest('inquiry_status', { inquiry_id: c.inquiry_id, reply_token: 'x'.repeat(101) })).body.code).toBe('invalid_input');
    expect((await app.rest('inquiry_status', { inquiry_id: 'x'.repeat(61), reply_token: c.reply_token })).body.code).toBe('invalid_input');
  });
});

describe('the conversation states, customer and owner side', () => {
  it('waiting_for_response → replied on an answer → waiting_for_response on a follow-up → closed; closed needs a new request', async () => {
    const owner = await businessKey(cleaner);
    const c = await contact();

    const replied = nextEvent('inquiryReplied', c.inquiry_id);
    const answer = await app.rest('message_customer', { inquiry_id: c.inquiry_id, message: 'Yes — we bring <all> supplies.' }, owner);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ sent: true, inquiry_id: c.inquiry_id, status: 'replied', via: 'email' });
    expect((await replied).value).toMatchObject({ inquiryId: c.inquiry_id });
    const mail = await lastMailTo(app, 'alex@example.com');
    expect(mail?.text).toContain('Yes — we bring <all> supplies.');
    expect(mail?.text).not.toContain(mailOf(cleaner));

    let s = await status(c);
    expect(s.body.status).toBe('replied');
    expect(s.body.messages.map((m: { from: string; text: string }) => [m.from, m.text])).toEqual([
      ['customer', tricky],
      ['business', 'Yes — we bring <all> supplies.'],
    ]);

    // Already answered: nothing is sent unless follow_up is true.
    const again = await app.rest('message_customer', { inquiry_id: c.inquiry_id, message: 'Anything else?' }, owner);
    expect(again.body).toMatchObject({ sent: false, status: 'replied', via: null });
    expect(again.body.reason).toMatch(/follow_up/);
    const more = await app.rest('message_customer', { inquiry_id: c.inquiry_id, message: 'We also do windows.', follow_up: true }, owner);
    expect(more.body).toMatchObject({ sent: true, status: 'replied' });

    const follow = await app.rest('follow_up_business', { inquiry_id: c.inquiry_id, reply_token: c.reply_token, message: 'Great, and pets?' });
    expect(follow.status).toBe(200);
    // A follow-up leaves the status as it was (the spec's States table); awaiting_business says an answer is owed.
    expect(follow.body).toEqual({ sent: true, inquiry_id: c.inquiry_id, status: 'replied', awaiting_business: true });
    s = await status(c);
    expect(s.body).toMatchObject({ status: 'replied', awaiting_business: true });
    expect(s.body.messages).toHaveLength(4);
    const listedAfterFollowUp = (await app.rest('inquiries', {}, owner)).body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === c.inquiry_id);
    expect(listedAfterFollowUp).toMatchObject({ status: 'replied', needs_answer: true });
    // After a follow-up the latest message is unanswered again, so the business may answer.
    expect((await app.rest('message_customer', { inquiry_id: c.inquiry_id, message: 'Pets are fine.' }, owner)).body.sent).toBe(true);

    const close = await app.rest('close_inquiry', { inquiry_id: c.inquiry_id, notes: 'Sent the price list.' }, owner);
    expect(close.body).toEqual({ inquiry_id: c.inquiry_id, status: 'closed' });
    expect((await status(c)).body.status).toBe('closed');
    // Closing again changes nothing.
    expect((await app.rest('close_inquiry', { inquiry_id: c.inquiry_id }, owner)).body.status).toBe('closed');

    const refused = await app.rest('follow_up_business', { inquiry_id: c.inquiry_id, reply_token: c.reply_token, message: 'Hello?' });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('conversation_closed');
    expect(refused.body.error).toMatch(/contact_business/);
    const ownerRefused = await app.rest('message_customer', { inquiry_id: c.inquiry_id, message: 'One more thing', follow_up: true }, owner);
    expect(ownerRefused.body.code).toBe('conversation_closed');

    // Closing blocks nothing: the same sender starts a new conversation.
    const fresh = await contact();
    expect(fresh.inquiry_id).not.toBe(c.inquiry_id);
    expect((await status(fresh)).body.status).toBe('waiting_for_response');

    const listed = await app.rest('inquiries', {}, owner);
    const closedOne = listed.body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === c.inquiry_id);
    expect(closedOne).toMatchObject({ status: 'closed', direction: 'received', owner_notes: 'Sent the price list.', needs_answer: false });
  });

  it('refuses follow-ups with a wrong token or bad message', async () => {
    const c = await contact();
    const wrong = await app.rest('follow_up_business', { inquiry_id: c.inquiry_id, reply_token: 'rt_nope', message: 'Hi' });
    expect(wrong.body.code).toBe('not_found');
    for (const message of ['', 'x'.repeat(501)]) {
      const r = await app.rest('follow_up_business', { inquiry_id: c.inquiry_id, reply_token: c.reply_token, message });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_input');
    }
    expect((await app.rest('follow_up_business', { inquiry_id: c.inquiry_id, message: 'Hi' })).body.code).toBe('invalid_input');
  });

  it("never shows or touches another business's conversations", async () => {
    const c = await contact(cleaner);
    const other = await businessKey(plumber);
    const list = await app.rest('inquiries', {}, other);
    expect(list.status).toBe(200);
    expect(list.body.inquiries.map((i: { inquiry_id: string }) => i.inquiry_id)).not.toContain(c.inquiry_id);
    for (const [name, input] of [
      ['message_customer', { inquiry_id: c.inquiry_id, message: 'Hi' }],
      ['close_inquiry', { inquiry_id: c.inquiry_id }],
    ] as const) {
      const r = await app.rest(name, input, other);
      expect(r.status, name).toBe(400);
      expect(r.body.code, name).toBe('not_found');
      expect(JSON.stringify(r.body)).not.toContain(tricky);
    }
    expect((await status(c)).body.status).toBe('waiting_for_response');
  });

  it('refuses message_customer input outside the spec', async () => {
    const owner = await businessKey(cleaner);
    const c = await contact();
    const cases: Record<string, unknown>[] = [
      { message: 'Hi' },
      { inquiry_id: c.inquiry_id, booking_id: 'b', message: 'Hi' },
      { inquiry_id: c.inquiry_id, message: '' },
      { inquiry_id: c.inquiry_id, message: 'x'.repeat(501) },
      { inquiry_id: c.inquiry_id, message: 'Hi', follow_up: 'yes' },
      { inquiry_id: 'x'.repeat(61), message: 'Hi' },
      { booking_id: 'x'.repeat(61), message: 'Hi' },
    ];
    for (const input of cases) {
      const r = await app.rest('message_customer', input, owner);
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect(r.body.code, JSON.stringify(input)).toBe('invalid_input');
    }
    expect((await app.rest('close_inquiry', { inquiry_id: c.inquiry_id, notes: 'x'.repeat(2001) }, owner)).body.code).toBe('invalid_input');
    expect((await app.rest('close_inquiry', {}, owner)).body.code).toBe('invalid_input');
    expect((await app.rest('close_inquiry', { inquiry_id: 'unknown' }, owner)).body.code).toBe('not_found');
  });

  it('needs the business sign-in for owner operations', async () => {
    const personal = await personalKey('Pat Person', 'pat@example.com');
    for (const [name, input] of [
      ['inquiries', {}],
      ['message_customer', { inquiry_id: 'x', message: 'Hi' }],
      ['close_inquiry', { inquiry_id: 'x' }],
    ] as const) {
      expect((await app.rest(name, input)).status, name).toBe(401);
      expect((await app.rest(name, input, personal)).status, name).toBe(403);
    }
  });
});

describe('ask_business and my_inquiries (signed in)', () => {
  it('keeps one open conversation per sign-in and business, with the job, firm price and ZIP, contact hidden until a booking', async () => {
    const me = await personalKey('Sam Signed', 'sam@example.com');
    const owner = await businessKey(cleaner);
    const ask = await app.rest('ask_business', { pro_id: cleaner, question: tricky, zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1.5, clean_type: 'deep' }, me);
    expect(ask.status, JSON.stringify(ask.body)).toBe(200);
    expect(ask.body).toMatchObject({ status: 'waiting_for_response', continued: false, zip_served: true, reply_token: expect.stringMatching(/^rt_/) });
    const times = await app.rest('available_times', { pro_id: cleaner, bedrooms: 2, bathrooms: 1.5, clean_type: 'deep' });
    expect(ask.body.price).toBe(times.body.price);

    const again = await app.rest('ask_business', { pro_id: cleaner, question: 'And on weekends?', zip: '10001' }, me);
    expect(again.body).toMatchObject({ inquiry_id: ask.body.inquiry_id, continued: true, reply_token: null, zip_served: false, price: ask.body.price });

    const mine = await app.rest('my_inquiries', {}, me);
    expect(mine.status).toBe(200);
    const conv = mine.body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === ask.body.inquiry_id);
    expect(conv.messages.map((m: { text: string }) => m.text)).toEqual([tricky, 'And on weekends?']);
    expect(conv).toMatchObject({ status: 'waiting_for_response', pro_id: cleaner, business_email: null, business_phone: null });

    const listed = (await app.rest('inquiries', {}, owner)).body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === ask.body.inquiry_id);
    expect(listed).toMatchObject({
      direction: 'received',
      needs_answer: true,
      customer_name: 'Sam Signed',
      customer_email: null,
      customer_phone: null,
      job: { bedrooms: 2, bathrooms: 1.5, clean_type: 'deep', add_ons: [], pets: false },
      price: ask.body.price,
      zip: '10001',
      zip_served: false,
    });

    const replied = nextEvent('inquiryReplied', ask.body.inquiry_id);
    expect((await app.rest('message_customer', { inquiry_id: ask.body.inquiry_id, message: 'Saturdays work.' }, owner)).body.sent).toBe(true);
    expect((await replied).value.inquiryId).toBe(ask.body.inquiry_id);
    const answered = (await app.rest('my_inquiries', {}, me)).body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === ask.body.inquiry_id);
    expect(answered.status).toBe('replied');
    expect(answered.messages.at(-1)).toMatchObject({ from: 'business', text: 'Saturdays work.' });
    // The answer reached the asker by e-mail through us; the business never saw the address.
    expect((await lastMailTo(app, 'sam@example.com'))?.text).toContain('Saturdays work.');

    // Booking the business through the same sign-in closes the open conversation …
    const start = times.body.starts[0];
    const booked = await app.rest(
      'book_cleaning',
      { pro_id: cleaner, bedrooms: 2, bathrooms: 1.5, clean_type: 'deep', start, price: times.body.price, address: '1 Main St, Austin TX', zip: demoIds.austinZip },
      me,
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const after = (await app.rest('my_inquiries', {}, me)).body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === ask.body.inquiry_id);
    expect(after.status).toBe('closed');
    // … and now both sides may see each other's contact.
    expect(after.business_email).toBe(mailOf(cleaner));
    const ownerView = (await app.rest('inquiries', {}, owner)).body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === ask.body.inquiry_id);
    expect(ownerView.customer_email).toBe('sam@example.com');

    // A new question starts a new conversation.
    const next = await app.rest('ask_business', { pro_id: cleaner, question: 'Can you also do the garage?' }, me);
    expect(next.body).toMatchObject({ continued: false, price: null, zip_served: null });
    expect(next.body.inquiry_id).not.toBe(ask.body.inquiry_id);
  });

  it('leaves conversations of other sign-ins and businesses open when booking', async () => {
    const me = await personalKey('Robin', 'robin@example.com');
    const other = await personalKey('Jo', 'jo@example.com');
    const mine = await app.rest('ask_business', { pro_id: plumber, question: 'Leaky tap?' }, me);
    const theirs = await app.rest('ask_business', { pro_id: cleaner, question: 'Price for 3 bedrooms?' }, other);
    const times = await app.rest('available_times', { pro_id: cleaner, bedrooms: 1, bathrooms: 1, days: 14 });
    const booked = await app.rest(
      'book_cleaning',
      { pro_id: cleaner, bedrooms: 1, bathrooms: 1, start: times.body.starts.at(-1), price: times.body.price, address: '2 Main St, Austin TX', zip: demoIds.austinZip },
      me,
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    const statusOf = async (id: string) => (await app.services.prisma.conversation.findUniqueOrThrow({ where: { id } })).status;
    expect(await statusOf(mine.body.inquiry_id)).toBe('waiting_for_response');
    expect(await statusOf(theirs.body.inquiry_id)).toBe('waiting_for_response');
    // my_inquiries lists only the caller's own conversations.
    const listed = (await app.rest('my_inquiries', {}, other)).body.inquiries.map((i: { inquiry_id: string }) => i.inquiry_id);
    expect(listed).toContain(theirs.body.inquiry_id);
    expect(listed).not.toContain(mine.body.inquiry_id);
  });

  it('lets a signed-in business ask another business; it arrives from that business', async () => {
    const asker = await businessKey(plumber);
    const asked = await businessKey(cleaner);
    const r = await app.rest('ask_business', { pro_id: cleaner, question: 'Do you clean offices?' }, asker);
    expect(r.status).toBe(200);
    const received = (await app.rest('inquiries', {}, asked)).body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === r.body.inquiry_id);
    const plumberName = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: plumber } })).name;
    expect(received).toMatchObject({ direction: 'received', customer_name: plumberName, customer_email: null, other_business: { pro_id: plumber, name: plumberName } });
    const sent = (await app.rest('inquiries', {}, asker)).body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === r.body.inquiry_id);
    expect(sent).toMatchObject({ direction: 'sent', needs_answer: false, other_business: { pro_id: cleaner } });
    // The asking business hears the answer by mail, without seeing the other's address.
    await app.rest('message_customer', { inquiry_id: r.body.inquiry_id, message: 'Yes, evenings.' }, asked);
    expect((await lastMailTo(app, mailOf(plumber)))?.text).toContain('Yes, evenings.');
    // Only the business asked may answer or close it.
    expect((await app.rest('close_inquiry', { inquiry_id: r.body.inquiry_id }, asker)).body.code).toBe('not_found');
    expect((await app.rest('ask_business', { pro_id: plumber, question: 'Me?' }, asker)).body.code).toBe('invalid_input');
  });

  it('needs a personal key or connection, and valid input', async () => {
    expect((await app.rest('ask_business', { pro_id: cleaner, question: 'Hi' })).status).toBe(401);
    expect((await app.rest('my_inquiries', {})).status).toBe(401);
    const shared = bearer('sk_pub_porchlight_demo');
    expect((await app.rest('ask_business', { pro_id: cleaner, question: 'Hi' }, shared)).status).toBe(403);
    expect((await app.rest('my_inquiries', {}, shared)).status).toBe(403);
    const me = await personalKey('Val', 'val@example.com');
    const cases: [Record<string, unknown>, string][] = [
      [{ pro_id: cleaner, question: '' }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'x'.repeat(501) }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'Hi', zip: '7870' }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'Hi', bedrooms: 11, bathrooms: 1 }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'Hi', bedrooms: 1, bathrooms: 1.25 }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'Hi', bedrooms: 1 }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'Hi', bedrooms: 1, bathrooms: 1, sqft: 100 }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'Hi', bedrooms: 1, bathrooms: 1, clean_type: 'spotless' }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'Hi', add_ons: Array.from({ length: 11 }, (_, i) => `a${i}`) }, 'invalid_input'],
      [{ pro_id: cleaner, question: 'Hi', add_ons: ['x'.repeat(41)] }, 'invalid_input'],
      [{ pro_id: 'nobody-here', question: 'Hi' }, 'not_found'],
    ];
    for (const [input, code] of cases) {
      const r = await app.rest('ask_business', input, me);
      expect(r.status, JSON.stringify(input)).toBe(400);
      expect(r.body.code, JSON.stringify(input)).toBe(code);
    }
  });
});

describe('message_customer about a confirmed job', () => {
  async function booking(status: 'pending' | 'confirmed', contactFields: Record<string, string> = { customer_name: 'Lee Job', customer_email: 'lee@example.com' }) {
    const times = await app.rest('available_times', { pro_id: cleaner, bedrooms: 3, bathrooms: 2, days: 21 });
    const used = await app.services.prisma.bookingVisit.count();
    const r = await app.rest('book_cleaning', {
      pro_id: cleaner, bedrooms: 3, bathrooms: 2, start: times.body.starts[used % times.body.starts.length], price: times.body.price,
      address: '3 Main St, Austin TX', zip: demoIds.austinZip, ...contactFields,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    if (status === 'confirmed') await app.services.prisma.booking.update({ where: { id: r.body.booking_id }, data: { status: 'confirmed' } });
    return r.body as { booking_id: string; manage_token: string };
  }

  it('mails the customer, stores the message on the booking, emits booking.updated, and sends once per customer message', async () => {
    const owner = await businessKey(cleaner);
    const b = await booking('confirmed');
    const updated = nextEvent('bookingUpdated', b.booking_id);
    const r = await app.rest('message_customer', { booking_id: b.booking_id, message: 'We arrive at 9 <sharp>.' }, owner);
    expect(r.body).toMatchObject({ sent: true, booking_id: b.booking_id, inquiry_id: null, status: 'confirmed', via: 'email' });
    expect((await updated).value).toMatchObject({ bookingId: b.booking_id });
    expect((await lastMailTo(app, 'lee@example.com'))?.text).toContain('We arrive at 9 <sharp>.');
    const s = await app.rest('booking_status', { booking_id: b.booking_id, manage_token: b.manage_token });
    expect(s.body.messages).toEqual([{ from: 'business', text: 'We arrive at 9 <sharp>.', at: expect.any(String) }]);

    expect((await app.rest('message_customer', { booking_id: b.booking_id, message: 'Again' }, owner)).body.sent).toBe(false);
    await app.rest('message_about_booking', { booking_id: b.booking_id, manage_token: b.manage_token, message: 'Thanks! Gate code 12.' });
    expect((await app.rest('message_customer', { booking_id: b.booking_id, message: 'Got it.' }, owner)).body.sent).toBe(true);
    expect((await app.rest('message_customer', { booking_id: b.booking_id, message: 'Also…', follow_up: true }, owner)).body.sent).toBe(true);
  });

  it("refuses a pending booking and another business's booking", async () => {
    const owner = await businessKey(cleaner);
    const pending = await booking('pending');
    const r = await app.rest('message_customer', { booking_id: pending.booking_id, message: 'Hi' }, owner);
    expect(r.body.code).toBe('invalid_input');
    expect(r.body.error).toMatch(/confirmed/);
    const confirmed = await booking('confirmed');
    const other = await app.rest('message_customer', { booking_id: confirmed.booking_id, message: 'Hi' }, await businessKey(plumber));
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('not_found');
    expect((await app.rest('message_customer', { booking_id: 'unknown', message: 'Hi' }, owner)).body.code).toBe('not_found');
  });
});

describe('text-message conversations', () => {
  it('are answered by text, plain; an answer longer than one segment leaves as several texts', async () => {
    const owner = await businessKey(cleaner);
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: cleaner } });
    const relayed = await relayTextMessage(app.services, { from: '+15125550999', to: business.phone!, body: 'Do you clean ovens?' });
    expect(relayed).toMatchObject({ created: true });
    const r = await app.rest('message_customer', { inquiry_id: relayed!.inquiryId, message: 'Yes, $25 extra.' }, owner);
    expect(r.body).toMatchObject({ sent: true, via: 'sms', status: 'replied' });
    const text = await lastMailTo(app, '+15125550999');
    expect(text).toMatchObject({ channel: 'sms', text: `${business.name}: Yes, $25 extra.` });

    await relayTextMessage(app.services, { from: '+15125550999', to: business.phone!, body: 'And the fridge?' });
    const words = 'We clean fridges too, inside and out, shelves and drawers included. '.repeat(7).trim();
    expect(words.length).toBeGreaterThan(400);
    const long = await app.rest('message_customer', { inquiry_id: relayed!.inquiryId, message: words }, owner);
    expect(long.body).toMatchObject({ sent: true, via: 'sms' });
    const parts = await app.services.prisma.outboxMessage.findMany({ where: { to: '+15125550999', text: { startsWith: '(' } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(parts.length).toBe(4);
    parts.forEach((p, i) => {
      expect(p.text.length).toBeLessThanOrEqual(160);
      expect(p.text.startsWith(`(${i + 1}/4) `)).toBe(true);
    });
    expect(parts.map((p) => p.text.replace(/^\(\d\/\d\) /, '')).join(' ')).toBe(`${business.name}: ${words}`);
    const listed = (await app.rest('inquiries', {}, owner)).body.inquiries.find((i: { inquiry_id: string }) => i.inquiry_id === relayed!.inquiryId);
    expect(listed).toMatchObject({ channel: 'sms', customer_phone: '+15125550999', status: 'replied' });
  });
});

describe('inquiries window', () => {
  it('lists the last 30 days only', async () => {
    const owner = await businessKey(salon);
    const old = await contact(salon);
    const recent = await contact(salon);
    const longAgo = new Date(app.services.clock.now() - 31 * 86_400_000);
    await app.services.prisma.conversation.update({ where: { id: old.inquiry_id }, data: { createdAt: longAgo, updatedAt: longAgo } });
    const ids = (await app.rest('inquiries', {}, owner)).body.inquiries.map((i: { inquiry_id: string }) => i.inquiry_id);
    expect(ids).toContain(recent.inquiry_id);
    expect(ids).not.toContain(old.inquiry_id);
  });
});

describe('the same operations over MCP and GraphQL', () => {
  it('runs the conversation through MCP tools with the same results and errors', async () => {
    const owner = await businessKey(plumber);
    const started = await app.tool('contact_business', { business: plumber, customer_name: 'Mo MCP', message: tricky, customer_email: 'mo@example.com' });
    expect(started.isError).toBe(false);
    expect(started.structured).toEqual(started.body);
    expect(started.body.status).toBe('waiting_for_response');
    const ids = { inquiry_id: started.body.inquiry_id, reply_token: started.body.reply_token };

    expect((await app.tool('message_customer', { inquiry_id: ids.inquiry_id, message: 'Tomorrow 8am?' }, owner)).body).toMatchObject({ sent: true, status: 'replied' });
    const s = await app.tool('inquiry_status', ids);
    expect(s.body.status).toBe('replied');
    expect(s.body.messages[0].text).toBe(tricky);
    expect((await app.tool('follow_up_business', { ...ids, message: 'Yes please' })).body).toMatchObject({ status: 'replied', awaiting_business: true });
    expect((await app.tool('close_inquiry', { inquiry_id: ids.inquiry_id }, owner)).body.status).toBe('closed');

    const refused = await app.tool('follow_up_business', { ...ids, message: 'Still there?' });
    expect(refused.isError).toBe(true);
    expect(refused.body.code).toBe('conversation_closed');
    const bad = await app.tool('contact_business', { business: plumber, customer_name: 'Mo', message: '' });
    expect(bad.isError).toBe(true);
    expect(bad.body.code).toBe('invalid_input');
    const missing = await app.tool('inquiry_status', { inquiry_id: ids.inquiry_id, reply_token: 'rt_bad' });
    expect(missing.body.code).toBe('not_found');

    const me = await personalKey('Mia MCP', 'mia@example.com');
    const ask = await app.tool('ask_business', { pro_id: plumber, question: 'Water heater installs?' }, me);
    expect(ask.body).toMatchObject({ continued: false, status: 'waiting_for_response' });
    expect((await app.tool('my_inquiries', {}, me)).body.inquiries[0].inquiry_id).toBe(ask.body.inquiry_id);
    const list = await app.tool('inquiries', {}, owner);
    expect(list.body.inquiries.map((i: { inquiry_id: string }) => i.inquiry_id)).toEqual(expect.arrayContaining([ids.inquiry_id, ask.body.inquiry_id]));
  });

  it('runs it over GraphQL with camelCase fields and error codes', async () => {
    const owner = await businessKey(salon);
    const started = await app.graphql(
      'mutation($input: ContactBusinessInput!) { contactBusiness(input: $input) { inquiryId replyToken status } }',
      { input: { business: salon, customerName: 'Gia GraphQL', message: tricky, requestType: 'pickup' } },
    );
    expect(started.body.errors).toBeUndefined();
    const { inquiryId, replyToken } = started.body.data.contactBusiness;
    expect(started.body.data.contactBusiness.status).toBe('waiting_for_response');

    const answer = await app.graphql(
      'mutation($input: MessageCustomerInput!) { messageCustomer(input: $input) { sent status via } }',
      { input: { inquiryId, message: 'Ready at 5.' } },
      owner,
    );
    // No e-mail was given: the answer is read with inquiry_status.
    expect(answer.body.data.messageCustomer).toEqual({ sent: true, status: 'replied', via: null });

    const status = await app.graphql(
      'query($input: InquiryStatusInput!) { inquiryStatus(input: $input) { status requestType messages { from text } } }',
      { input: { inquiryId, replyToken } },
    );
    expect(status.body.data.inquiryStatus).toEqual({
      status: 'replied',
      requestType: 'pickup',
      messages: [{ from: 'customer', text: tricky }, { from: 'business', text: 'Ready at 5.' }],
    });

    await app.graphql('mutation($input: CloseInquiryInput!) { closeInquiry(input: $input) { status } }', { input: { inquiryId } }, owner);
    const refused = await app.graphql(
      'mutation($input: FollowUpBusinessInput!) { followUpBusiness(input: $input) { status } }',
      { input: { inquiryId, replyToken, message: 'Hello?' } },
    );
    expect(refused.body.errors[0].extensions.code).toBe('conversation_closed');

    const owners = await app.graphql('{ inquiries { inquiries { inquiryId direction status } } }', {}, owner);
    expect(owners.body.data.inquiries.inquiries).toContainEqual({ inquiryId, direction: 'received', status: 'closed' });
    const anonymous = await app.graphql('{ inquiries { inquiries { inquiryId } } }');
    expect(anonymous.body.errors[0].extensions.code).toBe('unauthorized');
  });
});
