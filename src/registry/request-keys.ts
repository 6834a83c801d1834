/**
 * request_key (and REST's Idempotency-Key header) for operations that create something: the
 * same key with the same input answers the first result again, with other input 400
 * idempotency_mismatch. It lives on the operation (`requestKey: true` in its definition), so
 * REST, MCP and GraphQL behave alike.
 *
 * A key is its caller's own: stored only as a digest of the operation, the requester (key,
 * connection or address: auth/requester.ts) and the key, so another caller's same key is another
 * key. The claim is a RequestKey row inserted in the operation's own first transaction
 * (ctx.transaction or ctx.sql): the primary key lets one request through, a concurrent duplicate
 * waits on that row inside its transaction and then rolls back, and a failed operation rolls
 * its claim back with its write. The answer is stored sealed (it holds manage_token or
 * reply_token) once the handler returns; a duplicate that finds the claim still pending polls
 * briefly for it. Errors are never stored: a retry after a refusal runs again.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Prisma } from '../generated/prisma/client.js';
import type { Context } from '../context.js';
import type { SqlTx, Tx } from '../db/transaction.js';
import { AppError, logInternalError } from '../errors.js';
import { requesterOf } from '../auth/requester.js';
import { seal, unseal } from '../auth/sealed.js';
import { DAY } from '../core/time.js';
import { randomKey } from './fields.js';

/** How long a key is remembered (the IETF draft's clients retry within a day). */
export const REQUEST_KEY_TTL_MS = DAY;

/** A duplicate waits this long (polls × interval) for the first request's answer, then 409. */
const POLLS = 50;
const POLL_MS = 100;

export const requestKeyField = randomKey('request_key')
  .optional()
  // Short: it is in a dozen tools' definitions (tools/list has a size budget); bookings.md says the rest.
  .describe('A new UUID; a retry returns the first result.');

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** Object keys sorted at every depth, so the same input always prints the same. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

const mismatch = (name: string) =>
  new AppError(
    'idempotency_mismatch',
    `This request_key was already used for a different ${name} request. Reuse a key only to retry exactly the same request; make a new random key for a new or changed one.`,
  );

const inProgress = () =>
  new AppError(
    'request_in_progress',
    'A request with this request_key is still being processed. Retry the same request in a few seconds to get its result.',
    { retry_after: 2 },
  );

/** Raised inside the handler's transaction when another request holds the key: rolls it back. */
class KeyTaken extends Error {}

type Row = { fingerprint: string; status: 'pending' | 'done'; result: string | null };

/** The live claim of a key, if any (an expired one is forgotten). */
async function claimOf(ctx: Context, keyHash: string): Promise<Row | null> {
  const row = await ctx.prisma.requestKey.findUnique({ where: { keyHash }, select: { fingerprint: true, status: true, result: true, expiresAt: true } });
  return row && row.expiresAt.getTime() > ctx.clock.now() ? row : null;
}

/**
 * The first answer for this key, once there is one: null when nobody holds the key; refused when
 * it was used with other input, or when its first request is still running after the wait.
 */
async function earlierAnswer(ctx: Context, name: string, keyHash: string, fingerprint: string): Promise<{ value: unknown } | null> {
  for (let poll = 0; ; poll++) {
    const row = await claimOf(ctx, keyHash);
    if (!row) return null;
    if (row.fingerprint !== fingerprint) throw mismatch(name);
    if (row.status === 'done') {
      const value = JSON.parse(await unseal(ctx.secretsKey, 'request-key-result', row.result!)) as unknown;
      // Answers that say whether they are a retry (book_appointment's `replayed`) say so now.
      if (value !== null && typeof value === 'object' && 'replayed' in value) (value as { replayed: unknown }).replayed = true;
      return { value };
    }
    if (poll === POLLS) throw inProgress();
    await sleep(POLL_MS);
  }
}

/** One call's claim of its key, taken in the first of the handler's transactions to commit. */
class Claim {
  committed = false;

  constructor(
    private readonly ctx: Context,
    private readonly keyHash: string,
    private readonly fingerprint: string,
  ) {}

  /** INSERT … ON CONFLICT: a live claim (even one not yet committed, which it waits for) wins; an expired one is taken over. */
  private statement() {
    const now = new Date(this.ctx.clock.now());
    const expires = new Date(now.getTime() + REQUEST_KEY_TTL_MS);
    return Prisma.sql`
      INSERT INTO "RequestKey" ("keyHash", "fingerprint", "status", "createdAt", "expiresAt")
      VALUES (${this.keyHash}, ${this.fingerprint}, 'pending', ${now}, ${expires})
      ON CONFLICT ("keyHash") DO UPDATE SET "fingerprint" = EXCLUDED."fingerprint", "status" = 'pending', "result" = NULL,
        "createdAt" = EXCLUDED."createdAt", "expiresAt" = EXCLUDED."expiresAt"
      WHERE "RequestKey"."expiresAt" <= ${now}
      RETURNING 1 AS "claimed"`;
  }

