import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

export interface DocumentTarget {
  name: string;
  method: 'GET' | 'POST';
  field: string;
  hasInput: boolean;
  inputType: string;
}

/** A result field's name in the answer: the schema's own, or an alias. */
type Rename = (field: string) => string;
const asIs: Rename = (field) => field;

/** A selection of every field of a type, recursively (fields taking required arguments are skipped). */
function selection(type: GraphQLObjectType, depth: number, rename: Rename): string {
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (field.args.some((a) => isNonNullType(a.type))) continue;
    const named = getNamedType(field.type);
    const alias = rename(field.name);
    const name = alias === field.name ? field.name : `${alias}: ${field.name}`;
    if (isLeafType(named)) parts.push(name);
    else if (isObjectType(named) && depth > 0) parts.push(`${name} { ${selection(named, depth - 1, rename)} }`);
  }
  return parts.join(' ');
}

/**
 * The persisted document of an operation: its root field with every result field selected. It
 * is derived from the schema, so a field added to a result type reaches REST and MCP too.
 * `rename` aliases the result's fields (REST's and MCP's snake_case, facades/execute.ts), so
 * the answer comes out of execution named as they send it, with no second pass over it.
 */
export function persistedDocument(schema: GraphQLSchema, op: DocumentTarget, rename: Rename = asIs): string {
  const root = op.method === 'GET' ? schema.getQueryType()! : schema.getMutationType()!;
  const field = root.getFields()[op.field];
  if (!field) throw new Error(`Operation ${op.name} names root field ${op.field}, which the schema lacks.`);
  const named = getNamedType(field.type);
  const body = isObjectType(named) ? ` { ${selection(named, 4, rename)} }` : '';
  const kind = op.method === 'GET' ? 'query' : 'mutation';
  return op.hasInput
    ? `${kind} ${op.name}($input: ${op.inputType}!) { ${op.field}(input: $input)${body} }`
    : `${kind} ${op.name} { ${op.field}${body} }`;
}
