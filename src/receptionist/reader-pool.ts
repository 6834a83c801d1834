/**
 * The threads that read sources (read-worker.ts), so that a page or PDF built to keep a parser
 * busy for minutes costs one worker thread, never the server's main thread. Each task gets a
 * fresh worker (node:worker_threads) with a heap cap (resourceLimits) and a deadline; the worker
 * is terminated when the task ends, when the deadline passes, or when the caller's request is
 * abandoned (its AbortSignal). At most `threads` read at once and `queue` wait; past that the
 * caller is asked to retry. One worker is kept loaded ahead (the next one starts loading when a
 * task takes the last), so a task pays no start-up (loading the readers takes about a second)
 * and its deadline measures the reading alone.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../errors.js';

/** A page's bytes go as they came (decoded in the worker: a large page costs the main thread nothing). */
export type ReadTask = { kind: 'html'; bytes: Uint8Array; charset: string | null } | { kind: 'pdf' | 'image'; bytes: Uint8Array };

/** What a worker posts: that it is ready, then its one answer. */
export type ReadAnswer =
  | { ready: true }
  | { ok: true; text: string; title: string | null }
  | { ok: false; refused: string }
  | { ok: false; failed: string };

export interface ReaderLimits {
  /** How long one task may read, once its worker is ready. */
  deadlineMs: number;
  /** The worker's JavaScript heap (old generation), in MB. */
  memoryMb: number;
  /** Tasks read at once, and tasks that may wait for a thread. */
  threads: number;
  queue: number;
}

const WHAT: Record<ReadTask['kind'], string> = { html: 'page', pdf: 'PDF', image: 'image' };
/** A worker that has not loaded the readers by then is broken; the task fails rather than waits. */
const STARTUP_MS = 30_000;
/** A loaded worker waiting this long for a task is ended; the next task loads one again. */
const IDLE_MS = 60_000;

/**
 * How to start read-worker: the built .js beside this file, or, when this runs from TypeScript
 * source (tests, tsx), the .ts through tsx's loader, which a worker thread does not inherit.
 */
function workerSource(): { code: string | URL; eval: boolean } {
  const here = import.meta.url;
  if (!/\.ts$/.test(new URL(here).pathname)) return { code: new URL('./read-worker.js', here), eval: false };
  const entry = new URL('./read-worker.ts', here).href;
  const require = createRequire(here);
  const pkgPath = require.resolve('tsx/package.json');
  const api = JSON.parse(readFileSync(pkgPath, 'utf8')).exports['./esm/api'].import.default as string;
  const apiUrl = pathToFileURL(join(dirname(pkgPath), api)).href;
  return { code: `import(${JSON.stringify(apiUrl)}).then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`, eval: true };
}

interface Spawned {
  worker: Worker;
  /** Settles when the worker has loaded the readers, or failed to. */
  ready: Promise<void>;
  /** The worker's next message after ready, or its failure. */
  answer: Promise<ReadAnswer>;
  /** Why it ended, when it ended on its own (an error, running out of memory). */
  failure(): Error | undefined;
}

export class ReaderPool {
  private running = 0;
  /** Workers given a task and not yet stopped. */
  private live = 0;
  private readonly waiting: Array<() => void> = [];
  private warm: Spawned | undefined;
  private idle: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly source = workerSource();

  constructor(readonly limits: ReaderLimits) {}

