/**
 * What a business's website or profile page says about it (add_profile_link's check): whether it
 * carries the business's verification code or links back to its Porchlight page, and the rating
 * it shows in schema.org AggregateRating (JSON-LD or microdata). Only what the page states is
 * read: no rating is ever guessed from text.
 */
import { DomUtils, parseDocument } from 'htmlparser2';

type Node = ReturnType<typeof parseDocument>['children'][number];
type Element = ReturnType<typeof DomUtils.findAll>[number];

export interface PageRating {
  /** On a 0-5 scale (a page's other scale, from bestRating, is brought to 5). */
  value: number;
  /** reviewCount (or ratingCount) when the page gives one. */
  count: number | null;
}

export interface ProfilePageFindings {
  carriesCode: boolean;
  linksBack: boolean;
  rating: PageRating | null;
}

/** What a check compares the page with. */
export interface ProfilePageExpect {
  /** The address the page was read from (after redirects): relative links resolve against it. */
  pageUrl: string;
  /** The business's verification code. */
  code: string;
  /** The business's page on Porchlight (`<BASE_URL>/b/<slug>`). */
  backLink: string;
}

/** Nested JSON-LD is walked this deep and this wide, no further. */
const MAX_DEPTH = 12;
const MAX_NODES = 5_000;

const trimSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/** The same page, whatever the scheme, case of the host, trailing slash, query or fragment. */
function samePage(href: string, base: string, target: URL): boolean {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return url.host === target.host && trimSlash(url.pathname) === trimSlash(target.pathname);
}

/** A number as pages write it: 4.8, "4.8", "4,8", "1,234" (a count). */
function numberOf(raw: unknown, { count }: { count: boolean }): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== 'string') return null;
  let s = raw.trim();
  if (count) s = s.replace(/[,\s]/g, '');
  else if (/^\d+,\d+$/.test(s)) s = s.replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  return Number(s);
}

/** An AggregateRating's fields as a rating on a 0-5 scale, or null when they do not make one. */
export function ratingFrom(fields: { ratingValue?: unknown; bestRating?: unknown; reviewCount?: unknown; ratingCount?: unknown }): PageRating | null {
  const value = numberOf(fields.ratingValue, { count: false });
  const best = fields.bestRating === undefined || fields.bestRating === null || fields.bestRating === '' ? 5 : numberOf(fields.bestRating, { count: false });
  if (value === null || best === null || best <= 0 || value < 0 || value > best) return null;
  const scaled = best === 5 ? value : (value / best) * 5;
  const rawCount = numberOf(fields.reviewCount, { count: true }) ?? numberOf(fields.ratingCount, { count: true });
  const count = rawCount !== null && Number.isSafeInteger(rawCount) && rawCount >= 0 ? rawCount : null;
  return { value: Math.round(scaled * 100) / 100, count };
}

const isType = (node: Record<string, unknown>, type: string) => {
  const t = node['@type'];
  const matches = (v: unknown) => typeof v === 'string' && (v === type || v.endsWith(`/${type}`) || v.endsWith(`:${type}`));
  return Array.isArray(t) ? t.some(matches) : matches(t);
};

/** The first AggregateRating in a JSON-LD value: an entity's aggregateRating, or a node of that type. */
export function ratingInJsonLd(value: unknown): PageRating | null {
  let seen = 0;
  const walk = (v: unknown, depth: number): PageRating | null => {
    if (depth > MAX_DEPTH || ++seen > MAX_NODES || v === null || typeof v !== 'object') return null;
    if (Array.isArray(v)) {
      for (const item of v) {
        const found = walk(item, depth + 1);
        if (found) return found;
      }
      return null;
    }
    const node = v as Record<string, unknown>;
    if (isType(node, 'AggregateRating')) {
      const r = ratingFrom(node);
      if (r) return r;
    }
    const aggregate = node.aggregateRating;
    if (aggregate && typeof aggregate === 'object' && !Array.isArray(aggregate)) {
      const r = ratingFrom(aggregate as Record<string, unknown>);
      if (r) return r;
    }
    for (const child of Object.values(node)) {
      const found = walk(child, depth + 1);
      if (found) return found;
    }
    return null;
  };
  return walk(value, 0);
}

