import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ALL_ISSUES,
  ISSUES,
  TRADES,
  isIssueOf,
  issueOfTrade,
  quoteServiceCall,
  serviceCallFields,
  type ServiceCallPriceList,
} from '../../src/pricing/service-call.js';

const PLUMBING: ServiceCallPriceList = {
  service_call: { leak: 8900, clog: 9900, water_heater: 14900, toilet: 8900, fixture: 9900, no_water: 12900 }, // no `other`
  window_minutes: 120,
};

describe('issue categories', () => {
  it('are the trade lists (the demo data prices these same lists)', () => {
    expect(ISSUES.plumbing).toEqual(['leak', 'clog', 'water_heater', 'toilet', 'fixture', 'no_water', 'other']);
    expect(ISSUES.hvac).toEqual(['no_cool', 'no_heat', 'maintenance', 'noise', 'thermostat', 'other']);
    expect(ALL_ISSUES).toHaveLength(12);
    expect(TRADES).toEqual(['plumbing', 'hvac']);
  });

  it('belong to their trade only (other to both)', () => {
    expect(isIssueOf('plumbing', 'leak')).toBe(true);
    expect(isIssueOf('hvac', 'leak')).toBe(false);
    expect(isIssueOf('hvac', 'no_cool')).toBe(true);
    expect(isIssueOf('plumbing', 'no_cool')).toBe(false);
    expect(isIssueOf('plumbing', 'other') && isIssueOf('hvac', 'other')).toBe(true);
  });

  it('are validated against the trade, naming the allowed values', () => {
    const schema = z.object(serviceCallFields).superRefine(issueOfTrade);
    expect(schema.safeParse({ trade: 'hvac', issue: 'thermostat' }).success).toBe(true);
    const wrong = schema.safeParse({ trade: 'hvac', issue: 'clog' });
    expect(wrong.success).toBe(false);
    expect(wrong.error!.issues[0]!.path).toEqual(['issue']);
    expect(wrong.error!.issues[0]!.message).toContain('no_cool, no_heat, maintenance, noise, thermostat, other');
    const unknown = schema.safeParse({ trade: 'plumbing', issue: 'roof' });
    expect(unknown.error!.issues[0]!.message).toMatch(/plumbing: leak.*hvac: no_cool/);
    expect(schema.safeParse({ trade: 'roofing', issue: 'other' }).error!.issues[0]!.message).toBe('trade must be plumbing or hvac.');
    expect(schema.safeParse({ trade: 'plumbing', issue: 'leak', details: 'x'.repeat(501) }).success).toBe(false);
    expect(schema.safeParse({ trade: 'plumbing', issue: 'leak', details: 'x'.repeat(500) }).success).toBe(true);
  });
});

describe('quoteServiceCall', () => {
  it('is the pro\'s fee for the issue with its window length', () => {
    expect(quoteServiceCall(PLUMBING, 'plumbing', 'water_heater')).toEqual({ ok: true, fee_cents: 14900, window_minutes: 120 });
    expect(quoteServiceCall({ ...PLUMBING, window_minutes: 180 }, 'plumbing', 'leak')).toEqual({ ok: true, fee_cents: 8900, window_minutes: 180 });
  });

  it('refuses an issue the pro has no fee for, naming those it has', () => {
    const q = quoteServiceCall(PLUMBING, 'plumbing', 'other');
    expect(q.ok).toBe(false);
    expect(!q.ok && q.reason).toMatch(/leak, clog, water_heater, toilet, fixture, no_water\./);
  });

  it('refuses an issue of another trade', () => {
    const q = quoteServiceCall(PLUMBING, 'hvac', 'leak');
    expect(!q.ok && q.reason).toMatch(/not one of the hvac issues: no_cool/);
  });

  it('refuses price lists that are not service-call fees', () => {
    for (const list of [{}, null, { service_call: { leak: -1 }, window_minutes: 120 }, { service_call: { leak: 8900 } }, { service_call: { leak: 89.5 }, window_minutes: 120 }, { service_call: { leak: 8900 }, window_minutes: 120, extra: 1 }]) {
      expect(quoteServiceCall(list, 'plumbing', 'leak').ok, JSON.stringify(list)).toBe(false);
    }
    // A cleaning price list never yields a fee.
    expect(quoteServiceCall({ base_cents: 9000, per_bedroom_cents: 3000 }, 'plumbing', 'leak').ok).toBe(false);
  });

  it('returns exactly the listed fee for every trade, issue and list (never a computed repair price)', () => {
    const trade = fc.constantFrom(...TRADES);
    const list = fc.record({
      service_call: fc.dictionary(fc.constantFrom(...ALL_ISSUES), fc.integer({ min: 0, max: 10_000_000 })),
      window_minutes: fc.integer({ min: 30, max: 480 }),
    });
    fc.assert(
      fc.property(trade, fc.constantFrom(...ALL_ISSUES), list, (t, issue, l) => {
        const q = quoteServiceCall(l, t, issue);
        const listed = (l.service_call as Record<string, number>)[issue];
        if (isIssueOf(t, issue) && listed !== undefined) {
          expect(q).toEqual({ ok: true, fee_cents: listed, window_minutes: l.window_minutes });
        } else {
          expect(q.ok).toBe(false);
        }
      }),
    );
  });
});
