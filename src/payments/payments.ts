/**
 * The payment provider this process uses, chosen from the configuration: Stripe when its key
 * and webhook secret are set, otherwise the local sandbox. Domains register what they do with
 * the checkout, payment and refund events they started (by reference purpose).
 */
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Links } from '../links.js';
import type { Tx } from '../db/transaction.js';
import type { Services } from '../context.js';
import type { PaymentEvent, PaymentProvider, PaymentReference } from './provider.js';
import { PaymentSandbox, sandboxWebhookSecret } from './sandbox.js';
import { stripeProvider } from './stripe.js';

/** A checkout, payment or refund event with the reference of the record it concerns. */
export type ReferencedEvent = Extract<PaymentEvent, { reference: PaymentReference | null }> & { reference: PaymentReference };

/**
 * What a domain does with its events, inside the webhook's transaction (the event is marked
 * handled in the same one). Calls to the provider go after commit (onCommit), never inside it.
 */
export type PaymentPurposeHandler = (services: Services, tx: Tx, event: ReferencedEvent) => Promise<void>;

export interface Payments {
  provider: PaymentProvider;
  /** The sandbox when it is the provider: its hosted pages and webhook queue. */
  sandbox: PaymentSandbox | null;
  /** Handlers by reference purpose ('appointment', …). */
  purposes: Record<string, PaymentPurposeHandler>;
}

export function createPayments(
  config: Pick<Config, 'stripe'>,
  deps: { prisma: PrismaClient; clock: Clock; links: Links; secretsKey: Uint8Array; onError: (err: unknown) => void },
  purposes: Record<string, PaymentPurposeHandler>,
): Payments {
  if (config.stripe) return { provider: stripeProvider(config.stripe, deps.clock), sandbox: null, purposes };
  const sandbox = new PaymentSandbox(deps.prisma, deps.clock, deps.links, sandboxWebhookSecret(deps.secretsKey), deps.onError);
  return { provider: sandbox, sandbox, purposes };
}
