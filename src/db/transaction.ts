import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { isDeadlock } from './errors.js';

export type Tx = Prisma.TransactionClient;

/** Either kind of transaction (the ORM's, or plain SQL's): both take work to do after commit. */
export type AnyTx = Tx | SqlTx;

/**
 * How long a transaction may wait for a connection (maxWait) and run (timeout), in ms; Prisma's
 * defaults (2 s, 5 s) suit writes that never queue behind each other.
 */
export interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
}

type AfterCommit = () => void | Promise<void>;

/** Work to do once a transaction has committed (publish events, deliver mail, refresh memory). */
const pending = new WeakMap<AnyTx, AfterCommit[]>();

/** Starts collecting what `tx` registers with onCommit; `afterCommit` runs it. */
export function collectAfterCommit(tx: AnyTx): AfterCommit[] {
  const callbacks: AfterCommit[] = [];
  pending.set(tx, callbacks);
  return callbacks;
}

/** Runs what a transaction registered, once it committed; failures are reported, not thrown. */
export async function afterCommit(callbacks: AfterCommit[], onError: (err: unknown) => void): Promise<void> {
  const waits: Promise<void>[] = [];
  for (const callback of callbacks) {
    try {
      const done = callback();
      if (done) waits.push(done.catch(onError));
    } catch (err) {
      onError(err);
    }
  }
  if (waits.length) await Promise.all(waits);
}

/** Runs of one transaction while PostgreSQL keeps choosing it as a deadlock's victim. */
const DEADLOCK_RUNS = 3;

/**
 * Runs `attempt` again when PostgreSQL broke a deadlock by rolling it back: the victim's work is
 * undone whole, and run again it waits for the survivor instead of being waited for. So a write
 * acts only through its transaction (and onCommit): running it twice is the same as once. It
 * first lets the survivor go on for a moment (PostgreSQL took a second to find the deadlock):
 * run again at once, it can write back in the survivor's way before the survivor moved on.
 */
export async function againOnDeadlock<T>(attempt: () => Promise<T>): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (err) {
      if (run >= DEADLOCK_RUNS || !isDeadlock(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20 + Math.random() * 40));
    }
  }
}

/**
 * Runs `write` in one transaction (again if it was a deadlock's victim: againOnDeadlock); what it
 * registered with onCommit runs after the commit (and is awaited before this returns), never
 * when the transaction rolls back. Failures of that work are reported, not thrown: the change
 * itself is committed.
 */
export async function transaction<T>(
  prisma: PrismaClient,
  write: (tx: Tx) => Promise<T>,
  onError: (err: unknown) => void,
  options?: TransactionOptions,
): Promise<T> {
  let callbacks: AfterCommit[] = [];
  const result = await againOnDeadlock(() =>
    prisma.$transaction((tx) => {
      callbacks = collectAfterCommit(tx);
      return write(tx);
    }, options),
  );
  await afterCommit(callbacks, onError);
  return result;
}

/** Schedules `callback` for after `tx` commits; `tx` must come from services.transaction() or services.sql(). */
export function onCommit(tx: AnyTx, callback: AfterCommit): void {
  const callbacks = pending.get(tx);
  if (!callbacks) throw new Error('onCommit needs a transaction opened with services.transaction() or services.sql().');
  callbacks.push(callback);
}

/** A transaction on a plain connection; work registered with onCommit runs after it commits. */
export interface SqlTx {
  /**
   * `fixed`: the statement's text never varies (lists travel as array parameters), so it is
   * prepared whatever its parameter count. `last`: the transaction's last statement, with COMMIT
   * sent right behind it (db/sql.ts): a refusal must then fail the statement itself, since the
   * transaction commits whatever the code does with its rows.
   */
  query<R>(statement: Prisma.Sql, options?: { fixed?: boolean; last?: boolean }): Promise<R[]>;
}
