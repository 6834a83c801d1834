/**
 * POST /webhooks/payments, behind the facade: the provider's signature is verified against the
 * raw body before anything is read; each event id is handled once (a redelivery or replay
 * changes nothing), in one transaction with what it causes; checkout, payment and refund events
 * go to the domain that started them, account updates to the business's payment account.
 */
import type { Services } from '../context.js';
import { onAccountUpdated } from './accounts.js';
import type { ReferencedEvent } from './payments.js';

export type WebhookOutcome = 'handled' | 'duplicate' | 'ignored';

/** Throws WebhookSignatureError (nothing changed) when the signature does not hold. */
export async function receivePaymentWebhook(services: Services, rawBody: string, signature: string | undefined): Promise<WebhookOutcome> {
  const event = await services.payments.provider.verifyWebhook(rawBody, signature, services.clock.now());
  return services.transaction(
    async (tx) => {
      const fresh = await tx.$executeRaw`
        INSERT INTO "PaymentWebhookEvent" ("id", "type", "handledAt") VALUES (${event.id}, ${event.type}, ${services.clock.date()})
        ON CONFLICT ("id") DO NOTHING`;
      if (fresh === 0) return 'duplicate';
      if (event.kind === 'account.updated') {
        await onAccountUpdated(services, tx, event.account, event.createdAt);
        return 'handled';
      }
      if (event.kind === 'ignored' || !event.reference) return 'ignored';
      const handler = services.payments.purposes[event.reference.purpose];
      if (!handler) return 'ignored';
      await handler(services, tx, event as ReferencedEvent);
      return 'handled';
    },
    { maxWait: 15_000, timeout: 30_000 },
  );
}
