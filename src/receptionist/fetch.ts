/**
 * Fetching the links owners give (add_receptionist_source url and file_url) without letting
 * them reach anything but the public web (SSRF): https only; every address a name resolves to
 * is checked in undici's DNS hook, before connecting (so a name cannot resolve to a public
 * address for the check and a private one for the connection); IP literals, which never reach
 * that hook, are checked here; redirects are followed by hand, each hop checked again, at most
 * `maxRedirects`; the whole fetch has a deadline, the body a size cap and an expected type.
 *
 * Tests drive it against a local https server through `FetchPolicy` (an extra CA, a resolver
 * and addresses allowed besides public ones); production passes none of them.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { AppError } from '../errors.js';
import { checkAddress, ipLiteral } from './address.js';

export interface FetchPolicy {
  /** The whole fetch, redirects included. */
  timeoutMs: number;
  maxRedirects: number;
  /** Extra CA certificates (PEM) trusted besides the system's. Tests only. */
  ca?: string[];
  /** Addresses allowed although not public. Tests only. */
  allowAddress?: (address: string) => boolean;
  /** The resolver behind the address check. Tests only; production uses the system's. */
  lookup?: typeof dnsLookup;
  /** Who is asking, as the User-Agent header says. */
  userAgent?: string;
}

export const DEFAULT_FETCH_POLICY: FetchPolicy = { timeoutMs: 15_000, maxRedirects: 5 };

/**
 * What one fetch accepts: media types (lowercase, without parameters; "application/*+json"
 * stands for every JSON type with that suffix) and a size cap.
 */
export interface Wanted {
  types: readonly string[];
  maxBytes: number;
  /** Says what to send instead when the type is wrong. */
  otherwise: string;
}

export interface Fetched {
  /** The address finally read (after redirects). */
  url: string;
  /** The media type, lowercase, without parameters. */
  type: string;
  charset: string | null;
  body: Buffer;
  /** The response's caching headers (Cache-Control, Expires, Date, Age), for callers that cache. */
  caching: { cacheControl?: string; expires?: string; date?: string; age?: string };
}

export interface UrlFetcher {
  /** `signal`: the caller's; the fetch stops when it aborts. */
  get(url: string, wanted: Wanted, signal?: AbortSignal): Promise<Fetched>;
  close(): Promise<void>;
}

const refused = (message: string) => new AppError('invalid_input', message);

/** Raised inside the DNS hook; found again in the cause chain undici wraps it in. */
class AddressRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const typeAccepted = (types: readonly string[], type: string) =>
  types.includes(type) || (types.includes('application/*+json') && /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(type));

/** A size in words: 5 KB, 20 MB. */
const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${Math.round(bytes / 1024 / 1024)} MB`);

/** The link as an https URL the service may fetch, or a 400 saying why not. */
export function httpsUrl(raw: string, what = 'The link'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused(`${what} is not a web address; send a full https:// link.`);
  }
  if (url.protocol !== 'https:') throw refused(`${what} must be an https:// link (${url.protocol.replace(/:$/, '')} links are not fetched).`);
  if (url.username || url.password) throw refused(`${what} must not carry a user name or password.`);
  return url;
}

