import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ADD_ONS,
  cleaningPriceListSchema,
  quoteCleaning,
  type CleaningJob,
  type CleaningPriceList,
} from '../../src/pricing/engine.js';

const LIST: CleaningPriceList = {
  base_cents: 9000,
  per_bedroom_cents: 3500,
  per_bathroom_cents: 2500,
  clean_type_multiplier: { standard: 1, deep: 1.5, move_out: 1.75 }, // no turnover
  included_sqft: 600,
  per_extra_100_sqft_cents: 500,
  add_ons: { fridge: { cents: 3500, minutes: 30 }, oven: { cents: 3500, minutes: 30 }, windows: { cents: 5000, minutes: 60 } },
  pets_cents: 1500,
  minimum_cents: 12000,
  duration: { base_minutes: 60, per_bedroom_minutes: 30, per_bathroom_minutes: 20, per_extra_100_sqft_minutes: 5, pets_minutes: 15 },
};

const job = (over: Partial<CleaningJob> = {}): CleaningJob => ({
  bedrooms: 2,
  bathrooms: 1,
  clean_type: 'standard',
  add_ons: [],
  pets: false,
  ...over,
});

function ok(list: CleaningPriceList, j: CleaningJob) {
  const q = quoteCleaning(list, j);
  if (!q.ok) throw new Error(`expected a quote, got: ${q.reason}`);
  return q;
}

