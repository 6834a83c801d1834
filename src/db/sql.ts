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
import { afterCommit, collectAfterCommit } from './transaction.js';
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

/** Like transaction() (db/transaction.ts), on a plain connection of `pool`. */
export async function sqlTransaction<T>(pool: pg.Pool, prepared: boolean, write: (tx: SqlTx) => Promise<T>, onError: (err: unknown) => void): Promise<T> {
  const client = await pool.connect();
  const tx: SqlTx = { query: async <R>(statement: Prisma.Sql, options?: { fixed?: boolean }) => (await run(client, prepared, statement, options?.fixed)).rows as R[] };
  const callbacks = collectAfterCommit(tx);
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
