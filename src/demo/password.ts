/**
 * Password hashing with node:crypto scrypt.
 *
 * Stored format: `scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>`. Parameters are read back from
 * the stored string, so hashes made with other parameters still verify. (This may later be
 * swapped for a dedicated library; keep the API.)
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(password.normalize('NFKC'), salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

// 128 * N * r bytes are needed; leave head room above Node's 32 MiB default.
const maxmem = (n: number, r: number) => 256 * n * r + 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_BYTES, { N, r: R, p: P, maxmem: maxmem(N, R) });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  // Refuse absurd parameters rather than letting a stored string exhaust memory or CPU.
  const powerOfTwo = Number.isInteger(n) && n > 1 && (n & (n - 1)) === 0;
  if (!powerOfTwo || n > 1 << 20 || !Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16) {
    return false;
  }
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (salt.length === 0 || expected.length === 0) return false;
  try {
    const key = await scrypt(password, salt, expected.length, { N: n, r, p, maxmem: maxmem(n, r) });
    return timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}
