import { copyFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPorchlight, type Porchlight } from '../../main.js';
import type { FetchPolicy } from '../../src/receptionist/fetch.js';
import { hashToken, newToken } from '../../src/auth/tokens.js';

export const BASE = 'http://porchlight.test';
import { TEST_NOW } from './template.js';

export { TEST_NOW };

export const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * A fresh database for one test file: a throwaway PostgreSQL database, or PGlite in a temp folder.
 * `seeded`: a copy of the run's migrated and seeded template (test/global-setup.ts), with the
 * secrets key its signing keys are sealed with; otherwise empty.
 */
export async function freshDatabase(seeded: boolean): Promise<{ url?: string; dataDir: string; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-test-'));
  const template = seeded ? inject('databaseTemplate') : undefined;
  if (template) {
    const key = join(template.dataDir, 'secrets.key');
    if (existsSync(key)) copyFileSync(key, join(dataDir, 'secrets.key'));
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    if (template) cpSync(join(template.dataDir, 'pglite'), join(dataDir, 'pglite'), { recursive: true });
    return { dataDir, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `porchlight_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(template?.database ? `CREATE DATABASE ${name} TEMPLATE ${template.database}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    async drop() {
      rmSync(dataDir, { recursive: true, force: true });
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The secrets key the run's template was seeded with, as SECRETS_KEY takes it: an app given it
 * (production requires one) still starts from a copy of the template instead of migrating anew.
 */
export function templateSecretsKey(): string {
  return readFileSync(join(inject('databaseTemplate').dataDir, 'secrets.key'), 'utf8').trim();
}

export interface TestApp extends Porchlight {
  rest(name: string, input?: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  mcp(method: string, params?: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  tool(name: string, args?: Record<string, unknown>, headers?: Record<string, string>): Promise<{ isError: boolean; body: any; structured: any }>;
  graphql(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  get(path: string, init?: RequestInit): Promise<Response>;
}

export async function startApp(
  opts: { now?: string; env?: Record<string, string>; onQuery?: () => void; logs?: string[]; baseUrl?: string; fetchPolicy?: Partial<FetchPolicy> } = {},
): Promise<TestApp> {
  // The template was seeded at TEST_NOW with its own secrets key: other clocks and keys start empty.
  const ownKey = opts.env?.SECRETS_KEY !== undefined && opts.env.SECRETS_KEY !== templateSecretsKey();
  const db = await freshDatabase(!opts.now && !ownKey && opts.env?.SEED_DEMO !== 'false');
  const config = {
    // Tests book freely from one in-process address; the pending-booking and calendar limits have their own tests.
    ...loadConfig({
      NODE_ENV: 'test',
      PENDING_PER_CONTACT: '1000',
      PENDING_PER_REQUESTER: '1000',
      CALENDAR_PER_REQUESTER: '1000',
      CALENDAR_PER_REQUESTER_AT_BUSINESS: '1000',
      CALENDAR_PER_CONTACT: '1000',
      ...opts.env,
    }),
    databaseUrl: db.url,
    dataDir: db.dataDir,
    now: opts.now ?? TEST_NOW,
    baseUrl: opts.baseUrl ?? BASE,
  };
  // With `logs`, every log line (at LOG_LEVEL, default debug then) is kept for inspection.
  const logs = opts.logs;
  if (logs && !opts.env?.LOG_LEVEL) config.logLevel = 'debug';
  const app = await createPorchlight(config, {
    onQuery: opts.onQuery,
    fetchPolicy: opts.fetchPolicy,
    logDestination: logs ? { write: (line: string) => void logs.push(line) } : undefined,
  });
  const call = (path: string, init?: RequestInit) => Promise.resolve(app.fetch(new Request(`${BASE}${path}`, init)));
  let rpcId = 0;
  const t: TestApp = {
    ...app,
    async close() {
      await app.close();
      await db.drop();
    },
    get: call,
    async rest(name, input = {}, headers = {}) {
      const op = app.app.documents.get(name)?.startsWith('query') ?? true;
      const res = op
        ? await call(`/api/v1/${name}?${new URLSearchParams(Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : typeof v === 'object' ? JSON.stringify(v) : String(v)]))}`, { headers })
        : await call(`/api/v1/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(input) });
      return { status: res.status, body: await res.json(), headers: res.headers };
    },
    async mcp(method, params = {}, headers = {}) {
      const res = await call('/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method, params }),
      });
      return { status: res.status, body: await res.json() };
    },
    async tool(name, args = {}, headers = {}) {
      const { body } = await t.mcp('tools/call', { name, arguments: args }, headers);
      const result = body.result;
      return { isError: Boolean(result.isError), body: JSON.parse(result.content[0].text), structured: result.structuredContent };
    },
    async graphql(query, variables = {}, headers = {}) {
      const res = await call('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
      return { status: res.status, body: await res.json() };
    },
  };
  return t;
}

/** The newest outbox message to an address (the sandbox mail transport keeps them). */
export async function lastMailTo(app: TestApp, to: string) {
  return app.services.prisma.outboxMessage.findFirst({ where: { to }, orderBy: { createdAt: 'desc' } });
}

/** A business key stored the way POST /app/api/connect stores one, with the given scopes. */
export async function businessKey(app: TestApp, slug: string, scopes = ['read', 'write']): Promise<string> {
  const key = newToken('sk_pro_');
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
  await app.services.prisma.apiKey.create({ data: { kind: 'business', keyHash: hashToken(key), hint: key.slice(0, 12), businessId: business.id, scopes } });
  return key;
}

/** A customer's personal key, as /key would make one. */
export async function personalKey(app: TestApp, scopes = ['read', 'write']): Promise<string> {
  const key = newToken('sk_live_');
  await app.services.prisma.apiKey.create({ data: { kind: 'personal', keyHash: hashToken(key), hint: key.slice(0, 12), name: 'Pat Key', email: 'pat@example.com', scopes } });
  return key;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
