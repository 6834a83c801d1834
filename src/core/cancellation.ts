/**
 * The cancellation terms that apply to a booking at a moment, as cancel_booking decides them:
 * free until 24 hours before the next visit; inside that, a confirmed booking still cancels but
 * late (the business may charge under its own policy); once its last visit has started, only
 * the business can. A pending booking (nothing booked yet) always cancels free.
 */
import { DAY } from './time.js';

export const FREE_CANCEL_MS = DAY;

export type CancellationTerms =
  | { kind: 'free'; freeUntil: number | null }
  | { kind: 'late'; nextStart: number }
  | { kind: 'started' }
  | { kind: 'closed' };

/** `holdUntil`: a pending booking's hold; once it has passed the booking has lapsed (closed). */
export function cancellationTerms(status: string, activeStarts: number[], now: number, holdUntil: number | null = null): CancellationTerms {
  if (status !== 'pending' && status !== 'confirmed') return { kind: 'closed' };
  if (status === 'pending' && holdUntil !== null && holdUntil <= now) return { kind: 'closed' };
  const next = activeStarts.filter((s) => s > now).sort((a, b) => a - b)[0];
  if (next === undefined) return { kind: 'started' };
  if (status === 'pending') return { kind: 'free', freeUntil: null };
  return next - now < FREE_CANCEL_MS ? { kind: 'late', nextStart: next } : { kind: 'free', freeUntil: next - FREE_CANCEL_MS };
}
