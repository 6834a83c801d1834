import type { PrismaClient } from '../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { PORT_WEBHOOK_PATH, type Carrier } from './carrier.js';
import { CarrierSandbox } from './sandbox.js';
import { twilioCarrier } from './twilio.js';
import type { VoiceCarrier } from './voice-carrier.js';
import { twilioVoice } from './twilio-voice.js';
import { CarrierVoiceSandbox, sandboxVoiceToken } from './sandbox-voice.js';

export interface Phone {
  carrier: Carrier;
  /** The sandbox when it is the carrier. */
  sandbox: CarrierSandbox | null;
  /** The carrier's voice side: webhook key, call routing, call records. */
  voice: VoiceCarrier;
  /** The sandbox's voice side (simulated calls) when the sandbox is the carrier. */
  voiceSandbox: CarrierVoiceSandbox | null;
}

/** Twilio when its account SID and auth token are set, otherwise the carrier sandbox. */
export function createPhone(config: Pick<Config, 'carrier' | 'baseUrl'>, deps: { prisma: PrismaClient; clock: Clock; secretsKey: Uint8Array; warn: (message: string) => void }): Phone {
  if (config.carrier) {
    const carrier = twilioCarrier({ ...config.carrier, portWebhookUrl: `${config.baseUrl}${PORT_WEBHOOK_PATH}`, warn: deps.warn });
    return { carrier, sandbox: null, voice: twilioVoice(config.carrier), voiceSandbox: null };
  }
  const sandbox = new CarrierSandbox(deps.prisma, deps.clock);
  const voiceSandbox = new CarrierVoiceSandbox(deps.prisma, deps.clock, config.baseUrl, sandboxVoiceToken(deps.secretsKey));
  return { carrier: sandbox, sandbox, voice: voiceSandbox, voiceSandbox };
}
