import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock.js';
import { loadConfig } from '../../src/config.js';
import { createPorchlight } from '../../main.js';
import { hashToken } from '../../src/auth/tokens.js';
import { createManageCode, redeemManageCode } from '../../src/auth/manage-codes.js';
import { demoIds } from '../../src/demo/generate.js';
import { BASE, TEST_NOW, lastMailTo, onPostgres, startApp, type TestApp } from '../helpers/harness.js';

const run = promisify(execFile);
const EIGHT = /^[A-HJKMNP-Z2-9]{8}$/;
const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});
const connect = (app: TestApp, body: unknown) =>
  app.get('/app/api/connect', { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Runs `npm run manage-code` the way the script does after prisma generate. */
const manageCodeCli = (slug: string, env: Record<string, string | undefined>) =>
  run(join('node_modules', '.bin', 'tsx'), ['scripts/manage-code.ts', slug], { env: { ...process.env, NOW: TEST_NOW, ...env } }).then(
    (r) => ({ exitCode: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ exitCode: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let app: TestApp;
let businessId: string;
beforeAll(async () => {
  app = await startApp();
  businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).id;
});
afterAll(async () => app?.close());

/** Requests a key at /key and returns the token of the mailed confirmation link. */
async function requestKey(name: string, email: string) {
  const res = await app.get('/key', form({ name, email }));
  expect(res.status).toBe(200);
  expect(await res.text()).toContain('Check your mail');
  const mail = await lastMailTo(app, email);
  expect(mail?.text).toContain(`${BASE}/key/confirm/kr_`);
  return /\/key\/confirm\/(kr_[\w-]+)/.exec(mail!.text)![1]!;
}

describe('personal keys at /key', () => {
  let key: string;

  it('serves a plain form that works without JavaScript', async () => {
    const res = await app.get('/key');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<form method="post" action="\/key">/);
    expect(html).toContain('name="name"');
    expect(html).toContain('name="email"');
    expect(html).not.toContain('<script');
  });

  it('explains invalid input on the page with 400 and shows typed text escaped', async () => {
    const res = await app.get('/key', form({ name: '', email: '<b>nope</b>' }));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Enter your name.');
    expect(html).toContain('Enter a valid e-mail address');
    expect(html).toContain('&lt;b&gt;nope&lt;/b&gt;');
    expect(html).not.toContain('<b>nope</b>');
    const long = await app.get('/key', form({ name: 'x'.repeat(101), email: `${'a'.repeat(195)}@example.com` }));
    expect(long.status).toBe(400);
    const text = await long.text();
    expect(text).toContain('at most 100 characters');
    expect(text).toContain('at most 200 characters');
    expect(await app.services.prisma.keyRequest.count()).toBe(0);
  });

  it('mails a link whose GET creates nothing and whose POST shows the key once', async () => {
    const token = await requestKey('Kim Key', 'kim.key@example.com');
    const stored = await app.services.prisma.keyRequest.findFirstOrThrow({ where: { email: 'kim.key@example.com' } });
    expect(stored.tokenHash).toBe(hashToken(token));
    expect(stored.expiresAt.getTime() - Date.parse(TEST_NOW)).toBeGreaterThan(23.9 * 3600_000);

    // A link scanner's GET only sees the button.
    const shown = await app.get(`/key/confirm/${token}`);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Show my key');
    expect(await app.services.prisma.apiKey.count({ where: { kind: 'personal' } })).toBe(0);

    const created = await app.get(`/key/confirm/${token}`, { method: 'POST' });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const html = await created.text();
    const keys = html.match(/sk_live_[\w-]+/g) ?? [];
    expect(keys).toHaveLength(1);
    key = keys[0]!;
    const row = await app.services.prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashToken(key) } });
    expect(row).toMatchObject({ kind: 'personal', name: 'Kim Key', email: 'kim.key@example.com', scopes: ['read', 'write'], hint: key.slice(0, 12), businessId: null });

    for (const method of ['POST', 'GET']) {
      const again = await app.get(`/key/confirm/${token}`, { method });
      expect(again.status).toBe(400);
      const text = await again.text();
      expect(text).toContain('already used');
      expect(text).not.toContain('sk_live_');
      expect(text).not.toContain(token);
    }
    expect(await app.services.prisma.apiKey.count({ where: { kind: 'personal' } })).toBe(1);
  });

  it('refuses unknown and expired links with a 400 page', async () => {
    expect((await app.get('/key/confirm/kr_made-up', { method: 'POST' })).status).toBe(400);
    const token = await requestKey('Lee Late', 'lee.late@example.com');
    await app.services.prisma.keyRequest.update({ where: { tokenHash: hashToken(token) }, data: { expiresAt: new Date(Date.parse(TEST_NOW) - 1000) } });
    const res = await app.get(`/key/confirm/${token}`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('expired');
  });

  it('the key works as a bearer credential; a made-up one is refused with 401', async () => {
    const search = { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1 };
    expect((await app.rest('find_cleaners', search, bearer(key))).status).toBe(200);
    const bad = await app.rest('find_cleaners', search, bearer('sk_live_x'));
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('unauthorized');
    expect(JSON.stringify(bad.body)).not.toContain('sk_live_x');
  });

  it('books with the key (its name and e-mail) and my_bookings lists the booking', async () => {
    const job = { bedrooms: 2, bathrooms: 1 };
    const t = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, days: 14 });
    expect(t.status).toBe(200);
    const booked = await app.rest(
      'book_cleaning',
      { pro_id: demoIds.cleanerAustin, ...job, start: t.body.starts[0], price: t.body.price, zip: demoIds.austinZip, address: '1100 S Congress Ave, Austin TX' },
      bearer(key),
    );
    expect(booked.status).toBe(200);
    expect((await lastMailTo(app, 'kim.key@example.com'))?.text).toContain(booked.body.booking_id);
    const mine = await app.rest('my_bookings', {}, bearer(key));
    expect(mine.status).toBe(200);
    expect(mine.body.bookings.map((b: { booking_id: string }) => b.booking_id)).toEqual([booked.body.booking_id]);
    expect((await app.rest('my_bookings', {})).body.bookings).toEqual([]);
  });

  it('refuses a revoked key', async () => {
    await app.services.prisma.apiKey.update({ where: { keyHash: hashToken(key) }, data: { revokedAt: new Date(Date.parse(TEST_NOW)) } });
    const res = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1 }, bearer(key));
    expect(res.status).toBe(401);
  });

  it('rate-limits key requests per address with a 429 page and Retry-After', async () => {
    await app.services.rateLimits.keyRequest.reset('address:local');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await app.get('/key', form({ name: 'Flood', email: `flood${i}@example.com` }))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const res = await app.get('/key', form({ name: 'Flood', email: 'flood9@example.com' }));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.text()).toContain('Too many');
    await app.services.rateLimits.keyRequest.reset('address:local');
  });
});

