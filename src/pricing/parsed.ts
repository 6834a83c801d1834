import type { z } from 'zod';

/**
 * A schema's safeParse, done once per stored object: catalog rows live in the search snapshot,
 * so a price list read by thousands of searches is validated when first priced.
 */
export function parsedOnce<S extends z.ZodType>(schema: S): (value: unknown) => z.ZodSafeParseResult<z.output<S>> {
  const memo = new WeakMap<object, z.ZodSafeParseResult<z.output<S>>>();
  return (value) => {
    if (value === null || typeof value !== 'object') return schema.safeParse(value);
    let parsed = memo.get(value);
    if (!parsed) memo.set(value, (parsed = schema.safeParse(value)));
    return parsed;
  };
}
