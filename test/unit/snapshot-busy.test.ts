import { describe, expect, it } from 'vitest';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { SearchSnapshot } from '../../src/search/snapshot.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-23T15:00:00Z');
const ids = Array.from({ length: 20 }, (_, i) => `b${i}`);

/** A snapshot over a fake database: busy reads are counted and answered from `blocks`. */
function snapshotWith(blocks: Map<string, { start: number; end: number }[]>) {
  const reads: string[][] = [];
  const query = async <R>(statement: Prisma.Sql): Promise<R[]> => {
    const asked = statement.values.find((v): v is string[] => Array.isArray(v)) ?? [];
    reads.push(asked);
    return asked.flatMap((id) =>
      (blocks.get(id) ?? []).map((b, i) => ({ businessId: id, ref: `${id}-k${i}`, start: new Date(b.start), end: new Date(b.end), holdUntil: null })),
    ) as R[];
  };
  let now = NOW;
  const snapshot = new SearchSnapshot(query, () => now);
  return { snapshot, reads, later: (ms: number) => (now += ms) };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe("a search's list of businesses is checked whole once, and again after any change", () => {
  it('reads busy time once, then answers from memory', async () => {
    const { snapshot, reads } = snapshotWith(new Map());
    await snapshot.ensureBusy(ids, NOW, NOW + 14 * 24 * HOUR);
    expect(reads).toEqual([ids]);
    await snapshot.ensureBusy(ids, NOW + 1000, NOW + 14 * 24 * HOUR + 1000);
    expect(reads).toHaveLength(1);
  });

  it('reads again beyond what was loaded', async () => {
    const { snapshot, reads } = snapshotWith(new Map());
    await snapshot.ensureBusy(ids, NOW, NOW + 14 * 24 * HOUR);
    await snapshot.ensureBusy(ids, NOW, NOW + 200 * 24 * HOUR);
    expect(reads).toHaveLength(2);
  });

  it("follows another process's change to one business", async () => {
    const blocks = new Map<string, { start: number; end: number }[]>();
    const { snapshot, reads } = snapshotWith(blocks);
    const span = [NOW, NOW + 14 * 24 * HOUR] as const;
    await snapshot.ensureBusy(ids, ...span);
    blocks.set('b3', [{ start: NOW + HOUR, end: NOW + 2 * HOUR }]);
    snapshot.changed('schedule', 'b3');
    await settle();
    expect(reads.at(-1)).toEqual(['b3']);
    await snapshot.ensureBusy(ids, ...span);
    expect(snapshot.busyFor('b3', ...span)).toEqual([{ ref: 'b3-k0', start: NOW + HOUR, end: NOW + 2 * HOUR }]);
  });

  it('reloads every business after notices may have been missed', async () => {
    const blocks = new Map<string, { start: number; end: number }[]>();
    const { snapshot, reads } = snapshotWith(blocks);
    const span = [NOW, NOW + 14 * 24 * HOUR] as const;
    await snapshot.ensureBusy(ids, ...span);
    blocks.set('b7', [{ start: NOW + HOUR, end: NOW + 2 * HOUR }]);
    snapshot.reset();
    await snapshot.ensureBusy(ids, ...span);
    await settle();
    expect(reads.slice(1).flat().sort()).toEqual([...ids].sort());
    expect(snapshot.busyFor('b7', ...span)).toHaveLength(1);
  });

  it("keeps this process's own patches without reading", async () => {
    const { snapshot, reads } = snapshotWith(new Map());
    const span = [NOW, NOW + 14 * 24 * HOUR] as const;
    await snapshot.ensureBusy(ids, ...span);
    snapshot.patch('b5', { add: [{ ref: 'booking', start: NOW + HOUR, end: NOW + 3 * HOUR }] });
    await snapshot.ensureBusy(ids, ...span);
    expect(reads).toHaveLength(1);
    expect(snapshot.busyFor('b5', ...span)).toEqual([{ ref: 'booking', start: NOW + HOUR, end: NOW + 3 * HOUR }]);
  });

  it('reads a list again as the clock moves past what was loaded', async () => {
    const { snapshot, reads, later } = snapshotWith(new Map());
    await snapshot.ensureBusy(ids, NOW, NOW + 14 * 24 * HOUR);
    const moved = later(90 * 24 * HOUR);
    await snapshot.ensureBusy(ids, moved, moved + 14 * 24 * HOUR);
    expect(reads).toHaveLength(2);
  });
});