const attr = (el: Element, name: string) => DomUtils.getAttributeValue(el, name);
const props = (el: Element) => (attr(el, 'itemprop') ?? '').split(/\s+/).filter(Boolean);

/** The first microdata AggregateRating: an itemscope typed AggregateRating or under itemprop aggregateRating. */
function ratingInMicrodata(nodes: Node[]): PageRating | null {
  const scopes = DomUtils.findAll(
    (el) => attr(el, 'itemscope') !== undefined && (/(^|\/)AggregateRating$/.test((attr(el, 'itemtype') ?? '').trim()) || props(el).includes('aggregateRating')),
    nodes,
  );
  for (const scope of scopes) {
    const fields: Record<string, string> = {};
    // Its own properties: not those of an item nested inside it.
    const visit = (children: Node[]) => {
      for (const child of children) {
        if (child.type !== 'tag' && child.type !== 'script' && child.type !== 'style') continue;
        const el = child as Element;
        for (const p of props(el)) if (!(p in fields)) fields[p] = attr(el, 'content') ?? attr(el, 'value') ?? DomUtils.textContent(el).trim();
        if (attr(el, 'itemscope') === undefined) visit(el.children as Node[]);
      }
    };
    visit(scope.children as Node[]);
    const r = ratingFrom(fields);
    if (r) return r;
  }
  return null;
}

/** Reads a fetched HTML page for the check. */
export function inspectProfilePage(html: string, expect: ProfilePageExpect): ProfilePageFindings {
  const doc = parseDocument(html);
  const nodes = doc.children;
  const target = new URL(expect.backLink);
  const code = expect.code;
  let carriesCode = false;
  let linksBack = false;
  let jsonLdRating: PageRating | null = null;
  for (const el of DomUtils.findAll(() => true, nodes)) {
    if (!carriesCode && code && Object.values(el.attribs).some((v) => v.includes(code))) carriesCode = true;
    const href = attr(el, 'href');
    if (!linksBack && href !== undefined && (el.name === 'a' || el.name === 'link' || el.name === 'area') && samePage(href, expect.pageUrl, target)) linksBack = true;
    if (!jsonLdRating && el.name === 'script' && (attr(el, 'type') ?? '').trim().toLowerCase() === 'application/ld+json') {
      try {
        jsonLdRating = ratingInJsonLd(JSON.parse(DomUtils.textContent(el)));
      } catch {
        // Not JSON: the page states nothing there.
      }
    }
  }
  // Visible text (scripts and styles are not what a visitor reads, but a page may carry the code anywhere).
  if (!carriesCode && code) carriesCode = DomUtils.textContent(nodes).includes(code);
  return { carriesCode, linksBack, rating: jsonLdRating ?? ratingInMicrodata(nodes) };
}

/** Sites whose profile pages owners give, by host; any other page is the business's website. */
const SITES: [RegExp, string][] = [
  [/(^|\.)yelp\.[a-z.]+$/, 'Yelp'],
  [/(^|\.)(google\.[a-z.]+|g\.page|goo\.gl)$/, 'Google'],
  [/(^|\.)nextdoor\.com$/, 'Nextdoor'],
  [/(^|\.)thumbtack\.com$/, 'Thumbtack'],
  [/(^|\.)(angi|angieslist)\.com$/, 'Angi'],
  [/(^|\.)homeadvisor\.com$/, 'HomeAdvisor'],
  [/(^|\.)houzz\.[a-z.]+$/, 'Houzz'],
  [/(^|\.)facebook\.com$/, 'Facebook'],
  [/(^|\.)instagram\.com$/, 'Instagram'],
  [/(^|\.)bbb\.org$/, 'BBB'],
  [/(^|\.)tripadvisor\.[a-z.]+$/, 'Tripadvisor'],
];

/** What a link is called in results: the site's name for a known marketplace or map, else Website. */
export function linkLabel(url: URL): string {
  const host = url.hostname.toLowerCase();
  return SITES.find(([re]) => re.test(host))?.[1] ?? 'Website';
}
