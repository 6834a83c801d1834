import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { demoIds } from '../../src/demo/generate.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { attachWebSockets } from '../../facades/ws.js';
import { startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
let server: ServerType;
let sockets: { close(): Promise<void> };
let wsUrl: string;

beforeAll(async () => {
  app = await startApp();
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  sockets = attachWebSockets(server, app);
  wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});
afterAll(async () => {
  await sockets?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await app?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const job = { bedrooms: 2, bathrooms: 1.5 };
const customer = { customer_name: 'Alex Rivera', customer_email: 'alex@example.com', address: '1100 S Congress Ave, Austin TX', zip: demoIds.austinZip };

async function businessKey(slug: string) {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes: ['read', 'write'] } });
  return key;
}

/** Books the n-th open start of the demo Austin cleaner (distinct n, distinct starts). */
async function book(n: number, headers: Record<string, string> = {}) {
  const t = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, days: 14 });
  // Spread over the list so a booking's length never blocks the next one's start.
  const start = t.body.starts[n * 6];
  const r = await app.rest('book_cleaning', { pro_id: demoIds.cleanerAustin, ...job, start, price: t.body.price, ...customer }, headers);
  expect(r.status).toBe(200);
  return r.body as { booking_id: string; manage_token: string };
}

/** A graphql-ws subscription whose results and errors are collected as they arrive. */
function subscribe(query: string, variables: Record<string, unknown>, connectionParams: Record<string, unknown> = {}) {
  const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0 });
  const data: Record<string, any>[] = [];
  const errors: any[] = [];
  let done = false;
  client.subscribe(
    { query, variables },
    {
      next: (r) => {
        if (r.errors) errors.push(...r.errors);
        if (r.data) data.push(r.data);
      },
      error: (e) => errors.push(e),
      complete: () => (done = true),
    },
  );
  return {
    data,
    errors,
    get done() {
      return done;
    },
    async until(ready: () => boolean, ms = 2000) {
      const end = Date.now() + ms;
      while (!ready()) {
        if (Date.now() > end) throw new Error(`timed out; errors: ${JSON.stringify(errors)}`);
        await sleep(5);
      }
    },
    dispose: () => client.dispose(),
  };
}

const BOOKING_UPDATED = `subscription ($id: ID!, $token: String) {
  bookingUpdated(bookingId: $id, manageToken: $token) { bookingId status late visits { start active } messages { from text } }
}`;
const OWNER_EVENTS = 'subscription { ownerEvents { type at bookingId clientName } }';
/** Subscriptions start when the server has run the subscribe resolver: give it a moment. */
const SETTLE = 250;

