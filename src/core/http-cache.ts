/**
 * How long a private cache may keep a response (RFC 9111 section 4.2.1), in seconds: no-store
 * and no-cache keep nothing (we do not revalidate, so no-cache means fetch again); max-age (less
 * Age) decides when present, then Expires less Date; without either, `fallback`. The answer is
 * clamped to [0, `max`], so no document is trusted for longer than the caller allows.
 */
export interface CachingHeaders {
  cacheControl?: string;
  expires?: string;
  date?: string;
  age?: string;
}

export function freshFor(headers: CachingHeaders, now: number, opts: { fallback: number; max: number }): number {
  const directives = new Map<string, string | undefined>();
  for (const part of (headers.cacheControl ?? '').split(',')) {
    const [name, value] = part.split('=', 2).map((s) => s.trim());
    if (name) directives.set(name.toLowerCase(), value?.replace(/^"|"$/g, ''));
  }
  const clamp = (s: number) => Math.max(0, Math.min(opts.max, Math.floor(s)));
  if (directives.has('no-store') || directives.has('no-cache')) return 0;
  const age = /^\d+$/.test(headers.age ?? '') ? Number(headers.age) : 0;
  if (directives.has('max-age')) {
    const maxAge = directives.get('max-age') ?? '';
    // A malformed max-age is stale (RFC 9111 section 4.2.1).
    return /^\d+$/.test(maxAge) ? clamp(Number(maxAge) - age) : 0;
  }
  if (headers.expires !== undefined) {
    const expires = Date.parse(headers.expires);
    // An invalid Expires (such as "0") means already expired (RFC 9111 section 5.3).
    if (Number.isNaN(expires)) return 0;
    const date = headers.date !== undefined && !Number.isNaN(Date.parse(headers.date)) ? Date.parse(headers.date) : now;
    return clamp((expires - date) / 1000 - age);
  }
  return clamp(opts.fallback);
}
