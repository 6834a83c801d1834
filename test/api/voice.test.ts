/**
 * Minutes metered, the limit enforced: simulated calls from the carrier sandbox go through the
 * signed voice webhooks. Within the spending limit the AI agent answers (TwiML connecting the call
 * to VOICE_AGENT_URL) and each completed call records its minutes; at the limit `pause` forwards
 * the call to the owner's phone and `ask` does too and leaves the owner a note; a forged webhook
 * is a 403; a call id counts once; receptionist_refresh meters a call whose status callback was lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { placeCall, postVoiceWebhook } from '../helpers/voice.js';
import { loadConfig, SettingsError } from '../../src/config.js';
import { productionRefusals } from '../../src/production.js';
import { normalisePhone } from '../../src/sms/phone.js';
import { callMinutes } from '../../src/phone/voice.js';
import { readTwiml } from '../../src/phone/sandbox-voice.js';

const AGENT = 'wss://agent.porchlight.test/calls';
let app: TestApp;
/** The demo's Austin business with an active plan and an active sandbox number (src/demo/billing.ts). */
let businessId: string;
let slug: string;
let businessName: string;
let number: string;
let ownerPhone: string;
let owner: Record<string, string>;

beforeAll(async () => {
  app = await startApp({ env: { VOICE_AGENT_URL: AGENT } });
  const row = await app.services.prisma.receptionistNumber.findFirstOrThrow({ where: { status: 'active' }, include: { business: true } });
  ({ businessId, number } = row);
  slug = row.business.slug;
  businessName = row.business.name;
  ownerPhone = normalisePhone(row.business.phone)!.e164;
  owner = bearer(await businessKey(app, slug));
});
afterAll(async () => app?.close());

const billing = () => app.services.prisma.receptionistBilling.findUniqueOrThrow({ where: { businessId } });
const setBilling = (data: { usedMinutes: number; limitCents: number; atLimit: 'pause' | 'ask' }) =>
  app.services.prisma.receptionistBilling.update({ where: { businessId }, data: { ...data, limitReachedFor: null } });
const usage = async () => (await app.rest('receptionist_service', {}, owner)).body.usage;
const notes = () => app.services.prisma.ownerNote.count({ where: { businessId } });

