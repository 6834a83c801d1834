/**
 * Rate limits, per credential and per client address. rate-limiter-flexible keeps the counters
 * in memory, or in Redis when REDIS_URL is set so that several instances share one budget.
 * Windows are durations, so they are the same whatever the NOW offset of the clock.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type IRateLimiterOptions, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';

export interface Limiter {
  /** Counts one attempt for `key`; throws AppError('rate_limited') with retry_after (seconds) when over. */
  consume(key: string): Promise<void>;
  /** Gives back the point an attempt took (it succeeded, and only failures count). */
  refund(key: string): Promise<void>;
  /** Forgets `key`. */
  reset(key: string): Promise<void>;
}

/**
 * Exponential backoff for password sign-ins to one account. The first few failures cost
 * nothing; after that, each attempt holds the account for a delay that doubles with every
 * further failure (capped), so guessing slows to one try a minute while the owner, who
 * waits at most that long, is never locked out.
 */
export interface Backoff {
  /** Throws rate_limited (retry_after) while the account must wait; otherwise takes its turn. */
  attempt(key: string): Promise<void>;
  /** A wrong password: the next delay is longer. */
  failed(key: string): Promise<void>;
}

/** Budgets per window. Sign-in, code entry and connect are stricter than ordinary calls. */
export const LIMITS = {
  /** Any API call (REST, MCP, GraphQL), per credential or per client address (RATE_LIMIT_PER_MINUTE). */
  request: { points: 300, duration: 60 },
  /**
   * Bearer credentials checked per client address: charged before the lookup and given back when
   * the credential is valid, so only failed checks count.
   */
  credentialCheck: { points: 60, duration: 60 },
  /** Failed password sign-ins per client address (a correct password gives its point back). */
  signIn: { points: 10, duration: 15 * 60 },
  /** Failed password sign-ins through one device cookie; beyond it the cookie no longer skips the account backoff. */
  signInDevice: { points: 10, duration: 15 * 60 },
  /** Manage with AI code entries (sign-in window and /app/api/connect) per address. */
  code: { points: 10, duration: 15 * 60 },
  /** Wrong guesses at one code before it is spent. */
  codeAttempts: { points: 5, duration: 10 * 60 },
  /** Key requests at /key per address. */
  keyRequest: { points: 5, duration: 60 * 60 },
} as const;

/** Per-account sign-in backoff: free failures, then 1 s, 2 s, 4 s … up to a minute; failures are forgotten after an hour. */
export const BACKOFF = { freeFailures: 5, maxSeconds: 60, window: 60 * 60 } as const;

export type LimitName = keyof typeof LIMITS;
export type RateLimits = Record<LimitName, Limiter> & { signInBackoff: Backoff };

function rateLimited(res: unknown, what: string): unknown {
  if (!(res instanceof RateLimiterRes)) return res;
  const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new AppError('rate_limited', `Too many ${what}. Try again in ${retryAfter} seconds.`, { retry_after: retryAfter });
}

function wrap(limiter: RateLimiterAbstract, name: LimitName): Limiter {
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (res) {
        throw rateLimited(res, name === 'request' ? 'requests' : 'attempts');
      }
    },
    async refund(key) {
      await limiter.reward(key);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

function backoff(failures: RateLimiterAbstract, turns: RateLimiterAbstract): Backoff {
  return {
    async attempt(key) {
      const res = await failures.get(key);
      // The memory store may still hold an entry whose window has passed.
      const failed = res && (res.msBeforeNext > 0 || res.msBeforeNext === -1) ? res.consumedPoints : 0;
      const over = failed - BACKOFF.freeFailures;
      if (over < 0) return;
      // One turn per delay: taking it is atomic, so parallel guesses cannot share a turn.
      try {
        await turns.consume(key, 1, { customDuration: Math.min(BACKOFF.maxSeconds, 2 ** over) });
      } catch (err) {
        throw rateLimited(err, 'sign-in attempts for this account');
      }
    },
    async failed(key) {
      await failures.penalty(key);
    },
  };
}

export function createRateLimits(requestsPerMinute: number, redis?: Redis): RateLimits {
  const make = (opts: IRateLimiterOptions & { keyPrefix: string }) =>
    // If Redis is unreachable, each instance counts on its own rather than failing requests.
    redis ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts) }) : new RateLimiterMemory(opts);
  const limits = Object.fromEntries(
    (Object.keys(LIMITS) as LimitName[]).map((name) => {
      const budget = name === 'request' ? { points: requestsPerMinute, duration: 60 } : LIMITS[name];
      return [name, wrap(make({ ...budget, keyPrefix: `porchlight:rl:${name}` }), name)];
    }),
  ) as Record<LimitName, Limiter>;
  return {
    ...limits,
    signInBackoff: backoff(
      make({ points: BACKOFF.freeFailures, duration: BACKOFF.window, keyPrefix: 'porchlight:rl:signInFailures' }),
      make({ points: 1, duration: 1, keyPrefix: 'porchlight:rl:signInTurn' }),
    ),
  };
}
