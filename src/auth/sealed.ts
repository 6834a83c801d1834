/**
 * Secrets the service must hand back later rather than only check (a visit's reply_token, or a
 * stored answer holding a manage_token, which a retry with the same request_key returns again), encrypted with a key derived from SECRETS_KEY
 * for that one purpose (AES-256-GCM, JWE compact). A database dump alone reveals none of them.
 */
import { hkdfSync } from 'node:crypto';
import { CompactEncrypt, compactDecrypt } from 'jose';

export type SealPurpose = 'visit-reply-token' | 'calendar-feed' | 'request-key-result';

const derived = new WeakMap<Uint8Array, Map<SealPurpose, Uint8Array>>();

function keyFor(secretsKey: Uint8Array, purpose: SealPurpose): Uint8Array {
  let byPurpose = derived.get(secretsKey);
  if (!byPurpose) derived.set(secretsKey, (byPurpose = new Map()));
  let key = byPurpose.get(purpose);
  if (!key) byPurpose.set(purpose, (key = new Uint8Array(hkdfSync('sha256', secretsKey, new Uint8Array(0), `porchlight ${purpose}`, 32))));
  return key;
}

export function seal(secretsKey: Uint8Array, purpose: SealPurpose, secret: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(secret)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(keyFor(secretsKey, purpose));
}

export async function unseal(secretsKey: Uint8Array, purpose: SealPurpose, sealed: string): Promise<string> {
  const { plaintext } = await compactDecrypt(sealed, keyFor(secretsKey, purpose), { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
  return new TextDecoder().decode(plaintext);
}
