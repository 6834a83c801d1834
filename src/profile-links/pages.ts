/**
 * How profile links are read: the SSRF-safe fetcher (receptionist/fetch.ts) for every page on the
 * web, and, for the demo, its own profile pages (`<BASE_URL>/demo/profiles/<slug>`) rendered in
 * this process by the same code that serves them, since the fetcher reaches only public https
 * addresses and the demo listens on a local http one. Owners cannot add a link to this service's
 * own address (service.ts), so only the seeded demo links are read the second way.
 */
import type { Fetched, UrlFetcher, Wanted } from '../receptionist/fetch.js';
import { invalid } from '../errors.js';

export interface ProfilePages extends UrlFetcher {
  /** Whether `url` is one of this service's own pages, read in process (no network). */
  inProcess(url: string): boolean;
}

/** `own`: the page at that path of this service, as HTML (null when there is none). */
export function createProfilePages(web: UrlFetcher, baseUrl: string, own?: { prefix: string; page: (path: string) => Promise<string | null> }): ProfilePages {
  const prefix = own ? `${baseUrl}${own.prefix}` : null;
  const inProcess = (url: string) => prefix !== null && url.startsWith(prefix);
  return {
    inProcess,
    async get(url: string, wanted: Wanted, signal?: AbortSignal): Promise<Fetched> {
      if (!inProcess(url) || !own) return web.get(url, wanted, signal);
      const html = await own.page(new URL(url).pathname);
      if (html === null) throw invalid(`${new URL(url).host} answered HTTP 404 for that link.`);
      return { url, type: 'text/html', charset: 'utf-8', body: Buffer.from(html), caching: {} };
    },
    close: () => web.close(),
  };
}
