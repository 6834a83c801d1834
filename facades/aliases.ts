import { GraphQLError, Kind, type ASTNode, type ValidationRule } from 'graphql';
import { toSnake } from '../src/registry/case.js';

/**
 * GraphQL Armor's alias limit, counted as Armor counts (per operation, through fragments), except
 * for an alias that only gives a field its snake_case name, as REST's and MCP's documents do
 * (facades/documents.ts). Selections under one response name must be the same field with the
 * same arguments, so such an alias can add at most one run of its field beside the plain name,
 * never the many the limit is there to stop; the cost and token limits bound it with the rest.
 */
export const maxAliases =
  (n: number): ValidationRule =>
  (context) => {
    const fragments = new Map<string, number>();
    const count = (node: ASTNode): number => {
      let found = 0;
      if (node.kind === Kind.FIELD && node.alias && node.alias.value !== toSnake(node.name.value)) found++;
      if ('selectionSet' in node && node.selectionSet) {
        for (const child of node.selectionSet.selections) found += count(child);
      } else if (node.kind === Kind.FRAGMENT_SPREAD) {
        const name = node.name.value;
        const known = fragments.get(name);
        if (known !== undefined) return known;
        // A cycle (refused by another rule) counts nothing the second time round.
        fragments.set(name, 0);
        const fragment = context.getFragment(name);
        const inside = fragment ? count(fragment) : 0;
        fragments.set(name, inside);
        found += inside;
      }
      return found;
    };
    return {
      OperationDefinition(operation) {
        const found = count(operation);
        // Thrown, as Armor does, so a document of thousands stops validating here.
        if (found > n) throw new GraphQLError(`Syntax Error: Aliases limit of ${n} exceeded, found ${found}.`);
      },
    };
  };
