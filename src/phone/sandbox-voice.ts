/**
 * The carrier sandbox's voice side: every number the sandbox holds rings Porchlight's voice
 * webhooks (as a Twilio number routed there would), and a simulated call of N minutes goes
 * through them exactly as Twilio's would: the incoming-call webhook, then the status callback
 * with CallStatus=completed and CallDuration, both form-encoded and signed with the sandbox's own
 * auth token in Twilio's scheme (X-Twilio-Signature), posted to the app's own fetch handler. The
 * sandbox keeps each call (SandboxCarrierObject, type call) as Twilio keeps its call records, so
 * receptionist_refresh can read back a call whose status callback never arrived.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type * as TwilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import { lazyRequire } from '../core/lazy-require.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import { CarrierRefused } from './carrier.js';
import { CALL_PAGE_LIMIT, voiceLinks, type CarrierCall, type VoiceCarrier } from './voice-carrier.js';

// The signature alone: the rest of the SDK is the live carrier's.
const webhooks = lazyRequire<typeof TwilioWebhooks>('twilio/lib/webhooks/webhooks.js');

/** The sandbox's auth token, derived from SECRETS_KEY: stable across restarts and shared by instances. */
export const sandboxVoiceToken = (secretsKey: Uint8Array) => createHmac('sha256', secretsKey).update('carrier-sandbox-auth-token').digest('hex').slice(0, 32);

/** The account id the sandbox's webhooks name, shaped like Twilio's. */
export const SANDBOX_ACCOUNT = `AC${'0'.repeat(24)}sandbox0`;
/** The caller of a simulated call unless another is given: a fictional 555-01xx line. */
export const SANDBOX_CALLER = '+14155550142';
export const MAX_CALL_MINUTES = 600;

interface CallData {
  from: string;
  to: string;
  minutes: number;
  durationSeconds: number;
  /** What Porchlight's TwiML did with it. */
  answer: SimulatedCall['answer'];
  dialed: string | null;
}

export interface SimulatedCall {
  callSid: string;
  /** agent: connected to the AI agent; forwarded: dialled to `dialed`; closed: a message, then hung up; rejected; failed: the webhook did not answer with TwiML. */
  answer: 'agent' | 'forwarded' | 'closed' | 'rejected' | 'failed';
  dialed: string | null;
  /** The TwiML the incoming-call webhook answered. */
  twiml: string;
  status: string;
  durationSeconds: number;
  /** HTTP statuses of the two webhooks (null: the status callback was not sent). */
  webhook: number;
  statusCallback: number | null;
}

/** What a TwiML answer does with the call, read as the carrier would act on it. */
export function readTwiml(xml: string): { answer: SimulatedCall['answer']; dialed: string | null } {
  if (/<Connect\b[\s\S]*<(ConversationRelay|Stream)\b/.test(xml)) return { answer: 'agent', dialed: null };
  const dial = /<Dial\b[^>]*>\s*(?:<Number\b[^>]*>)?\s*([^<\s]+)\s*(?:<\/Number>)?\s*<\/Dial>/.exec(xml);
  if (dial) return { answer: 'forwarded', dialed: dial[1]! };
  if (/<Reject\b/.test(xml)) return { answer: 'rejected', dialed: null };
  if (/<Response\b/.test(xml)) return { answer: 'closed', dialed: null };
  return { answer: 'failed', dialed: null };
}

const form = (params: Record<string, string>) => new URLSearchParams(params).toString();

