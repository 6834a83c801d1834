/**
 * Plain SQL on the connections Prisma uses, for the few hot paths where the ORM's per-statement
 * cost dominates (measured: ~250-500 µs of CPU a statement through Prisma, ~80 µs through
 * node-postgres): a customer's booking, the call brief, checking a bearer credential, the search
 * snapshot's loads. Statements are Prisma.sql templates, so fragments compose and values are
 * always parameters; on a real PostgreSQL they are prepared once per connection.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';
import { afterCommit, againOnDeadlock, collectAfterCommit } from './transaction.js';
import type { SqlTx } from './transaction.js';

/** One statement outside a transaction, as services offer it (`services.query`). */
export type SqlQuery = <R>(statement: Prisma.Sql, options?: { fixed?: boolean }) => Promise<R[]>;

/** Statements with more parameters than this (long IN lists, whose shapes are many) are not prepared. */
const PREPARED_MAX_PARAMETERS = 32;
const names = new Map<string, string>();

/**
 * The name a statement is prepared under on each connection, from its text's digest (so names are
 * as few as the texts, and never clash); undefined for statements not worth keeping prepared.
 * PostgreSQL then parses and plans a hot statement once per connection instead of every call.
 */
export function statementName(text: string, parameters: number): string | undefined {
  if (parameters > PREPARED_MAX_PARAMETERS) return undefined;
  let name = names.get(text);
  if (name === undefined) {
    name = `p${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    // Texts are bounded by the code's query shapes; the cap only guards against a surprise.
    if (names.size < 10_000) names.set(text, name);
  }
  return name;
}

const run = (client: pg.Pool | pg.PoolClient, prepared: boolean, statement: Prisma.Sql, fixed = false) =>
  client.query({ name: prepared ? statementName(statement.text, fixed ? 0 : statement.values.length) : undefined, text: statement.text, values: statement.values });

/** One statement outside a transaction (a hot read). */
export async function sqlQuery<R>(pool: pg.Pool, prepared: boolean, statement: Prisma.Sql, options?: { fixed?: boolean }): Promise<R[]> {
  return (await run(pool, prepared, statement, options?.fixed)).rows as R[];
}

/** A part's rows as JSON carries them: timestamps as ISO strings, int8 as numbers. */
export type JsonRows = Record<string, unknown>[];

/**
 * Several reads of one page as one statement, each part's rows returned as one JSON array: a
 * round trip, a prepared plan and one row to parse instead of one of each per part (on a busy
 * machine each statement's write to the database's socket alone costs more than its rows).
 * Its shape is fixed by the code, so it is prepared whatever its number of parameters.
 */
export async function readTogether<K extends string>(read: SqlQuery, parts: Record<K, Prisma.Sql>): Promise<Record<K, JsonRows>> {
  const columns = Object.entries<Prisma.Sql>(parts).map(
    ([name, part]) => Prisma.sql`(SELECT coalesce(json_agg(t), '[]'::json) FROM (${part}) t) AS ${Prisma.raw(`"${name}"`)}`,
  );
  const [row] = await read<Record<K, JsonRows>>(Prisma.sql`SELECT ${Prisma.join(columns, ', ')}`, { fixed: true });
  return row!;
}

/** Holds a connection's writes until the code running now has sent what it sends at once. */
function corkUntilNextTick(client: pg.PoolClient) {
  const socket = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;
  socket.cork();
  process.nextTick(() => socket.uncork());
}

/**
 * Like transaction() (db/transaction.ts), on a plain connection of `pool`. With `pipelined` (a real
 * PostgreSQL; PGlite's socket answers one statement at a time) statements are written without
 * waiting for the answers before them (pg's pipeline mode, on this connection while the
 * transaction runs): BEGIN leaves with the first statement and COMMIT right behind one marked
 * `last`, so statements that need no answer from one another are one write and one round trip
 * (on a busy machine each write to the database's socket costs more CPU than a small statement).
 * A statement that fails fails those behind it, and the COMMIT behind them then rolls back.
 * A deadlock's victim runs again (againOnDeadlock).
 */
export function sqlTransaction<T>(pool: pg.Pool, prepared: boolean, pipelined: boolean, write: (tx: SqlTx) => Promise<T>, onError: (err: unknown) => void): Promise<T> {
  return againOnDeadlock(() => sqlTransactionOnce(pool, prepared, pipelined, write, onError));
}

async function sqlTransactionOnce<T>(pool: pg.Pool, prepared: boolean, pipelined: boolean, write: (tx: SqlTx) => Promise<T>, onError: (err: unknown) => void): Promise<T> {
  const client = await pool.connect();
  // Every statement sent, settled before the connection goes back to the pool.
  const sent: Promise<unknown>[] = [];
  let previous: Promise<unknown> = Promise.resolve();
  let ended = false;
  let commit: Promise<pg.QueryResult> | undefined;
  const send = (statement: Prisma.Sql | string, fixed?: boolean): Promise<pg.QueryResult> => {
    const issue = () => (typeof statement === 'string' ? client.query(statement) : run(client, prepared, statement, fixed));
    // Not pipelined, a statement waits for the one before it (pg would queue it, deprecated).
    const result = pipelined ? issue() : previous.then(issue);
    previous = result.catch(() => {});
    sent.push(previous);
    return result;
  };
  const tx: SqlTx = {
    query: async <R>(statement: Prisma.Sql, options?: { fixed?: boolean; last?: boolean }) => {
      if (ended) throw new Error('A transaction takes no statement behind its last.');
      const result = send(statement, options?.fixed);
      if (options?.last) {
        ended = true;
        if (pipelined) commit = send('COMMIT');
      }
      return (await result).rows as R[];
    },
  };
  const callbacks = collectAfterCommit(tx);
  // pg reads the mode as it sends each statement; the connection is this transaction's alone.
  const mode = client as unknown as { pipeline: boolean };
  mode.pipeline = pipelined;
  let result: T;
  try {
    // What is sent before the first answer is awaited leaves in one write.
    if (pipelined) corkUntilNextTick(client);
    await Promise.all([send('BEGIN'), (async () => (result = await write(tx)))()]);
    // A COMMIT after a failed statement answers ROLLBACK.
    if ((await (commit ?? send('COMMIT'))).command !== 'COMMIT') throw new Error('The transaction rolled back.');
  } catch (err) {
    if (!commit) await send('ROLLBACK').catch(() => {});
    await Promise.all(sent);
    mode.pipeline = false;
    client.release();
    throw err;
  }
  mode.pipeline = false;
  client.release();
  await afterCommit(callbacks, onError);
  return result!;
}
