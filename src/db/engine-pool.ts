import pg from 'pg';

const fixFields = (result: pg.QueryResult | undefined) => {
  for (const f of result?.fields ?? []) if (f.dataTypeID === 18) f.dataTypeID = 25;
  return result;
};

/**
 * Prisma's Wasm schema engine reads catalog columns of PostgreSQL's one-byte "char" type
 * (pg_constraint.contype and friends), which @prisma/adapter-pg cannot map. Their values arrive
 * as text anyway, so connections handed to the engine report them as text.
 */
class CatalogFriendlyClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last];
      args[last] = (err: Error, result: pg.QueryResult) => callback(err, fixFields(result));
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const out = (super.query as any)(...args);
    return out && typeof out.then === 'function' ? out.then(fixFields) : out;
  }
}

export const engineClient = CatalogFriendlyClient as unknown as typeof pg.Client;
