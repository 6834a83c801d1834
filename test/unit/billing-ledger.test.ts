/** The receptionist's money rules (src/billing/ledger.ts): examples, then properties over any plan, limit and run of records. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { UNLIMITED, allowance, committedCents, grant, overageCents, type LedgerState } from '../../src/billing/ledger.js';

const plan = { planCents: 4900, includedMinutes: 300, overageCentsPerMinute: 20 };
const state = (over: Partial<LedgerState> = {}): LedgerState => ({ ...plan, limitCents: 4900, usedMinutes: 0, planPaid: true, ...over });

describe('the ledger', () => {
  it('commits the base plan once paid, and each minute past the included ones', () => {
    expect(committedCents(state())).toBe(4900);
    expect(committedCents(state({ planPaid: false }))).toBe(0);
    expect(committedCents(state({ usedMinutes: 300 }))).toBe(4900);
    expect(committedCents(state({ usedMinutes: 320 }))).toBe(5300);
    expect(overageCents(state({ usedMinutes: 301 }))).toBe(20);
  });

  it('always grants the included minutes, and paid ones only as far as the limit reaches', () => {
    // A limit of the plan's price alone: the included minutes, nothing more.
    expect(allowance(state())).toBe(300);
    expect(grant(state({ usedMinutes: 290 }), 30)).toEqual({ minutes: 10, overage: 0, remaining: 0 });
    // $6 over the plan: 30 paid minutes at $0.20.
    expect(allowance(state({ limitCents: 5500 }))).toBe(330);
    expect(grant(state({ limitCents: 5500, usedMinutes: 290 }), 30)).toEqual({ minutes: 30, overage: 20, remaining: 10 });
    expect(grant(state({ limitCents: 5500, usedMinutes: 325 }), 30)).toEqual({ minutes: 5, overage: 5, remaining: 0 });
    // A limit not reaching a whole minute's price leaves none.
    expect(allowance(state({ limitCents: 4919, usedMinutes: 300 }))).toBe(0);
    // Free overage minutes have no end.
    expect(allowance(state({ overageCentsPerMinute: 0 }))).toBe(UNLIMITED);
  });

  const anyPlan = fc.record({
    planCents: fc.integer({ min: 100, max: 1_000_000 }),
    includedMinutes: fc.integer({ min: 0, max: 5000 }),
    overageCentsPerMinute: fc.integer({ min: 1, max: 500 }),
  });

  it('never lets a run of records take the month past the limit, and stops only at the limit', () => {
    fc.assert(
      fc.property(anyPlan, fc.integer({ min: 0, max: 1_000_000 }), fc.array(fc.integer({ min: 1, max: 600 }), { maxLength: 60 }), (terms, extra, requests) => {
        let s: LedgerState = { ...terms, limitCents: Math.min(1_000_000, terms.planCents + extra), usedMinutes: 0, planPaid: true };
        for (const requested of requests) {
          const g = grant(s, requested);
          expect(g.minutes).toBeGreaterThanOrEqual(0);
          expect(g.minutes).toBeLessThanOrEqual(requested);
          s = { ...s, usedMinutes: s.usedMinutes + g.minutes };
          expect(committedCents(s)).toBeLessThanOrEqual(s.limitCents);
          // Refusing any of it means not one more minute would have fitted.
          if (g.minutes < requested) {
            expect(g.remaining).toBe(0);
            expect(committedCents({ ...s, usedMinutes: s.usedMinutes + 1 }) > s.limitCents || s.usedMinutes < s.includedMinutes).toBe(true);
          }
          expect(g.overage).toBe(Math.max(0, s.usedMinutes - s.includedMinutes) - Math.max(0, s.usedMinutes - g.minutes - s.includedMinutes));
        }
      }),
    );
  });

  it('grants every included minute whatever the limit', () => {
    fc.assert(
      fc.property(anyPlan, fc.integer({ min: 0, max: 1_000_000 }), (terms, limitCents) => {
        expect(allowance({ ...terms, limitCents, usedMinutes: 0, planPaid: true })).toBeGreaterThanOrEqual(terms.includedMinutes);
      }),
    );
  });
});

describe("the plan's configuration", () => {
  it('defaults to $49 a month, 300 minutes, then $0.20; refuses what is not a price at the start', () => {
    expect(loadConfig({}).receptionistPlan).toEqual({ monthlyCents: 4900, includedMinutes: 300, overageCentsPerMinute: 20 });
    expect(loadConfig({ RECEPTIONIST_PLAN_DOLLARS: '79', RECEPTIONIST_INCLUDED_MINUTES: '0', RECEPTIONIST_OVERAGE_CENTS: '15' }).receptionistPlan).toEqual({ monthlyCents: 7900, includedMinutes: 0, overageCentsPerMinute: 15 });
    expect(() => loadConfig({ RECEPTIONIST_PLAN_DOLLARS: '0' })).toThrow(/between 1 and 10000/);
    expect(() => loadConfig({ RECEPTIONIST_PLAN_DOLLARS: '49.50' })).toThrow(/whole number/);
    expect(() => loadConfig({ RECEPTIONIST_OVERAGE_CENTS: '-5' })).toThrow(/whole number/);
  });
});
