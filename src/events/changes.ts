/**
 * Committed changes to a business, for the caches that copy it. A write says what business it
 * changed (`changed(tx, businessId)`); once its transaction commits every subscriber hears it,
 * and never if it rolls back. One subscriber (the composition root) keeps this process's caches
 * in step with them and with other processes' commits (their change notices), so no write drops
 * a cache entry by hand.
 */
import { onCommit, type AnyTx } from '../db/transaction.js';

export type ChangeSubscriber = (businessId: string) => void;

export class Changes {
  private readonly subscribers: ChangeSubscriber[] = [];

  /** `tx` changed what customers see of the business (menu, team, calendar, payment readiness, published page). */
  changed(tx: AnyTx, businessId: string): void {
    onCommit(tx, () => {
      for (const subscriber of this.subscribers) subscriber(businessId);
    });
  }

  subscribe(subscriber: ChangeSubscriber): void {
    this.subscribers.push(subscriber);
  }
}
