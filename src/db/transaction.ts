import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type Tx = Prisma.TransactionClient;

/**
 * A transaction on a plain connection, for the few hot writes where the ORM's per-statement cost
 * dominates (measured: a customer's booking). Statements are Prisma.sql templates, so fragments
 * compose and values are always parameters.
 */
export interface SqlTx {
  query<R>(statement: Prisma.Sql): Promise<R[]>;
}

/** Either kind of transaction: both take work to do after commit. */
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

/** Runs what `tx` registered, once it committed; failures are reported, not thrown. */
async function afterCommit(callbacks: AfterCommit[], onError: (err: unknown) => void): Promise<void> {
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
  await afterCommit(callbacks, onError);
  return result;
}

/**
 * The same on a plain connection of `pool`. With `prepared`, each statement text is prepared
 * once per connection (named by its digest, so the names are as few as the texts).
 */
export async function sqlTransaction<T>(
  pool: pg.Pool,
  prepared: boolean,
  write: (tx: SqlTx) => Promise<T>,
  onError: (err: unknown) => void,
): Promise<T> {
  const client = await pool.connect();
  const callbacks: AfterCommit[] = [];
  const tx: SqlTx = {
    async query<R>(statement: Prisma.Sql) {
      const name = prepared ? `p${createHash('sha1').update(statement.text).digest('hex').slice(0, 20)}` : undefined;
      return (await client.query({ name, text: statement.text, values: statement.values })).rows as R[];
    },
  };
  pending.set(tx, callbacks);
  let result: T;
  try {
    await client.query('BEGIN');
    result = await write(tx);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    client.release();
    throw err;
  }
  client.release();
  await afterCommit(callbacks, onError);
  return result;
}

/** Schedules `callback` for after `tx` commits; `tx` must come from transaction() or sqlTransaction(). */
export function onCommit(tx: AnyTx, callback: AfterCommit): void {
  const callbacks = pending.get(tx);
  if (!callbacks) throw new Error('onCommit needs a transaction opened with services.transaction() or services.sql().');
  callbacks.push(callback);
}
