/** Reading a profile page for add_profile_link's check (src/core/profile-page.ts): code, link back, AggregateRating. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inspectProfilePage, linkLabel, ratingFrom, ratingInJsonLd } from '../../src/core/profile-page.js';

const CODE = 'porchlight-abcdefghjkmnpqrs';
const expectFor = { pageUrl: 'https://www.yelp.com/biz/sparkle', code: CODE, backLink: 'https://porchlight.example/b/sparkle-shine' };
const read = (html: string) => inspectProfilePage(html, expectFor);

describe('profile page: code and link back', () => {
  it('finds the code in text or in a meta tag, and not a near miss', () => {
    expect(read(`<p>Verified: ${CODE}</p>`).carriesCode).toBe(true);
    expect(read(`<head><meta name="porchlight-verification" content="${CODE}"></head>`).carriesCode).toBe(true);
    expect(read(`<p>${CODE.slice(0, -1)}</p>`).carriesCode).toBe(false);
    expect(read(`<p>porchlight-abcdefghjkmnpqr<b>s</b></p>`).carriesCode).toBe(true);
  });

  it('finds a link back, relative or absolute, with or without a trailing slash, query or fragment', () => {
    for (const href of ['https://porchlight.example/b/sparkle-shine', 'http://porchlight.example/b/sparkle-shine/', 'https://PORCHLIGHT.example/b/sparkle-shine?ref=yelp#top']) {
      expect(read(`<a href="${href}">Book</a>`).linksBack, href).toBe(true);
    }
    expect(inspectProfilePage('<a href="/b/sparkle-shine">x</a>', { ...expectFor, pageUrl: 'https://porchlight.example/somewhere' }).linksBack).toBe(true);
    for (const href of ['https://porchlight.example/b/sparkle-shine-2', 'https://evil.example/b/sparkle-shine', 'javascript:alert(1)', '/b/sparkle-shine', 'https://porchlight.example/b']) {
      expect(read(`<a href="${href}">x</a>`).linksBack, href).toBe(false);
    }
    // Text that only names the address is not a link.
    expect(read('<p>https://porchlight.example/b/sparkle-shine</p>').linksBack).toBe(false);
  });

  it('never throws on any text, and finds nothing in a page without the markers', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (html) => {
        const found = read(html.replaceAll(CODE, ''));
        expect(found.carriesCode).toBe(false);
        expect(found.linksBack).toBe(false);
      }),
    );
  });
});

describe('profile page: AggregateRating', () => {
  const ld = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

  it('reads JSON-LD: an entity with aggregateRating, in @graph or a list, strings or numbers', () => {
    expect(read(ld({ '@context': 'https://schema.org', '@type': 'LocalBusiness', aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.7', reviewCount: '1,234' } })).rating).toEqual({ value: 4.7, count: 1234 });
    expect(read(ld({ '@graph': [{ '@type': 'WebPage' }, { '@type': 'Plumber', aggregateRating: { ratingValue: 4.2, ratingCount: 18 } }] })).rating).toEqual({ value: 4.2, count: 18 });
    expect(read(ld([{ '@type': 'Organization' }, { '@type': 'AggregateRating', ratingValue: 9, bestRating: 10 }])).rating).toEqual({ value: 4.5, count: null });
  });

  it('reads microdata, content attributes or text, and not a nested item\'s properties', () => {
    const html = `<div itemscope itemtype="https://schema.org/LocalBusiness"><span itemprop="name">Sparkle</span>
      <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
        <meta itemprop="ratingValue" content="4.9"><span itemprop="reviewCount">57</span> reviews
      </div></div>`;
    expect(read(html).rating).toEqual({ value: 4.9, count: 57 });
    const nested = `<div itemscope itemtype="http://schema.org/AggregateRating"><div itemscope itemprop="author"><span itemprop="ratingValue">1</span></div><span itemprop="ratingValue">4,5</span></div>`;
    expect(read(nested).rating).toEqual({ value: 4.5, count: null });
  });

  it('invents nothing: no rating, a broken one, or one out of range is null', () => {
    expect(read('<p>Rated 4.9 stars by 200 customers!</p>').rating).toBeNull();
    expect(read('<script type="application/ld+json">{not json</script>').rating).toBeNull();
    expect(read(ld({ aggregateRating: { ratingValue: 'excellent' } })).rating).toBeNull();
    expect(read(ld({ aggregateRating: { ratingValue: 6 } })).rating).toBeNull();
    expect(read(ld({ aggregateRating: { ratingValue: 4, reviewCount: -3 } })).rating).toEqual({ value: 4, count: null });
  });

  it('keeps every rating it reads within 0-5, and reads back what a page states', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const r = ratingInJsonLd(value);
        if (r) expect(r.value >= 0 && r.value <= 5).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50 }), fc.option(fc.nat(100_000), { nil: undefined }), (tenths, count) => {
        const r = ratingFrom({ ratingValue: (tenths / 10).toFixed(1), reviewCount: count });
        expect(r).toEqual({ value: tenths / 10, count: count ?? null });
      }),
    );
  });
});

describe('link labels', () => {
  it('names known marketplaces and maps, and calls anything else Website', () => {
    expect(linkLabel(new URL('https://www.yelp.com/biz/x'))).toBe('Yelp');
    expect(linkLabel(new URL('https://maps.google.com/?cid=1'))).toBe('Google');
    expect(linkLabel(new URL('https://g.page/x'))).toBe('Google');
    expect(linkLabel(new URL('https://www.thumbtack.com/p/x'))).toBe('Thumbtack');
    expect(linkLabel(new URL('https://notyelp.com/x'))).toBe('Website');
    expect(linkLabel(new URL('https://sparkle-shine.com'))).toBe('Website');
  });
});
