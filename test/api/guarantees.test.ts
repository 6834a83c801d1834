/**
 * Guarantees live on the operation: whatever shape a GraphQL document takes (fragments,
 * aliases, subscriptions) or whichever transport carries it, each executed root field passes
 * the registry's guard, and bad input never reaches the database.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  execute,
  parse,
  type GraphQLInputType,
} from 'graphql';
import { operations } from '../../src/operations.js';
import { schema } from '../../src/schema.js';
import { inputTypeName } from '../../src/registry/graphql.js';
import type { Operation } from '../../src/registry/contract.js';
import { demoIds } from '../../src/demo/generate.js';
import type { Context } from '../../src/context.js';
import { attachWebSockets } from '../../facades/ws.js';
import { bearer, businessKey, personalKey, startApp, type TestApp, templateSecretsKey } from '../helpers/harness.js';
import { sample } from '../helpers/graphql-sample.js';


const hasInput = (op: Operation) => Object.keys(op.input.shape).length > 0;

/** The operation's root field inside a fragment of the given style, aliased twice. */
function document(op: Operation, style: 'inline' | 'named') {
  const kind = op.method === 'GET' ? 'query' : 'mutation';
  const root = op.method === 'GET' ? 'Query' : 'Mutation';
  const args = hasInput(op) ? '(input: $input)' : '';
  const vars = hasInput(op) ? `($input: ${inputTypeName(op)}!)` : '';
  const fields = `first: ${op.field}${args} { __typename } second: ${op.field}${args} { __typename }`;
  return style === 'inline'
    ? `${kind} Walk${vars} { ... on ${root} { ${fields} } }`
    : `${kind} Walk${vars} { ...F } fragment F on ${root} { ${fields} }`;
}

function variables(op: Operation) {
  return hasInput(op) ? { input: sample(schema.getType(inputTypeName(op)) as GraphQLInputType) } : {};
}

let app: TestApp;
let readOnlyOwner: string;
let owner: string;
let customer: string;
const PUBLIC_KEY = 'sk_pub_porchlight_demo';

beforeAll(async () => {
  app = await startApp();
  owner = await businessKey(app, demoIds.cleanerAustin);
  readOnlyOwner = await businessKey(app, demoIds.cleanerAustin, ['read']);
  customer = await personalKey(app);
});
afterAll(async () => app?.close());

/** Who must be refused each operation: [credential, why]. */
function refusals(op: Operation): [string, string][] {
  const out: [string, string][] = [];
  if (op.method === 'POST') out.push([readOnlyOwner, 'a read-only credential, for a write']);
  if (op.auth === 'owner') out.push([customer, 'a customer key, for an owner operation'], [PUBLIC_KEY, 'the shared public key, for an owner operation']);
  if (op.auth === 'signed_in') out.push([PUBLIC_KEY, 'the shared public key, for a signed-in operation']);
  return out;
}

