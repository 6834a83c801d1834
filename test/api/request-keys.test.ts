/**
 * request_key (request_visit, book_visit) is its caller's own (issue 18, item 7): the same key
 * from another key, connection or address is another key, so it never replays someone else's
 * result (their reply_token) nor tells that the key was used. The reply_token is random, stored
 * hashed in the conversation and sealed for the caller's own retry; keys must be random.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { hashToken } from '../../src/auth/tokens.js';
import { bearer, onPostgres, personalKey, startApp, type TestApp } from '../helpers/harness.js';
import { SURFACES, call } from '../helpers/surfaces.js';

const SALON = demoIds.beautySanFrancisco;
const CUT = [{ service_id: 'womens-cut' }];
let app: TestApp;

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000', TRUST_PROXY: '127.0.0.1' } });
});
afterAll(async () => app?.close());

const from = (address: string) => ({ 'x-forwarded-for': address });

async function requestInput(extra: Record<string, unknown> = {}) {
  const e = (await app.rest('estimate_visit', { business: SALON, selections: JSON.stringify(CUT) })).body;
  return { business: SALON, selections: CUT, customer_name: 'Vic Tim', menu_revision: e.menu_revision, expected_estimate_cents: e.estimate_cents, customer_authorized: true, request_key: randomUUID(), ...extra };
}

describe('another caller with the same request_key', () => {
  it('gets a request of its own, never the first caller\'s reply_token, on every surface', async () => {
    const victim = await requestInput({ note: 'My own request' });
    const first = await call(app, 'rest', 'request_visit', victim, from('198.51.100.1'));
    expect(first.ok, JSON.stringify(first)).toBe(true);
    const others = [from('198.51.100.2'), bearer(await personalKey(app)), bearer(await personalKey(app))];
    for (const [i, via] of SURFACES.entries()) {
      const r = await call(app, via, 'request_visit', victim, others[i]);
      expect(r.ok, `${via}: ${JSON.stringify(r)}`).toBe(true);
      expect(r.body.request.visit_id).not.toBe(first.body.request.visit_id);
      expect(r.body.inquiry_id).not.toBe(first.body.inquiry_id);
      expect(r.body.reply_token).not.toBe(first.body.reply_token);
      expect(JSON.stringify(r.body)).not.toContain(first.body.reply_token);
    }
    // The victim's conversation saw nobody else.
    const status = await app.rest('inquiry_status', { inquiry_id: first.body.inquiry_id, reply_token: first.body.reply_token });
    expect(status.body.messages).toHaveLength(1);
  });

  it('with other details is not told the key was ever used (no idempotency_mismatch), on every surface', async () => {
    const victim = await requestInput();
    expect((await call(app, 'rest', 'request_visit', victim, from('198.51.100.3'))).ok).toBe(true);
    const times = await app.rest('visit_times', { business: SALON, selections: JSON.stringify(CUT), date: '2026-12-02' });
    for (const [i, via] of SURFACES.entries()) {
      const probe = await call(app, via, 'request_visit', { ...victim, customer_name: `Prober ${via}` }, from(`198.51.100.1${i}`));
      expect(probe.ok, `${via}: ${JSON.stringify(probe)}`).toBe(true);
      // The key with another operation: a booking of its own, no tell-tale.
      const booking = await call(app, via, 'book_visit', { ...victim, customer_email: 'probe@example.com', start: times.body.starts[i * 4] }, from(`198.51.100.${5 + i}`));
      expect(booking.ok, `${via}: ${JSON.stringify(booking)}`).toBe(true);
    }
    // Only the key's own caller hears of the mismatch.
    const own = await call(app, 'mcp', 'request_visit', { ...victim, customer_name: 'Changed' }, from('198.51.100.3'));
    expect(own.code).toBe('idempotency_mismatch');
  });

  it('from a key and from the same address without it are two callers', async () => {
    const key = bearer(await personalKey(app));
    const input = await requestInput();
    const anonymous = await call(app, 'rest', 'request_visit', input, from('198.51.100.9'));
    const signed = await call(app, 'rest', 'request_visit', input, { ...from('198.51.100.9'), ...key });
    expect(signed.body.request.visit_id).not.toBe(anonymous.body.request.visit_id);
    // The key's own retry, from another address, is the key's request.
    const retry = await call(app, 'graphql', 'request_visit', input, { ...from('203.0.113.77'), ...key });
    expect(retry.body.request.visit_id).toBe(signed.body.request.visit_id);
    expect(retry.body.reply_token).toBe(signed.body.reply_token);
  });
});

describe("the caller's own retry", () => {
  it('returns the first result with its reply_token, which works, on every surface', async () => {
    const input = await requestInput();
    const first = await call(app, 'rest', 'request_visit', input, from('198.51.100.20'));
    for (const via of SURFACES) {
      const again = await call(app, via, 'request_visit', input, from('198.51.100.20'));
      expect(again.body.request.visit_id, via).toBe(first.body.request.visit_id);
      expect(again.body.reply_token, via).toBe(first.body.reply_token);
    }
    const status = await app.rest('inquiry_status', { inquiry_id: first.body.inquiry_id, reply_token: first.body.reply_token });
    expect(status.status).toBe(200);
    expect(await app.services.prisma.visit.count({ where: { conversationId: first.body.inquiry_id } })).toBe(1);
  });

  it('keeps the reply_token random, hashed where checked and sealed for the retry, never derived from the key', async () => {
    const input = await requestInput();
    const r = await call(app, 'rest', 'request_visit', input, from('198.51.100.21'));
    const token: string = r.body.reply_token;
    expect(token).toMatch(/^rt_[A-Za-z0-9_-]{32}$/);
    // The old derivation (HMAC of the key) no longer makes it.
    const derived = `rt_${createHmac('sha256', app.services.secretsKey).update(`visit-reply-token:${input.request_key}`).digest('base64url').slice(0, 40)}`;
    expect(token).not.toBe(derived);
    const visit = await app.services.prisma.visit.findUniqueOrThrow({ where: { id: r.body.request.visit_id }, include: { conversation: true } });
    expect(visit.conversation.replyTokenHash).toBe(hashToken(token));
    expect(visit.replyTokenSealed).toMatch(/^eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0\./);
    const row = JSON.stringify(visit);
    expect(row).not.toContain(token);
    expect(row).not.toContain(input.request_key);
    // Neither is the key's digest the caller-free one it used to be.
    expect(visit.requestKeyHash).not.toBe(hashToken(`visit-request-key:${input.request_key}`));
  });
});

describe('request_key must be random', () => {
  const weak = ['a'.repeat(20), 'ab'.repeat(10), `${'0'.repeat(19)}1`, `request-${'0'.repeat(20)}42`, 'aaaaaaaaaaaaaaaabcde'];
  it.each(weak)('refuses %s on every surface, saying how to make one', async (request_key) => {
    const input = await requestInput({ request_key });
    for (const via of SURFACES) {
      for (const operation of ['request_visit', 'book_visit']) {
        const extra = operation === 'book_visit' ? { customer_email: 'weak@example.com', start: '2026-12-01T10:00:00-08:00' } : {};
        const r = await call(app, via, operation, { ...input, ...extra }, from('198.51.100.30'));
        expect(r.code, `${operation} via ${via}`).toBe('invalid_input');
        expect(r.error).toMatch(/request_key must be random.*crypto\.randomUUID\(\)/);
      }
    }
  });

  it('accepts UUIDs and random hex', async () => {
    for (const request_key of [randomUUID(), randomBytes(10).toString('hex'), randomBytes(16).toString('base64url')]) {
      expect((await call(app, 'rest', 'request_visit', await requestInput({ request_key }), from('198.51.100.31'))).ok, request_key).toBe(true);
    }
  });
});

describe.skipIf(!onPostgres)('request keys under concurrency on PostgreSQL', () => {
  it('one key from ten callers at once: ten requests, each with its own token; from one caller: one', async () => {
    const input = await requestInput();
    const many = await Promise.all(Array.from({ length: 10 }, (_, i) => app.rest('request_visit', input, from(`198.51.100.${40 + i}`))));
    expect(many.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(many.map((r) => r.body.request.visit_id)).size).toBe(10);
    expect(new Set(many.map((r) => r.body.reply_token)).size).toBe(10);
    const one = await Promise.all(Array.from({ length: 10 }, () => app.rest('request_visit', input, from('198.51.100.60'))));
    expect(one.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(one.map((r) => r.body.request.visit_id)).size).toBe(1);
    expect(new Set(one.map((r) => r.body.reply_token)).size).toBe(1);
  });
});