describe('Manage with AI codes and POST /app/api/connect', () => {
  const ownerOnly = 'mutation { createManageCode { code expiresAt } }';

  it('creates an 8-character code valid 10 minutes and stores only its hash', async () => {
    const { code, expiresAt } = await createManageCode(app.services, businessId);
    expect(code).toMatch(EIGHT);
    expect(expiresAt.getTime() - app.services.clock.now()).toBeGreaterThan(9.9 * 60_000);
    expect(expiresAt.getTime() - app.services.clock.now()).toBeLessThanOrEqual(10 * 60_000);
    const row = await app.services.prisma.manageCode.findUniqueOrThrow({ where: { codeHash: hashToken(code) } });
    expect(row.businessId).toBe(businessId);
    expect(await app.services.prisma.manageCode.count({ where: { codeHash: code } })).toBe(0);
  });

  it('exchanges a code (any case, with a dash) for an sk_pro_ key that acts as the owner; the code works once', async () => {
    const { code } = await createManageCode(app.services, businessId);
    const typed = `${code.slice(0, 4).toLowerCase()}-${code.slice(4)}`;
    const res = await connect(app, { code: typed });
    expect(res.status).toBe(200);
    const { key } = (await res.json()) as { key: string };
    expect(key).toMatch(/^sk_pro_[\w-]+$/);
    const row = await app.services.prisma.apiKey.findUniqueOrThrow({ where: { keyHash: hashToken(key) } });
    expect(row).toMatchObject({ kind: 'business', businessId, scopes: ['read', 'write'], hint: key.slice(0, 12) });
    expect((await app.services.prisma.manageCode.findUniqueOrThrow({ where: { codeHash: hashToken(code) } })).usedAt).not.toBeNull();

    expect(row.expiresAt!.getTime() - row.createdAt.getTime()).toBe(180 * 24 * 3600_000);
    expect((await app.rest('my_business', {}, bearer(key))).status).toBe(200);
    // A key acts as the owner, but it cannot mint more credentials: codes come from the dashboard
    // (this test asserted the opposite before issue 18 item 3).
    const owner = await app.graphql(ownerOnly, {}, bearer(key));
    expect(owner.status).toBe(403);
    expect(owner.body.errors[0].extensions.code).toBe('insufficient_scope');

    const again = await connect(app, { code });
    expect(again.status).toBe(400);
    const body = (await again.json()) as { error: string; code: string };
    expect(body.code).toBe('invalid_input');
    expect(body.error).toMatch(/not valid/);
    expect(JSON.stringify(body)).not.toContain(code);
  });

  it('createManageCode needs the owner signed in to the dashboard', async () => {
    const anonymous = await app.graphql(ownerOnly);
    expect(anonymous.body.errors[0].extensions.code).toBe('unauthorized');
    expect(anonymous.body.errors[0].message).toContain('/app');
    const shared = await app.graphql(ownerOnly, {}, bearer(app.services.config.publicSharedKey));
    expect(shared.body.errors[0].extensions.code).toBe('insufficient_scope');
  });

  it('lets only one of two concurrent redemptions of a code succeed', async () => {
    const { code } = await createManageCode(app.services, businessId);
    const results = await Promise.all([connect(app, { code }), connect(app, { code })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await app.services.prisma.apiKey.count({ where: { kind: 'business' } })).toBe(2);
  });

  it('refuses a code after its 10 minutes', async () => {
    const { code } = await createManageCode(app.services, businessId);
    const realClock = app.services.clock;
    app.services.clock = new Clock(realClock.now() + 10 * 60_000 + 1000);
    try {
      const res = await connect(app, { code });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_input');
      await expect(redeemManageCode(app.services, code, 'test')).rejects.toMatchObject({ code: 'invalid_input' });
    } finally {
      app.services.clock = realClock;
    }
  });

  it('answers a body without a code with 400', async () => {
    for (const body of ['not json', {}, { code: 42 }]) {
      const res = await connect(app, body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('invalid_input');
    }
  });

  it('refuses wrong codes with 400, then rate-limits the address with 429 and Retry-After', async () => {
    await app.services.rateLimits.code.reset('address:local');
    for (let i = 0; i < 10; i++) expect((await connect(app, { code: `WRONG${i}XY` })).status).toBe(400);
    const limited = await connect(app, { code: 'WRONGZZZ' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await limited.json()) as { code: string; error: string };
    expect(body.code).toBe('rate_limited');
    expect(body.error).not.toContain('WRONGZZZ');
    await app.services.rateLimits.code.reset('address:local');
  });

  it('throttles replays of a spent code from any address', async () => {
    const { code } = await createManageCode(app.services, businessId);
    await redeemManageCode(app.services, code, 'first');
    for (let i = 0; i < 5; i++) await expect(redeemManageCode(app.services, code, `replay-${i}`)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(redeemManageCode(app.services, code, 'replay-5')).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('npm run manage-code prints a working code while the app holds the database open', async () => {
    const env = { DATA_DIR: app.services.config.dataDir, DATABASE_URL: app.services.config.databaseUrl ?? '' };
    const out = await manageCodeCli(demoIds.cleanerAustin, env);
    expect(out.exitCode).toBe(0);
    const code = out.stdout.trim();
    expect(code).toMatch(EIGHT);
    expect(out.stderr).not.toContain(code);
    expect((await connect(app, { code })).status).toBe(200);

    const unknown = await manageCodeCli('no-such-business', env);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toContain('No business has the slug "no-such-business"');
  });
});

describe.skipIf(onPostgres)('npm run manage-code on a stopped embedded database', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-cli-'));
  const config = { ...loadConfig({ NODE_ENV: 'test' }), dataDir, now: TEST_NOW, baseUrl: BASE };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('opens the data folder itself, and the next server start accepts the code', async () => {
    await (await createPorchlight(config)).close();
    const out = await manageCodeCli(demoIds.cleanerAustin, { DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(out.exitCode).toBe(0);
    const code = out.stdout.trim();
    expect(code).toMatch(EIGHT);
    const server = await createPorchlight(config);
    try {
      const res = await server.fetch(new Request(`${BASE}/app/api/connect`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }) }));
      expect(res.status).toBe(200);
    } finally {
      await server.close();
    }
  }, 90_000);
});

describe('deployment variants', () => {
  it('6-letter codes (MANAGE_CODE_LENGTH=6) are exchanged at /app/api/connect', async () => {
    const six = await startApp({ env: { MANAGE_CODE_LENGTH: '6' } });
    try {
      const id = (await six.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).id;
      const { code } = await createManageCode(six.services, id);
      expect(code).toMatch(/^[A-HJKMNP-Z]{6}$/);
      const res = await connect(six, { code: code.toLowerCase() });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { key: string }).key).toMatch(/^sk_pro_/);
    } finally {
      await six.close();
    }
  });

  it('CONNECT_ROUTE=off does not serve /app/api/connect', async () => {
    const off = await startApp({ env: { CONNECT_ROUTE: 'off' } });
    try {
      const id = (await off.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).id;
      const { code } = await createManageCode(off.services, id);
      const res = await connect(off, { code });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('not_found');
      // The code itself still works elsewhere (the sign-in window).
      await expect(redeemManageCode(off.services, code, 'local')).resolves.toEqual({ businessId: id });
    } finally {
      await off.close();
    }
  });
});
