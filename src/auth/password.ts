/**
 * Owner passwords, hashed with Argon2id (@node-rs/argon2, its recommended defaults). The
 * parameters travel inside the PHC string, so hashes made with older settings still verify.
 */
import { hash, verify } from '@node-rs/argon2';

export const hashPassword = (password: string): Promise<string> => hash(password.normalize('NFKC'));

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (!stored.startsWith('$argon2')) return false;
  try {
    return await verify(stored, password.normalize('NFKC'));
  } catch {
    return false;
  }
}
