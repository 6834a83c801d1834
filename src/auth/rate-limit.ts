/**
 * Rate limits, per credential and per client address. rate-limiter-flexible keeps the counters
 * in memory, or in Redis when REDIS_URL is set so that several instances share one budget.
 * Windows are durations, so they are the same whatever the NOW offset of the clock.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../errors.js';

export interface Limiter {
  /** Counts one attempt for `key`; throws AppError('rate_limited') with retry_after (seconds) when over. */
  consume(key: string): Promise<void>;
  /** Gives back one attempt counted for `key` (it turned out not to be abuse). */
  reward(key: string): Promise<void>;
  /** Forgets `key` (after a successful sign-in, say). */
  reset(key: string): Promise<void>;
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
  /** Password sign-ins per address and per e-mail. */
  signIn: { points: 10, duration: 15 * 60 },
  /** Manage with AI code entries (sign-in window and /app/api/connect) per address. */
  code: { points: 10, duration: 15 * 60 },
  /** Wrong guesses at one code before it is spent. */
  codeAttempts: { points: 5, duration: 10 * 60 },
  /** Key requests at /key per address. */
  keyRequest: { points: 5, duration: 60 * 60 },
} as const;

export type LimitName = keyof typeof LIMITS;
export type RateLimits = Record<LimitName, Limiter>;

function wrap(limiter: RateLimiterAbstract, name: LimitName): Limiter {
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        throw new AppError('rate_limited', `Too many ${name === 'request' ? 'requests' : 'attempts'}. Try again in ${retryAfter} seconds.`, {
          retry_after: retryAfter,
        });
      }
    },
    async reward(key) {
      await limiter.reward(key, 1);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

export function createRateLimits(requestsPerMinute: number, redis?: Redis): RateLimits {
  const make = (name: LimitName) => {
    const budget = name === 'request' ? { points: requestsPerMinute, duration: 60 } : LIMITS[name];
    const opts = { ...budget, keyPrefix: `porchlight:rl:${name}` };
    // If Redis is unreachable, each instance counts on its own rather than failing requests.
    const limiter = redis ? new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: new RateLimiterMemory(opts) }) : new RateLimiterMemory(opts);
    return wrap(limiter, name);
  };
  return Object.fromEntries(Object.keys(LIMITS).map((n) => [n, make(n as LimitName)])) as RateLimits;
}
