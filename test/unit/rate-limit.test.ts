import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { createRateLimits } from '../../src/auth/rate-limit.js';

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
});
