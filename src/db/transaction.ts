import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type Tx = Prisma.TransactionClient;

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
const pending = new WeakMap<Tx, AfterCommit[]>();

/**
 * Runs `write` in one transaction; what it registered with onCommit runs after the commit (and
 * is awaited before this returns), never when the transaction rolls back. Failures of that work
 * are reported, not thrown: the change itself is committed.
 */
export async function transaction<T>(
  prisma: PrismaClient,
  write: (tx: Tx) => Promise<T>,
  onError: (err: unknown) => void,
  options?: TransactionOptions,
): Promise<T> {
  const callbacks: AfterCommit[] = [];
  const result = await prisma.$transaction((tx) => {
    pending.set(tx, callbacks);
    return write(tx);
  }, options);
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
  return result;
}

/** Schedules `callback` for after `tx` commits; `tx` must come from transaction(). */
export function onCommit(tx: Tx, callback: AfterCommit): void {
  const callbacks = pending.get(tx);
  if (!callbacks) throw new Error('onCommit needs a transaction opened with services.transaction().');
  callbacks.push(callback);
}