export function createUrlFetcher(policy: FetchPolicy = DEFAULT_FETCH_POLICY): UrlFetcher {
  const allowed = (address: string) => {
    const check = checkAddress(address);
    if (check.ok || policy.allowAddress?.(address)) return null;
    return check.reason;
  };
  const resolve = policy.lookup ?? dnsLookup;
  // Node calls this for host names (never for IP literals) with all: true when it races
  // IPv4 and IPv6 (autoSelectFamily), otherwise for one address.
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const reason = allowed(a.address);
        if (reason) return callback(new AddressRefused(reason), '', 0);
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
  const agent = new Agent({
    connect: { lookup, timeout: 5_000, ...(policy.ca?.length ? { ca: [...rootCertificates, ...policy.ca] } : {}) },
    headersTimeout: policy.timeoutMs,
    bodyTimeout: policy.timeoutMs,
  });

  async function get(raw: string, wanted: Wanted, caller?: AbortSignal): Promise<Fetched> {
    const signal = caller ? AbortSignal.any([AbortSignal.timeout(policy.timeoutMs), caller]) : AbortSignal.timeout(policy.timeoutMs);
    let url = httpsUrl(raw);
    for (let hop = 0; ; hop++) {
      const literal = ipLiteral(url.hostname);
      const reason = literal === null ? null : allowed(literal);
      if (reason) throw refused(`${url.host} is ${reason}; only public https addresses are read.`);
      let res: Awaited<ReturnType<typeof request>>;
      try {
        res = await request(url, {
          dispatcher: agent,
          method: 'GET',
          signal,
          headers: { accept: wanted.types.join(', '), 'user-agent': policy.userAgent ?? 'Porchlight knowledge reader' },
        });
      } catch (err) {
        throw explain(err, url, policy.timeoutMs);
      }
      if (REDIRECTS.has(res.statusCode)) {
        await res.body.dump();
        const location = header(res.headers.location);
        if (!location) throw refused(`${url.host} answered a redirect without saying where to.`);
        if (policy.maxRedirects === 0) throw refused(`${url.host} answered a redirect (HTTP ${res.statusCode}); redirects are not followed, so send the final address.`);
        if (hop >= policy.maxRedirects) throw refused(`The link redirects more than ${policy.maxRedirects} times; send the final address.`);
        url = httpsUrl(new URL(location, url).href, `The link redirects to ${location.slice(0, 200)}, which`);
        continue;
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        throw refused(`${url.host} answered HTTP ${res.statusCode} for that link; check that it opens without signing in.`);
      }
      const [type = '', ...params] = (header(res.headers['content-type']) ?? '').split(';').map((s) => s.trim());
      const mediaType = type.toLowerCase();
      if (!typeAccepted(wanted.types, mediaType)) {
        await res.body.dump();
        throw refused(`The link serves ${mediaType || 'no content type'}, not ${wanted.types.join(', ')}. ${wanted.otherwise}`);
      }
      const tooBig = () => refused(`The link's content is larger than ${size(wanted.maxBytes)}; send a smaller file or page.`);
      const length = Number(header(res.headers['content-length']));
      if (Number.isFinite(length) && length > wanted.maxBytes) {
        res.body.destroy();
        throw tooBig();
      }
      const chunks: Buffer[] = [];
      let received = 0;
      try {
        for await (const chunk of res.body) {
          received += (chunk as Buffer).length;
          if (received > wanted.maxBytes) {
            res.body.destroy();
            throw tooBig();
          }
          chunks.push(chunk as Buffer);
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw explain(err, url, policy.timeoutMs);
      }
      const charset = params.find((p) => /^charset=/i.test(p))?.slice(8).replace(/"/g, '').trim().toLowerCase() || null;
      const caching = {
        cacheControl: header(res.headers['cache-control']),
        expires: header(res.headers.expires),
        date: header(res.headers.date),
        age: header(res.headers.age),
      };
      return { url: url.href, type: mediaType, charset, body: Buffer.concat(chunks), caching };
    }
  }

  return { get, close: () => agent.close() };
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME|ERR_SSL|ERR_TLS/;

/** A failed fetch as a 400 saying why, in words (never a stack or an internal address). */
function explain(err: unknown, url: URL, timeoutMs: number): AppError {
  const chain: unknown[] = [];
  for (let e: unknown = err; e instanceof Error && chain.length < 6; e = e.cause) chain.push(e);
  const refusedAddress = chain.find((e): e is AddressRefused => e instanceof AddressRefused);
  if (refusedAddress) return refused(`${url.hostname} resolves to ${refusedAddress.reason}; only public https addresses are read.`);
  const codes = chain.map((e) => String((e as { code?: unknown }).code ?? '')).join(' ');
  const names = chain.map((e) => (e as Error).name).join(' ');
  if (/TimeoutError|AbortError/.test(names) || /UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT/.test(codes)) {
    return refused(`${url.host} did not answer within ${timeoutMs / 1000} seconds.`);
  }
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME/.test(codes)) return refused(`${url.hostname} was not found; check the link.`);
  if (TLS_CODES.test(codes)) return refused(`${url.host}'s certificate could not be verified, so the link was not read.`);
  return refused(`${url.host} could not be reached; check the link and try again.`);
}
