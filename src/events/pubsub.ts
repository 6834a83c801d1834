/**
 * Live events, published after the change that causes them has committed (see emit.ts). graphql-yoga's
 * pub/sub: in-process by default, over Redis (so every instance hears every event) when
 * REDIS_URL is set.
 */
import { createPubSub, type PubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';
import { setMaxListeners } from 'node:events';
import type { PublishedEvent } from './kinds.js';

export type Channels = {
  /** A booking's status changed or the business messaged about it. */
  bookingUpdated: [bookingId: string, payload: PublishedEvent];
  /** A business answered a conversation. */
  inquiryReplied: [inquiryId: string, payload: PublishedEvent];
  ownerEvent: [businessId: string, payload: PublishedEvent];
  /** An OAuth grant or API key (by credential id) was revoked: connections using it must end. */
  credentialRevoked: [credentialId: string, payload: { credentialId: string }];
};

export type Events = PubSub<Channels>;

/**
 * `redis` publishes; a second connection is needed for subscribing (Redis's rule). The event
 * target fires Redis commands without awaiting them, so a Redis outage would surface as
 * unhandled rejections (which end a Node process): failures are reported to `onError` instead.
 */
export function createEvents(redis?: { publish: Redis; subscribe: Redis }, onError: (err: unknown) => void = () => {}): Events {
  if (redis) {
    const { publish, subscribe } = redis;
    const publishClient = { publish: (channel: string, message: string) => publish.publish(channel, message).catch(onError) } as unknown as Redis;
    const subscribeClient = {
      on: (event: 'message', listener: (channel: string, message: string) => void) => subscribe.on(event, listener),
      subscribe: (channel: string) => subscribe.subscribe(channel).catch(onError),
      unsubscribe: (channel: string) => subscribe.unsubscribe(channel).catch(onError),
    } as unknown as Redis;
    return createPubSub<Channels>({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) });
  }
  // Every subscriber to a topic is one listener; hundreds on one booking are normal, not a leak.
  const local = new EventTarget();
  setMaxListeners(0, local);
  return createPubSub<Channels>({ eventTarget: local });
}
/** A grant or key was revoked (after the revocation committed): every instance closes the WebSockets using it. */
export function publishCredentialRevoked(events: Events, credentialId: string): void {
  events.publish('credentialRevoked', credentialId, { credentialId });
}
