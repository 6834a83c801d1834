/**
 * Jobs of the Job table on the durable queue (./queue.ts): one-off jobs a change enqueues in its
 * own transaction, and recurring ones (the sweeps). A recurring job is one row that moves its
 * runAt on after each run, so however many instances run, one of them runs it per interval.
 */
import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { Tx } from '../db/transaction.js';
import type { Clock } from '../clock.js';
import { DurableQueue, failureText } from './queue.js';

interface JobRow {
  id: string;
  queue: string;
  payload: unknown;
  runAt: Date;
  attempts: number;
  maxAttempts: number;
  createdAt: Date;
}

interface Kind {
  /** What the job does, for the log line when it fails. */
  what: string;
  run: (payload: unknown) => Promise<unknown>;
  /** Recurring: runs again this long after it ran (or failed). */
  everyMs?: number;
  maxAttempts: number;
  backoff: (attempt: number) => number;
}

const BATCH = 20;
/** How long a worker holds a job: far longer than any job takes. */
const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 10;
/** A recurring job is never given up. */
const FOREVER = 2_147_483_647;
/** Half a minute after the first failure, doubling up to an hour. */
const defaultBackoff = (attempt: number) => Math.min(30_000 * 2 ** (attempt - 1), 3_600_000);
const recurringId = (name: string) => `every:${name}`;

export class Jobs {
  private readonly kinds = new Map<string, Kind>();
  private readonly queue: DurableQueue<JobRow>;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: Clock,
    /** Reports a failure (a job's, or a run's) under what was being done. */
    private readonly report: (what: string) => (err: unknown) => void,
  ) {
    this.queue = new DurableQueue<JobRow>(prisma, clock, {
      table: 'Job',
      dueColumn: 'runAt',
      // Only kinds this process knows: an instance without the payment sandbox leaves its sweep alone.
      claimable: () =>
        this.kinds.size ? Prisma.sql`"queue" IN (${Prisma.join([...this.kinds.keys()])}) AND "attempts" < "maxAttempts"` : Prisma.sql`FALSE`,
      batch: BATCH,
      leaseMs: LEASE_MS,
      // A recurring job tries again at its next turn; a one-off one after its kind's backoff.
      backoff: (attempt, row) => this.kind(row.queue).backoff(attempt),
      onError: report('running background jobs failed'),
      work: async (row) => void (await this.kind(row.queue).run(typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload)),
      done: async (finished, now) => {
        const once = finished.filter((f) => this.kind(f.row.queue).everyMs === undefined).map((f) => f.row.id);
        if (once.length) await this.prisma.job.deleteMany({ where: { id: { in: once } } });
        for (const { row } of finished) {
          const every = this.kind(row.queue).everyMs;
          if (every !== undefined) await this.prisma.job.update({ where: { id: row.id }, data: { runAt: new Date(now.getTime() + every), attempts: 0, lastError: null } });
        }
      },
      failed: async (row, err, retryAt) => {
        this.report(this.kind(row.queue).what)(err);
        await this.prisma.job.update({ where: { id: row.id }, data: { attempts: { increment: 1 }, runAt: retryAt, lastError: failureText(err, 'the job failed') } });
      },
    });
  }

  private kind(name: string): Kind {
    const kind = this.kinds.get(name);
    if (!kind) throw new Error(`No job kind ${name} is defined.`);
    return kind;
  }

  /** A kind of one-off job: `run` gets the payload it was enqueued with; a throw retries it later. */
  define<P>(name: string, what: string, run: (payload: P) => Promise<unknown>, options: { maxAttempts?: number; backoff?: (attempt: number) => number } = {}): void {
    this.kinds.set(name, { what, run: run as Kind['run'], maxAttempts: options.maxAttempts ?? MAX_ATTEMPTS, backoff: options.backoff ?? defaultBackoff });
  }

  /** A recurring job, run every `everyMs` by one of the instances. */
  every(name: string, what: string, everyMs: number, run: () => Promise<unknown>): void {
    this.kinds.set(name, { what, run, everyMs, maxAttempts: FOREVER, backoff: () => everyMs });
  }

  /** Enqueues a job in the caller's transaction: it runs once that commits, and never if it rolls back. */
  async enqueue(tx: Tx, name: string, payload: Prisma.InputJsonObject = {}, options: { delayMs?: number } = {}): Promise<void> {
    const kind = this.kind(name);
    const now = this.clock.now();
    await tx.job.create({
      data: { id: randomUUID(), queue: name, payload, runAt: new Date(now + (options.delayMs ?? 0)), maxAttempts: kind.maxAttempts, createdAt: new Date(now) },
    });
    this.queue.enqueued(tx);
  }

  /**
   * Makes sure each recurring job has its row; a new row is due at once. Another instance's row
   * (and its schedule) is kept.
   */
  async schedule(): Promise<void> {
    const now = this.clock.date();
    const recurring = [...this.kinds].filter(([, k]) => k.everyMs !== undefined);
    if (!recurring.length) return;
    await this.prisma.job.createMany({
      data: recurring.map(([name]) => ({ id: recurringId(name), queue: name, runAt: now, maxAttempts: FOREVER, createdAt: now })),
      skipDuplicates: true,
    });
  }

  /**
   * Runs every recurring job at once, whoever ran it last and without claiming it (start-up:
   * what fell due while no instance ran is done before the first request, as every start did).
   */
  async runRecurringNow(): Promise<void> {
    await Promise.all([...this.kinds.values()].filter((k) => k.everyMs !== undefined).map((k) => k.run(undefined).catch(this.report(k.what))));
  }

  /** Runs what is due now; calls made meanwhile share one run. */
  run(): Promise<void> {
    return this.queue.run();
  }

  start(pollMs: number): void {
    this.queue.start(pollMs);
  }

  /** No more runs; waits for one under way. */
  stop(): Promise<void> {
    return this.queue.stop();
  }
}
