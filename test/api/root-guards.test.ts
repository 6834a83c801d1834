/**
 * Guards by construction: every root field of the built schema (the registry's operations, the
 * pages' and dashboard's own fields, the subscriptions) carries an access rule from the access
 * plugin, and each refuses a wrong credential, over /graphql and in its own resolver.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SchemaBuilder from '@pothos/core';
import {
  execute,
  getNamedType,
  isLeafType,
  isNonNullType,
  parse,
  subscribe,
  type ExecutionResult,
  type GraphQLField,
  type GraphQLObjectType,
} from 'graphql';
import { schema } from '../../src/schema.js';
import AccessPlugin from '../../src/registry/access-plugin.js';
import type { Guarded } from '../../src/registry/guard.js';
import type { Context } from '../../src/context.js';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, personalKey, startApp, type TestApp } from '../helpers/harness.js';
import { sample } from '../helpers/graphql-sample.js';


interface Root {
  kind: 'query' | 'mutation' | 'subscription';
  field: GraphQLField<unknown, unknown>;
  rule: Guarded | undefined;
}

const roots: Root[] = (
  [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const
).flatMap(([kind, type]) =>
  Object.values((type as GraphQLObjectType).getFields()).map((field) => ({ kind, field, rule: field.extensions.access as Guarded | undefined })),
);

/** The field alone, its required arguments as variables. */
function call({ kind, field }: Root): { document: string; variables: Record<string, unknown> } {
  const required = field.args.filter((a) => isNonNullType(a.type));
  const defs = required.length ? `(${required.map((a) => `$${a.name}: ${String(a.type)}`).join(', ')})` : '';
  const args = required.length ? `(${required.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
  return {
    document: `${kind} Guarded${defs} { ${field.name}${args}${selection} }`,
    variables: Object.fromEntries(required.map((a) => [a.name, sample(a.type)])),
  };
}

let app: TestApp;
const keys = {} as Record<'owner' | 'readOnlyOwner' | 'customer' | 'readOnlyCustomer', string>;
const PUBLIC_KEY = 'sk_pub_porchlight_demo';
const INVALID = `sk_live_${randomBytes(16).toString('hex')}`;

beforeAll(async () => {
  app = await startApp();
  keys.owner = await businessKey(app, demoIds.cleanerAustin);
  keys.readOnlyOwner = await businessKey(app, demoIds.cleanerAustin, ['read']);
  keys.customer = await personalKey(app);
  keys.readOnlyCustomer = await personalKey(app, ['read']);
});
afterAll(async () => app?.close());

type Refusal = { key: string | null; why: string; status: 401 | 403 };

/** Who must be refused a field, and how: [credential (null: none), why, status]. */
function refusals(rule: Guarded): Refusal[] {
  const out: Refusal[] = [];
  const write = rule.method === 'POST';
  switch (rule.auth) {
    case 'owner':
      out.push(
        { key: null, why: 'no credential', status: 401 },
        { key: keys.customer, why: 'a customer key', status: 403 },
        { key: PUBLIC_KEY, why: 'the shared public key', status: 403 },
      );
      if (write) out.push({ key: keys.readOnlyOwner, why: "a read-only owner's key, for a write", status: 403 });
      break;
    case 'signed_in':
      out.push({ key: null, why: 'no credential', status: 401 }, { key: PUBLIC_KEY, why: 'the shared public key', status: 403 });
      if (write) out.push({ key: keys.readOnlyCustomer, why: 'a read-only key, for a write', status: 403 });
      break;
    case 'dashboard':
      out.push({ key: null, why: 'no credential', status: 401 }, { key: keys.owner, why: "the owner's business key, not the dashboard", status: 403 });
      break;
    case 'public':
      // A credential is optional here but must be valid. (Only public fields try an invalid one:
      // each costs the address one of its 60 credential checks a minute.)
      out.push({ key: INVALID, why: 'an invalid bearer token', status: 401 });
      if (write) out.push({ key: keys.readOnlyCustomer, why: 'a read-only key, for a write', status: 403 });
      break;
  }
  return out;
}

const codeOf = (status: 401 | 403) => (status === 401 ? 'unauthorized' : 'insufficient_scope');

async function contextFor(key: string | null): Promise<Context> {
  const { credentialOf } = await import('../../src/auth/credentials.js');
  const headers = key ? bearer(key) : {};
  const credential = await credentialOf(app.services, new Request('http://x', { headers }), 'root-guards');
  return { ...app.services, user: {}, clientAddress: 'root-guards', credential };
}

describe('every root field has an access rule', () => {
  it('lists the whole schema: every query, mutation and subscription', () => {
    const missing = roots.filter((r) => !r.rule).map((r) => `${r.kind} ${r.field.name}`);
    expect(missing).toEqual([]);
    expect(roots.filter((r) => r.kind === 'subscription').length).toBeGreaterThan(0);
    expect(roots.length).toBeGreaterThan(70);
    const reads = roots.filter((r) => r.kind !== 'mutation').every((r) => r.rule!.method === 'GET');
    const writes = roots.filter((r) => r.kind === 'mutation').every((r) => r.rule!.method === 'POST');
    expect([reads, writes]).toEqual([true, true]);
  });
});

describe('each root field refuses a wrong credential', () => {
  it('over /graphql: queries, mutations and subscriptions', async () => {
    let checked = 0;
    for (const root of roots) {
      const { document, variables } = call(root);
      for (const { key, why, status } of refusals(root.rule!)) {
        const res = await app.graphql(document, variables, key ? bearer(key) : {});
        const label = `${root.kind} ${root.field.name} with ${why}`;
        expect(res.status, label).toBe(status);
        expect(res.body.data?.[root.field.name] ?? null, label).toBeNull();
        expect(res.body.errors?.[0]?.extensions?.code, label).toBe(codeOf(status));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2 * roots.length);
  });

  it('in the resolver itself (at subscribe for subscriptions), with no transport in front', async () => {
    let checked = 0;
    for (const root of roots) {
      const { document, variables } = call(root);
      // An invalid token never gets a context, so no resolver can see it (HTTP covers it above).
      for (const { key, why, status } of refusals(root.rule!).filter((r) => r.key !== INVALID)) {
        const args = { schema, document: parse(document), variableValues: variables, contextValue: await contextFor(key) };
        const result = (root.kind === 'subscription' ? await subscribe(args) : await execute(args)) as ExecutionResult;
        const label = `${root.kind} ${root.field.name} with ${why}`;
        // A refused subscription opens no event stream: the answer is the error itself.
        expect(Symbol.asyncIterator in result, label).toBe(false);
        expect(result.data ?? null, label).toBeNull();
        expect(result.errors?.map((e) => (e.originalError as { code?: string } | undefined)?.code), label).toContain(codeOf(status));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2 * roots.length);
  });
});

/** A builder with the access plugin alone (the project's also needs Prisma, which types require). */
const scratchBuilder = () => new SchemaBuilder<{ Context: Context }>({ plugins: [AccessPlugin] } as never);

describe('a root field without an access rule', () => {
  it('fails the schema build, naming the field', () => {
    const builder = scratchBuilder();
    builder.queryType({});
    builder.queryField('guarded', (t) => t.string({ access: 'public', resolve: () => 'ok' }));
    builder.mutationType({});
    // @ts-expect-error -- `access` is required on root fields; the build must refuse its absence too.
    builder.mutationField('forgotten', (t) => t.string({ resolve: () => 'oops' }));
    expect(() => builder.toSchema()).toThrow(/Mutation\.forgotten has no access rule/);
  });

  it('builds when every root field has one, and guards it', async () => {
    const builder = scratchBuilder();
    builder.queryType({});
    builder.queryField('mine', (t) => t.string({ access: 'owner', resolve: () => 'secret' }));
    const built = builder.toSchema();
    const result = await execute({ schema: built, document: parse('{ mine }'), contextValue: await contextFor(null) });
    expect(result.data?.mine ?? null).toBeNull();
    expect((result.errors?.[0]?.originalError as { code?: string } | undefined)?.code).toBe('unauthorized');
  });
});