describe('calls to a receptionist number', () => {
  it('within the limit: the AI agent answers, and the completed call is metered on receptionist_service', async () => {
    await setBilling({ usedMinutes: 42, limitCents: 8000, atLimit: 'ask' });
    const call = await placeCall(app, number, 7);
    expect(call).toMatchObject({ answer: 'agent', webhook: 200, statusCallback: 200, status: 'completed', durationSeconds: 420 });
    expect(call.twiml).toContain(`<Connect><ConversationRelay url="${AGENT}">`);
    expect(call.twiml).toContain(`<Parameter name="business" value="${slug}"/>`);
    expect(call.twiml).toContain('<Parameter name="caller" value="+14155550142"/>');
    expect(call.twiml).toContain('<Parameter name="minutes_left" value="413"/>');
    expect(call.twiml).toContain('<Parameter name="call_token" value="(secret: handed to the agent, not shown)"/>');
    expect((await usage()).used_minutes).toBe(49);
    expect(await app.services.prisma.voiceCall.findUniqueOrThrow({ where: { callSid: call.callSid } })).toMatchObject({ answer: 'agent', minutes: 7, status: 'completed', durationSeconds: 420 });
  });

  it("hands the agent a token for this call's call_brief only, which ends with the call", async () => {
    await setBilling({ usedMinutes: 0, limitCents: 8000, atLimit: 'ask' });
    const callSid = 'CAcalltokenlive0001';
    const params = { CallSid: callSid, From: '+14155550142', To: number, CallStatus: 'ringing' };
    const rang = await postVoiceWebhook(app, 'incoming', params);
    const twiml = await rang.text();
    const token = /<Parameter name="call_token" value="([^"]+)"\/>/.exec(twiml)?.[1];
    expect(token).toMatch(/^sk_call_/);
    // A webhook the carrier sends again hands out the same token.
    expect(await (await postVoiceWebhook(app, 'incoming', params)).text()).toContain(token);
    const agent = bearer(token!);
    const brief = await app.rest('call_brief', { phone: '+14155550142' }, agent);
    expect(brief.status).toBe(200);
    expect(brief.body.business.name).toBe(businessName);
    const gql = await app.graphql('{ callBrief(input: { phone: "+14155550142" }) { business { name } } }', {}, agent);
    expect(gql.body.data?.callBrief.business.name).toBe(businessName);
    for (const [name, input] of [['schedule', {}], ['my_business', {}], ['find_cleaners', { zip: '78704', bedrooms: 2, bathrooms: 1 }]] as const) {
      const r = await app.rest(name, input, agent);
      expect(r.status, name).toBe(403);
      expect(r.body.error).toMatch(/call_brief only/);
    }
    const forged = bearer(`${token!.slice(0, -4)}AAAA`);
    expect((await app.rest('call_brief', { phone: '+14155550142' }, forged)).status).toBe(401);
    expect((await app.rest('call_brief', { phone: '+14155550142' }, bearer(`sk_call_CAother.${token!.split('.')[1]}`))).status).toBe(401);
    await postVoiceWebhook(app, 'status', { ...params, CallStatus: 'completed', CallDuration: '60' });
    expect((await app.rest('call_brief', { phone: '+14155550142' }, agent)).status).toBe(401);
  });

  it('a call running past the limit is billed only up to it', async () => {
    // Included minutes used; $1 over the plan buys 5 paid minutes.
    await setBilling({ usedMinutes: 300, limitCents: 5000, atLimit: 'pause' });
    const call = await placeCall(app, number, 30);
    expect(call.answer).toBe('agent');
    expect((await app.services.prisma.voiceCall.findUniqueOrThrow({ where: { callSid: call.callSid } })).minutes).toBe(5);
    expect((await billing()).usedMinutes).toBe(305);
    const view = (await app.rest('receptionist_service', {}, owner)).body;
    expect(view.spending_limit).toMatchObject({ committed_dollars: 50, reached: true });
  });

  it('at the limit with pause: forwarded to the owner\'s phone, nothing metered, no note', async () => {
    await setBilling({ usedMinutes: 305, limitCents: 5000, atLimit: 'pause' });
    const before = await notes();
    const call = await placeCall(app, number, 4);
    expect(call).toMatchObject({ answer: 'forwarded', dialed: ownerPhone, statusCallback: 200 });
    expect(call.twiml).toContain(`<Dial callerId="${number}" timeout="30">${ownerPhone}</Dial>`);
    expect(call.twiml).not.toContain('ConversationRelay');
    expect((await billing()).usedMinutes).toBe(305);
    expect(await app.services.prisma.voiceCall.findUniqueOrThrow({ where: { callSid: call.callSid } })).toMatchObject({ answer: 'owner', reason: 'limit', minutes: null });
    expect(await notes()).toBe(before);
  });

  it('at the limit with ask: forwarded too, and the owner sees a note in schedule notifications', async () => {
    await setBilling({ usedMinutes: 305, limitCents: 5000, atLimit: 'ask' });
    const before = await notes();
    const call = await placeCall(app, number, 2, { from: '+15125550177' });
    expect(call).toMatchObject({ answer: 'forwarded', dialed: ownerPhone });
    expect((await billing()).usedMinutes).toBe(305);
    expect(await notes()).toBe(before + 1);
    const schedule = (await app.rest('schedule', {}, owner)).body;
    const note = schedule.notifications.find((n: { text: string }) => n.text.includes('+15125550177'));
    expect(note?.text).toMatch(/spending limit \(\$50\.00\).*raise the limit with receptionist_limits/);
    // The same call's webhook again: the same answer, no second note.
    const again = await postVoiceWebhook(app, 'incoming', { CallSid: call.callSid, From: '+15125550177', To: number, CallStatus: 'ringing' });
    expect(await again.text()).toContain(`${ownerPhone}</Dial>`);
    expect(await notes()).toBe(before + 1);
  });

  it('refuses a webhook without a valid signature (403) before reading it', async () => {
    const params = { CallSid: 'CAforged000000000000000000000000', From: '+15125550111', To: number, CallStatus: 'ringing' };
    for (const sig of ['', 'bm90IGEgc2lnbmF0dXJl']) {
      const r = await postVoiceWebhook(app, 'incoming', params, sig);
      expect(r.status).toBe(403);
      expect(await r.json()).toEqual({ error: 'The request signature is not valid.', code: 'invalid_signature' });
    }
    const status = await postVoiceWebhook(app, 'status', { ...params, CallStatus: 'completed', CallDuration: '600' }, 'bm90IGEgc2lnbmF0dXJl');
    expect(status.status).toBe(403);
    // Signed, but for other parameters than those sent.
    const url = `${app.services.config.baseUrl}/webhooks/voice`;
    const twilio = (await import('twilio')).default;
    const other = twilio.getExpectedTwilioSignature(app.services.phone.voice.webhookKey, url, { ...params, To: '+15125550000' });
    expect((await postVoiceWebhook(app, 'incoming', params, other)).status).toBe(403);
    expect(await app.services.prisma.voiceCall.count({ where: { callSid: params.CallSid } })).toBe(0);
  });

  it('caps the voice webhook forms at 64 KiB (413) before checking them', async () => {
    const body = new URLSearchParams({ CallSid: 'CAbig', Pad: 'x'.repeat(100 * 1024) }).toString();
    for (const path of ['/webhooks/voice', '/webhooks/voice/status']) {
      const res = await app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
      expect(res.status, path).toBe(413);
    }
  });

  it('the same CallSid\'s completed callback twice records its minutes once', async () => {
    await setBilling({ usedMinutes: 100, limitCents: 8000, atLimit: 'ask' });
    const call = await placeCall(app, number, 3);
    expect((await billing()).usedMinutes).toBe(103);
    const params = { CallSid: call.callSid, From: '+14155550142', To: number, CallStatus: 'completed', CallDuration: '180' };
    const replies = await Promise.all([postVoiceWebhook(app, 'status', params), postVoiceWebhook(app, 'status', params)]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect((await billing()).usedMinutes).toBe(103);
    expect(await app.services.prisma.receptionistUsage.count({ where: { businessId, usageId: `call:${call.callSid}` } })).toBe(1);
  });

  it('receptionist_refresh meters a call whose status callback was lost, once', async () => {
    await setBilling({ usedMinutes: 100, limitCents: 8000, atLimit: 'ask' });
    const call = await placeCall(app, number, 6, { statusCallback: false });
    expect(call).toMatchObject({ answer: 'agent', statusCallback: null });
    expect((await usage()).used_minutes).toBe(100);
    const refreshed = (await app.rest('receptionist_refresh', {}, owner)).body;
    expect(refreshed.usage.used_minutes).toBe(106);
    expect(refreshed.note).toBe('Read from the payment provider and the carrier just now.');
    expect((await app.rest('receptionist_refresh', {}, owner)).body.usage.used_minutes).toBe(106);
    expect((await app.services.prisma.voiceCall.findUniqueOrThrow({ where: { callSid: call.callSid } })).minutes).toBe(6);
  });

  it('a number that is no receptionist\'s is rejected; with no agent configured the owner takes the call', async () => {
    const stray = await postVoiceWebhook(app, 'incoming', { CallSid: 'CAstray00000000000000000000000000', From: '+15125550111', To: '+15125550000', CallStatus: 'ringing' });
    expect(readTwiml(await stray.text()).answer).toBe('rejected');
    await setBilling({ usedMinutes: 0, limitCents: 8000, atLimit: 'ask' });
    const config = app.services.config as { voiceAgentUrl?: string };
    config.voiceAgentUrl = undefined;
    try {
      const call = await placeCall(app, number, 2);
      expect(call).toMatchObject({ answer: 'forwarded', dialed: ownerPhone });
      expect((await app.services.prisma.voiceCall.findUniqueOrThrow({ where: { callSid: call.callSid } })).reason).toBe('no_agent');
      expect((await billing()).usedMinutes).toBe(0);
    } finally {
      config.voiceAgentUrl = AGENT;
    }
  });

  it('the sandbox page places a call through the same webhooks; a form from another site is refused', async () => {
    await setBilling({ usedMinutes: 10, limitCents: 8000, atLimit: 'ask' });
    const page = await app.get('/sandbox/calls');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`<option value="${number}"`);
    const form = (extra: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra }, body: new URLSearchParams({ to: number, from: '+14155550142', minutes: '5' }).toString() });
    const placed = await app.get('/sandbox/calls', form({ origin: app.services.config.baseUrl }));
    const html = await placed.text();
    expect(placed.status).toBe(200);
    expect(html).toContain('the AI agent (VOICE_AGENT_URL)');
    expect(html).toMatch(/id="metered">5 of 5</);
    expect((await billing()).usedMinutes).toBe(15);
    expect((await app.get('/sandbox/calls', form({ origin: 'https://evil.example' }))).status).toBe(403);
    expect((await billing()).usedMinutes).toBe(15);
  });
});