describe('quoteCleaning: exact examples', () => {
  it('2 bed / 1 bath standard', () => {
    expect(ok(LIST, job())).toEqual({
      ok: true,
      total_cents: 16000,
      duration_minutes: 120,
      lines: [{ label: 'Standard clean: 2 bedrooms, 1 bathroom', cents: 16000 }],
    });
  });

  it('3 bed / 2.5 bath deep clean with sqft, add-ons and pets', () => {
    const q = ok(LIST, job({ bedrooms: 3, bathrooms: 2.5, clean_type: 'deep', sqft: 2350, add_ons: ['fridge', 'oven'], pets: true }));
    // rooms 9000+3*3500+1.5*2500 = 23250; sqft 2350-1800 = 550 → 6 blocks = 3000;
    // (23250+3000)*1.5 = 39375; +7000 add-ons +1500 pets = 47875 → $479.
    expect(q.lines).toEqual([
      { label: 'Deep clean: 3 bedrooms, 2.5 bathrooms', cents: 34875 },
      { label: 'Extra square footage (2,350 sq ft; 1,800 included)', cents: 4500 },
      { label: 'Add-on: Inside the fridge', cents: 3500 },
      { label: 'Add-on: Inside the oven', cents: 3500 },
      { label: 'Pets in the home', cents: 1500 },
      { label: 'Rounded to whole dollars', cents: 25 },
    ]);
    expect(q.total_cents).toBe(47900);
    // (60 + 90 + 30 + 6*5) * 1.5 = 315; +60 add-ons +15 pets = 390 (already a multiple of 30)
    expect(q.duration_minutes).toBe(390);
  });

  it('applies the minimum in its own line', () => {
    const q = ok(LIST, job({ bedrooms: 0 }));
    expect(q.total_cents).toBe(12000);
    expect(q.lines).toEqual([
      { label: 'Standard clean: 0 bedrooms, 1 bathroom', cents: 9000 },
      { label: 'Minimum charge adjustment', cents: 3000 },
    ]);
    expect(q.duration_minutes).toBe(60);
  });

  it('rounds a minimum with cents up, never below it', () => {
    expect(ok({ ...LIST, minimum_cents: 12050 }, job({ bedrooms: 0 })).total_cents).toBe(12100);
    expect(ok({ ...LIST, minimum_cents: 12001 }, job({ bedrooms: 0 })).total_cents).toBe(12100);
  });

  it('rounds to the nearest dollar, halves up', () => {
    const q = ok(LIST, job({ bedrooms: 1, clean_type: 'move_out' })); // 12500 * 1.75 = 21875
    expect(q.total_cents).toBe(21900);
    expect(q.lines.at(-1)).toEqual({ label: 'Rounded to whole dollars', cents: 25 });
    expect(ok(LIST, job({ bedrooms: 1, bathrooms: 1.5, clean_type: 'deep' })).total_cents).toBe(20600); // 20625 → down
    const half = ok({ ...LIST, minimum_cents: 0, base_cents: 10050 }, job({ bedrooms: 0 }));
    expect(half.total_cents).toBe(10100);
  });

  it('charges half a bathroom for a half bath, rounding the half cent once', () => {
    const list = { ...LIST, per_bathroom_cents: 2501, minimum_cents: 0 };
    const q = ok(list, job({ bedrooms: 0, bathrooms: 1.5 }));
    expect(q.lines).toEqual([
      { label: 'Standard clean: 0 bedrooms, 1.5 bathrooms', cents: 10251 }, // 9000 + 1250.5 → 10251
      { label: 'Rounded to whole dollars', cents: 49 },
    ]);
    expect(q.total_cents).toBe(10300);
  });

  it('never credits fewer than one bathroom', () => {
    expect(ok(LIST, job({ bathrooms: 0 })).total_cents).toBe(ok(LIST, job({ bathrooms: 1 })).total_cents);
    expect(ok(LIST, job({ bathrooms: 0.5 })).total_cents).toBe(ok(LIST, job({ bathrooms: 1 })).total_cents);
  });

  it('uses exact multipliers (no floating-point drift)', () => {
    const list = { ...LIST, base_cents: 10000, minimum_cents: 0, clean_type_multiplier: { standard: 1.15 } };
    const q = ok(list, job({ bedrooms: 0 }));
    expect(q.lines).toEqual([{ label: 'Standard clean: 0 bedrooms, 1 bathroom', cents: 11500 }]);
    expect(q.total_cents).toBe(11500);
  });

  it('charges sqft per started 100 above max(1, bedrooms) * included', () => {
    const list = { ...LIST, minimum_cents: 0 };
    expect(ok(list, job({ bedrooms: 0, sqft: 600 })).lines).toHaveLength(1);
    const q = ok(list, job({ bedrooms: 0, sqft: 601 }));
    expect(q.lines[1]).toEqual({ label: 'Extra square footage (601 sq ft; 600 included)', cents: 500 });
    expect(ok(list, job({ bedrooms: 0, sqft: 700 })).lines[1]!.cents).toBe(500);
    expect(ok(list, job({ bedrooms: 0, sqft: 701 })).lines[1]!.cents).toBe(1000);
    expect(ok(list, job({ bedrooms: 2, sqft: 1200 })).lines).toHaveLength(1);
    expect(ok(list, job({ bedrooms: 2, sqft: 1250 })).total_cents).toBe(16500);
  });

  it('never makes a same-size home cheaper for having more bedrooms', () => {
    // Here a bedroom ($10) is worth less than the sqft it includes (6 blocks × $5).
    const list = { ...LIST, per_bedroom_cents: 1000 };
    const one = ok(list, job({ bedrooms: 1, sqft: 1800 })); // 9000 + 1000 + 12 blocks*500
    const two = ok(list, job({ bedrooms: 2, sqft: 1800 })); // naive formula: 9000 + 2000 + 6*500 = 14000
    expect(one.total_cents).toBe(16000);
    expect(two.total_cents).toBe(16000);
    expect(two.lines).toEqual([
      { label: 'Standard clean: 2 bedrooms, 1 bathroom', cents: 11000 },
      { label: 'Extra square footage (1,800 sq ft; 1,200 included)', cents: 5000 },
    ]);
  });

  it('counts duplicate add-ons once and ignores their order', () => {
    const a = ok(LIST, job({ add_ons: ['oven', 'fridge', 'oven'] }));
    const b = ok(LIST, job({ add_ons: ['fridge', 'oven'] }));
    expect(a).toEqual(b);
    expect(a.total_cents).toBe(23000);
    expect(a.duration_minutes).toBe(180);
  });

  it('rounds duration up to 30 minutes, at least 60', () => {
    expect(ok(LIST, job({ bedrooms: 1 })).duration_minutes).toBe(90);
    expect(ok(LIST, job({ bedrooms: 1, pets: true })).duration_minutes).toBe(120); // 105 → 120
    expect(ok(LIST, job({ bedrooms: 1, clean_type: 'move_out' })).duration_minutes).toBe(180); // 157.5 → 180
    const zero = { ...LIST, duration: { base_minutes: 0, per_bedroom_minutes: 0, per_bathroom_minutes: 0, per_extra_100_sqft_minutes: 0, pets_minutes: 0 } };
    expect(ok(zero, job()).duration_minutes).toBe(60);
    expect(ok(LIST, job({ bedrooms: 0, bathrooms: 1.5 })).duration_minutes).toBe(90); // 70 → 90
  });
});

describe('quoteCleaning: refusals', () => {
  it('names a clean type the business does not offer, and what it does', () => {
    const q = quoteCleaning(LIST, job({ clean_type: 'turnover' }));
    expect(q).toEqual({
      ok: false,
      reason: "This business doesn't offer a turnover clean. Please choose one they offer: standard clean, deep clean, move-out clean.",
    });
  });

  it('names an add-on the business does not offer', () => {
    const q = quoteCleaning(LIST, job({ add_ons: ['fridge', 'laundry'] }));
    expect(q.ok).toBe(false);
    if (!q.ok) {
      expect(q.reason).toContain('"laundry"');
      expect(q.reason).toContain('fridge, oven, windows');
    }
  });

  it('names an unknown add-on', () => {
    const q = quoteCleaning(LIST, job({ add_ons: ['pool'] }));
    expect(q).toEqual({ ok: false, reason: `"pool" isn't an add-on we know. Choose from: ${ADD_ONS.join(', ')}.` });
  });

  it('refuses impossible jobs instead of pricing them', () => {
    for (const bad of [{ bathrooms: 1.25 }, { bedrooms: -1 }, { bedrooms: 1.5 }, { sqft: -10 }, { bedrooms: 51 }]) {
      const q = quoteCleaning(LIST, job(bad));
      expect(q.ok).toBe(false);
    }
  });
});

