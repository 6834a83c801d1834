import { randomUUID } from 'node:crypto';
import type { OutboxMessage, PrismaClient } from '../generated/prisma/client.js';
import { onCommit, type AnyTx, type Tx } from '../db/transaction.js';
import type { Clock } from '../clock.js';
import type { MailTransport, OutgoingMail } from './transport.js';
import type { SmsProvider } from '../sms/contract.js';
import { segments } from '../sms/segments.js';

export interface QueuedMail extends OutgoingMail {
  channel?: 'email' | 'sms';
  bookingId?: string;
}

export interface OutboxRow {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  html: string | null;
  bookingId: string | null;
  createdAt: Date;
}

const FLUSH_DELAY_MS = 50;
const BATCH = 100;
const MAX_ATTEMPTS = 10;
/** How long a delivery run holds its rows: far longer than sending a batch takes. */
const CLAIM_MS = 5 * 60_000;
/** A failed delivery waits this long times its attempts before the next. */
const RETRY_MS = 30_000;

/**
 * Transactional outbox: a change and the mail it causes are committed together; delivery
 * happens after commit and is retried until the transport accepts it.
 */
export class Outbox {
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly transport: MailTransport,
    /** Rows of channel sms leave through this provider (Twilio when configured, else the sandbox). */
    private readonly sms: SmsProvider,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  get transportName() {
    return this.transport.name;
  }

  get smsProvider(): SmsProvider {
    return this.sms;
  }

  /** Queue inside the caller's transaction; delivery starts once it commits. */
  async enqueue(tx: Tx, mail: QueuedMail): Promise<void> {
    await tx.outboxMessage.createMany({ data: this.rows(mail) });
    this.queued(tx);
  }

  /** The rows a message is queued as, for a hot path that inserts them in its own SQL statement. */
  rows(mail: QueuedMail): OutboxRow[] {
    const channel = mail.channel ?? 'email';
    const createdAt = this.clock.date();
    // Texts are queued one segment per row: each is one message on the phone.
    const texts = channel === 'sms' ? segments(mail.text) : [mail.text];
    // Rows leave in (createdAt, id) order: one message's segments share a prefix and keep theirs.
    const id = randomUUID();
    return texts.map((text, i) => ({ id: `${id}-${String(i).padStart(2, '0')}`, channel, to: mail.to, subject: mail.subject, text, html: mail.html ?? null, bookingId: mail.bookingId ?? null, createdAt }));
  }

  /** Delivers what `tx` queued once it commits (enqueue does this itself). */
  queued(tx: AnyTx): void {
    onCommit(tx, () => this.flushSoon());
  }

  /**
   * Delivery shortly after a commit, off the request that made it: one run picks up what a
   * burst of requests queued.
   */
  private soon: NodeJS.Timeout | null = null;
  private flushSoon(): void {
    this.soon ??= setTimeout(() => {
      this.soon = null;
      void this.flush().catch(this.onError);
    }, FLUSH_DELAY_MS);
  }

  /** Deliver whatever is pending, including what was queued before this call; calls made meanwhile share one run. */
  flush(): Promise<void> {
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    // A run under way may have read the pending rows before the latest commit: run once more after it.
    this.next ??= (this.flushing ?? Promise.resolve()).catch(() => {}).then(() => {
      this.next = null;
      return (this.flushing = this.deliver().finally(() => {
        this.flushing = null;
      }));
    });
    return this.next;
  }
  private next: Promise<void> | null = null;

  /** Retry failed deliveries periodically (SMTP servers go away for a while). */
  start(intervalMs = 30_000) {
    this.timer = setInterval(() => void this.flush().catch(this.onError), intervalMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
  }

  /**
   * Claims a batch of pending rows (rows another instance holds are skipped, so two instances
   * never send one message twice), sends them in order, and marks the sent ones in one statement.
   */
  private async deliver() {
    // A full batch sent may mean more are waiting (a backlog after an outage).
    while ((await this.deliverBatch()) === BATCH);
  }

  private async deliverBatch(): Promise<number> {
    const now = this.clock.date();
    const pending = await this.prisma.$queryRaw<OutboxMessage[]>`
      UPDATE "OutboxMessage" SET "claimedUntil" = ${new Date(now.getTime() + CLAIM_MS)}
      WHERE "id" IN (
        SELECT "id" FROM "OutboxMessage"
        WHERE "sentAt" IS NULL AND "attempts" < ${MAX_ATTEMPTS} AND ("claimedUntil" IS NULL OR "claimedUntil" < ${now})
        ORDER BY "createdAt", "id" LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED)
      RETURNING *`;
    pending.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const sent: string[] = [];
    for (const row of pending) {
      try {
        if (row.channel === 'sms') await this.sms.send({ to: row.to, text: row.text });
        else await this.transport.send(row);
        sent.push(row.id);
      } catch (err) {
        this.onError(err);
        // Not again before a pause that grows with each attempt, however often deliveries run.
        await this.prisma.outboxMessage.update({
          where: { id: row.id },
          data: {
            attempts: { increment: 1 },
            claimedUntil: new Date(now.getTime() + RETRY_MS * (row.attempts + 1)),
            lastError: err instanceof Error ? err.message.slice(0, 500) : 'delivery failed',
          },
        });
      }
    }
    if (sent.length) {
      await this.prisma.outboxMessage.updateMany({
        where: { id: { in: sent } },
        data: { sentAt: this.clock.date(), attempts: { increment: 1 }, claimedUntil: null },
      });
    }
    return sent.length;
  }
}
