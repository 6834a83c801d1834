import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A CommonJS library loaded on its first use rather than at start: the providers' SDKs (Twilio,
 * nodemailer) cost 10–25 MB of resident memory each, and a server whose provider is a sandbox, or
 * that never answers a call, never uses them. The module is the one `import` would give (Node
 * shares one CommonJS cache).
 */
export function lazyRequire<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}