  private spawn(): Spawned {
    const worker = new Worker(this.source.code, {
      eval: this.source.eval,
      resourceLimits: { maxOldGenerationSizeMb: this.limits.memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    // A waiting worker never keeps the process alive.
    worker.unref();
    let failure: Error | undefined;
    let onReady: () => void;
    let onAnswer: (a: ReadAnswer) => void;
    let onFailure: (e: Error) => void;
    const ready = new Promise<void>((resolve, reject) => ((onReady = resolve), (onFailure = reject)));
    let rejectAnswer: (e: Error) => void;
    const answer = new Promise<ReadAnswer>((resolve, reject) => ((onAnswer = resolve), (rejectAnswer = reject)));
    ready.catch(() => {});
    answer.catch(() => {});
    worker.on('message', (m: ReadAnswer) => ('ready' in m ? onReady() : onAnswer(m)));
    const fail = (err: Error) => {
      failure ??= err;
      onFailure(err);
      rejectAnswer(err);
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`reader worker exited (${code})`)));
    return { worker, ready, answer, failure: () => failure };
  }

  /** Keeps one loaded worker ready for the next task, for a while. */
  private keepWarm() {
    if (this.closed) return;
    if (!this.warm) {
      const spawned = this.spawn();
      this.warm = spawned;
      spawned.ready.catch(() => {
        if (this.warm === spawned) this.warm = undefined;
      });
    }
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      const w = this.warm;
      this.warm = undefined;
      void w?.worker.terminate();
    }, IDLE_MS);
    this.idle.unref();
  }

  /** A turn to read: now, after the tasks ahead, or a refusal when too many wait. */
  private async turn(signal?: AbortSignal): Promise<void> {
    if (this.running < this.limits.threads) {
      this.running++;
      return;
    }
    if (this.waiting.length >= this.limits.queue) {
      throw new AppError('rate_limited', 'Other sources are being read right now; try again in a minute.', { retry_after: 60 });
    }
    await new Promise<void>((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        this.waiting.splice(this.waiting.indexOf(go), 1);
        reject(cancelled());
      };
      this.waiting.push(go);
      signal?.addEventListener('abort', leave, { once: true });
    });
    // The finishing task handed its turn over: running stays the same.
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  /** Reads one source in a worker of its own; a refusal is a 400 saying which limit was met. */
  async read(task: ReadTask, signal?: AbortSignal): Promise<{ text: string; title: string | null }> {
    if (this.closed) throw new Error('the reader pool is closed');
    if (signal?.aborted) throw cancelled();
    await this.turn(signal);
    // The loaded worker, unless it has ended since (an idle worker is not watched).
    const warm = this.warm && !this.warm.failure() ? this.warm : undefined;
    this.warm = undefined;
    const spawned = warm ?? this.spawn();
    this.live++;
    // The next task's worker loads while this one reads.
    this.keepWarm();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const what = WHAT[task.kind];
    try {
      const stop = new Promise<never>((_, reject) => {
        onAbort = () => reject(cancelled());
        signal?.addEventListener('abort', onAbort, { once: true });
        timer = setTimeout(() => reject(new Error('startup')), STARTUP_MS);
      });
      stop.catch(() => {});
      try {
        await Promise.race([spawned.ready, stop]);
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new Error(`a reader worker did not start: ${err instanceof Error ? err.message : String(err)}`);
      }
      clearTimeout(timer);
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new AppError('invalid_input', `Reading the ${what} took longer than ${this.limits.deadlineMs / 1000} seconds, the most allowed; send a smaller or simpler ${what}, or copy its text into a note.`)),
          this.limits.deadlineMs,
        );
      });
      deadline.catch(() => {});
      spawned.worker.postMessage(task, [task.bytes.buffer as ArrayBuffer]);
      let answer: ReadAnswer;
      try {
        answer = await Promise.race([spawned.answer, deadline, stop]);
      } catch (err) {
        if (err instanceof AppError) throw err;
        const why = spawned.failure();
        if ((why as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          throw new AppError('invalid_input', `Reading the ${what} needed more than ${this.limits.memoryMb} MB of memory, the most allowed; send a smaller or simpler ${what}, or copy its text into a note.`);
        }
        throw new Error(`a reader worker failed: ${why?.message ?? String(err)}`);
      }
      if ('ready' in answer) throw new Error('a reader worker answered twice');
      if (answer.ok) return { text: answer.text, title: answer.title };
      if ('refused' in answer) throw new AppError('invalid_input', answer.refused);
      throw new Error(`reading a ${what} failed: ${answer.failed}`);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      void spawned.worker.terminate().finally(() => this.live--);
      this.release();
      this.keepWarm();
    }
  }

  /** Sources being read now: their workers, until each has stopped. */
  get reading(): number {
    return this.live;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idle);
    const w = this.warm;
    this.warm = undefined;
    await w?.worker.terminate();
  }
}

/** The caller went away (its request was abandoned); nobody reads this answer. */
const cancelled = () => new AppError('invalid_input', 'The request was cancelled before the source was read.');
