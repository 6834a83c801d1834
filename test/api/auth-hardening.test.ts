/**
 * Issue 8's holes in the sign-in window and the OAuth keys: sign-in limits that count failures
 * only and never lock the owner out (device cookie, per-account backoff), single-use consent
 * tokens, control characters in the forms, the signing key encrypted at rest, and the consent
 * page's wording.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { compactDecrypt, exportJWK, generateKeyPair, type JWK } from 'jose';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createPorchlight } from '../../main.js';
import { BACKOFF } from '../../src/auth/rate-limit.js';
import { SECRETS_KEY_FILE, loadSecretsKey } from '../../src/auth/secrets-key.js';
import { accessTokenVerifier, issueAccessToken } from '../../src/auth/oauth/access-token.js';
import { sealSigningKeys } from '../../src/auth/oauth/signing-keys.js';
import { oauthRoutes } from '../../facades/oauth.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

const OWNER = { email: 'owner+sparkle-shine-cleaning-austin@demo.porchlight.test', password: 'porchlight-demo' };
const REDIRECT = 'http://127.0.0.1:8976/callback';

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The hidden fields of the form with this id. */
function formFields(html: string, formId: string): Record<string, string> {
  const form = new RegExp(`<form[^>]*id="${formId}"[^>]*>([\\s\\S]*?)</form>`).exec(html)?.[1];
  if (!form) throw new Error(`no form #${formId} in page`);
  const fields: Record<string, string> = {};
  for (const tag of form.match(/<input[^>]*type="hidden"[^>]*>/g) ?? []) {
    const name = /\sname="([^"]*)"/.exec(tag)?.[1];
    if (name) fields[name] = unescape(/\svalue="([^"]*)"/.exec(tag)?.[1] ?? '');
  }
  return fields;
}

let app: TestApp;
/** Demo owners besides OWNER (same demo password), so a test that runs up an account's backoff spoils no other test. */
let others: Array<{ email: string; password: string }>;
beforeAll(async () => {
  app = await startApp({ env: { TRUST_PROXY: '127.0.0.1' } });
  const owners = await app.services.prisma.owner.findMany({ where: { email: { not: OWNER.email } }, orderBy: { email: 'asc' }, take: 2, select: { email: true } });
  others = owners.map((o) => ({ email: o.email, password: OWNER.password }));
});
afterAll(async () => {
  await app?.close();
});

type Fetch = (request: Request) => Response | Promise<Response>;

