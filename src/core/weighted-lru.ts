/**
 * A map bounded by its number of entries and the sum of their weights, dropping the least
 * recently used first: the per-process caches of owners' reads (a schedule page, a call brief's
 * business part) keep what is read most within a memory budget.
 */
export class WeightedLru<V> {
  // Map keeps insertion order: the least recently used entry comes first.
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  /** The value under `key`, now the most recently used. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` under `key` (replacing what was there), unless it alone weighs more than the bound. */
  set(key: string, value: V, weight: number): void {
    this.drop(key);
    if (weight > this.maxWeight) return;
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.weight <= this.maxWeight) break;
      this.drop(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  private drop(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
