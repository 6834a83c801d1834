import type { PrismaClient } from '../generated/prisma/client.js';
import { onCommit, type Tx } from '../db/transaction.js';
import type { Clock } from '../clock.js';
import type { MailTransport, OutgoingMail } from './transport.js';
import type { SmsProvider } from '../sms/provider.js';
import { segments } from '../sms/segments.js';

export interface QueuedMail extends OutgoingMail {
  channel?: 'email' | 'sms';
  bookingId?: string;
}

const FLUSH_DELAY_MS = 50;

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
    const channel = mail.channel ?? 'email';
    const createdAt = this.clock.date();
    // Texts are queued one segment per row: each is one message on the phone.
    const texts = channel === 'sms' ? segments(mail.text) : [mail.text];
    await tx.outboxMessage.createMany({
      data: texts.map((text) => ({ channel, to: mail.to, subject: mail.subject, text, html: mail.html ?? null, bookingId: mail.bookingId ?? null, createdAt })),
    });
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

  private async deliver() {
    const pending = await this.prisma.outboxMessage.findMany({
      where: { sentAt: null, attempts: { lt: 10 } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: 100,
    });
    for (const row of pending) {
      try {
        if (row.channel === 'sms') await this.sms.send({ to: row.to, text: row.text });
        else await this.transport.send(row);
        await this.prisma.outboxMessage.update({ where: { id: row.id }, data: { sentAt: this.clock.date(), attempts: { increment: 1 } } });
      } catch (err) {
        this.onError(err);
        await this.prisma.outboxMessage.update({
          where: { id: row.id },
          data: { attempts: { increment: 1 }, lastError: err instanceof Error ? err.message.slice(0, 500) : 'delivery failed' },
        });
      }
    }
  }
}
