/**
 * Live events, published after the change that causes them has committed. graphql-yoga's
 * pub/sub: in-process by default, over Redis (so every instance hears every event) when
 * REDIS_URL is set.
 */
import { createPubSub, type PubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';
import { setMaxListeners } from 'node:events';

/** What an owner hears about: new bookings (also from assistants), cancellations, messages. */
export interface OwnerEventPayload {
  type: string;
  at: string;
  bookingId?: string;
  inquiryId?: string;
  /** The assistant that made the change (X-Client-Name), shown to the owner. */
  clientName?: string;
}

export type Channels = {
  /** A booking's status changed or the business messaged about it. */
  bookingUpdated: [bookingId: string, payload: { bookingId: string; at: string }];
  /** A business answered a conversation. */
  inquiryReplied: [inquiryId: string, payload: { inquiryId: string; at: string }];
  ownerEvent: [businessId: string, payload: OwnerEventPayload];
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

/**
 * A booking changed after its transaction committed: its subscribers hear `bookingUpdated`
 * (they reload it) and its business's owner hears `type` (booking.cancelled, ...).
 */
export function publishBookingChange(
  events: Events,
  change: { bookingId: string; businessId: string; type: string; at: Date | number; clientName?: string | null },
): void {
  const at = new Date(change.at).toISOString();
  events.publish('bookingUpdated', change.bookingId, { bookingId: change.bookingId, at });
  events.publish('ownerEvent', change.businessId, {
    type: change.type,
    at,
    bookingId: change.bookingId,
    ...(change.clientName ? { clientName: change.clientName } : {}),
  });
}

/** A grant or key was revoked (after the revocation committed): every instance closes the WebSockets using it. */
export function publishCredentialRevoked(events: Events, credentialId: string): void {
  events.publish('credentialRevoked', credentialId, { credentialId });
}