export class CarrierVoiceSandbox implements VoiceCarrier {
  private send: ((request: Request) => Promise<Response>) | null = null;
  private readonly links: ReturnType<typeof voiceLinks>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    baseUrl: string,
    readonly webhookKey: string,
  ) {
    this.links = voiceLinks(baseUrl);
  }

  /** Where webhooks go: the app's own fetch handler (so they pass its route and signature check). */
  connect(send: (request: Request) => Promise<Response>): void {
    this.send = send;
  }

  /** Every number the sandbox holds already rings Porchlight's voice webhooks; a number it does not hold is refused. */
  async routeCalls(input: { carrierRef: string; number: string }): Promise<void> {
    const held = await this.prisma.sandboxCarrierObject.findFirst({ where: { type: 'number', id: input.number } });
    if (!held || input.carrierRef !== input.number) throw new CarrierRefused(`The carrier holds no number ${input.number} under ${input.carrierRef}.`);
  }

  async completedCalls(input: { number: string; since: Date }): Promise<CarrierCall[]> {
    const rows = await this.prisma.sandboxCarrierObject.findMany({
      where: { type: 'call', status: 'completed', createdAt: { gte: input.since }, data: { path: ['to'], equals: input.number } },
      orderBy: { createdAt: 'desc' },
      take: CALL_PAGE_LIMIT,
    });
    return rows.map((r) => {
      const d = r.data as unknown as CallData;
      return { callSid: r.id, from: d.from, to: d.to, status: r.status, durationSeconds: d.durationSeconds, startedAt: r.createdAt.getTime() };
    });
  }

  /**
   * A caller rings `to` and, once answered, talks for `minutes`: the incoming-call webhook, then
   * (unless `statusCallback` is false, a callback lost on the way) the completed status callback.
   */
  async placeCall(input: { to: string; from?: string; minutes: number; statusCallback?: boolean }): Promise<SimulatedCall> {
    if (!this.send) throw new Error('The carrier sandbox is not connected to the app.');
    if (!Number.isInteger(input.minutes) || input.minutes < 1 || input.minutes > MAX_CALL_MINUTES) throw new CarrierRefused(`A simulated call lasts 1 to ${MAX_CALL_MINUTES} whole minutes.`);
    const held = await this.prisma.sandboxCarrierObject.findFirst({ where: { type: 'number', id: input.to, status: 'active' } });
    if (!held) throw new CarrierRefused(`The carrier sandbox holds no active number ${input.to}: the call does not connect.`);
    const from = input.from ?? SANDBOX_CALLER;
    const callSid = `CA${randomBytes(16).toString('hex')}`;
    const now = this.clock.date();
    const base = { AccountSid: SANDBOX_ACCOUNT, ApiVersion: '2010-04-01', CallSid: callSid, Direction: 'inbound', From: from, Caller: from, To: input.to, Called: input.to };
    await this.prisma.sandboxCarrierObject.create({
      data: { id: callSid, type: 'call', status: 'ringing', data: { from, to: input.to, minutes: input.minutes, durationSeconds: 0, answer: 'failed', dialed: null } satisfies CallData as unknown as Prisma.InputJsonObject, createdAt: now, updatedAt: now },
    });

    const incoming = await this.post(this.links.incoming, { ...base, CallStatus: 'ringing' });
    const twiml = incoming.ok ? await incoming.text() : '';
    const { answer, dialed } = incoming.ok ? readTwiml(twiml) : { answer: 'failed' as const, dialed: null };
    // Answered by the agent, or by the owner's phone it was forwarded to: the call lasts its minutes.
    const talked = answer === 'agent' || answer === 'forwarded';
    const status = answer === 'rejected' ? 'busy' : answer === 'failed' ? 'failed' : 'completed';
    const durationSeconds = talked ? input.minutes * 60 : answer === 'closed' ? 10 : 0;
    await this.prisma.sandboxCarrierObject.update({
      where: { id: callSid },
      data: { status, data: { from, to: input.to, minutes: input.minutes, durationSeconds, answer, dialed } satisfies CallData as unknown as Prisma.InputJsonObject, updatedAt: this.clock.date() },
    });
    let statusCallback: number | null = null;
    if (input.statusCallback !== false) {
      const done = await this.post(this.links.status, { ...base, CallStatus: status, CallDuration: String(durationSeconds), Duration: String(Math.ceil(durationSeconds / 60)) });
      statusCallback = done.status;
    }
    // The agent's call token is a credential: what the sandbox shows of the answer leaves it out.
    const shown = twiml.replace(/(name="call_token" value=")[^"]*/g, '$1(secret: handed to the agent, not shown)');
    return { callSid, answer, dialed, twiml: shown, status, durationSeconds, webhook: incoming.status, statusCallback };
  }

  /** Posts a form to a webhook, signed as Twilio signs it: HMAC-SHA1 of the URL and the sorted parameters, keyed with the auth token. */
  private post(url: string, params: Record<string, string>): Promise<Response> {
    return this.send!(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': webhooks().getExpectedTwilioSignature(this.webhookKey, url, params),
          'user-agent': 'Porchlight carrier sandbox',
        },
        body: form(params),
      }),
    );
  }
}
