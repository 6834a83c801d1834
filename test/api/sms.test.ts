import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';
import { smsSignature } from '../../src/sms/signature.js';
import { smsProvider } from '../../src/sms/provider.js';
import { twilioProvider } from '../../src/sms/twilio.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

const SECRET = 'sandbox-webhook-secret';
const WEBHOOK = `${BASE}/webhooks/sms`;
const cleaner = demoIds.cleanerAustin;

/** A stand-in for Twilio's REST API on a local port: records requests, answers as told. */
interface FakeTwilio {
  url: string;
  requests: { path: string; authorization?: string; form: URLSearchParams }[];
  answer: { status: number; body: unknown };
  close(): Promise<void>;
}

async function fakeTwilio(): Promise<FakeTwilio> {
  const fake = { requests: [], answer: { status: 201, body: { sid: 'SM123', status: 'queued' } } } as unknown as FakeTwilio;
  const read = async (req: IncomingMessage) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    return body;
  };
  const server: Server = createServer(async (req, res) => {
    fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, form: new URLSearchParams(await read(req)) });
    res.writeHead(fake.answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(fake.answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => new Promise((resolve) => server.close(() => resolve()));
  return fake;
}

/** An inbound text message as Twilio posts it: form-encoded and signed. */
function textIn(app: TestApp, key: string, params: Record<string, string>, signature = smsSignature(key, WEBHOOK, params)) {
  return app.get('/webhooks/sms', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: new URLSearchParams(params),
  });
}

async function ownerKey(app: TestApp, slug: string) {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes: ['read', 'write'] } });
  return { headers: { authorization: `Bearer ${key}` }, business };
}

/** Twilio's E.164 form of a demo number like +1-512-555-0123. */
const e164 = (phone: string) => `+${phone.replace(/\D/g, '')}`;

describe('the Twilio adapter', () => {
  let fake: FakeTwilio;
  beforeAll(async () => {
    fake = await fakeTwilio();
  });
  afterAll(async () => fake?.close());

  it("posts one form-encoded message to the account's Messages resource with Basic auth", async () => {
    const provider = twilioProvider({ accountSid: 'AC123', authToken: 'tok-secret', from: '+15125550000', apiUrl: fake.url });
    await provider.send({ to: '+15125550111', text: 'Sparkle: see you at 9 & bring keys?' });
    const req = fake.requests.at(-1)!;
    expect(req.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(req.authorization).toBe(`Basic ${Buffer.from('AC123:tok-secret').toString('base64')}`);
    expect(Object.fromEntries(req.form)).toEqual({ To: '+15125550111', From: '+15125550000', Body: 'Sparkle: see you at 9 & bring keys?' });
  });

  it("fails with Twilio's reason (never the credentials) so the outbox retries", async () => {
    fake.answer = { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } };
    const provider = twilioProvider({ accountSid: 'AC123', authToken: 'tok-secret', from: '+15125550000', apiUrl: fake.url });
    const failure = provider.send({ to: 'nope', text: 'Hi' });
    await expect(failure).rejects.toThrow(/HTTP 400, code 21211.*not a valid phone number/);
    await expect(failure).rejects.not.toThrow(/tok-secret/);
    fake.answer = { status: 201, body: { sid: 'SM124' } };
  });

  it('is chosen when the three Twilio settings are set; otherwise the sandbox', () => {
    expect(smsProvider({ twilio: { accountSid: 'AC1', authToken: 't', from: '+1' } }).name).toBe('twilio');
    expect(smsProvider({ twilio: { accountSid: 'AC1', authToken: 't', from: '+1' } }).webhookKey).toBe('t');
    expect(smsProvider({ smsWebhookSecret: 's' })).toMatchObject({ name: 'sandbox', webhookKey: 's' });
    expect(smsProvider({}).webhookKey).toBeUndefined();
  });
});