describe('cleaningPriceListSchema', () => {
  it('accepts a complete list and lists that omit clean types and add-ons', () => {
    expect(cleaningPriceListSchema.parse(LIST)).toEqual(LIST);
    expect(cleaningPriceListSchema.safeParse({ ...LIST, clean_type_multiplier: { deep: 1.4 }, add_ons: {} }).success).toBe(true);
  });
  it.each([
    ['negative cents', { base_cents: -1 }],
    ['fractional cents', { pets_cents: 10.5 }],
    ['unknown add-on', { add_ons: { pool: { cents: 100, minutes: 10 } } }],
    ['zero multiplier', { clean_type_multiplier: { standard: 0 } }],
    ['unknown clean type', { clean_type_multiplier: { standard: 1, airbnb: 1.2 } }],
    ['unknown field', { surge: 2 }],
    ['missing field', { minimum_cents: undefined }],
    ['string number', { base_cents: '9000' }],
  ])('rejects %s', (_name, patch) => {
    expect(cleaningPriceListSchema.safeParse({ ...LIST, ...patch }).success).toBe(false);
  });
});

// ---------------------------------------------------------------------------

const cents = fc.integer({ min: 0, max: 50_000 });
const mins = fc.integer({ min: 0, max: 120 });
const arbList: fc.Arbitrary<CleaningPriceList> = fc.record({
  base_cents: cents,
  per_bedroom_cents: cents,
  per_bathroom_cents: cents,
  clean_type_multiplier: fc.record({
    standard: fc.integer({ min: 5_000, max: 30_000 }).map((bp) => bp / 10_000),
    deep: fc.integer({ min: 1, max: 100_000 }).map((bp) => bp / 10_000),
    move_out: fc.double({ min: 0.5, max: 3, noNaN: true }),
    turnover: fc.constant(1.1),
  }),
  included_sqft: fc.integer({ min: 0, max: 1500 }),
  per_extra_100_sqft_cents: cents,
  add_ons: fc.record({ fridge: fc.record({ cents, minutes: mins }), windows: fc.record({ cents, minutes: mins }) }),
  pets_cents: cents,
  minimum_cents: fc.integer({ min: 0, max: 100_000 }),
  duration: fc.record({
    base_minutes: mins,
    per_bedroom_minutes: mins,
    per_bathroom_minutes: mins,
    per_extra_100_sqft_minutes: mins,
    pets_minutes: mins,
  }),
});
const arbJob: fc.Arbitrary<CleaningJob> = fc.record({
  bedrooms: fc.integer({ min: 0, max: 8 }),
  bathrooms: fc.integer({ min: 0, max: 12 }).map((h) => h / 2),
  clean_type: fc.constantFrom('standard', 'deep', 'move_out', 'turnover'),
  sqft: fc.option(fc.integer({ min: 0, max: 8000 }), { nil: undefined }),
  add_ons: fc.subarray(['fridge', 'windows']),
  pets: fc.boolean(),
});

describe('properties', () => {
  it('(c) total is whole dollars, at least the minimum, the sum of its lines, and monotone in rooms', () => {
    fc.assert(
      fc.property(arbList, arbJob, (list, j) => {
        expect(cleaningPriceListSchema.safeParse(list).success).toBe(true);
        const q = ok(list, j);
        expect(q.total_cents % 100).toBe(0);
        expect(q.total_cents).toBeGreaterThanOrEqual(list.minimum_cents);
        expect(q.lines.reduce((s, l) => s + l.cents, 0)).toBe(q.total_cents);
        for (const l of q.lines) expect(Number.isInteger(l.cents)).toBe(true);
        expect(q.duration_minutes % 30).toBe(0);
        expect(q.duration_minutes).toBeGreaterThanOrEqual(60);

        const moreBed = ok(list, { ...j, bedrooms: j.bedrooms + 1 });
        expect(moreBed.total_cents).toBeGreaterThanOrEqual(q.total_cents);
        expect(moreBed.duration_minutes).toBeGreaterThanOrEqual(q.duration_minutes);
        const moreBath = ok(list, { ...j, bathrooms: j.bathrooms + 0.5 });
        expect(moreBath.total_cents).toBeGreaterThanOrEqual(q.total_cents);
        expect(moreBath.duration_minutes).toBeGreaterThanOrEqual(q.duration_minutes);

        // Deterministic and independent of add-on order.
        expect(quoteCleaning(list, { ...j, add_ons: [...j.add_ons].reverse() })).toEqual(q);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 400) },
    );
  });
});