describe('access is decided on the operation', () => {
  it('refuses through inline and named fragments with aliases, over /graphql', async () => {
    let checked = 0;
    for (const op of operations) {
      for (const [credential, why] of refusals(op)) {
        for (const style of ['inline', 'named'] as const) {
          const res = await app.graphql(document(op, style), variables(op), bearer(credential));
          const label = `${op.name} via ${style} fragment with ${why}`;
          expect(res.status, label).toBe(403);
          expect(res.body.data ?? null, label).toBeNull();
          expect(res.body.errors[0].extensions.code, label).toBe('insufficient_scope');
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('refuses in the resolver itself, whatever plugin runs before it', async () => {
    // Executed on the bare schema: no transport plugin can have answered first.
    const credentialOf = async (key: string) => {
      const { credentialOf: of } = await import('../../src/auth/credentials.js');
      return of(app.services, new Request('http://x', { headers: bearer(key) }), 'resolver-test');
    };
    for (const op of operations) {
      for (const [key, why] of refusals(op)) {
        const contextValue: Context = { ...app.services, user: {}, clientAddress: 'resolver-test', credential: await credentialOf(key) };
        const result = await execute({ schema, document: parse(document(op, 'named')), variableValues: variables(op), contextValue });
        const label = `${op.name} with ${why}`;
        expect(result.data ?? null, label).toBeNull();
        expect(result.errors?.map((e) => (e.originalError as { code?: string } | undefined)?.code), label).toContain('insufficient_scope');
      }
    }
  });

  it('gives the shared public key 403, not 500, for my_inquiries through a fragment', async () => {
    const res = await app.graphql('query { ... on Query { myInquiries { inquiries { inquiryId } } } }', {}, bearer(PUBLIC_KEY));
    expect(res.status).toBe(403);
    expect(res.body.errors[0].extensions.code).toBe('insufficient_scope');
  });

  it('lets the right credential through the same fragments', async () => {
    const res = await app.graphql('query { ... on Query { a: myBusiness { proId } b: myBusiness { name } } }', {}, bearer(owner));
    expect(res.status).toBe(200);
    expect(res.body.data.a.proId).toBe(demoIds.cleanerAustin);
  });
});

describe('what one document may cost', () => {
  it('refuses thousands of aliases before running any, and /healthz stays quick', async () => {
    const aliases = Array.from({ length: 3000 }, (_, i) => `a${i}: __typename`).join(' ');
    const started = performance.now();
    const res = await app.graphql(`query { ${aliases} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('invalid_input');
    expect(performance.now() - started).toBeLessThan(1000);
    expect((await app.get('/healthz')).status).toBe(200);
  });

  it('lets snake_case renames through the alias limit, as REST and MCP send them, and counts every other', async () => {
    const fields = 'pro_id: proId name phone email';
    const renames = Array.from({ length: 25 }, () => `time_zone: timeZone`).join(' ');
    const renamed = await app.graphql(`query { myBusiness { ${fields} ${renames} } }`, {}, bearer(owner));
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.myBusiness.pro_id).toBe(demoIds.cleanerAustin);
    // A rename to any other name is an alias like any other, here 21 of them.
    const others = Array.from({ length: 21 }, (_, i) => `z${i}: proId`).join(' ');
    const refused = await app.graphql(`query { myBusiness { ${others} } }`, {}, bearer(owner));
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toMatch(/Aliases limit of 20 exceeded, found 21/);
    // Aliases in a fragment count each time it is spread.
    const fragment = 'fragment F on MyBusiness { a: proId b: name c: phone d: email e: timeZone }';
    const spread = Array.from({ length: 5 }, (_, i) => `m${i}: myBusiness { ...F }`).join(' ');
    const viaFragment = await app.graphql(`query { ${spread} } ${fragment}`, {}, bearer(owner));
    expect(viaFragment.status).toBe(400);
    expect(viaFragment.body.errors[0].message).toMatch(/Aliases limit of 20 exceeded/);
  });

  it('refuses 50 aliased contactBusiness mutations and creates no conversation', async () => {
    const before = await app.services.prisma.conversation.count();
    const fields = Array.from({ length: 50 }, (_, i) => `c${i}: contactBusiness(input: {business: "${demoIds.cleanerAustin}", customerName: "Al", message: "Hi"}) { inquiryId }`).join(' ');
    const res = await app.graphql(`mutation { ${fields} }`);
    expect(res.status).toBe(400);
    expect(await app.services.prisma.conversation.count()).toBe(before);
  });

  it('charges the budget once per executed root field, aliases included', async () => {
    const small = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } });
    try {
      const fields = Array.from({ length: 8 }, (_, i) => `c${i}: contactBusiness(input: {business: "${demoIds.cleanerAustin}", customerName: "Al", message: "Hi ${i}"}) { inquiryId }`).join(' ');
      const res = await small.graphql(`mutation { ${fields} }`);
      const limited = (res.body.errors ?? []).filter((e: { extensions: { code: string } }) => e.extensions.code === 'rate_limited');
      expect(limited.length).toBeGreaterThan(0);
      expect(await small.services.prisma.conversation.count()).toBe(5);
      expect((await small.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 })).status).toBe(429);
    } finally {
      await small.close();
    }
  });

  it('hides the schema in production: no introspection, no field suggestions, over HTTP and WebSocket', async () => {
    const prod = await startApp({ env: { NODE_ENV: 'production', SECRETS_KEY: templateSecretsKey() } });
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: prod.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const sockets = attachWebSockets(server, prod);
    try {
      const intro = await prod.graphql('{ __schema { types { name } } }');
      expect(intro.body.data ?? null).toBeNull();
      expect(intro.body.errors[0].message).not.toMatch(/Query/);
      const typo = await prod.graphql('{ findCleanerz { cleaners { name } } }');
      expect(typo.body.errors[0].message).not.toMatch(/Did you mean/);
      // The same documents over graphql-ws (introspection answered there).
      const client = createClient({ url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
      const overSocket = (query: string) =>
        new Promise<{ data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] }>((resolve) => {
          client.subscribe({ query }, { next: (r) => resolve(r as never), error: (e) => resolve({ errors: e as never }), complete: () => undefined });
        });
      for (const query of ['{ __schema { types { name } } }', '{ __type(name: "Query") { fields { name } } }']) {
        const r = await overSocket(query);
        expect(r.data ?? null, query).toBeNull();
        expect(r.errors?.[0]?.extensions?.code, query).toBe('invalid_input');
      }
      expect(await overSocket('{ __typename }')).toEqual({ data: { __typename: 'Query' } });
      await client.dispose();
    } finally {
      await sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prod.close();
    }
  });
});

describe('bad input is a 400 that says why, on every surface', () => {
  it('refuses NUL and other control characters in text', async () => {
    const rest = await app.rest('contact_business', { business: demoIds.cleanerAustin, customer_name: 'Al', message: 'Hi\u0000there' });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ error: 'message must not contain control characters (such as NUL); send plain text.', code: 'invalid_input' });
    const get = await app.rest('find_cleaners', { city: 'Austin\u0007', bedrooms: 1, bathrooms: 1 });
    expect(get.status).toBe(400);
    const mcp = await app.tool('contact_business', { business: demoIds.cleanerAustin, customer_name: 'A\u0000l', message: 'Hi' });
    expect(mcp.isError).toBe(true);
    expect(mcp.body.code).toBe('invalid_input');
    const gql = await app.graphql('mutation($i: ContactBusinessInput!) { contactBusiness(input: $i) { inquiryId } }', {
      i: { business: demoIds.cleanerAustin, customerName: 'Al', message: 'Hi\u0000' },
    });
    expect(gql.status).toBe(400);
    expect(gql.body.errors[0].extensions.code).toBe('invalid_input');
    // Line breaks and tabs are ordinary text.
    expect((await app.rest('contact_business', { business: demoIds.cleanerAustin, customer_name: 'Al', message: 'Line one\n\tLine two' })).status).toBe(200);
  });

  it('judges input nested deeper than any operation takes as the wrong type, never a 500', async () => {
    // A body of lists nested 200,000 deep fits in 1 MiB; checking it for control characters
    // recursed until the stack overflowed. (Written by hand: JSON.stringify recurses too.)
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
      const res = await app.get(path, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json', ...headers }, body });
      return { status: res.status, body: await res.json() };
    };
    const refusal = { error: 'message must be a string.', code: 'invalid_input' };
    const rest = await post('/api/v1/contact_business', `{"business":"${demoIds.cleanerAustin}","customer_name":"Al","message":${deep}}`);
    expect(rest).toEqual({ status: 400, body: refusal });
    const mcp = await post('/mcp', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"contact_business","arguments":{"business":"${demoIds.cleanerAustin}","customer_name":"Al","message":${deep}}}}`);
    expect(mcp.body.result?.isError).toBe(true);
    expect(JSON.parse(mcp.body.result.content[0].text)).toEqual(refusal);
    const objects = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const menu = await post('/api/v1/update_service_menu', `{"menu_revision":1,"services":${objects}}`, bearer(owner));
    expect(menu.status).toBe(400);
    expect(menu.body.code).toBe('invalid_input');
    const query = 'mutation($i: ContactBusinessInput!) { contactBusiness(input: $i) { inquiryId } }';
    const gql = await post('/graphql', `{"query":"${query.replace(/"/g, '\\"')}","variables":{"i":{"business":"${demoIds.cleanerAustin}","customerName":"Al","message":${deep}}}}`);
    expect(gql.status).toBe(400);
    expect(gql.body.errors[0].extensions.code).toBe('invalid_input');
  });

  it('refuses dates that are not real calendar days in the years served', async () => {
    for (const date of ['0000-01-01', '2026-02-30', '8140-11-47', '2101-01-01']) {
      const r = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1, date });
      expect(r.status, date).toBe(400);
      expect(r.body.error, date).toMatch(/date/);
    }
  });

  it('refuses months, start times and time-off bounds outside the years served, never a 500', async () => {
    for (const month of ['0000-01', '1999-12', '2100-01']) {
      const r = await app.rest('pipeline', { month }, bearer(owner));
      expect(r.status, month).toBe(400);
      expect(r.body.error, month).toMatch(/month must be YYYY-MM between 2000-01 and 2099-12/);
    }
    for (const start of ['0000-01-02T09:00:00Z', '2199-12-01T10:00:00-06:00', '9999-12-31T23:00:00Z']) {
      const job = { customer_name: 'Dana', customer_phone: '512-555-0148', address: '2400 S 1st St, Austin TX 78704', start, bedrooms: 1, bathrooms: 1, outside_hours: true };
      const r = await app.rest('book_job', job, bearer(owner));
      expect(r.status, start).toBe(400);
      expect(r.body.error, start).toMatch(/years 2000-2099/);
    }
    // A job stored centuries ahead made every later call_brief for its caller fail.
    expect((await app.rest('call_brief', { phone: '512-555-0148' }, bearer(owner))).status).toBe(200);
    const menuOwner = await businessKey(app, demoIds.beautySanFrancisco);
    const { staff } = (await app.rest('service_setup', {}, bearer(menuOwner))).body;
    for (const [start, end] of [['0000-01-01', '2026-12-26'], ['2026-12-24', '9999-12-31'], ['0000-01-01T10:00', '2026-12-26']]) {
      const team = staff.map((m: { staff_id: string; name: string; service_ids: string[]; hours: unknown[] }) => ({
        staff_id: m.staff_id, name: m.name, service_ids: m.service_ids, hours: m.hours, time_off: [{ start, end }],
      }));
      const r = await app.rest('update_staff_availability', { scheduling_enabled: true, staff: team }, bearer(menuOwner));
      expect(r.status, `${start} to ${end}`).toBe(400);
      expect(r.body.error, `${start} to ${end}`).toMatch(/years 2000-2099/);
    }
  });

  it('says a wrong type is a wrong type, never "is required"', async () => {
    const r = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1, max_price: 'cheap' });
    expect(r.body.error).toBe('max_price must be a number.');
    const mcp = await app.tool('find_cleaners', { zip: demoIds.austinZip, bedrooms: 'two', bathrooms: 1 });
    expect(mcp.body.error).toBe('bedrooms must be a whole number.');
    expect((await app.tool('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1.5, bathrooms: 1 })).body.error).toBe('bedrooms must be a whole number.');
    const missing = await app.tool('find_cleaners', { zip: demoIds.austinZip, bathrooms: 1 });
    expect(missing.body.error).toBe('bedrooms is required.');
  });

  it('logs every 500 with its cause and never a secret', async () => {
    const logs: string[] = [];
    const logged = await startApp({ logs });
    try {
      const key = await businessKey(logged, demoIds.cleanerAustin);
      await logged.services.prisma.$executeRawUnsafe('ALTER TABLE "OwnerNote" RENAME TO "OwnerNoteGone"');
      const r = await logged.rest('note_to_owner', { note: 'Call back' }, bearer(key));
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ error: 'Something went wrong on our side. Please try again.', code: 'internal' });
      const line = logs.find((l) => l.includes('internal error'));
      expect(line).toBeDefined();
      expect(line).toMatch(/OwnerNote/);
      expect(logs.join('\n')).not.toContain(key);
      // An error thrown outside the GraphQL pipeline's masking: MCP's SDK answered it with the
      // error's own message as a JSON-RPC error, and nothing logged it.
      const yoga = logged.app.yoga as { getResultForParams: (...args: unknown[]) => unknown };
      const original = yoga.getResultForParams;
      yoga.getResultForParams = () => Promise.reject(new Error('pipeline broke holding sk_live_LEAKED'));
      try {
        logs.length = 0;
        const rpc = await logged.mcp('tools/call', { name: 'find_cleaners', arguments: { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 } });
        expect(rpc.body.error).toBeUndefined();
        expect(rpc.body.result.isError).toBe(true);
        expect(JSON.parse(rpc.body.result.content[0].text)).toEqual({ error: 'Something went wrong on our side. Please try again.', code: 'internal' });
        expect(JSON.stringify(rpc.body)).not.toContain('pipeline broke');
        const mcpLine = logs.find((l) => l.includes('internal error'));
        expect(mcpLine).toMatch(/pipeline broke/);
        expect(mcpLine).not.toContain('LEAKED');
      } finally {
        yoga.getResultForParams = original;
      }
    } finally {
      await logged.services.prisma.$executeRawUnsafe('ALTER TABLE "OwnerNoteGone" RENAME TO "OwnerNote"');
      await logged.close();
    }
  });
});

describe('failed credentials cost their sender', () => {
  it('answers 429 once an address has spent its budget of credential checks, before any lookup', async () => {
    const limited = await startApp();
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 65; i++) statuses.push((await limited.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 }, bearer(`sk_live_guess${i}`))).status);
      expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
      // Valid credentials are given back what their check cost.
      const fresh = await startApp();
      try {
        const key = await businessKey(fresh, demoIds.cleanerAustin);
        for (let i = 0; i < 70; i++) expect((await fresh.rest('my_business', {}, bearer(key))).status).toBe(200);
      } finally {
        await fresh.close();
      }
    } finally {
      await limited.close();
    }
  }, 120_000);
});
