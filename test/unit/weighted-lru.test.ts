import { describe, expect, it } from 'vitest';
import { WeightedLru } from '../../src/core/weighted-lru.js';

describe('WeightedLru', () => {
  it('drops the least recently used once there are more entries than allowed', () => {
    const lru = new WeightedLru<string>(2, 100);
    lru.set('a', 'A', 1);
    lru.set('b', 'B', 1);
    expect(lru.get('a')).toBe('A'); // a is now the most recently used
    lru.set('c', 'C', 1);
    expect(lru.get('b')).toBeUndefined();
    expect([lru.get('a'), lru.get('c'), lru.size]).toEqual(['A', 'C', 2]);
  });

  it('drops the oldest until the weights fit, and replacing an entry frees its weight', () => {
    const lru = new WeightedLru<string>(10, 10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    lru.set('b', 'B2', 2); // b now weighs 2: 6 in all
    lru.set('c', 'C', 4);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual(['A', 'B2', 'C']);
    lru.set('d', 'D', 5); // 15 > 10: a (4) then b (2) go
    expect([lru.get('a'), lru.get('b'), lru.get('c'), lru.get('d')]).toEqual([undefined, undefined, 'C', 'D']);
  });

  it('keeps nothing that alone weighs more than the bound, and forgets what it replaced', () => {
    const lru = new WeightedLru<string>(10, 10);
    lru.set('a', 'A', 3);
    lru.set('a', 'huge', 11);
    expect([lru.get('a'), lru.size]).toEqual([undefined, 0]);
  });
});
