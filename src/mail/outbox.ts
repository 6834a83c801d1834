import { randomUUID } from 'node:crypto';
import { Prisma, type OutboxMessage, type PrismaClient } from '../generated/prisma/client.js';
import type { AnyTx, Tx } from '../db/transaction.js';
import type { Clock } from '../clock.js';
import { DurableQueue, failureText } from '../jobs/queue.js';
import { attachmentsOf, type MailAttachment, type MailTransport, type OutgoingMail } from './transport.js';
import type { SmsProvider } from '../sms/contract.js';
import { segments } from '../sms/segments.js';
import { businessTextNumber } from '../sms/sender.js';

export interface QueuedMail extends OutgoingMail {
  channel?: 'email' | 'sms';
  bookingId?: string;
  /** A text's business: it leaves from the business's own number when it texts from one (enqueue looks it up). */
  businessId?: string;
  /** A text's sender when already known (E.164); null: the platform's number. */
  from?: string | null;
}

export interface OutboxRow {
  id: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  html: string | null;
  bookingId: string | null;
  fromNumber: string | null;
  attachments: MailAttachment[] | null;
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
 * happens after commit and is retried until the transport accepts it (on the durable queue,
 * src/jobs/queue.ts: two instances never send one message twice).
 */
export class Outbox {
  private readonly queue: DurableQueue<OutboxMessage>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly transport: MailTransport,
    /** Rows of channel sms leave through this provider (Twilio when configured, else the sandbox). */
    private readonly sms: SmsProvider,
    private readonly clock: Clock,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.queue = new DurableQueue<OutboxMessage>(prisma, clock, {
      table: 'OutboxMessage',
      dueColumn: 'claimedUntil',
      claimable: () => Prisma.sql`"sentAt" IS NULL AND "attempts" < ${MAX_ATTEMPTS}`,
      batch: BATCH,
      leaseMs: CLAIM_MS,
      backoff: (attempt) => RETRY_MS * attempt,
      delayMs: FLUSH_DELAY_MS,
      onError,
      work: async (row) => {
        if (row.channel === 'sms') await this.sms.send({ to: row.to, text: row.text, ...(row.fromNumber ? { from: row.fromNumber } : {}) });
        else await this.transport.send({ ...row, attachments: attachmentsOf(row.attachments) });
      },
      // The sent ones are marked in one statement.
      done: async (finished, now) => {
        await this.prisma.outboxMessage.updateMany({
          where: { id: { in: finished.map((f) => f.row.id) } },
          data: { sentAt: now, attempts: { increment: 1 }, claimedUntil: null },
        });
      },
      failed: async (row, err, retryAt) => {
        this.onError(err);
        await this.prisma.outboxMessage.update({
          where: { id: row.id },
          data: { attempts: { increment: 1 }, claimedUntil: retryAt, lastError: failureText(err, 'delivery failed') },
        });
      },
    });
  }

  get transportName() {
    return this.transport.name;
  }

  get smsProvider(): SmsProvider {
    return this.sms;
  }

  /** Queue inside the caller's transaction; delivery starts once it commits. */
  async enqueue(tx: Tx, mail: QueuedMail): Promise<void> {
    if (mail.channel === 'sms' && mail.from === undefined && mail.businessId) mail = { ...mail, from: await businessTextNumber(tx, mail.businessId) };
    const rows = this.rows(mail);
    // One plain statement (as the booking's own insert, bookings/book.ts): the ORM's createMany of a
    // row with a JSON column costs several times more, and hot paths queue many messages.
    await tx.$executeRaw`
      INSERT INTO "OutboxMessage" ("id", "channel", "to", "subject", "text", "html", "bookingId", "fromNumber", "attachments", "createdAt")
      SELECT m.id, m.channel, m."to", m.subject, m.text, m.html, m."bookingId", m."fromNumber", m.attachments::jsonb, m."createdAt"
      FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.channel)}::text[], ${rows.map((r) => r.to)}::text[],
        ${rows.map((r) => r.subject)}::text[], ${rows.map((r) => r.text)}::text[], ${rows.map((r) => r.html)}::text[],
        ${rows.map((r) => r.bookingId)}::text[], ${rows.map((r) => r.fromNumber)}::text[], ${rows.map((r) => (r.attachments ? JSON.stringify(r.attachments) : null))}::text[],
        ${rows.map((r) => r.createdAt)}::timestamptz[]) AS m(id, channel, "to", subject, text, html, "bookingId", "fromNumber", attachments, "createdAt")`;
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
    // A text message carries no files.
    const attachments = channel === 'email' && mail.attachments?.length ? mail.attachments : null;
    return texts.map((text, i) => ({
      id: `${id}-${String(i).padStart(2, '0')}`, channel, to: mail.to, subject: mail.subject, text, html: mail.html ?? null, bookingId: mail.bookingId ?? null,
      fromNumber: channel === 'sms' ? (mail.from ?? null) : null, attachments, createdAt,
    }));
  }

  /** Delivers what `tx` queued once it commits (enqueue does this itself). */
  queued(tx: AnyTx): void {
    this.queue.enqueued(tx);
  }

  /** Deliver whatever is pending, including what was queued before this call; calls made meanwhile share one run. */
  flush(): Promise<void> {
    return this.queue.run();
  }

  /** Retry failed deliveries periodically (SMTP servers go away for a while). */
  start(intervalMs = 30_000) {
    this.queue.start(intervalMs);
  }

  stop() {
    this.queue.stopTimers();
  }
}
