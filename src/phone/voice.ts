/**
 * Calls to receptionist numbers, driven by the carrier's voice webhooks (facades/voice-webhook.ts)
 * and metered through the receptionist's atomic ledger (src/billing/usage.ts):
 * - A call rings (answerCall): to an active receptionist number, while the month is within its
 *   spending limit, it is connected to the AI agent (VOICE_AGENT_URL, through Twilio's
 *   <Connect><ConversationRelay>); the agent is told the business, the caller and the minutes
 *   left, and reads call_brief with the call's own token (call-token.ts). At the limit (or with no plan serving, or no agent configured)
 *   it is forwarded to the owner's phone (<Dial>); at the limit with `ask`, the owner also gets a
 *   note asking to raise the limit. With no phone to forward to, the caller hears so.
 * - A call ends (callEnded): a completed call the agent answered records its minutes (Twilio's
 *   CallDuration rounded up to whole minutes) through recordUsage, which never grants past the
 *   limit and counts a call id once.
 * - receptionist_refresh (reconcileCalls) reads the carrier's completed calls to the number this
 *   period and meters those whose status callback never arrived, the same way.
 * One VoiceCall row per carrier call id (unique): a webhook sent twice answers the same and meters once.
 */
import type TwiMLVoiceResponse from 'twilio/lib/twiml/VoiceResponse.js';
import { lazyRequire } from '../core/lazy-require.js';
import type { Services } from '../context.js';
import { isUniqueViolation } from '../db/errors.js';
import { onCommit } from '../db/transaction.js';
import { recordUsage } from '../billing/usage.js';
import { allowance, UNLIMITED } from '../billing/ledger.js';
import { ledger, serving } from '../billing/store.js';
import { dollars } from '../core/money.js';
import { normalisePhone } from '../sms/phone.js';
import type { VoiceCall } from '../generated/prisma/client.js';
import { voiceLinks } from './voice-carrier.js';
import { callToken } from './call-token.js';
import { CarrierRefused, CarrierUnavailable } from './carrier.js';

// TwiML alone: the rest of the SDK is the live carrier's (twilio.ts).
const twiml = lazyRequire<typeof TwiMLVoiceResponse>('twilio/lib/twiml/VoiceResponse.js');

/** The longest call one usage record takes (recordUsage's bound); longer calls are billed this much. */
const MAX_RECORD_MINUTES = 600;

export type CallAnswer = 'agent' | 'owner' | 'closed';
export type NotAgentReason = 'limit' | 'no_plan' | 'no_agent';

export interface IncomingCall {
  callSid: string;
  from: string;
  to: string;
}

export interface Answered {
  /** TwiML for the carrier. */
  twiml: string;
  /** null: the number is no receptionist's (the call is rejected). */
  answer: CallAnswer | null;
  reason: NotAgentReason | null;
}

/** Billed minutes of a call: Twilio's seconds rounded up to whole minutes. */
export const callMinutes = (seconds: number) => Math.min(MAX_RECORD_MINUTES, Math.ceil(Math.max(0, seconds) / 60));

const validSid = (sid: string) => /^[A-Za-z0-9_-]{2,64}$/.test(sid);

/** The business a receptionist number belongs to, when it is active. */
function activeNumber(services: Services, number: string) {
  return services.prisma.receptionistNumber.findFirst({
    where: { number, status: 'active' },
    select: { businessId: true, business: { select: { slug: true, name: true, phone: true } } },
  });
}

/** The TwiML of a decision. */
function twimlOf(services: Services, call: Pick<VoiceCall, 'callSid' | 'caller' | 'number' | 'answer'>, ctx: { slug: string; name: string; ownerPhone: string | null; minutesLeft: number | null }): string {
  const response = new (twiml())();
  if (call.answer === 'agent' && services.config.voiceAgentUrl) {
    const connect = response.connect();
    const relay = connect.conversationRelay({ url: services.config.voiceAgentUrl });
    relay.parameter({ name: 'business', value: ctx.slug });
    relay.parameter({ name: 'caller', value: call.caller });
    relay.parameter({ name: 'call_sid', value: call.callSid });
    relay.parameter({ name: 'minutes_left', value: ctx.minutesLeft === null ? 'unlimited' : String(ctx.minutesLeft) });
    relay.parameter({ name: 'call_brief', value: `${services.config.baseUrl}/api/v1/call_brief?phone=${encodeURIComponent(call.caller)}` });
    // The agent's credential for that URL (Authorization: Bearer), good for this call only.
    relay.parameter({ name: 'call_token', value: callToken(services.secretsKey, call.callSid) });
    return response.toString();
  }
  if (call.answer === 'owner' && ctx.ownerPhone) {
    // The caller sees the receptionist number, so the owner knows the call came through it.
    response.dial({ callerId: call.number, timeout: 30 }, ctx.ownerPhone);
    return response.toString();
  }
  response.say(`Sorry, ${ctx.name.slice(0, 100)} cannot take your call right now. Please call again later.`);
  response.hangup();
  return response.toString();
}

