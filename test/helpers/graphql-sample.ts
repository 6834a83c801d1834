import { getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, type GraphQLInputType } from 'graphql';

/** A value of a GraphQL input type that coerces, so the guard (not input validation) is what answers. */
export function sample(type: GraphQLInputType): unknown {
  const t = getNullableType(type);
  if (isListType(t)) return [];
  if (isEnumType(t)) return t.getValues()[0]!.value;
  if (isScalarType(t)) return t.name === 'String' || t.name === 'ID' ? 'x' : t.name === 'Boolean' ? false : 1;
  if (isInputObjectType(t)) {
    return Object.fromEntries(Object.values(t.getFields()).filter((f) => isNonNullType(f.type)).map((f) => [f.name, sample(f.type)]));
  }
  throw new Error(`no sample for ${String(t)}`);
}
