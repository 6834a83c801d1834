/**
 * The one durable primitive for background work. Work items are rows of a table, written in the
 * transaction of the change that causes them; a run starts once that transaction commits (and
 * on a timer, for retries and for what another instance or a previous start left). A run claims
 * a batch with FOR UPDATE SKIP LOCKED and holds it for a lease, so two workers, in one process or
 * in several, never take the same row; a failed item waits a backoff that grows with its
 * attempts, and an item whose lease ran out (its worker died) is taken over.
 *
 * Our own rather than pg-boss: pg-boss keeps its own pool and polls over connections of its
 * own, while the embedded PGlite serves one connection at a time (STACK.md), so a job enqueued
 * inside a request's transaction cannot be written by pg-boss without a second connection; it
 * schedules by the database's clock, not the service clock that NOW= sets and tests move; and it
 * creates its own schema outside prisma/migrations.
 *
 * The outbox (OutboxMessage), the payment sandbox's webhooks (SandboxWebhook) and the Job table
 * (src/jobs/jobs.ts: the sweeps) are such tables. Each row has `id`, `createdAt` and
 * `attempts`, plus a column saying when it may next be claimed (the lease end after a claim, the
 * backoff end after a failure).
 */
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import { onCommit, type AnyTx } from '../db/transaction.js';
import type { Clock } from '../clock.js';

export interface QueuedRow {
  id: string;
  createdAt: Date;
  attempts: number;
}

export interface Finished<Row, R> {
  row: Row;
  result: R;
}

export interface QueueOptions<Row extends QueuedRow, R> {
  /** The table holding one row per item (a Prisma model name). */
  table: string;
  /** Its column saying when a row may next be claimed; null or past: now. */
  dueColumn: string;
  /** Which rows are still to do and may be tried again, e.g. not sent and under the attempt limit. */
  claimable: () => Prisma.Sql;
  batch: number;
  /** How long a claim holds its rows: far longer than working through a batch takes. */
  leaseMs: number;
  /** The pause after the nth failed attempt (1 after the first) of a row before its next. */
  backoff: (attempt: number, row: Row) => number;
  /** Rows are worked through one at a time, in (createdAt, id) order; a throw is a failed attempt. */
  work: (row: Row) => Promise<R>;
  /** Records the rows worked through (in one statement where it can). */
  done: (finished: Finished<Row, R>[], now: Date) => Promise<void>;
  /** Records a failed attempt (and reports it, if it should be) and when to try again. */
  failed: (row: Row, err: unknown, retryAt: Date) => Promise<void>;
  /**
   * Keep claiming while a batch had any success (working one item may queue more, which the run
   * then delivers before it returns); otherwise only while batches come back full.
   */
  drain?: boolean;
  /** A run claims nothing until this holds (a worker waiting for its endpoint). */
  ready?: () => boolean;
  /** How soon after a commit the run starts: one run picks up what a burst of commits queued. */
  delayMs?: number;
  /** A run that could not claim or record (the database is away); the items wait for the next run. */
  onError?: (err: unknown) => void;
}

export class DurableQueue<Row extends QueuedRow, R = void> {
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  private soon: NodeJS.Timeout | null = null;
  private timer: NodeJS.Timeout | null = null;
  private halted = false;
  private readonly table: Prisma.Sql;
  private readonly due: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    private readonly options: QueueOptions<Row, R>,
  ) {
    this.table = Prisma.raw(`"${options.table}"`);
    this.due = Prisma.raw(`"${options.dueColumn}"`);
  }

  /** What `tx` wrote to the table is worked on once it commits; nothing if it rolls back. */
  enqueued(tx: AnyTx): void {
    onCommit(tx, () => this.runSoon());
  }

  runSoon(): void {
    if (this.halted) return;
    this.soon ??= setTimeout(() => {
      this.soon = null;
      void this.run().catch(this.options.onError ?? (() => {}));
    }, this.options.delayMs ?? 50);
    this.soon.unref?.();
  }

  /** Works through what is due, including what was queued before this call; calls made meanwhile share one run. */
  run(): Promise<void> {
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    // A run under way may have claimed before the latest commit: run once more after it.
    this.next ??= (this.running ?? Promise.resolve()).catch(() => {}).then(() => {
      this.next = null;
      return (this.running = this.drainDue().finally(() => {
        this.running = null;
      }));
    });
    return this.next;
  }

  /** Runs every `intervalMs` too: retries fall due, and other instances' leases run out. */
  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.run().catch(this.options.onError ?? (() => {})), intervalMs);
    this.timer.unref();
  }

  /** Stops the timers; runs asked for still happen. */
  stopTimers(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
  }

  /** No more runs; waits for one under way, which gives back what it claimed and has not started. */
  async stop(): Promise<void> {
    this.halted = true;
    this.stopTimers();
    await this.running?.catch(() => {});
  }

  private async drainDue(): Promise<void> {
    const { batch, drain, ready } = this.options;
    while (!this.halted && (!ready || ready())) {
      const { claimed, succeeded } = await this.runBatch();
      if (claimed === 0) return;
      if (drain ? succeeded === 0 : claimed < batch) return;
    }
  }

  /** Claims rows due now (skipping those another worker holds), works through them in order. */
  private async runBatch(): Promise<{ claimed: number; succeeded: number }> {
    const { batch, leaseMs, claimable, work, done, failed, backoff } = this.options;
    const now = this.clock.date();
    const rows = await this.prisma.$queryRaw<Row[]>`
      UPDATE ${this.table} SET ${this.due} = ${new Date(now.getTime() + leaseMs)}
      WHERE "id" IN (
        SELECT "id" FROM ${this.table}
        WHERE ${claimable()} AND (${this.due} IS NULL OR ${this.due} <= ${now})
        ORDER BY "createdAt", "id" LIMIT ${batch}
        FOR UPDATE SKIP LOCKED)
      RETURNING *`;
    rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const finished: Finished<Row, R>[] = [];
    for (const [i, row] of rows.entries()) {
      if (this.halted) {
        // Stopping: what this run has not started is free for the next worker at once.
        const left = rows.slice(i).map((r) => r.id);
        await this.prisma.$executeRaw`UPDATE ${this.table} SET ${this.due} = ${now} WHERE "id" IN (${Prisma.join(left)})`;
        break;
      }
      try {
        finished.push({ row, result: await work(row) });
      } catch (err) {
        // Not again before a pause that grows with each attempt, however often runs happen.
        await failed(row, err, new Date(this.clock.now() + backoff(row.attempts + 1, row)));
      }
    }
    if (finished.length) await done(finished, this.clock.date());
    return { claimed: rows.length, succeeded: finished.length };
  }
}

/** A failure's message as kept on the row (bounded). */
export const failureText = (err: unknown, fallback: string) => (err instanceof Error ? err.message.slice(0, 500) : fallback);
