// Production never pretends: the BUILT server (npm run build; node dist/main.js), started with
// NODE_ENV=production, refuses to fall back to a sandbox, a local address or a generated key,
// one line per refusal naming the setting; with SANDBOX_PROVIDERS (a staging deployment) it
// serves, /healthz says which providers are sandboxes, and a sandbox's pages exist only while its
// provider is the sandbox. Development keeps its quiet defaults.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { productionRefusals, providerModes, sandboxPageServed } from '../../src/production.js';

const dirs: string[] = [];
const children: ChildProcess[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'porchlight-prod-'));
  dirs.push(dir);
  return dir;
};
const secretsKey = () => randomBytes(32).toString('base64url');

/** Nothing from the test's own environment leaks in: only what each case gives. */
const productionEnv = (env: Record<string, string>) => ({
  PATH: process.env.PATH ?? '',
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: '0',
  DATA_DIR: freshDir(),
  DATABASE_URL: '',
  LOG_LEVEL: 'info',
  ...env,
});

/** Runs the built server to its end (a refused start ends by itself). */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/main.js'], { env: productionEnv(env) });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the built server and waits until it listens; its log tells the port. */
function serve(env: Record<string, string>): Promise<{ url: string; log: () => string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/main.js'], { env: productionEnv(env) });
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const port = /listening on .* \(port (\d+),/.exec(out)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}`, log: () => out, child });
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening: ${err || out}`)));
  });
}

const lines = (text: string) => text.trim().split('\n');

