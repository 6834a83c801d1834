import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { anyWordQuery, searchWords } from '../../src/search/query-words.js';

describe('searchWords and anyWordQuery', () => {
  it.each([
    ['haircut', ['haircut'], 'haircut:*'],
    ['Move-out clean', ['move', 'out', 'clean'], 'move:* | out | clean:*'],
    ['Oil change!!', ['oil', 'change'], 'oil | change:*'],
    ['Café crème', ['café', 'crème'], 'café:* | crème:*'],
    ['a & b | !c <-> d:*', ['a', 'b', 'c', 'd'], 'a | b | c | d'],
    ["x') OR 1=1 --", ['x', 'or', '1'], 'x | or | 1'],
    ['haircut HAIRCUT haircut', ['haircut'], 'haircut:*'],
    ['', [], null],
    ['  -- !! ', [], null],
  ])('%j', (query, words, tsquery) => {
    expect(searchWords(query)).toEqual(words);
    expect(anyWordQuery(searchWords(query))).toBe(tsquery);
  });

  it('never lets an operator or quote through, and stays short', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (query) => {
        const q = anyWordQuery(searchWords(query));
        if (q === null) return;
        expect(q).toMatch(/^[\p{L}\p{N}]+(:\*)?( \| [\p{L}\p{N}]+(:\*)?)*$/u);
        expect(q.split(' | ').length).toBeLessThanOrEqual(12);
      }),
    );
  });
});
