import type { z } from 'zod';

export interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  entries?: Record<string, string>;
  in?: z.ZodType;
  format?: string;
}

/**
 * The value type under zod's optional/default/nullable/pipe wrappers, and whether a value may
 * be left out. The GraphQL input types and the REST query decoder both read fields this way.
 */
export function baseOf(schema: z.ZodType): { schema: z.ZodType; def: ZodDef; optional: boolean } {
  let optional = false;
  for (;;) {
    const def = (schema as unknown as { _zod: { def: ZodDef } })._zod.def;
    if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault' || def.type === 'nullable') {
      optional = true;
      schema = def.innerType!;
    } else if (def.type === 'pipe') schema = def.in!;
    else return { schema, def, optional };
  }
}
