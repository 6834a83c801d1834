/**
 * A refused start (time_unavailable) names the open starts nearest to it, of the same business
 * and job, so an assistant can offer them at once instead of searching again. Worked out only on
 * that refusal, after the booking's transaction has ended.
 */
import { AppError } from '../errors.js';
import { parseStart } from '../core/time.js';

/** Starts offered with a refusal. */
export const NEAREST_COUNT = 3;

/** The `count` starts nearest to `wanted` (itself left out), in time order. */
export function nearest(starts: readonly string[], wanted: number, count = NEAREST_COUNT): string[] {
  return starts
    .map((iso) => ({ iso, at: parseStart(iso)! }))
    .filter((s) => s.at !== wanted)
    .sort((a, b) => Math.abs(a.at - wanted) - Math.abs(b.at - wanted) || a.at - b.at)
    .slice(0, count)
    .sort((a, b) => a.at - b.at)
    .map((s) => s.iso);
}

/**
 * `err` as thrown, or, when it is a time_unavailable refusal, the same refusal naming up to three
 * open starts nearest to `wanted` (in its message and as `open_starts`). `open` lists open starts
 * around `wanted`; should it fail, the refusal goes out as it was.
 */
export async function withOpenStarts(err: unknown, wanted: number | null, open: () => Promise<readonly string[]>): Promise<unknown> {
  if (!(err instanceof AppError) || err.code !== 'time_unavailable' || wanted === null || 'open_starts' in err.extra) return err;
  let near: string[];
  try {
    near = nearest(await open(), wanted);
  } catch {
    return err;
  }
  const told = near.length ? ` The nearest open starts: ${near.join(', ')}.` : ' There is no open start within a few days of it.';
  return new AppError('time_unavailable', err.message + told, { ...err.extra, open_starts: near });
}
