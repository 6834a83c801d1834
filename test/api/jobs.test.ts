/**
 * The durable job primitive (src/jobs): run after commit only, retried with backoff, kept across
 * a restart and taken over from a worker that died, and never run twice by two workers (claims
 * use FOR UPDATE SKIP LOCKED; that race is only proven on PostgreSQL: PGlite serializes).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, TEST_NOW, type TestApp } from '../helpers/harness.js';
import { Jobs } from '../../src/jobs/jobs.js';
import type { Clock } from '../../src/clock.js';

/** A clock the test moves by hand. */
function handClock(start = Date.parse(TEST_NOW)) {
  const clock = { at: start, now: () => clock.at, date: () => new Date(clock.at) };
  return clock as typeof clock & Clock;
}

describe('durable jobs', () => {
  let app: TestApp;
  const failures: string[] = [];
  const report = (what: string) => () => void failures.push(what);
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.close());

  const rows = (queue: string) => app.services.prisma.job.findMany({ where: { queue } });

  it('runs a job once its transaction commits, and never one whose transaction rolled back', async () => {
    const jobs = new Jobs(app.services.prisma, handClock(), report);
    const ran: string[] = [];
    jobs.define<{ name: string }>('test-commit', 'recording', async ({ name }) => void ran.push(name));
    await expect(
      app.services.transaction(async (tx) => {
        await jobs.enqueue(tx, 'test-commit', { name: 'rolled back' });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await rows('test-commit')).toEqual([]);

    await app.services.transaction((tx) => jobs.enqueue(tx, 'test-commit', { name: 'committed' }));
    // Started by the commit itself, with no run asked for.
    await vi.waitFor(() => expect(ran).toEqual(['committed']), { timeout: 10_000 });
    await jobs.run();
    expect(ran).toEqual(['committed']);
    await vi.waitFor(async () => expect(await rows('test-commit')).toEqual([]));
    await jobs.stop();
  });

  it('retries a failed job after a backoff that grows, not on every run meanwhile', async () => {
    const clock = handClock();
    let calls = 0;
    const worker = () => {
      const jobs = new Jobs(app.services.prisma, clock, report);
      jobs.define('test-retry', 'a flaky job', async () => {
        calls++;
        if (calls <= 2) throw new Error(`failure ${calls}`);
      }, { backoff: (attempt) => attempt * 60_000 });
      return jobs;
    };
    // Enqueued through a stopped worker, so that the test runs it by hand.
    const enqueuer = worker();
    await enqueuer.stop();
    await app.services.transaction((tx) => enqueuer.enqueue(tx, 'test-retry'));
    const fresh = worker();

    await fresh.run();
    expect(calls).toBe(1);
    expect(await rows('test-retry')).toMatchObject([{ attempts: 1, lastError: 'failure 1', runAt: new Date(clock.at + 60_000) }]);
    expect(failures).toContain('a flaky job');
    await fresh.run();
    expect(calls).toBe(1);

    clock.at += 60_000;
    await fresh.run();
    expect(calls).toBe(2);
    // The second failure waits twice as long.
    expect(await rows('test-retry')).toMatchObject([{ attempts: 2, lastError: 'failure 2', runAt: new Date(clock.at + 120_000) }]);
    clock.at += 60_000;
    await fresh.run();
    expect(calls).toBe(2);
    clock.at += 60_000;
    await fresh.run();
    expect(calls).toBe(3);
    expect(await rows('test-retry')).toEqual([]);
    await fresh.stop();
  });

  it('keeps a job that keeps failing, for a person to look at, once its attempts are spent', async () => {
    const clock = handClock();
    let calls = 0;
    const worker = () => {
      const jobs = new Jobs(app.services.prisma, clock, report);
      jobs.define('test-spent', 'a broken job', async () => {
        calls++;
        throw new Error('always');
      }, { maxAttempts: 2, backoff: () => 1_000 });
      return jobs;
    };
    const enqueuer = worker();
    await enqueuer.stop();
    await app.services.transaction((tx) => enqueuer.enqueue(tx, 'test-spent'));
    const active = worker();
    for (let i = 0; i < 4; i++) {
      await active.run();
      clock.at += 1_000;
    }
    expect(calls).toBe(2);
    expect(await rows('test-spent')).toMatchObject([{ attempts: 2, lastError: 'always' }]);
    await active.stop();
  });

  it('runs after a restart what was committed before it, and takes over a job whose worker died', async () => {
    const clock = handClock();
    const ran: string[] = [];
    const before = new Jobs(app.services.prisma, clock, report);
    before.define<{ name: string }>('test-restart', 'recording', async ({ name }) => void ran.push(name));
    // Stopped before its after-commit run could start: as if the process ended right after the commit.
    await before.stop();
    await app.services.transaction((tx) => before.enqueue(tx, 'test-restart', { name: 'queued before the restart' }));
    expect(await rows('test-restart')).toHaveLength(1);

    // A worker that claims a job and never finishes it (its process died mid-job).
    let claimed!: () => void;
    const claimedNow = new Promise<void>((resolve) => (claimed = resolve));
    const dying = new Jobs(app.services.prisma, clock, report);
    dying.define('test-restart', 'hangs', () => {
      claimed();
      return new Promise(() => {});
    });
    void dying.run();
    await claimedNow;

    const after = new Jobs(app.services.prisma, clock, report);
    after.define<{ name: string }>('test-restart', 'recording', async ({ name }) => void ran.push(name));
    await after.run();
    expect(ran).toEqual([]);
    // Its lease (five minutes) runs out: the next start's worker takes the job over.
    clock.at += 5 * 60_000 + 1;
    await after.run();
    expect(ran).toEqual(['queued before the restart']);
    expect(await rows('test-restart')).toEqual([]);
    await after.stop();
  });

  it('runs a recurring job once per turn however many workers there are', async () => {
    const clock = handClock();
    let runs = 0;
    const workers = [0, 1, 2].map(() => {
      const jobs = new Jobs(app.services.prisma, clock, report);
      jobs.every('test-sweep', 'sweeping', 60_000, async () => void runs++);
      return jobs;
    });
    for (const w of workers) await w.schedule();
    await Promise.all(workers.map((w) => w.run()));
    expect(runs).toBe(1);
    await Promise.all(workers.map((w) => w.run()));
    expect(runs).toBe(1);
    clock.at += 60_000;
    await Promise.all(workers.map((w) => w.run()));
    expect(runs).toBe(2);
    expect(await rows('test-sweep')).toMatchObject([{ attempts: 0, runAt: new Date(clock.at + 60_000) }]);
    await Promise.all(workers.map((w) => w.stop()));
  });

  it('never runs one job twice when two workers claim at the same time', async () => {
    const clock = handClock();
    const ran: string[] = [];
    const worker = () => {
      const jobs = new Jobs(app.services.prisma, clock, report);
      jobs.define<{ n: number }>('test-race', 'racing', async ({ n }) => {
        // A job takes a moment: long enough for the other worker's claim to overlap.
        await new Promise((r) => setTimeout(r, 2));
        ran.push(String(n));
      });
      return jobs;
    };
    const [a, b] = [worker(), worker()];
    await a.stop();
    await app.services.transaction(async (tx) => {
      for (let n = 0; n < 60; n++) await a.enqueue(tx, 'test-race', { n });
    });
    const [c, d] = [worker(), b];
    await Promise.all([c.run(), d.run(), c.run(), d.run()]);
    expect(ran).toHaveLength(60);
    expect(new Set(ran).size).toBe(60);
    expect(await rows('test-race')).toEqual([]);
    await Promise.all([c.stop(), d.stop()]);
  });
});
