/**
 * JWT signing keys (ES256), kept in the database so every instance signs and verifies with the
 * same keys. The newest unretired key signs; retired keys still verify until the tokens they
 * signed have expired. Each process caches the keys and rereads the database when it meets a
 * key id it does not know (another instance rotated) or when its cached signer is old.
 * Private keys are stored encrypted with SECRETS_KEY (JWE, dir + A256GCM).
 */
import { randomBytes } from 'node:crypto';
import {
  CompactEncrypt,
  SignJWT,
  compactDecrypt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { Services } from '../../context.js';
import type { PrismaClient } from '../../generated/prisma/client.js';

const ALG = 'ES256';
/** How long a process trusts its cached signer before checking for a newer key. */
const SIGNER_RECHECK_MS = 5 * 60 * 1000;
/** Retired keys are deleted once every token they can have signed has expired. */
const RETIRED_KEY_KEEP_MS = 24 * 60 * 60 * 1000;

interface Signer {
  kid: string;
  privateKey: CryptoKey;
}

interface KeyCache {
  /** A promise, so that concurrent first requests share one load (and create at most one key). */
  signer?: Promise<Signer>;
  signerLoadedAt: number;
  publicKeys: Map<string, CryptoKey>;
}

const caches = new WeakMap<PrismaClient, KeyCache>();

function cacheOf(services: Services): KeyCache {
  let cache = caches.get(services.prisma);
  if (!cache) {
    cache = { signerLoadedAt: 0, publicKeys: new Map() };
    caches.set(services.prisma, cache);
  }
  return cache;
}

type Secrets = Pick<Services, 'prisma' | 'secretsKey'>;
type KeyRow = { kid: string; privateJwk: unknown };

const seal = (services: Secrets, jwk: JWK) =>
  new CompactEncrypt(new TextEncoder().encode(JSON.stringify(jwk))).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'jwk+json' }).encrypt(services.secretsKey);

/** The row's private JWK; a wrong SECRETS_KEY (or a row moved to another kid) is an error, never a silent fallback. */
async function unseal(services: Secrets, row: KeyRow): Promise<JWK> {
  if (typeof row.privateJwk !== 'string') return row.privateJwk as JWK;
  let jwk: JWK;
  try {
    const { plaintext } = await compactDecrypt(row.privateJwk, services.secretsKey, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    jwk = JSON.parse(new TextDecoder().decode(plaintext)) as JWK;
  } catch {
    throw new Error(`OAuth signing key ${row.kid} cannot be decrypted: SECRETS_KEY is not the key it was encrypted with.`);
  }
  if (jwk.kid !== row.kid) throw new Error(`OAuth signing key ${row.kid} holds the private key of another key id.`);
  return jwk;
}

/** A plaintext row (stored before keys were encrypted, or by an older instance) encrypted in place. */
async function sealRow(services: Secrets, row: KeyRow): Promise<void> {
  await services.prisma.signingKey.update({ where: { kid: row.kid }, data: { privateJwk: await seal(services, row.privateJwk as JWK) } });
}

/**
 * At start-up: encrypts plaintext private keys in place and checks that SECRETS_KEY opens the
 * others, so a wrong key stops the start rather than the first sign-in.
 */
export async function sealSigningKeys(services: Secrets): Promise<void> {
  for (const row of await services.prisma.signingKey.findMany({ select: { kid: true, privateJwk: true } })) {
    if (typeof row.privateJwk === 'string') await unseal(services, row);
    else await sealRow(services, row);
  }
}

/** A fresh key pair as a SigningKey row (the public JWK, and the private one encrypted). */
async function newKeyRow(services: Services) {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
  const kid = `k_${services.clock.now().toString(36)}_${randomBytes(6).toString('base64url')}`;
  const [publicJwk, privateJwk] = await Promise.all([exportJWK(publicKey), exportJWK(privateKey)]);
  return { kid, alg: ALG, publicJwk: { ...publicJwk, kid, alg: ALG }, privateJwk: await seal(services, { ...privateJwk, kid, alg: ALG }), createdAt: services.clock.date() };
}

async function loadSigner(services: Services): Promise<Signer> {
  const row =
    (await services.prisma.signingKey.findFirst({ where: { retiredAt: null }, orderBy: { createdAt: 'desc' } })) ?? (await services.prisma.signingKey.create({ data: await newKeyRow(services) }));
  if (typeof row.privateJwk !== 'string') await sealRow(services, row);
  return { kid: row.kid, privateKey: (await importJWK(await unseal(services, row), row.alg)) as CryptoKey };
}

function currentSigner(services: Services): Promise<Signer> {
  const cache = cacheOf(services);
  if (!cache.signer || services.clock.now() - cache.signerLoadedAt > SIGNER_RECHECK_MS) {
    const loading = loadSigner(services);
    loading.catch(() => {
      if (cache.signer === loading) cache.signer = undefined;
    });
    cache.signer = loading;
    cache.signerLoadedAt = services.clock.now();
  }
  return cache.signer;
}

async function publicKey(services: Services, kid: string): Promise<CryptoKey | null> {
  const cache = cacheOf(services);
  const known = cache.publicKeys.get(kid);
  if (known) return known;
  const row = await services.prisma.signingKey.findUnique({ where: { kid } });
  if (!row) return null;
  const key = (await importJWK(row.publicJwk as JWK, row.alg)) as CryptoKey;
  cache.publicKeys.set(kid, key);
  return key;
}

/**
 * Makes a new signing key the signer and retires the previous ones (they still verify).
 * Returns the new key id.
 */
export async function rotateSigningKey(services: Services): Promise<string> {
  const now = services.clock.date();
  const row = await newKeyRow(services);
  await services.prisma.$transaction(async (tx) => {
    await tx.signingKey.updateMany({ where: { retiredAt: null }, data: { retiredAt: now } });
    await tx.signingKey.deleteMany({ where: { retiredAt: { lt: new Date(now.getTime() - RETIRED_KEY_KEEP_MS) } } });
    await tx.signingKey.create({ data: row });
  });
  cacheOf(services).signer = undefined;
  return row.kid;
}

export interface SignOptions {
  /** JWT `typ` header: tells token kinds apart so one can never pass for another. */
  typ: string;
  audience: string | string[];
  subject: string;
  ttlSeconds: number;
}

/** Signs claims with the current key; iat and exp come from the service clock. */
export async function signJwt(services: Services, claims: JWTPayload, opts: SignOptions): Promise<string> {
  const signer = await currentSigner(services);
  const iat = Math.floor(services.clock.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: ALG, kid: signer.kid, typ: opts.typ })
    .setIssuer(services.config.baseUrl)
    .setAudience(opts.audience)
    .setSubject(opts.subject)
    .setIssuedAt(iat)
    .setExpirationTime(iat + opts.ttlSeconds)
    .sign(signer.privateKey);
}

/** The verified claims, or null for anything not signed by one of our keys, expired, or of another kind or audience. */
export async function verifyJwt(services: Services, token: string, opts: { typ: string; audience: string | string[] }): Promise<JWTPayload | null> {
  if (!/^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(token)) return null;
  try {
    const { kid } = decodeProtectedHeader(token);
    const key = typeof kid === 'string' && kid.length <= 100 ? await publicKey(services, kid) : null;
    if (!key) return null;
    const { payload } = await jwtVerify(token, key, {
      algorithms: [ALG],
      issuer: services.config.baseUrl,
      audience: opts.audience,
      typ: opts.typ,
      currentDate: services.clock.date(),
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    return payload;
  } catch {
    return null;
  }
}