describe('settings', () => {
  it('rounds a call up to whole minutes', () => {
    expect([0, 1, 60, 61, 179, 36_000, 90_000].map(callMinutes)).toEqual([0, 1, 1, 2, 3, 600, 600]);
  });

  it('VOICE_AGENT_URL is a wss:// address; with Twilio live and no agent, production refuses to start saying so', () => {
    expect(loadConfig({ VOICE_AGENT_URL: ' wss://agent.example.com/calls ' }).voiceAgentUrl).toBe('wss://agent.example.com/calls');
    expect(() => loadConfig({ VOICE_AGENT_URL: 'https://agent.example.com' })).toThrow(SettingsError);
    expect(() => loadConfig({ NODE_ENV: 'production', VOICE_AGENT_URL: 'ws://agent.example.com' })).toThrow(/VOICE_AGENT_URL/);
    const live = { NODE_ENV: 'production', SANDBOX_PROVIDERS: 'mail,texts,payments', BASE_URL: 'https://book.example.com', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' };
    const refusals = productionRefusals(loadConfig(live));
    expect(refusals.filter((l) => l.startsWith('VOICE_AGENT_URL is not set'))).toHaveLength(1);
    expect(productionRefusals(loadConfig({ ...live, VOICE_AGENT_URL: 'wss://agent.example.com/calls' })).some((l) => l.includes('VOICE_AGENT_URL'))).toBe(false);
  });
});
