/**
 * The carrier's voice side, beside its numbers (carrier.ts): the key its webhooks are signed
 * with, routing a number's calls to Porchlight's voice webhooks, and the call records it keeps
 * (read back by receptionist_refresh). Two adapters: Twilio (twilio-voice.ts, the official SDK)
 * and the carrier sandbox (sandbox-voice.ts), which also places simulated calls.
 */

/** A call as the carrier records it. */
export interface CarrierCall {
  /** The carrier's call id (Twilio's CallSid). */
  callSid: string;
  from: string;
  to: string;
  /** The carrier's status: completed, busy, no-answer, failed, canceled, in-progress… */
  status: string;
  durationSeconds: number;
  startedAt: number;
}

export interface VoiceCarrier {
  /** The key the carrier signs its webhooks with (X-Twilio-Signature): Twilio's auth token, or the sandbox's. */
  readonly webhookKey: string;
  /**
   * Points a number's incoming calls and their status callbacks at Porchlight's voice webhooks.
   * Throws CarrierRefused or CarrierUnavailable as carrier.ts's methods do.
   */
  routeCalls(input: { carrierRef: string; number: string; voiceUrl: string; statusCallbackUrl: string }): Promise<void>;
  /** Completed calls to a number that started at or after `since`, newest first. */
  completedCalls(input: { number: string; since: Date }): Promise<CarrierCall[]>;
}

/** Calls read back per refresh at most: more than a month of a busy line's calls. */
export const CALL_PAGE_LIMIT = 1000;

/** Where the carrier sends a receptionist number's calls (facades/voice-webhook.ts serves them). */
export const VOICE_ROUTES = { incoming: '/webhooks/voice', status: '/webhooks/voice/status' } as const;

export const voiceLinks = (baseUrl: string) => ({ incoming: `${baseUrl}${VOICE_ROUTES.incoming}`, status: `${baseUrl}${VOICE_ROUTES.status}` });
