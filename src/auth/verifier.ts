import type { Services, Credential } from '../context.js';

/** A verifier recognises its own tokens (by prefix or shape) and returns null for others. */
export type Verifier = (services: Services, token: string) => Promise<Credential | null>;
