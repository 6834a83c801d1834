/** What the benchmark and its profilers share: the server's settings, and a count of the SQL it sends. */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** The benchmark's clock: every run sees the same open starts. */
export const NOW = '2026-11-23T15:00:00Z';

/**
 * The server's settings as a staging deployment on the demo data. Production refuses a plain-http
 * address and silent sandboxes, so it is opted in to every sandbox (it is reached on 127.0.0.1,
 * always served). Searches come from one address, which would be one caller's minute budget many
 * times over; bookings come from many customers behind a load balancer (the benchmark), each with
 * its own address.
 */
export const stagingSettings = (): Record<string, string> => ({
  NODE_ENV: 'production',
  NOW,
  BASE_URL: 'https://bench.porchlight.test',
  SANDBOX_PROVIDERS: 'mail,texts,payments,phone',
  SEED_DEMO: 'true',
  SECRETS_KEY: randomBytes(32).toString('base64url'),
  RATE_LIMIT_PER_MINUTE: '100000000',
  TRUST_PROXY: '127.0.0.1',
});

/**
 * Counts every statement this process sends (all connections, by its text's start) while
 * `counting` is on: the profilers' statements per request.
 */
export function statementCounter() {
  const texts = new Map<string, number>();
  const counter = { counting: false, texts, total: () => [...texts.values()].reduce((a, b) => a + b, 0) };
  const query = pg.Client.prototype.query;
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    if (counter.counting) {
      const a = args[0] as string | { text?: string } | undefined;
      const key = String(typeof a === 'string' ? a : (a?.text ?? '?')).replace(/\s+/g, ' ').slice(0, 110);
      texts.set(key, (texts.get(key) ?? 0) + 1);
    }
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  };
  return { counter, query };
}

/** CPU milliseconds these processes (PostgreSQL's backends) have used, read from /proc. */
export function cpuMsOf(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // The backend ended meanwhile.
    }
  }
  return ticks * 10;
}
