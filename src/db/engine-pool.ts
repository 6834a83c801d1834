import pg from 'pg';
import { ColumnTypeEnum } from '@prisma/driver-adapter-utils';

// Prisma's Wasm schema engine reads catalog columns of PostgreSQL's one-byte "char" type
// (pg_constraint.contype and friends) and wants them typed as Character, but
// @prisma/adapter-pg refuses that type outright. The engine's connections therefore report
// them as text to the adapter, mark which columns they were on the rows array (which the
// adapter passes through untouched), and the wrapped adapter restores the Character type.

const charColumns = Symbol('charColumns');

type Marked = unknown[] & { [charColumns]?: number[] };

const relabel = (result: pg.QueryResult | undefined) => {
  const indices: number[] = [];
  result?.fields?.forEach((f, i) => {
    if (f.dataTypeID === 18) {
      f.dataTypeID = 25;
      indices.push(i);
    }
  });
  if (indices.length) Object.defineProperty(result!.rows, charColumns, { value: indices });
  return result;
};

class CatalogFriendlyClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (err: Error, result: pg.QueryResult) => callback(err, relabel(result));
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const out = (super.query as any)(...args);
    return out && typeof out.then === 'function' ? out.then(relabel) : out;
  }
}

export const engineClient = CatalogFriendlyClient as unknown as typeof pg.Client;

type Queryable = { queryRaw(q: unknown): Promise<{ columnTypes: number[]; rows: unknown[] }> };

function restore<T extends Queryable>(q: T): T {
  const queryRaw = q.queryRaw.bind(q);
  q.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const i of (result.rows as Marked)[charColumns] ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
  return q;
}

type Scriptable = {
  executeScript?(script: string): Promise<void>;
  client?: { query(sql: string): Promise<unknown> };
  onError?(error: unknown): never;
};

/**
 * adapter-pg runs a migration script by splitting it at every ";", which breaks function bodies
 * (the change-notification triggers). PostgreSQL's simple query protocol runs a whole
 * multi-statement script in one call, so it is sent whole.
 */
function wholeScripts(adapter: Scriptable): void {
  const client = adapter.client;
  if (!adapter.executeScript || !client || !adapter.onError) return;
  adapter.executeScript = async (script) => {
    try {
      await client.query(script);
    } catch (error) {
      adapter.onError!(error);
    }
  };
}

/** Wraps an adapter (and the transactions it starts) handed to the schema engine. */
export function forSchemaEngine<T extends Queryable & { startTransaction?: (...a: never[]) => Promise<Queryable> }>(adapter: T): T {
  restore(adapter);
  wholeScripts(adapter as Scriptable);
  const start = adapter.startTransaction?.bind(adapter);
  if (start) adapter.startTransaction = async (...a: never[]) => restore(await start(...a));
  return adapter;
}
