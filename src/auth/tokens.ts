import { createHash, randomBytes } from 'node:crypto';

/** A fresh secret with a readable prefix (manage tokens, confirmation links, keys). */
export const newToken = (prefix: string, bytes = 24) => `${prefix}${randomBytes(bytes).toString('base64url')}`;

/** Secrets that are only ever checked are stored as this digest, never in the clear. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
