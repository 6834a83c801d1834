/**
 * Which network addresses an owner-given link may reach: public unicast only. Loopback,
 * private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, multicast,
 * broadcast, reserved and documentation ranges are refused; IPv4-mapped IPv6 is judged as the
 * IPv4 address it carries; IPv6 must be global unicast (2000::/3) outside the ranges that tunnel
 * to IPv4 (6to4, Teredo, NAT64), which could reach a private IPv4 network.
 */
import ipaddr from 'ipaddr.js';

export type AddressCheck = { ok: true; address: string } | { ok: false; reason: string };

const GLOBAL_V6 = ipaddr.parseCIDR('2000::/3');

const REASONS: Record<string, string> = {
  loopback: 'a loopback address (this machine)',
  private: 'a private network address',
  uniqueLocal: 'a private network address',
  linkLocal: 'a link-local address (such as a cloud metadata service)',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
  unspecified: 'an unspecified address',
};

/** Judges one IP address (v4 or v6, without brackets). */
export function checkAddress(raw: string): AddressCheck {
  if (!ipaddr.isValid(raw)) return { ok: false, reason: 'not an IP address' };
  const address = ipaddr.process(raw);
  const range = address.range();
  if (range !== 'unicast') return { ok: false, reason: REASONS[range] ?? 'a reserved, non-public address' };
  if (address.kind() === 'ipv6' && !address.match(GLOBAL_V6)) return { ok: false, reason: 'a reserved, non-public address' };
  return { ok: true, address: address.toString() };
}

/** A URL host that is an IP literal ("[::1]" included), without brackets; null for a name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : null;
}
