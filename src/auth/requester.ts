/**
 * Who is asking, for the limits on what one caller may hold and for the scope of its request
 * keys: the key or connection it signed in with, or, without one (or with the shared public
 * key, which is everybody's), its network address. An IPv6 caller is told apart by its /64, the
 * smallest block a subscriber is given: the addresses inside it cost it nothing to change.
 */
import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import type { Context } from '../context.js';
import type { Tx } from '../db/transaction.js';
import { signedIn } from './credentials.js';

function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/** sha256 of the caller's identity; stored beside what it made, never the address itself. */
export function requesterOf(ctx: Pick<Context, 'credential' | 'clientAddress'>): string {
  const credential = signedIn(ctx.credential);
  const who = credential ? `credential:${credential.id}` : `address:${addressKey(ctx.clientAddress)}`;
  return createHash('sha256').update(who).digest('hex');
}

/**
 * Takes turns with the requester's other visit and appointment writes until the transaction ends,
 * so counting what it holds and adding one are one step. Taken before any business's lock.
 */
export async function lockRequester(tx: Tx, requesterHash: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`requester:${requesterHash}`}))`;
}