describe('POST /webhooks/sms in sandbox mode', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ env: { SMS_WEBHOOK_SECRET: SECRET, DEV_OUTBOX: '1' } });
  });
  afterAll(async () => app?.close());

  it('relays texts to a business phone into one open text conversation per number, answered by text', async () => {
    const owner = await ownerKey(app, cleaner);
    const to = e164(owner.business.phone!);
    const first = await textIn(app, SECRET, { From: '+15125550142', To: to, Body: 'Do you do <move-out> cleans?', MessageSid: 'SM1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/text\/xml/);
    expect(await first.text()).toContain('<Response></Response>');
    await textIn(app, SECRET, { From: '+15125550142', To: to, Body: 'For Friday.', MessageSid: 'SM2' });

    const listed = await app.rest('inquiries', {}, owner.headers);
    const texts = listed.body.inquiries.filter((i: { channel: string }) => i.channel === 'sms');
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ status: 'waiting_for_response', customer_phone: '+15125550142', direction: 'received' });
    expect(texts[0].messages.map((m: { from: string; text: string }) => [m.from, m.text])).toEqual([
      ['customer', 'Do you do <move-out> cleans?'],
      ['customer', 'For Friday.'],
    ]);

    const answer = await app.rest('message_customer', { inquiry_id: texts[0].inquiry_id, message: 'Yes, Friday 10am works.' }, owner.headers);
    expect(answer.body).toMatchObject({ sent: true, via: 'sms' });
    await app.services.outbox.flush();
    // The sandbox keeps the text in the outbox, readable at /dev/outbox from this machine.
    const outbox = (await (await app.fetch(new Request(`http://localhost:${app.services.config.port}/dev/outbox.json`))).json()) as { messages: { channel: string; to: string; text: string }[] };
    expect(outbox.messages).toContainEqual(expect.objectContaining({ channel: 'sms', to: '+15125550142', text: `${owner.business.name}: Yes, Friday 10am works.` }));

    // After closing, the same number starts a new conversation.
    await app.rest('close_inquiry', { inquiry_id: texts[0].inquiry_id }, owner.headers);
    await textIn(app, SECRET, { From: '+15125550142', To: to, Body: 'One more question' });
    const after = (await app.rest('inquiries', {}, owner.headers)).body.inquiries.filter((i: { channel: string }) => i.channel === 'sms');
    expect(after).toHaveLength(2);
    expect(after.find((i: { inquiry_id: string }) => i.inquiry_id !== texts[0].inquiry_id).status).toBe('waiting_for_response');

    // Another number gets its own conversation.
    await textIn(app, SECRET, { From: '+14155550100', To: to, Body: 'Hi' });
    expect((await app.rest('inquiries', {}, owner.headers)).body.inquiries.filter((i: { channel: string }) => i.channel === 'sms')).toHaveLength(3);
  });

  it('refuses a missing, wrong or stale signature with 403 and stores nothing', async () => {
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin } });
    const params = { From: '+15125550177', To: e164(business.phone!), Body: 'Forged' };
    const before = await app.services.prisma.conversation.count();
    for (const signature of ['', 'bm90IGEgc2lnbmF0dXJl', smsSignature('wrong-secret', WEBHOOK, params), smsSignature(SECRET, WEBHOOK, { ...params, Body: 'Original' })]) {
      const r = await textIn(app, SECRET, params, signature);
      expect(r.status).toBe(403);
      expect(((await r.json()) as { code: string }).code).toBe('invalid_signature');
    }
    expect(await app.services.prisma.conversation.count()).toBe(before);
  });

  it('answers 400 for a number no business has, and ignores a text without words', async () => {
    const unknown = await textIn(app, SECRET, { From: '+15125550177', To: '+19995550100', Body: 'Hello?' });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { code: string }).code).toBe('not_found');
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin } });
    const before = await app.services.prisma.conversation.count();
    const picture = await textIn(app, SECRET, { From: '+15125550177', To: e164(business.phone!), Body: '', NumMedia: '1' });
    expect(picture.status).toBe(200);
    expect(await app.services.prisma.conversation.count()).toBe(before);
    const noFrom = await textIn(app, SECRET, { To: e164(business.phone!), Body: 'Hi' });
    expect(noFrom.status).toBe(400);
  });
});

describe('without a webhook secret', () => {
  it('cannot verify inbound texts and says so', async () => {
    const app = await startApp();
    try {
      const r = await textIn(app, 'anything', { From: '+15125550177', To: '+15125550100', Body: 'Hi' });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { code: string }).code).toBe('not_configured');
    } finally {
      await app.close();
    }
  });
});

describe('with Twilio configured', () => {
  let fake: FakeTwilio;
  let app: TestApp;
  beforeAll(async () => {
    fake = await fakeTwilio();
    app = await startApp({
      env: { TWILIO_ACCOUNT_SID: 'ACtest', TWILIO_AUTH_TOKEN: 'twilio-token', TWILIO_FROM: '+15125559999', TWILIO_API_URL: fake.url },
    });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('verifies webhooks with the auth token and delivers text answers through Twilio from the outbox', async () => {
    const owner = await ownerKey(app, cleaner);
    const params = { From: '+15125550188', To: e164(owner.business.phone!), Body: 'Are you open Sunday?' };
    expect((await textIn(app, 'sandbox-secret-is-not-the-key', params)).status).toBe(403);
    expect((await textIn(app, 'twilio-token', params)).status).toBe(200);

    const conversation = await app.services.prisma.conversation.findFirstOrThrow({ where: { channel: 'sms', customerPhone: '+15125550188' } });
    await app.rest('message_customer', { inquiry_id: conversation.id, message: 'Closed Sundays, sorry.' }, owner.headers);
    await app.services.outbox.flush();
    const sent = fake.requests.find((r) => r.form.get('To') === '+15125550188');
    expect(sent && Object.fromEntries(sent.form)).toEqual({ To: '+15125550188', From: '+15125559999', Body: `${owner.business.name}: Closed Sundays, sorry.` });
    const row = await app.services.prisma.outboxMessage.findFirstOrThrow({ where: { to: '+15125550188' } });
    expect(row.channel).toBe('sms');
    expect(row.sentAt).not.toBeNull();
    // E-mail never goes to Twilio.
    expect(fake.requests.every((r) => !String(r.form.get('To')).includes('@'))).toBe(true);
  });
});
