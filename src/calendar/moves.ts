import { invalid } from '../errors.js';
import { parseStart } from '../core/time.js';

/**
 * The new start of a move (every reschedule): an ISO 8601 instant with its offset, still ahead.
 * `from` names where open starts come from, for the example in the refusal.
 */
export function moveStart(raw: string, now: number, from: string): number {
  const start = parseStart(raw);
  if (start === null) throw invalid(`start must be an ISO 8601 timestamp with its offset, e.g. a start from ${from} such as 2026-12-01T10:00:00-08:00.`);
  if (start <= now) throw invalid('start is in the past; pick a start that is still ahead.');
  return start;
}
