import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { randomBytes } from 'node:crypto';
import { BACKOFF, createRateLimits } from '../../src/auth/rate-limit.js';

describe('rate limits', () => {
  it('refuse the call over budget with rate_limited and a retry_after in seconds', async () => {
    const limits = createRateLimits(2);
    await limits.request.consume('a');
    await limits.request.consume('a');
    const err = await limits.request.consume('a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('rate_limited');
    expect((err as AppError).extra.retry_after).toBeGreaterThan(0);
    expect((err as AppError).extra.retry_after).toBeLessThanOrEqual(60);
    // Another key has its own budget; a reset forgets one.
    await limits.request.consume('b');
    await limits.request.reset('a');
    await limits.request.consume('a');
  });

  // Nothing listens on port 1: every Redis command fails at once.
  const down = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  afterAll(() => down.disconnect());

  it('keep counting in memory when Redis is unreachable, rather than failing the request', async () => {
    const limits = createRateLimits(1, down);
    await limits.request.consume('c');
    const err = await limits.request.consume('c').catch((e: unknown) => e);
    expect((err as AppError).code).toBe('rate_limited');
  });

  const redisUrl = process.env.REDIS_URL;
  const stores = [['memory', undefined], ...(redisUrl ? [['Redis', redisUrl] as const] : [])] as const;
  for (const [store, url] of stores) {
    it(`back off per account on ${store}: failures only, doubling, capped, one turn at a time`, async () => {
      const redis = url ? new Redis(url) : undefined;
      try {
        const { signInBackoff } = createRateLimits(300, redis);
        const retryAfter = (key: string) => signInBackoff.attempt(key).then(() => 0, (e: AppError) => e.extra.retry_after as number);
        const failed = async (key: string, n: number) => {
          for (let i = 0; i < n; i++) await signInBackoff.failed(key);
        };
        const key = (name: string) => `test:${name}:${randomBytes(6).toString('hex')}`;
        // Free failures: no waiting, however many attempts.
        const free = key('free');
        await failed(free, BACKOFF.freeFailures - 1);
        for (let i = 0; i < 3; i++) expect(await retryAfter(free)).toBe(0);
        // Then each attempt takes a turn of 2^(failures - free) seconds.
        const six = key('six');
        await failed(six, BACKOFF.freeFailures + 1);
        expect(await retryAfter(six)).toBe(0);
        expect(await retryAfter(six)).toBe(2);
        const many = key('many');
        await failed(many, BACKOFF.freeFailures + 30);
        expect(await retryAfter(many)).toBe(0);
        expect(await retryAfter(many)).toBe(BACKOFF.maxSeconds);
      } finally {
        redis?.disconnect();
      }
    });
  }
});