beforeAll(() => {
  execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
}, 120_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a production start of the built server', () => {
  it('refuses every sandbox and missing setting, one line each naming it, no stack trace', async () => {
    const { code, stdout, stderr } = await runToExit({});
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const said = lines(stderr);
    expect(said).toHaveLength(6);
    expect(said[0]).toMatch(/^SMTP_URL is not set: .* or add mail to SANDBOX_PROVIDERS/);
    expect(said[1]).toMatch(/^TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are not all set: texts .* SANDBOX_PROVIDERS=texts/);
    expect(said[2]).toMatch(/^STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set: .* SANDBOX_PROVIDERS=payments/);
    expect(said[3]).toMatch(/^TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are not set: .* SANDBOX_PROVIDERS=phone/);
    expect(said[4]).toMatch(/^BASE_URL is not set: .* BASE_URL=https:\/\//);
    expect(said[5]).toMatch(/^SECRETS_KEY is not set: .*randomBytes\(32\)/);
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('refuses an http BASE_URL, a missing or malformed SECRETS_KEY and an unknown sandbox, naming each', async () => {
    const staging = { SANDBOX_PROVIDERS: 'mail,texts,payments,phone', BASE_URL: 'https://book.example.com', SECRETS_KEY: secretsKey() };
    const http = await runToExit({ ...staging, BASE_URL: 'http://book.example.com' });
    expect(http.code).toBe(1);
    expect(lines(http.stderr)).toEqual([expect.stringMatching(/^BASE_URL must be an https address in production.*"http:\/\/book\.example\.com"\.$/)]);

    const noKey = await runToExit({ ...staging, SECRETS_KEY: '' });
    expect(noKey.code).toBe(1);
    expect(lines(noKey.stderr)).toEqual([expect.stringMatching(/^SECRETS_KEY is not set: .*on the embedded database as on DATABASE_URL/)]);

    const badKey = await runToExit({ ...staging, SECRETS_KEY: 'short-and-guessable' });
    expect(badKey.code).toBe(1);
    expect(lines(badKey.stderr)).toEqual([expect.stringMatching(/^SECRETS_KEY must be 32 random bytes in base64url/)]);
    expect(badKey.stderr).not.toContain('short-and-guessable');

    const unknown = await runToExit({ ...staging, SANDBOX_PROVIDERS: 'mail,fax' });
    expect(unknown.code).toBe(1);
    expect(lines(unknown.stderr)).toEqual(['SANDBOX_PROVIDERS lists providers to run as sandboxes, any of mail,texts,payments,phone; "fax" is none of them.']);

    // A malformed setting read by the configuration is one line too, not a stack trace.
    const proxy = await runToExit({ ...staging, TRUST_PROXY: '1' });
    expect(proxy.code).toBe(1);
    expect(lines(proxy.stderr)).toEqual([expect.stringMatching(/^TRUST_PROXY lists the load balancers' addresses/)]);
  }, 60_000);

  it('serves a staging deployment that opts in to every sandbox, says so on /healthz, and seeds no demo data', async () => {
    // Two deployments at once: every sandbox opted in, and one that takes payments through Stripe.
    const [staging, stripe] = await Promise.all([
      serve({ SANDBOX_PROVIDERS: 'mail,texts,payments,phone', BASE_URL: 'https://staging.example.com', SECRETS_KEY: secretsKey() }),
      serve({
        SANDBOX_PROVIDERS: 'mail, texts,phone',
        STRIPE_SECRET_KEY: 'sk_test_not_a_real_key',
        STRIPE_WEBHOOK_SECRET: 'whsec_not_a_real_secret',
        BASE_URL: 'https://book.example.com',
        SECRETS_KEY: secretsKey(),
      }),
    ]);

    const health = await fetch(`${staging.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true, providers: { mail: 'sandbox', texts: 'sandbox', payments: 'sandbox', phone: 'sandbox' } });
    expect(staging.log()).not.toContain('demo data seeded');
    // The payment sandbox's pages are served (an unknown checkout is its own "No such checkout" page).
    const checkout = await fetch(`${staging.url}/sandbox/checkout/cs_unknown`);
    expect(checkout.status).toBe(404);
    expect(await checkout.text()).toContain('No such checkout');

    const live = await fetch(`${stripe.url}/healthz`);
    expect(await live.json()).toEqual({ ok: true, providers: { mail: 'sandbox', texts: 'sandbox', payments: 'live', phone: 'sandbox' } });
    // Payments are not opted in: no sandbox checkout, onboarding or billing portal exists there.
    for (const page of ['/sandbox/checkout/cs_unknown', '/sandbox/onboarding/token', '/sandbox/portal/token', '/sandbox/anything']) {
      const res = await fetch(`${stripe.url}${page}`);
      expect(res.status, page).toBe(404);
      expect(await res.json(), page).toMatchObject({ code: 'not_found' });
    }
    staging.child.kill('SIGTERM');
    stripe.child.kill('SIGTERM');
  }, 180_000);

  it('migrates and seeds a new data folder in a child process, and a restart prepares nothing', async () => {
    const env = { SANDBOX_PROVIDERS: 'mail,texts,payments,phone', BASE_URL: 'https://demo.example.com', SECRETS_KEY: secretsKey(), SEED_DEMO: 'true', DATA_DIR: freshDir() };
    const search = async (url: string) => ((await (await fetch(`${url}/api/v1/find_cleaners?zip=78704&bedrooms=2&bathrooms=1`)).json()) as { cleaners: unknown[] }).cleaners;
    const first = await serve(env);
    expect(first.log()).toContain('new data folder prepared');
    // The server itself applied and seeded nothing: the child did, and its data is served.
    expect(first.log()).not.toContain('migrations applied');
    expect(first.log()).not.toContain('demo data seeded');
    expect((await search(first.url)).length).toBeGreaterThan(0);
    await new Promise((resolve) => {
      first.child.once('exit', resolve);
      first.child.kill('SIGTERM');
    });

    const again = await serve(env);
    expect(again.log()).not.toContain('new data folder prepared');
    expect((await search(again.url)).length).toBeGreaterThan(0);
    again.child.kill('SIGTERM');
  }, 180_000);
});

describe('the settings behind it', () => {
  const key = secretsKey();
  const staging = { NODE_ENV: 'production', SANDBOX_PROVIDERS: 'mail,texts,payments,phone', BASE_URL: 'https://book.example.com', SECRETS_KEY: key };

  it('passes a production start with every provider real, and one opted in to every sandbox', () => {
    const live = loadConfig({
      NODE_ENV: 'production',
      SMTP_URL: 'smtps://u:p@mail.example.com',
      TWILIO_ACCOUNT_SID: 'AC123',
      TWILIO_AUTH_TOKEN: 'token',
      TWILIO_FROM: '+15125550100',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      VOICE_AGENT_URL: 'wss://agent.example.com/calls',
      BASE_URL: 'https://book.example.com/',
      SECRETS_KEY: key,
    });
    expect(productionRefusals(live)).toEqual([]);
    expect(providerModes(live)).toEqual({ mail: 'live', texts: 'live', payments: 'live', phone: 'live' });
    expect(productionRefusals(loadConfig(staging))).toEqual([]);
  });

  it('runs a provider named in SANDBOX_PROVIDERS as its sandbox even with its settings given', () => {
    const config = loadConfig({ ...staging, SANDBOX_PROVIDERS: 'texts', SMTP_URL: 'smtp://mail.example.com', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+15125550100', VOICE_AGENT_URL: 'wss://agent.example.com/calls' });
    // The carrier shares Twilio's account and stays real; texts are the sandbox.
    expect(providerModes(config)).toEqual({ mail: 'live', texts: 'sandbox', payments: 'sandbox', phone: 'live' });
    expect(productionRefusals(config).map((line) => line.split(' ')[0])).toEqual(['STRIPE_SECRET_KEY']);
  });

  it('seeds demo data in production only with SEED_DEMO=true, and in development unless SEED_DEMO=false', () => {
    expect(loadConfig(staging).seedDemo).toBe(false);
    expect(loadConfig({ ...staging, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).seedDemo).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development', SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('leaves development as it was: sandboxes without settings, a local BASE_URL, no refusals', () => {
    const dev = loadConfig({ NODE_ENV: 'development' });
    expect(productionRefusals(dev)).toEqual([]);
    expect(providerModes(dev)).toEqual({ mail: 'sandbox', texts: 'sandbox', payments: 'sandbox', phone: 'sandbox' });
    expect(sandboxPageServed(dev, '/sandbox/checkout/cs_1')).toBe(true);
  });

  it('serves a sandbox page only while its provider is the sandbox', () => {
    const config = loadConfig({ ...staging, SANDBOX_PROVIDERS: 'mail,texts,phone', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    expect(sandboxPageServed(config, '/sandbox/checkout/cs_1')).toBe(false);
    expect(sandboxPageServed(config, '/sandbox/onboarding/t')).toBe(false);
    expect(sandboxPageServed(config, '/sandbox/carrier/calls')).toBe(true);
    expect(sandboxPageServed(config, '/sandbox/unlisted')).toBe(false);
    expect(sandboxPageServed(loadConfig(staging), '/sandbox/portal/t')).toBe(true);
  });
});