const rejected = (): Answered => {
  const response = new (twiml())();
  response.reject();
  return { twiml: response.toString(), answer: null, reason: null };
};

/** The incoming-call webhook: decides once per call id who answers, and says so in TwiML. */
export async function answerCall(services: Services, input: IncomingCall): Promise<Answered> {
  if (!validSid(input.callSid)) return rejected();
  const number = await activeNumber(services, input.to);
  if (!number) return rejected();
  const { businessId, business } = number;
  const owner = normalisePhone(business.phone)?.e164 ?? null;
  // Forwarding a ported number to itself would ring this line again.
  const ownerPhone = owner && owner !== input.to ? owner : null;
  const caller = input.from.slice(0, 40) || 'unknown';
  const now = services.clock.date();

  // Read, not locked: calls ringing at once may all be answered; their minutes are then granted
  // under the ledger's lock, never past the limit.
  const billing = await services.prisma.receptionistBilling.findUnique({ where: { businessId } });
  const room = billing && serving(billing) ? allowance(ledger(billing, now.getTime())) : 0;
  const minutesLeft = room === UNLIMITED ? null : room;
  const decided = await services
    .transaction(async (tx) => {
      // A webhook sent again gets the first decision.
      const earlier = await tx.voiceCall.findUnique({ where: { callSid: input.callSid } });
      if (earlier) return { call: earlier, minutesLeft };
      const reason: NotAgentReason | null = !billing || !serving(billing) ? 'no_plan' : room <= 0 ? 'limit' : !services.config.voiceAgentUrl ? 'no_agent' : null;
      const answer: CallAnswer = reason === null ? 'agent' : ownerPhone ? 'owner' : 'closed';
      const call = await tx.voiceCall.create({
        data: { callSid: input.callSid, businessId, number: input.to, caller, answer, reason, status: 'ringing', createdAt: now, updatedAt: now },
      });
      if (reason === 'limit' && billing?.atLimit === 'ask') {
        await tx.ownerNote.create({
          data: {
            businessId,
            clientName: 'Porchlight',
            createdAt: now,
            text: `A call from ${caller} ${answer === 'owner' ? 'was forwarded to your phone' : 'was not answered'}: your AI receptionist is at this month's spending limit ($${dollars(billing.limitCents).toFixed(2)}). To have it answer again, raise the limit with receptionist_limits.`,
          },
        });
      }
      return { call, minutesLeft };
    })
    .catch(async (err: unknown) => {
      // The same call id's webhook racing this one stored its decision first.
      if (!isUniqueViolation(err)) throw err;
      return { call: await services.prisma.voiceCall.findUniqueOrThrow({ where: { callSid: input.callSid } }), minutesLeft };
    });
  const { call } = decided;
  if (call.businessId !== businessId) return rejected();
  services.logger.info({ business: businessId, call: call.callSid, answer: call.answer, reason: call.reason }, 'receptionist call answered');
  return {
    twiml: twimlOf(services, call, { slug: business.slug, name: business.name, ownerPhone, minutesLeft: decided.minutesLeft }),
    answer: call.answer as CallAnswer,
    reason: call.reason as NotAgentReason | null,
  };
}

export interface CallStatusUpdate {
  callSid: string;
  status: string;
  /** CallDuration, in seconds (completed calls). */
  durationSeconds: number | null;
}

export interface Metered {
  known: boolean;
  /** Minutes recorded for the call (granted by the ledger), null when nothing is metered. */
  minutes: number | null;
}