  private async claimIn(run: (statement: Prisma.Sql) => Promise<unknown[]>): Promise<boolean> {
    if (this.committed) return false;
    if ((await run(this.statement())).length === 0) throw new KeyTaken();
    return true;
  }

  /** The handler's context: its transactions claim the key first. */
  context<C extends Context>(ctx: C): C {
    const transaction: Context['transaction'] = async (write, options) => {
      let claimed = false;
      const out = await ctx.transaction(async (tx: Tx) => {
        claimed = await this.claimIn((s) => tx.$queryRaw(s));
        return write(tx);
      }, options);
      if (claimed) this.committed = true;
      return out;
    };
    const sql: Context['sql'] = async (write) => {
      let claimed = false;
      const out = await ctx.sql(async (tx: SqlTx) => {
        claimed = await this.claimIn((s) => tx.query(s));
        return write(tx);
      });
      if (claimed) this.committed = true;
      return out;
    };
    return { ...ctx, transaction, sql };
  }

  /**
   * Stores the answer for retries. A handler that opened no transaction wrote nothing a retry
   * could repeat: its answer is stored under a claim taken now.
   */
  async finish(result: unknown): Promise<void> {
    const sealed = await seal(this.ctx.secretsKey, 'request-key-result', JSON.stringify(result));
    // (Another request of the key that claimed it meanwhile keeps its own answer.)
    if (!this.committed && (await this.ctx.prisma.$queryRaw<unknown[]>(this.statement())).length === 0) return;
    await this.ctx.prisma.requestKey.updateMany({ where: { keyHash: this.keyHash, fingerprint: this.fingerprint, status: 'pending' }, data: { status: 'done', result: sealed } });
  }

  /** The handler failed after its claim committed: errors are not kept, so a retry runs again. */
  release(): Promise<unknown> {
    return this.ctx.prisma.requestKey.deleteMany({ where: { keyHash: this.keyHash, status: 'pending' } });
  }
}

/**
 * What is stored of a key and its request: the key's digest, scoped to the operation and the
 * caller, and the input's. The X-User-* headers stand in for input fields (customer_name…), so
 * they are part of the input.
 */
export function requestKeyDigests(name: string, key: string, input: object, ctx: Pick<Context, 'credential' | 'clientAddress' | 'user'>) {
  return {
    keyHash: digest(`request-key:${name}:${requesterOf(ctx)}:${key}`),
    fingerprint: digest(canonical({ input, user: ctx.user })),
  };
}

/** Rounds of "someone else holds the key" before giving up with 409 (each waits for that holder). */
const ROUNDS = 3;

/**
 * Runs an operation's handler under its request_key, if one was sent. `input` is the validated
 * input; the handler gets it without request_key.
 */
export async function withRequestKey<I extends { request_key?: string }, C extends Context, R>(
  name: string,
  input: I,
  ctx: C,
  handler: (input: Omit<I, 'request_key'>, ctx: C) => R | Promise<R>,
): Promise<R> {
  const { request_key: key, ...rest } = input;
  if (key === undefined) return handler(rest, ctx);
  const { keyHash, fingerprint } = requestKeyDigests(name, key, rest, ctx);
  for (let round = 0; round < ROUNDS; round++) {
    const earlier = await earlierAnswer(ctx, name, keyHash, fingerprint);
    if (earlier) return earlier.value as R;
    const claim = new Claim(ctx, keyHash, fingerprint);
    let result: R;
    try {
      result = await handler(rest, claim.context(ctx));
    } catch (err) {
      if (claim.committed) {
        await claim.release();
        throw err;
      }
      // The same key from the same caller got there first: our claim waited for it and rolled
      // back, or a check its write changed refused us (the time it took is now taken). Its
      // answer is ours.
      if (err instanceof KeyTaken || (await claimOf(ctx, keyHash))) continue;
      throw err;
    }
    // The write is committed: its answer goes back even if storing it failed (a retry then
    // hears request_in_progress rather than making it twice).
    await claim.finish(result).catch((err: unknown) => logInternalError(ctx.logger, err));
    return result;
  }
  throw inProgress();
}

/** Keys past their time: deleted by a recurring sweep (a new claim also takes an expired one over). */
export function sweepRequestKeys(ctx: Pick<Context, 'prisma' | 'clock'>) {
  return ctx.prisma.requestKey.deleteMany({ where: { expiresAt: { lte: ctx.clock.date() } } });
}
