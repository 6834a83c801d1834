/**
 * Live events, published after the change that causes them has committed. graphql-yoga's
 * pub/sub: in-process by default, over Redis (so every instance hears every event) when
 * REDIS_URL is set.
 */
import { createPubSub, type PubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';

/** What an owner hears about: new bookings (also from assistants), cancellations, messages. */
export interface OwnerEventPayload {
  type: string;
  at: string;
  bookingId?: string;
  inquiryId?: string;
}

export type Channels = {
  /** A booking's status changed or the business messaged about it. */
  bookingUpdated: [bookingId: string, payload: { bookingId: string; at: string }];
  /** A business answered a conversation. */
  inquiryReplied: [inquiryId: string, payload: { inquiryId: string; at: string }];
  ownerEvent: [businessId: string, payload: OwnerEventPayload];
};

export type Events = PubSub<Channels>;

/** `redis` publishes; a second connection is needed for subscribing (Redis's rule). */
export function createEvents(redis?: { publish: Redis; subscribe: Redis }): Events {
  return createPubSub<Channels>(
    redis ? { eventTarget: createRedisEventTarget({ publishClient: redis.publish, subscribeClient: redis.subscribe }) } : undefined,
  );
}