/** The status callback: stores the call's end; a completed call the agent answered records its minutes once. */
export async function callEnded(services: Services, input: CallStatusUpdate): Promise<Metered> {
  if (!validSid(input.callSid)) return { known: false, minutes: null };
  const call = await services.prisma.voiceCall.findUnique({ where: { callSid: input.callSid } });
  if (!call) return { known: false, minutes: null };
  const status = input.status.slice(0, 20);
  const duration = input.durationSeconds !== null && Number.isFinite(input.durationSeconds) && input.durationSeconds >= 0 ? Math.floor(input.durationSeconds) : null;
  await services.prisma.voiceCall.update({
    where: { id: call.id },
    data: { status, ...(duration !== null ? { durationSeconds: duration } : {}), updatedAt: services.clock.date() },
  });
  if (status !== 'completed' || duration === null) return { known: true, minutes: call.minutes };
  return { known: true, minutes: await meter(services, call, duration) };
}

/** Records a completed agent call's minutes; recordUsage's id makes a second record return the first. */
async function meter(services: Services, call: VoiceCall, durationSeconds: number): Promise<number | null> {
  if (call.answer !== 'agent') return null;
  const minutes = callMinutes(durationSeconds);
  if (minutes === 0) return null;
  const usage = await recordUsage(services, { businessId: call.businessId, usageId: `call:${call.callSid}`, minutes });
  await services.prisma.voiceCall.update({
    where: { id: call.id },
    data: { minutes: usage.granted, durationSeconds, status: 'completed', meteredAt: call.meteredAt ?? services.clock.date(), updatedAt: services.clock.date() },
  });
  if (usage.granted < minutes) {
    services.logger.warn({ business: call.businessId, call: call.callSid, minutes, granted: usage.granted, reason: usage.reason }, 'a receptionist call ran past what the spending limit allowed; only the granted minutes are billed');
  }
  return usage.granted;
}

/**
 * receptionist_refresh: the carrier's completed calls to the business's number this period; those
 * the agent answered whose minutes were never recorded (a status callback lost) are metered now.
 * Also routes the number's calls to the voice webhooks again (an idempotent update at the carrier);
 * a refusal there is logged, and the call records are read all the same.
 */
export async function reconcileCalls(services: Services, businessId: string): Promise<{ recorded: number }> {
  const number = await services.prisma.receptionistNumber.findUnique({ where: { businessId } });
  if (!number || number.status !== 'active' || !number.carrierRef) return { recorded: 0 };
  // Routing again is a repair, not the refresh's subject: a refusal is logged and the records still read.
  await routeNumber(services, { number: number.number, carrierRef: number.carrierRef }).catch((err: unknown) => {
    if (!(err instanceof CarrierRefused || err instanceof CarrierUnavailable)) throw err;
    services.logger.warn({ business: businessId, err: err.message }, "routing a receptionist number's calls to the voice webhooks failed");
  });
  const billing = await services.prisma.receptionistBilling.findUnique({ where: { businessId } });
  if (!billing?.periodStart) return { recorded: 0 };
  const calls = await services.phone.voice.completedCalls({ number: number.number, since: billing.periodStart });
  const known = await services.prisma.voiceCall.findMany({ where: { businessId, callSid: { in: calls.map((c) => c.callSid) } } });
  const bySid = new Map(known.map((c) => [c.callSid, c]));
  let recorded = 0;
  for (const c of calls) {
    const call = bySid.get(c.callSid);
    // A call with no row never reached the agent (its incoming webhook was not answered): nothing to bill.
    if (!call || call.answer !== 'agent' || call.meteredAt) continue;
    if ((await meter(services, call, c.durationSeconds)) !== null) recorded += 1;
  }
  return { recorded };
}

/** Points a number's calls at the voice webhooks (on activation and on every refresh). */
export async function routeNumber(services: Services, input: { number: string; carrierRef: string }): Promise<void> {
  const links = voiceLinks(services.config.baseUrl);
  await services.phone.voice.routeCalls({ carrierRef: input.carrierRef, number: input.number, voiceUrl: links.incoming, statusCallbackUrl: links.status });
}

/**
 * Once the transaction that made a number active commits, its calls are routed to the voice
 * webhooks; a carrier that does not answer now is asked again by receptionist_refresh.
 */
export function routeNumberOnCommit(services: Services, tx: Parameters<typeof onCommit>[0], input: { number: string; carrierRef: string | null }): void {
  const carrierRef = input.carrierRef;
  if (!carrierRef) return;
  onCommit(tx, () =>
    routeNumber(services, { number: input.number, carrierRef }).catch((err: unknown) => {
      services.logger.warn({ number: input.number, err: err instanceof Error ? err.message : String(err) }, 'routing a receptionist number\'s calls to the voice webhooks failed; receptionist_refresh tries again');
    }),
  );
}
