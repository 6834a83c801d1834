/**
 * The sandbox's webhook delivery: Stripe-shaped events signed in Stripe's scheme
 * (`Stripe-Signature: t=…,v1=HMAC-SHA256`), queued in the same transaction as the change they
 * report (SandboxWebhook) and posted to the app's own POST /webhooks/payments on the durable
 * queue (src/jobs/queue.ts), retried until it answers 2xx, across restarts.
 */
import { createHmac } from 'node:crypto';
import { Prisma, type PrismaClient, type SandboxWebhook } from '../../generated/prisma/client.js';
import type { Clock } from '../../clock.js';
import type { Links } from '../../links.js';
import { MINUTE } from '../../core/time.js';
import { DurableQueue } from '../../jobs/queue.js';
import { newId, seconds, type EventQueue, type Tx } from './records.js';

const DELIVERY_BATCH = 50;
const MAX_ATTEMPTS = 25;
const FLUSH_DELAY_MS = 20;
/** A delivery run holds its events this long: far longer than posting a batch takes. */
const DELIVERY_LEASE_MS = 5 * MINUTE;

/** The sandbox's webhook signing secret, derived from SECRETS_KEY: stable across restarts and shared by instances. */
export const sandboxWebhookSecret = (secretsKey: Uint8Array) =>
  `whsec_sbx_${createHmac('sha256', secretsKey).update('payments-sandbox-webhook').digest('base64url').slice(0, 32)}`;

/** Stripe's signature scheme: HMAC-SHA256 of "<timestamp>.<payload>" with the endpoint's secret. */
export function stripeSignature(payload: string, secret: string, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${createHmac('sha256', secret).update(`${timestampSeconds}.${payload}`).digest('hex')}`;
}

export class SandboxWebhooks implements EventQueue {
  private send: ((request: Request) => Promise<Response>) | null = null;
  private readonly delivery: DurableQueue<SandboxWebhook, number>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly links: Links,
    private readonly webhookSecret: string,
    private readonly onError: (err: unknown) => void,
  ) {
    this.delivery = new DurableQueue<SandboxWebhook, number>(prisma, clock, {
      table: 'SandboxWebhook',
      dueColumn: 'nextAttemptAt',
      claimable: () => Prisma.sql`"deliveredAt" IS NULL AND "attempts" < ${MAX_ATTEMPTS}`,
      batch: DELIVERY_BATCH,
      leaseMs: DELIVERY_LEASE_MS,
      // Retries back off as Stripe's do: minutes at first, then up to hours.
      backoff: (attempt) => Math.min(2 ** (attempt - 1), 180) * MINUTE,
      // Handling one event may queue more (a late payment's refund): the run goes on until none is due.
      drain: true,
      ready: () => this.send !== null,
      delayMs: FLUSH_DELAY_MS,
      onError,
      work: (hook) => this.deliver(hook),
      done: async (finished, now) => {
        for (const { row, result } of finished) {
          await this.prisma.sandboxWebhook.update({ where: { id: row.id }, data: { deliveredAt: now, attempts: { increment: 1 }, lastStatus: result } });
        }
      },
      failed: async (row, err, retryAt) => {
        const status = err instanceof WebhookRefused ? err.status : 0;
        await this.prisma.sandboxWebhook.update({ where: { id: row.id }, data: { attempts: { increment: 1 }, lastStatus: status, nextAttemptAt: retryAt } });
      },
    });
  }

  /** Where webhooks go: the app's own fetch handler (so they pass its route and verification). */
  connect(send: (request: Request) => Promise<Response>): void {
    this.send = send;
    this.delivery.runSoon();
  }

  /** An event for the webhook endpoint, queued with the change it reports; `account` null: the platform's own. */
  async queue(tx: Tx, type: string, account: string | null, object: object, at: number) {
    const id = newId('evt_sbx_', 18);
    const event = {
      id,
      object: 'event',
      // The SDK is loaded at the first sandbox payment, not at start.
      api_version: (await import('stripe')).default.API_VERSION,
      created: seconds(at),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      ...(account ? { account } : {}),
      data: { object },
    };
    await tx.sandboxWebhook.create({ data: { id, type, payload: JSON.stringify(event), createdAt: new Date(at), nextAttemptAt: new Date(at) } });
    this.delivery.enqueued(tx);
  }

  /** Delivers what is due, including what was queued before this call; calls made meanwhile share one run. */
  flush(): Promise<void> {
    return this.delivery.run();
  }

  /** No more deliveries; waits for one under way. */
  stop(): Promise<void> {
    return this.delivery.stop();
  }

  /** Posts one event to the endpoint; anything but a 2xx answer is a failed attempt. */
  private async deliver(hook: SandboxWebhook): Promise<number> {
    let status = 0;
    try {
      const res = await this.send!(
        new Request(this.links.paymentWebhook(), {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'stripe-signature': stripeSignature(hook.payload, this.webhookSecret, seconds(this.clock.now())),
            'user-agent': 'Porchlight payment sandbox',
          },
          body: hook.payload,
        }),
      );
      status = res.status;
      await res.body?.cancel();
    } catch (err) {
      this.onError(err);
    }
    if (status < 200 || status >= 300) throw new WebhookRefused(status);
    return status;
  }
}

/** The endpoint did not take an event (status 0: it could not be reached). */
class WebhookRefused extends Error {
  constructor(readonly status: number) {
    super(`The webhook endpoint answered ${status}.`);
  }
}