const post = (fields: Record<string, string>, from: string, cookie?: string, fetch: Fetch = app.fetch, base = BASE) =>
  Promise.resolve(
    fetch(
      new Request(`${base}/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from, ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(fields),
      }),
    ),
  );

async function authorizeParams(scope = 'read write') {
  const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
  return new URLSearchParams({ response_type: 'code', client_id: 'porchlight-public', redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope });
}

/** The sign-in page's password form for a fresh authorization request. */
async function passwordForm(fetch: Fetch = app.fetch, base = BASE) {
  const res = await Promise.resolve(fetch(new Request(`${base}/authorize?${await authorizeParams()}`)));
  expect(res.status).toBe(200);
  return formFields(await res.text(), 'password-form');
}

/** `name=value` of a Set-Cookie header, as a browser sends it back. */
const cookieOf = (res: Response) => res.headers.get('set-cookie')?.split(';')[0];

describe('password sign-in limits', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('count failures only: ten wrong passwords from ten addresses do not lock out the owner', async () => {
    // The owner signed in once from this browser: it holds a device cookie for the account.
    const owner = others[0]!;
    const fields = await passwordForm();
    const first = await post({ ...fields, ...owner }, '198.51.100.10');
    expect(first.status).toBe(200);
    const device = cookieOf(first)!;
    expect(device).toMatch(/^porchlight_device=eyJ/);
    const attributes = first.headers.get('set-cookie')!;
    expect(attributes).toMatch(/; HttpOnly/);
    expect(attributes).toMatch(/; SameSite=Lax/);
    expect(attributes).toMatch(/; Path=\/authorize/);
    expect(attributes).not.toMatch(/; Secure/);

    // Time moves only when this test moves it (the limiter's windows and the service clock alike).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const waited: number[] = [];
    let wrong = 0;
    let from = 0;
    while (wrong < 10) {
      const res = await post({ ...fields, email: owner.email, password: `guess-${wrong}` }, `203.0.113.${++from}`);
      if (res.status === 429) {
        const retry = Number(res.headers.get('retry-after'));
        waited.push(retry);
        vi.setSystemTime(Date.now() + retry * 1000);
        continue;
      }
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('do not match');
      wrong++;
    }
    // The first failures were free; later ones had to wait, never longer than the cap.
    expect(waited.length).toBeGreaterThan(0);
    expect(Math.max(...waited)).toBeLessThanOrEqual(BACKOFF.maxSeconds);

    // With its device cookie the owner's browser signs in at once.
    const trusted = await post({ ...fields, ...owner }, '198.51.100.10', device);
    expect(trusted.status).toBe(200);
    expect(await trusted.text()).toContain('id="consent-form"');

    // Elsewhere (no cookie) the owner waits at most the capped delay, then gets in.
    const elsewhere = await post({ ...fields, ...owner }, '198.51.100.11');
    expect(elsewhere.status).toBe(429);
    const retry = Number(elsewhere.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(BACKOFF.maxSeconds);
    expect(await elsewhere.text()).not.toContain(owner.password);
    vi.setSystemTime(Date.now() + retry * 1000);
    expect((await post({ ...fields, ...owner }, '198.51.100.11')).status).toBe(200);
  });

  it('cap the per-account delay however many failures pile up', async () => {
    const email = 'nobody-capped@example.com';
    const fields = await passwordForm();
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    const waits: number[] = [];
    for (let wrong = 0, from = 0; wrong < BACKOFF.freeFailures + 10; ) {
      const res = await post({ ...fields, email, password: 'guess' }, `192.0.2.${++from}`);
      if (res.status === 429) {
        const retry = Number(res.headers.get('retry-after'));
        waits.push(retry);
        vi.setSystemTime(Date.now() + retry * 1000);
      } else {
        expect(res.status).toBe(400);
        wrong++;
      }
    }
    // 1, 2, 4 … seconds, then a minute at most.
    expect(Math.max(...waits)).toBeGreaterThan(BACKOFF.maxSeconds / 2);
    expect(Math.max(...waits)).toBeLessThanOrEqual(BACKOFF.maxSeconds);
  });

  it('never spend budget on a correct password, and still stop an address that keeps guessing', async () => {
    const fields = await passwordForm();
    const from = '198.51.100.20';
    for (let i = 0; i < 15; i++) expect((await post({ ...fields, ...OWNER }, from)).status).toBe(200);
    // Distinct e-mails, so only the address's budget is at stake: ten failures, then 429.
    for (let i = 0; i < 10; i++) expect((await post({ ...fields, email: `someone-${i}@example.com`, password: 'guess' }, from)).status).toBe(400);
    const limited = await post({ ...fields, ...OWNER }, from);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('stop trusting a device cookie once it has spent its own failure budget', async () => {
    const owner = others[1]!;
    const fields = await passwordForm();
    const device = cookieOf(await post({ ...fields, ...owner }, '198.51.100.30'))!;
    // The owner mistypes in their own browser, from many addresses: that spends the device's budget, not the account's.
    for (let i = 0; i < 10; i++) expect((await post({ ...fields, email: owner.email, password: 'typo' }, `198.51.100.${31 + i}`, device)).status).toBe(400);
    // The spent cookie now counts like none: the account's free failures, then its backoff.
    const statuses: number[] = [];
    for (let i = 0; i < 12 && !statuses.includes(429); i++) statuses.push((await post({ ...fields, email: owner.email, password: 'typo' }, `198.51.100.${60 + i}`, device)).status);
    expect(statuses.slice(0, BACKOFF.freeFailures)).toEqual(Array(BACKOFF.freeFailures).fill(400));
    expect(statuses).toContain(429);
  });

  it('marks the device cookie Secure when the service is served over https', async () => {
    const services = { ...app.services, config: { ...app.services.config, baseUrl: 'https://porchlight.test' } };
    const https = 'https://porchlight.test';
    const fetch = oauthRoutes(services).fetch;
    const res = await post({ ...(await passwordForm(fetch, https)), ...OWNER }, '198.51.100.90', undefined, fetch, https);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
  });
});

describe('consent tokens', () => {
  async function consentForm() {
    const fields = await passwordForm();
    const res = await post({ ...fields, ...OWNER }, '198.51.100.100');
    expect(res.status).toBe(200);
    return formFields(await res.text(), 'consent-form');
  }
  const codes = () => app.services.prisma.oAuthCode.count({ where: { clientId: 'porchlight-public' } });

  it('mint one authorization code: replaying the consent POST gets the error page and no second code', async () => {
    const consent = await consentForm();
    const allowed = await post(consent, '198.51.100.101');
    expect(allowed.status).toBe(303);
    expect(new URL(allowed.headers.get('location')!).searchParams.get('code')).toMatch(/^pac_/);
    const before = await codes();
    const replay = await post(consent, '198.51.100.102');
    expect(replay.status).toBe(400);
    expect(replay.headers.get('location')).toBeNull();
    const html = await replay.text();
    expect(html).toContain('This sign-in cannot continue');
    expect(html).toContain('already used');
    expect(await codes()).toBe(before);
  });

  it('let only one of two simultaneous consent POSTs through', async () => {
    const consent = await consentForm();
    const before = await codes();
    const answers = await Promise.all([post(consent, '198.51.100.103'), post(consent, '198.51.100.104')]);
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400]);
    expect(await codes()).toBe(before + 1);
  });
});

describe('control characters in the OAuth and key forms', () => {
  // Each reached PostgreSQL, which refuses NUL: a 500. They are refused as malformed, as in
  // every operation's input, before any lookup.
  const NUL = 'a\u0000b';
  const form = (path: string, fields: Record<string, string>) =>
    app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  const json = (path: string, body: unknown) => app.get(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('are invalid_request at /token and /revoke, invalid_client_metadata at /register', async () => {
    const token = await form('/token', { grant_type: 'refresh_token', client_id: NUL, refresh_token: 'prt_x' });
    expect(token.status).toBe(400);
    expect(await token.json()).toEqual({ error: 'invalid_request', error_description: 'client_id must not contain control characters.' });
    const revoke = await form('/revoke', { client_id: NUL, token: 'prt_x' });
    expect(revoke.status).toBe(400);
    expect((await revoke.json()).error).toBe('invalid_request');
    for (const metadata of [{ client_name: NUL, redirect_uris: [REDIRECT] }, { client_name: 'Helper', redirect_uris: [`${REDIRECT}\u0000`] }]) {
      const before = await app.services.prisma.oAuthClient.count();
      const r = await json('/register', metadata);
      expect(r.status).toBe(400);
      expect((await r.json()).error).toBe('invalid_client_metadata');
      expect(await app.services.prisma.oAuthClient.count()).toBe(before);
    }
  });

  it('stop the sign-in window with its error page', async () => {
    const params = await authorizeParams();
    params.set('client_id', NUL);
    const get = await app.get(`/authorize?${params}`);
    expect(get.status).toBe(400);
    expect(await get.text()).toContain('client_id must not contain control characters.');
    const signIn = await post({ ...(await passwordForm()), email: `${NUL}@example.com`, password: OWNER.password }, '198.51.100.120');
    expect(signIn.status).toBe(400);
    expect(signIn.headers.get('location')).toBeNull();
    expect(await signIn.text()).toContain('email must not contain control characters.');
  });

  it('are refused on the key form, NUL or not, and nothing is stored or mailed', async () => {
    const before = await app.services.prisma.keyRequest.count();
    for (const name of [NUL, 'Pat\u0001', 'Pat\u001b[31m']) {
      const r = await form('/key', { name, email: 'pat@example.com' });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(await r.text()).toContain('Type your name as plain text.');
    }
    expect(await app.services.prisma.keyRequest.count()).toBe(before);
  });
});

describe('the OAuth signing key at rest', () => {
  const grantOf = async () => {
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: 'sparkle-shine-cleaning-austin' } });
    const grant = await app.services.prisma.oAuthGrant.create({ data: { clientId: 'porchlight-public', businessId: business.id, scopes: ['read'] } });
    return { id: grant.id, clientId: grant.clientId, businessId: business.id, ownerId: null };
  };
  const rawRows = () => app.services.prisma.$queryRaw<Array<{ kid: string; raw: string }>>`SELECT kid, "privateJwk"::text AS raw FROM "SigningKey"`;
  const open = async (raw: string) => {
    const { plaintext } = await compactDecrypt(JSON.parse(raw) as string, app.services.secretsKey);
    return JSON.parse(new TextDecoder().decode(plaintext)) as JWK;
  };

  it('holds no private key member in clear, and tokens still sign and verify', async () => {
    const token = await issueAccessToken(app.services, await grantOf(), ['read'], BASE);
    expect(await accessTokenVerifier(app.services, token)).toMatchObject({ kind: 'oauth' });
    const rows = await rawRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.raw).not.toContain('"d"');
      const jwk = await open(row.raw);
      expect(jwk.kid).toBe(row.kid);
      expect(jwk.d).toBeTruthy();
      expect(row.raw).not.toContain(jwk.d);
    }
  });

  it('encrypts a row stored in plain text in place at start-up', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const kid = 'k_plaintext_legacy';
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: 'ES256' };
    await app.services.prisma.signingKey.create({
      data: { kid, alg: 'ES256', publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256' }, privateJwk, retiredAt: app.services.clock.date() },
    });
    await sealSigningKeys(app.services);
    const row = (await rawRows()).find((r) => r.kid === kid)!;
    expect(row.raw).not.toContain(privateJwk.d);
    expect((await open(row.raw)).d).toBe(privateJwk.d);
  });

  it('fails loudly with a wrong SECRETS_KEY, naming neither key', async () => {
    const wrong = randomBytes(32);
    const err = (await sealSigningKeys({ ...app.services, secretsKey: wrong }).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(/cannot be decrypted: SECRETS_KEY is not the key it was encrypted with/);
    expect(err.message).not.toContain(wrong.toString('base64url'));
    expect(err.message).not.toContain(Buffer.from(app.services.secretsKey).toString('base64url'));
  });
});

describe('SECRETS_KEY', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'porchlight-secrets-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const quiet = pino({ level: 'silent' });

  it('is generated into the data folder (mode 0600) for the embedded database, and kept', () => {
    const dataDir = join(tempDir(), 'data');
    const config = { ...loadConfig({ NODE_ENV: 'test' }), dataDir };
    const key = loadSecretsKey(config, quiet);
    expect(key).toHaveLength(32);
    const file = join(dataDir, SECRETS_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(Buffer.from(key).toString('base64url'));
    expect(loadSecretsKey(config, quiet)).toEqual(key);
  });

  it('comes from the environment when set, and a malformed one is refused without being echoed', () => {
    const value = randomBytes(32).toString('base64url');
    expect(Buffer.from(loadSecretsKey(loadConfig({ SECRETS_KEY: value, DATA_DIR: tempDir() }), quiet)).toString('base64url')).toBe(value);
    const bad = 'not-a-key-at-all';
    expect(() => loadSecretsKey(loadConfig({ SECRETS_KEY: bad, DATA_DIR: tempDir() }), quiet)).toThrow(/SECRETS_KEY must be 32 random bytes/);
    try {
      loadSecretsKey(loadConfig({ SECRETS_KEY: bad }), quiet);
    } catch (err) {
      expect((err as Error).message).not.toContain(bad);
    }
  });

  it('with DATABASE_URL: required in production, generated with a warning otherwise', async () => {
    const databaseUrl = 'postgres://127.0.0.1:1/nothing-listens-here';
    const production = { ...loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir() }), databaseUrl };
    expect(() => loadSecretsKey(production, quiet)).toThrow(/SECRETS_KEY is not set/);
    // The server refuses before it touches the database.
    await expect(createPorchlight({ ...production, logLevel: 'silent' })).rejects.toThrow(/SECRETS_KEY is not set/);

    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const dataDir = tempDir();
    const key = loadSecretsKey({ ...loadConfig({ NODE_ENV: 'development', DATA_DIR: dataDir }), databaseUrl }, logger);
    expect(key).toHaveLength(32);
    expect(statSync(join(dataDir, SECRETS_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(lines.join('\n')).toMatch(/SECRETS_KEY is not set/);
    expect(lines.join('\n')).not.toContain(Buffer.from(key).toString('base64url'));
  });
});

describe('the consent page', () => {
  it('says what the app wants in plain words, for read and for write', async () => {
    const page = async (scope: string) => (await app.get(`/authorize?${await authorizeParams(scope)}`)).text();
    const read = await page('read');
    expect(read).toContain("wants to see your business's bookings, messages and schedule on Porchlight.");
    const write = await page('read write');
    expect(write).toContain("wants to see and manage your business's bookings, messages and schedule on Porchlight.");
    expect(read + write).not.toContain('asks to');
  });
});
