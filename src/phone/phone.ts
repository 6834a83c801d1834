import type { PrismaClient } from '../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Carrier } from './carrier.js';
import { CarrierSandbox } from './sandbox.js';
import { twilioCarrier } from './twilio.js';

export interface Phone {
  carrier: Carrier;
  /** The sandbox when it is the carrier. */
  sandbox: CarrierSandbox | null;
}

/** Twilio when its account SID and auth token are set, otherwise the carrier sandbox. */
export function createPhone(config: Pick<Config, 'carrier'>, deps: { prisma: PrismaClient; clock: Clock }): Phone {
  if (config.carrier) return { carrier: twilioCarrier(config.carrier), sandbox: null };
  const sandbox = new CarrierSandbox(deps.prisma, deps.clock);
  return { carrier: sandbox, sandbox };
}
