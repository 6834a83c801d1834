import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createEvents } from '../../src/events/pubsub.js';

describe('events over Redis', () => {
  // Nothing listens on port 1: every Redis command fails at once.
  const options = { host: '127.0.0.1', port: 1, lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null };
  const publish = new Redis(options);
  const subscribe = new Redis(options);
  for (const client of [publish, subscribe]) client.on('error', () => {});
  afterAll(() => {
    publish.disconnect();
    subscribe.disconnect();
  });

  it('report a Redis outage instead of leaving rejections unhandled (which would end the process)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const errors: unknown[] = [];
    const events = createEvents({ publish, subscribe }, (err) => errors.push(err));
    const iterator = events.subscribe('bookingUpdated', 'b1')[Symbol.asyncIterator]();
    events.publish('bookingUpdated', 'b1', { position: '1', type: 'booking.updated', businessId: 'biz', bookingId: 'b1', at: new Date(0).toISOString() });
    await new Promise((r) => setTimeout(r, 100));
    process.off('unhandledRejection', onUnhandled);
    await iterator.return?.();
    expect(unhandled).toEqual([]);
    expect(errors.length).toBeGreaterThanOrEqual(1);
  });
});
