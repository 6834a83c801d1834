/**
 * A query's terms for find_businesses: words and phrases, filler left out, related words, and
 * the to_tsquery text, checked against PostgreSQL's own english stemming (PGlite).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PGlite } from '@electric-sql/pglite';
import { anyTermQuery, RELATED_TERMS, searchTerms, termQuery, words } from '../../src/core/search-terms.js';

const said = (query: string) => searchTerms(query).map((t) => t.said);
const finds = (query: string) => searchTerms(query).map((t) => t.alternatives.map((a) => a.join(' ')));

describe('searchTerms', () => {
  it.each([
    ['haircut', ['haircut']],
    ['Move-out clean', ['move-out', 'clean']],
    ['Oil change!!', ['oil change']],
    ['cheap oil change near me', ['oil change']],
    ["Men's haircut", ["men's haircut"]],
    ['mens  HAIRCUT', ['mens haircut']],
    ['beard trim', ['beard', 'trim']],
    ['mani pedi', ['mani pedi']],
    ['pedi mani', ['pedi', 'mani']],
    ['Café crème', ['café', 'crème']],
    ['a & b | !c <-> d:*', ['a', 'b', 'c', 'd']],
    ["x') OR 1=1 --", ['x', 'or', '1']],
    ['haircut HAIRCUT haircut', ['haircut']],
    ['near me', []],
    ['', []],
    ['  -- !! ', []],
  ])('%j → %j', (query, want) => {
    expect(said(query)).toEqual(want);
  });

  it('finds related words one way', () => {
    const [barber] = finds('barber');
    expect(barber).toEqual(expect.arrayContaining(['barber', 'barbershop', 'men s cut', 'beard', 'shave']));
    const [haircut] = finds('haircut');
    expect(haircut).toEqual(expect.arrayContaining(['haircut', 'hair cut', 'men s cut', 'women s cut', 'children s cut', 'barber']));
    // A haircut is not key cutting or a dog's nail trim: no bare "cut" or "trim".
    expect(haircut).not.toContain('cut');
    expect(haircut).not.toContain('trim');
    // …but a person who says "trim" or "cut" may mean a haircut.
    expect(finds('trim')[0]).toEqual(['trim', 'haircut', 'hair trim']);
    expect(finds('cut')[0]).toEqual(['cut', 'haircut']);
    expect(finds('mechanic')[0]).toEqual(expect.arrayContaining(['oil change', 'brake', 'auto repair']));
    expect(finds('mani')[0]).toEqual(expect.arrayContaining(['mani', 'manicure']));
    expect(finds('nails')[0]).toEqual(expect.arrayContaining(['manicure', 'pedicure']));
    expect(finds('massage')[0]![0]).toBe('massage');
    expect(finds('zeppelin')).toEqual([['zeppelin']]);
  });

  it('writes the to_tsquery text, prefix only for the word said', () => {
    expect(termQuery(searchTerms('zeppelin')[0]!)).toBe('zeppelin:*');
    expect(termQuery(searchTerms('spa')[0]!)).toBe('(spa | (day <-> spa) | massage | facial)');
    expect(termQuery(searchTerms('oil change')[0]!, 'ACD')).toBe('((oil:ACD <-> change:ACD) | (oil:ACD <-> service:ACD) | lube:ACD | (oil:ACD <-> and:ACD <-> filter:ACD))');
    expect(termQuery(searchTerms('hair')[0]!, 'CD')).toBe('hair:*CD');
    expect(anyTermQuery(searchTerms('zeppelin airship'))).toBe('zeppelin:* | airship:*');
    expect(anyTermQuery([])).toBeNull();
  });

  it('never lets an operator or quote through, and stays short', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (query) => {
        const terms = searchTerms(query);
        expect(terms.length).toBeLessThanOrEqual(12);
        const q = anyTermQuery(terms, 'ACD');
        if (q === null) return;
        // Words, weights, prefixes, parentheses and the operators we write: nothing else.
        expect(q.replace(/[\p{L}\p{N}]+(:\*?(ACD)?)?|<->|[()|]/gu, '').trim()).toBe('');
      }),
    );
  });

  it('reads its own data: every name and related word has words', () => {
    for (const [names, related] of RELATED_TERMS) for (const n of [...names, ...related]) expect(words(n).length, n).toBeGreaterThan(0);
  });
});

describe('terms in PostgreSQL (english stemming)', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = new PGlite();
  });
  afterAll(async () => db?.close());

  const matches = async (query: string, text: string) => {
    const q = anyTermQuery(searchTerms(query));
    const r = await db.query<{ m: boolean }>(`SELECT to_tsvector('english', $1) @@ to_tsquery('english', $2) AS m`, [text, q]);
    return r.rows[0]!.m;
  };

  it.each([
    ['barber', "Men's cut", true],
    ['barber', 'Beard trim & line-up', true],
    ['barber', 'Swedish massage, 60 min', false],
    ['barber', "Women's cut & style", false],
    ['barbers', 'Barbershop', true],
    ['beard trim', 'Beard trim & line-up', true],
    ['haircut', "Children's cut (under 12)", true],
    ['haircuts', 'Haircut', true],
    ['haircut', 'Key cutting', false],
    ['haircut', 'Nail trim (walk-in length)', false],
    ['trim', 'Fringe trim', true],
    ['mani pedi', 'Gel manicure', true],
    ['mani pedi', 'Spa pedicure', true],
    ['nails', 'Classic manicure', true],
    ['mechanic', 'Front brake pads & rotor resurfacing', true],
    ['mechanic', 'Full-synthetic oil change', true],
    ['oil change', 'Conventional oil change', true],
    ['oil change', 'Change of address', false],
    ['brakes', 'Brake inspection', true],
    ['massage', 'Deep-tissue massage, 60 min', true],
    ['spa', 'Signature facial', true],
    ['move-out clean', 'move-out clean', true],
    ['zeppelin', 'Haircut', false],
  ])('%j finds %j: %s', async (query, text, want) => {
    expect(await matches(query, text)).toBe(want);
  });
});
