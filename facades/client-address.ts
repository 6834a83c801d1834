import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import type { AddressRange } from '../src/config.js';

/** The socket's peer, or undefined for requests handed to fetch() directly (tests, the benchmark). */
export function peerOf(c: Context): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? (incoming.socket.remoteAddress ?? 'unknown') : undefined;
}

/** An address as ipaddr.js reads it, IPv4-mapped IPv6 (::ffff:10.0.0.1) as plain IPv4. */
function parsed(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  return ipaddr.isValid(address) ? ipaddr.process(address) : undefined;
}

const listed = (address: string, proxies: AddressRange[]) => {
  const a = parsed(address);
  return Boolean(a) && proxies.some((range) => range[0].kind() === a!.kind() && a!.match(range));
};

export const isLoopback = (address: string) => parsed(address)?.range() === 'loopback';

/**
 * The caller's address for rate limits. X-Forwarded-For is believed only from a listed proxy
 * (TRUST_PROXY), and then only as far as listed proxies appended to it: the client is the
 * rightmost entry that is not itself a proxy. Anything further left was written by the client.
 */
export function addressBehindProxies(peer: string, forwardedFor: string | undefined, proxies: AddressRange[]): string {
  if (!listed(peer, proxies)) return peer;
  const chain = (forwardedFor ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) if (!listed(chain[i]!, proxies)) return chain[i]!;
  return chain[0] ?? peer;
}

/**
 * The caller's address of a Hono request. A request handed to fetch() directly comes from inside
 * this process: a loopback peer, called 'local' unless loopback is a listed proxy.
 */
export function clientAddress(c: Context, proxies: AddressRange[]): string {
  const peer = peerOf(c) ?? (listed('127.0.0.1', proxies) ? '127.0.0.1' : undefined);
  return peer === undefined ? 'local' : addressBehindProxies(peer, c.req.header('x-forwarded-for'), proxies);
}
