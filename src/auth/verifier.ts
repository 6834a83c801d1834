import type { Services } from '../context.js';
import type { Credential } from './vocabulary.js';

/** A verifier recognises its own tokens (by prefix or shape) and returns null for others. */
export type Verifier = (services: Services, token: string) => Promise<Credential | null>;
