const snakeCache = new Map<string, string>();
const camelCache = new Map<string, string>();

export function toSnake(key: string): string {
  let out = snakeCache.get(key);
  if (out === undefined) {
    out = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeCache.set(key, out);
  }
  return out;
}

export function toCamel(key: string): string {
  let out = camelCache.get(key);
  if (out === undefined) {
    out = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    camelCache.set(key, out);
  }
  return out;
}

export const toPascal = (name: string) => toCamel(name).replace(/^./, (c) => c.toUpperCase());

/** Renames object keys deeply (values are left alone: user text is data). */
export function renameKeys(value: unknown, rename: (k: string) => string): unknown {
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = renameKeys(value[i], rename);
    return out;
  }
  // A loop over own keys: results are plain objects, and this runs on every field of every answer.
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) out[rename(k)] = renameKeys((value as Record<string, unknown>)[k], rename);
  return out;
}
