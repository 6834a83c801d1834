import type { Services } from '../context.js';
import type { Credential } from './vocabulary.js';
import type { CredentialRead } from './read-ahead.js';

/**
 * A verifier recognises its own tokens (by prefix or shape) and returns null for others. One that
 * checks a business's credential in a statement makes `read` in it (Credential.readAhead).
 */
export type Verifier = (services: Services, token: string, read?: CredentialRead) => Promise<Credential | null>;