describe('bookingUpdated subscription', () => {
  it('delivers the reloaded booking on confirm and on cancel to a holder of the manage_token', async () => {
    const b = await book(0);
    const sub = subscribe(BOOKING_UPDATED, { id: b.booking_id, token: b.manage_token });
    await sleep(SETTLE);
    const mail = await app.services.prisma.outboxMessage.findFirstOrThrow({ where: { bookingId: b.booking_id } });
    const link = /\/confirm\/(ct_[\w-]+)/.exec(mail.text)![1]!;
    expect((await app.get(`/confirm/${link}`, { method: 'POST' })).status).toBe(200);
    await sub.until(() => sub.data.length > 0);
    expect(sub.data[0]!.bookingUpdated).toMatchObject({ bookingId: b.booking_id, status: 'confirmed' });
    // The business messages the customer about the confirmed job: the booking.updated event.
    const owner = await businessKey(demoIds.cleanerAustin);
    const sent = await app.rest('message_customer', { booking_id: b.booking_id, message: 'We arrive at 9.' }, bearer(owner));
    expect(sent.body.sent).toBe(true);
    await sub.until(() => sub.data.length > 1);
    expect(sub.data[1]!.bookingUpdated.messages).toEqual([{ from: 'business', text: 'We arrive at 9.' }]);

    const started = performance.now();
    const cancelled = await app.rest('cancel_booking', { booking_id: b.booking_id, manage_token: b.manage_token });
    expect(cancelled.status).toBe(200);
    await sub.until(() => sub.data.length > 2);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(sub.errors).toEqual([]);
    expect(sub.data[2]!.bookingUpdated).toMatchObject({ bookingId: b.booking_id, status: 'cancelled', late: cancelled.body.late });
    expect(sub.data[2]!.bookingUpdated.visits.every((v: { active: boolean }) => !v.active)).toBe(true);
    // A second cancel changes nothing and announces nothing.
    await app.rest('cancel_booking', { booking_id: b.booking_id, manage_token: b.manage_token });
    await sleep(SETTLE);
    expect(sub.data).toHaveLength(3);
    await sub.dispose();
  });

  it('also serves the key that made the booking and the owner of its business, and tells on every status change', async () => {
    const personal = newToken('sk_live_');
    await app.services.prisma.apiKey.create({ data: { kind: 'personal', keyHash: hashToken(personal), hint: personal.slice(0, 12), scopes: ['read', 'write'] } });
    const b = await book(1, bearer(personal));
    const owner = await businessKey(demoIds.cleanerAustin);
    const viaKey = subscribe(BOOKING_UPDATED, { id: b.booking_id }, { authorization: `Bearer ${personal}` });
    const viaOwner = subscribe(BOOKING_UPDATED, { id: b.booking_id }, { Authorization: `Bearer ${owner}` });
    await sleep(SETTLE);
    await app.rest('message_about_booking', { booking_id: b.booking_id, message: 'Gate code 4412' }, bearer(personal));
    const cancelled = await app.rest('cancel_booking', { booking_id: b.booking_id }, bearer(personal));
    expect(cancelled.status).toBe(200);
    await viaKey.until(() => viaKey.data.length > 0);
    await viaOwner.until(() => viaOwner.data.length > 0);
    // A customer's own message is not a booking update for the customer; the cancellation is.
    expect(viaKey.data).toHaveLength(1);
    expect(viaKey.data[0]!.bookingUpdated.status).toBe('cancelled');
    expect(viaKey.data[0]!.bookingUpdated.messages).toEqual([{ from: 'customer', text: 'Gate code 4412' }]);
    expect(viaOwner.data[0]!.bookingUpdated.status).toBe('cancelled');
    await viaKey.dispose();
    await viaOwner.dispose();
  });

  it('refuses someone else\'s manage_token, another business\'s owner and no credentials, and delivers nothing to them', async () => {
    const mine = await book(2);
    const theirs = await book(3);
    const otherOwner = await businessKey(demoIds.plumberAustin);
    const wrongToken = subscribe(BOOKING_UPDATED, { id: mine.booking_id, token: theirs.manage_token });
    const wrongOwner = subscribe(BOOKING_UPDATED, { id: mine.booking_id }, { authorization: `Bearer ${otherOwner}` });
    const nothing = subscribe(BOOKING_UPDATED, { id: mine.booking_id });
    await wrongToken.until(() => wrongToken.errors.length > 0);
    await wrongOwner.until(() => wrongOwner.errors.length > 0);
    await nothing.until(() => nothing.errors.length > 0);
    expect(wrongToken.errors[0].extensions.code).toBe('not_found');
    expect(JSON.stringify(wrongToken.errors)).not.toContain(theirs.manage_token);
    expect(wrongOwner.errors[0].extensions.code).toBe('not_found');
    expect(nothing.errors[0].extensions.code).toBe('invalid_input');
    await app.rest('cancel_booking', { booking_id: mine.booking_id, manage_token: mine.manage_token });
    await sleep(SETTLE);
    for (const s of [wrongToken, wrongOwner, nothing]) {
      expect(s.data).toEqual([]);
      expect(s.done).toBe(true);
      await s.dispose();
    }
  });

  it('closes the connection for an invalid key (4403) before any operation runs', async () => {
    const sub = subscribe(BOOKING_UPDATED, { id: 'x', token: 'y' }, { authorization: 'Bearer sk_live_not_a_key' });
    await sub.until(() => sub.errors.length > 0);
    expect(sub.errors[0].code).toBe(4403);
    expect(sub.data).toEqual([]);
  });

  it('refuses upgrades on other paths', async () => {
    const port = (server.address() as AddressInfo).port;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/mcp`, 'graphql-transport-ws');
    const outcome = await new Promise<string>((resolve) => {
      ws.on('open', () => resolve('open'));
      ws.on('unexpected-response', (_req, res) => resolve(`http ${res.statusCode}`));
      ws.on('error', (e) => resolve(`error ${e.message}`));
    });
    expect(outcome).toMatch(/404/);
  });
});

const INQUIRY_REPLIED = `subscription ($id: ID!, $token: String) {
  inquiryReplied(inquiryId: $id, replyToken: $token) { inquiryId status at messages { from text } }
}`;

describe('inquiryReplied subscription', () => {
  it('delivers the answered conversation to the holder of the reply_token, and nothing to a wrong token', async () => {
    const asked = await app.rest('contact_business', { business: demoIds.cleanerAustin, customer_name: 'Sam', message: 'Do you bring supplies?' });
    expect(asked.status).toBe(200);
    const other = await app.rest('contact_business', { business: demoIds.cleanerAustin, customer_name: 'Kim', message: 'Pets ok?' });
    const sub = subscribe(INQUIRY_REPLIED, { id: asked.body.inquiry_id, token: asked.body.reply_token });
    const wrong = subscribe(INQUIRY_REPLIED, { id: asked.body.inquiry_id, token: other.body.reply_token });
    const none = subscribe(INQUIRY_REPLIED, { id: asked.body.inquiry_id });
    await sleep(SETTLE);
    const owner = await businessKey(demoIds.cleanerAustin);
    const started = performance.now();
    const sent = await app.rest('message_customer', { inquiry_id: asked.body.inquiry_id, message: 'Yes, all of them.' }, bearer(owner));
    expect(sent.body.sent).toBe(true);
    await sub.until(() => sub.data.length > 0);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(sub.data[0]!.inquiryReplied).toMatchObject({
      inquiryId: asked.body.inquiry_id,
      status: 'replied',
      messages: [{ from: 'customer', text: 'Do you bring supplies?' }, { from: 'business', text: 'Yes, all of them.' }],
    });
    expect(wrong.errors[0].extensions.code).toBe('not_found');
    expect(none.errors[0].extensions.code).toBe('invalid_input');
    expect(wrong.data).toEqual([]);
    expect(none.data).toEqual([]);
    for (const s of [sub, wrong, none]) await s.dispose();
  });

  it('also serves the personal key that started the conversation', async () => {
    const personal = newToken('sk_live_');
    await app.services.prisma.apiKey.create({ data: { kind: 'personal', keyHash: hashToken(personal), hint: personal.slice(0, 12), name: 'Robin', email: 'robin@example.com', scopes: ['read', 'write'] } });
    const asked = await app.rest('contact_business', { business: demoIds.cleanerAustin, message: 'Weekend slots?' }, bearer(personal));
    expect(asked.status).toBe(200);
    const sub = subscribe(INQUIRY_REPLIED, { id: asked.body.inquiry_id }, { authorization: `Bearer ${personal}` });
    await sleep(SETTLE);
    await app.rest('message_customer', { inquiry_id: asked.body.inquiry_id, message: 'Saturdays.' }, bearer(await businessKey(demoIds.cleanerAustin)));
    await sub.until(() => sub.data.length > 0);
    expect(sub.data[0]!.inquiryReplied.status).toBe('replied');
    await sub.dispose();
  });
});

describe('ownerEvents subscription', () => {
  it('tells the owner about new bookings with the assistant name, messages and cancellations', async () => {
    const owner = await businessKey(demoIds.cleanerAustin);
    const sub = subscribe(OWNER_EVENTS, {}, { authorization: `Bearer ${owner}` });
    const other = subscribe(OWNER_EVENTS, {}, { authorization: `Bearer ${await businessKey(demoIds.plumberAustin)}` });
    await sleep(SETTLE);
    const b = await book(4, { 'x-client-name': 'Test Assistant' });
    await app.rest('message_about_booking', { booking_id: b.booking_id, manage_token: b.manage_token, message: 'Hello' });
    await app.rest('cancel_booking', { booking_id: b.booking_id, manage_token: b.manage_token });
    await sub.until(() => sub.data.length >= 3);
    expect(sub.errors).toEqual([]);
    expect(sub.data.map((d) => d.ownerEvents.type)).toEqual(['booking.created', 'message.received', 'booking.cancelled']);
    expect(sub.data[0]!.ownerEvents).toMatchObject({ bookingId: b.booking_id, clientName: 'Test Assistant' });
    await sleep(SETTLE);
    expect(other.data).toEqual([]);
    await sub.dispose();
    await other.dispose();
  });

  it('is for owners only', async () => {
    const anonymous = subscribe(OWNER_EVENTS, {});
    const customer = subscribe(OWNER_EVENTS, {}, { authorization: 'Bearer sk_pub_porchlight_demo' });
    await anonymous.until(() => anonymous.errors.length > 0);
    await customer.until(() => customer.errors.length > 0);
    expect(anonymous.errors[0].extensions.code).toBe('unauthorized');
    expect(customer.errors[0].extensions.code).toBe('insufficient_scope');
  });
});

describe('updates', () => {
  it('returns new bookings, then nothing new with the returned cursor, then only what changed', async () => {
    const owner = await businessKey(demoIds.cleanerAustin);
    const b = await book(5, { 'x-client-name': 'Updates Assistant' });
    const first = await app.rest('updates', {}, bearer(owner));
    expect(first.status).toBe(200);
    expect(first.body.cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.body.next_check_in_minutes).toBeGreaterThan(0);
    const created = first.body.events.find((e: { type: string; booking_id: string }) => e.type === 'booking.created' && e.booking_id === b.booking_id);
    expect(created).toMatchObject({ client_name: 'Updates Assistant', customer_name: 'Alex Rivera' });
    expect(created.start).toMatch(/-06:00$/);

    const second = await app.rest('updates', { since: first.body.cursor }, bearer(owner));
    expect(second.status).toBe(200);
    expect(second.body.events).toEqual([]);

    await app.rest('cancel_booking', { booking_id: b.booking_id, manage_token: b.manage_token });
    const third = await app.rest('updates', { since: second.body.cursor }, bearer(owner));
    expect(third.body.events.map((e: { type: string; booking_id: string }) => [e.type, e.booking_id])).toEqual([['booking.cancelled', b.booking_id]]);
    const fourth = await app.rest('updates', { since: third.body.cursor }, bearer(owner));
    expect(fourth.body.events).toEqual([]);

    // Another business's owner sees none of it.
    const other = await app.rest('updates', {}, bearer(await businessKey(demoIds.plumberAustin)));
    expect(other.body.events.filter((e: { booking_id: string }) => e.booking_id === b.booking_id)).toEqual([]);
  });

  it('reports conversation messages, and a follow-up once it falls due 24 hours after the unanswered message', async () => {
    const owner = await businessKey(demoIds.cleanerAustin);
    const start = await app.rest('updates', {}, bearer(owner));
    const asked = await app.rest('contact_business', { business: demoIds.cleanerAustin, customer_name: 'Lee', message: 'Still there?' });
    const next = await app.rest('updates', { since: start.body.cursor }, bearer(owner));
    expect(next.body.events).toEqual([
      expect.objectContaining({ type: 'message.received', inquiry_id: asked.body.inquiry_id, customer_name: 'Lee', text: 'Still there?' }),
    ]);
    // Age the unanswered message to exactly 24 hours: it falls due now, after the cursor.
    const at = new Date(app.services.clock.now() - 24 * 3_600_000);
    await app.services.prisma.conversationMessage.updateMany({ where: { conversationId: asked.body.inquiry_id }, data: { createdAt: at } });
    const due = await app.rest('updates', { since: next.body.cursor }, bearer(owner));
    expect(due.body.events).toEqual([expect.objectContaining({ type: 'follow_up.due', inquiry_id: asked.body.inquiry_id, at: expect.stringMatching(/-0[56]:00$/) })]);
    // Whole seconds, with the business's offset.
    expect(Date.parse(due.body.events[0].at)).toBe(Math.floor((at.getTime() + 24 * 3_600_000) / 1000) * 1000);
    const after = await app.rest('updates', { since: due.body.cursor }, bearer(owner));
    expect(after.body.events).toEqual([]);
  });

  it('answers the same over MCP and GraphQL', async () => {
    const owner = await businessKey(demoIds.cleanerAustin);
    const rest = await app.rest('updates', {}, bearer(owner));
    const mcp = await app.tool('updates', { since: rest.body.cursor }, bearer(owner));
    expect(mcp.isError).toBe(false);
    expect(mcp.structured.events).toEqual([]);
  });

  it('refuses a bad cursor with 400 and a missing sign-in with 401', async () => {
    const owner = await businessKey(demoIds.cleanerAustin);
    for (const since of ['not a cursor', 'bm90IGpzb24', Buffer.from(JSON.stringify({ v: 2, t: 1, s: [] })).toString('base64url')]) {
      const r = await app.rest('updates', { since }, bearer(owner));
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_input');
    }
    const anonymous = await app.rest('updates', {});
    expect(anonymous.status).toBe(401);
    const customer = await app.rest('updates', {}, bearer('sk_pub_porchlight_demo'));
    expect(customer.status).toBe(403);
  });
});
