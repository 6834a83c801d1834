/**
 * SECRETS_KEY, the key that encrypts the secrets the database must hold in a usable form (the
 * OAuth signing key), so a database dump or backup alone cannot mint tokens. It comes from the
 * environment. Without it, development (the embedded database's demo, or any database) keeps a
 * generated key in the data folder; production refuses to start, on PGlite as on PostgreSQL: a
 * key generated beside one instance is not the key of the others and dies with its disk.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { SettingsError, type Config } from '../config.js';

export const SECRETS_KEY_FILE = 'secrets.key';
const FORMAT = /^[A-Za-z0-9_-]{43}$/;
const HOW = 'Generate one with: node -e "console.log(require(\'node:crypto\').randomBytes(32).toString(\'base64url\'))"';

const malformed = (source: string) => `${source} must be 32 random bytes in base64url (43 characters). ${HOW}`;
const MISSING =
  'SECRETS_KEY is not set: in production every instance needs the same SECRETS_KEY, on the embedded database as on DATABASE_URL ' +
  `(it encrypts the OAuth signing key stored in the database). ${HOW}`;

function decode(value: string, source: string): Uint8Array {
  if (!FORMAT.test(value)) throw new SettingsError(malformed(source));
  return new Uint8Array(Buffer.from(value, 'base64url'));
}

/** Why a production start cannot use this SECRETS_KEY (one line, never echoing it), or null. */
export function secretsKeyProblem(value: string | undefined): string | null {
  if (!value) return MISSING;
  return FORMAT.test(value) ? null : malformed('SECRETS_KEY');
}

/** The key in DATA_DIR, created (readable by this user only) the first time. */
function keyFile(dataDir: string): Uint8Array {
  const path = join(dataDir, SECRETS_KEY_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    // wx: two processes starting at once must not both write a key.
    writeFileSync(path, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return decode(readFileSync(path, 'utf8').trim(), path);
}

export function loadSecretsKey(config: Config, logger: Logger): Uint8Array {
  if (config.secretsKey) return decode(config.secretsKey, 'SECRETS_KEY');
  if (!config.development) throw new SettingsError(MISSING);
  if (!config.databaseUrl) return keyFile(config.dataDir);
  logger.warn({ file: join(config.dataDir, SECRETS_KEY_FILE) }, 'SECRETS_KEY is not set: using a key kept in the data folder; set SECRETS_KEY for every instance that shares this database');
  return keyFile(config.dataDir);
}
