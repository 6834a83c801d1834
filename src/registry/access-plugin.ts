/**
 * Guards by construction: every root Query, Mutation and Subscription field says who may call it
 * (its `access` option), and the schema does not build when one does not. The plugin wraps each
 * root field so that the guard (guard.ts: request budget, then access) runs before its resolver,
 * and for subscriptions before `subscribe`, once, when the subscription starts.
 */
import SchemaBuilder, {
  BasePlugin,
  type FieldNullability,
  type InputFieldMap,
  type PothosOutputFieldConfig,
  type SchemaTypes,
  type TypeParam,
} from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import type { Auth } from '../auth/vocabulary.js';
import type { Context } from '../context.js';
import { enterOperation, type Guarded } from './guard.js';

/**
 * Who may call a root field: an audience (the field's own name then appears in refusals), or the
 * audience with the name refusals use (a registry operation's spec name). `dashboard`: only the
 * owner signed in to the dashboard itself.
 */
export type Access = Auth | 'dashboard' | { auth: Auth | 'dashboard'; name: string };

const pluginName = 'access';

/** Reads ask for `read`, changes for `write`; a subscription reads. */
const METHOD = { Query: 'GET', Mutation: 'POST', Subscription: 'GET' } as const;
type RootKind = keyof typeof METHOD;

const isRoot = (kind: string): kind is RootKind => Object.hasOwn(METHOD, kind);

function guardedOf(field: PothosOutputFieldConfig<SchemaTypes>, kind: RootKind): Guarded {
  const access = (field.pothosOptions as { access?: Access }).access;
  if (!access) {
    throw new Error(
      `${field.parentType}.${field.name} has no access rule: every root field says who may call it ` +
        `(access: 'public' | 'signed_in' | 'owner' | 'dashboard', or { auth, name }).`,
    );
  }
  const { auth, name } = typeof access === 'string' ? { auth: access, name: field.name } : access;
  return { name, auth, method: METHOD[kind] };
}

export class AccessPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(field: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    if (!isRoot(field.kind)) return field;
    // Kept on the built field (extensions never reach the printed schema) for whoever must know
    // a field's rule without calling it: the transports' early answers, tests.
    const access = guardedOf(field as PothosOutputFieldConfig<SchemaTypes>, field.kind);
    return { ...field, extensions: { ...field.extensions, access } };
  }

  override wrapResolve(
    resolve: GraphQLFieldResolver<unknown, Types['Context'], object>,
    field: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    // A subscription's resolve maps each event it already allowed; the guard ran at subscribe.
    if (field.kind !== 'Query' && field.kind !== 'Mutation') return resolve;
    const guarded = guardedOf(field as PothosOutputFieldConfig<SchemaTypes>, field.kind);
    return async (parent, args, ctx, info) => {
      await enterOperation(guarded, ctx as Context);
      return resolve(parent, args, ctx, info);
    };
  }

  override wrapSubscribe(
    subscribe: GraphQLFieldResolver<unknown, Types['Context'], object> | undefined,
    field: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> | undefined {
    if (field.kind !== 'Subscription' || !subscribe) return subscribe;
    const guarded = guardedOf(field as PothosOutputFieldConfig<SchemaTypes>, field.kind);
    return async (parent, args, ctx, info) => {
      await enterOperation(guarded, ctx as Context);
      return subscribe(parent, args, ctx, info);
    };
  }
}

SchemaBuilder.registerPlugin(pluginName, AccessPlugin);

export default pluginName;

declare global {
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      access: AccessPlugin<Types>;
    }
    interface QueryFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveReturnShape,
    > {
      /** Who may call this field; required on every root field (registry/access-plugin.ts). */
      access: Access;
    }
    interface MutationFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveReturnShape,
    > {
      /** Who may call this field; required on every root field (registry/access-plugin.ts). */
      access: Access;
    }
    interface SubscriptionFieldOptions<
      Types extends SchemaTypes,
      Type extends TypeParam<Types>,
      Nullable extends FieldNullability<Type>,
      Args extends InputFieldMap,
      ResolveShape,
      ResolveReturnShape,
    > {
      /** Who may subscribe; checked once, when the subscription starts (registry/access-plugin.ts). */
      access: Access;
    }
  }
}
