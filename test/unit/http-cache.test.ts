import { describe, expect, it } from 'vitest';
import { freshFor } from '../../src/core/http-cache.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const opts = { fallback: 300, max: 86_400 };

describe('freshFor (private cache lifetime, RFC 9111)', () => {
  it('keeps nothing for no-store, no-cache and a malformed or zero max-age', () => {
    for (const cacheControl of ['no-store', 'max-age=600, no-cache', 'No-Store', 'max-age=0', 'max-age=abc']) {
      expect(freshFor({ cacheControl }, NOW, opts), cacheControl).toBe(0);
    }
  });

  it('follows max-age less Age, before Expires', () => {
    expect(freshFor({ cacheControl: 'public, max-age=600' }, NOW, opts)).toBe(600);
    expect(freshFor({ cacheControl: 'max-age="120"', age: '20' }, NOW, opts)).toBe(100);
    expect(freshFor({ cacheControl: 'max-age=60', expires: 'Thu, 26 Nov 2026 13:00:00 GMT' }, NOW, opts)).toBe(60);
  });

  it('follows Expires less Date, and treats an invalid Expires as expired', () => {
    expect(freshFor({ expires: 'Thu, 26 Nov 2026 12:10:00 GMT', date: 'Thu, 26 Nov 2026 12:00:00 GMT' }, NOW, opts)).toBe(600);
    expect(freshFor({ expires: 'Thu, 26 Nov 2026 12:10:00 GMT' }, NOW, opts)).toBe(600);
    expect(freshFor({ expires: '0' }, NOW, opts)).toBe(0);
    expect(freshFor({ expires: 'Thu, 26 Nov 2026 11:00:00 GMT' }, NOW, opts)).toBe(0);
  });

  it('uses the fallback without caching headers, and never exceeds the maximum', () => {
    expect(freshFor({}, NOW, opts)).toBe(300);
    expect(freshFor({ cacheControl: 'max-age=31536000' }, NOW, opts)).toBe(86_400);
  });
});
