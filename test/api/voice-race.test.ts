/**
 * Calls racing the spending limit. PGlite runs one statement at a time, so this runs on
 * PostgreSQL only (TEST_DATABASE_URL): 20 simulated calls at once near the limit (answered by the
 * agent, or forwarded once others used the last minutes), their completed callbacks racing each
 * other and their own repeats, never take the month past the limit; the limit is announced and
 * noted once, and the next call is forwarded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onPostgres, startApp, type TestApp } from '../helpers/harness.js';
import { placeCall, postVoiceWebhook } from '../helpers/voice.js';
import { committedCents } from '../../src/billing/ledger.js';
import { ledger } from '../../src/billing/store.js';

let app: TestApp;
let businessId: string;
let number: string;

beforeAll(async () => {
  if (!onPostgres) return;
  app = await startApp({ env: { VOICE_AGENT_URL: 'wss://agent.porchlight.test/calls', RATE_LIMIT_PER_MINUTE: '100000' } });
  ({ businessId, number } = await app.services.prisma.receptionistNumber.findFirstOrThrow({ where: { status: 'active' } }));
});
afterAll(async () => app?.close());

describe.skipIf(!onPostgres)('calls racing the limit on PostgreSQL', () => {
  it('20 concurrent calls near the limit never pass it', async () => {
    // The included 300 minutes used; $2 over the plan buys 10 paid minutes at $0.20.
    await app.services.prisma.receptionistBilling.update({ where: { businessId }, data: { usedMinutes: 300, limitCents: 5100, atLimit: 'ask', limitReachedFor: null } });
    const notes = await app.services.prisma.ownerNote.count({ where: { businessId } });
    const events = await app.services.prisma.event.count({ where: { businessId, type: 'receptionist.limit_reached' } });
    const calls = await Promise.all(Array.from({ length: 20 }, (_, i) => placeCall(app, number, 3, { from: `+1415555${String(1000 + i)}` })));
    // A call that rings after others used the last minutes is forwarded instead (with a note, ask);
    // the 4 calls whose minutes reach the limit were all answered by the agent.
    const agent = calls.filter((c) => c.answer === 'agent');
    const forwarded = calls.filter((c) => c.answer === 'forwarded');
    expect(agent.length + forwarded.length).toBe(20);
    expect(agent.length).toBeGreaterThanOrEqual(4);
    expect(calls.every((c) => c.statusCallback === 200)).toBe(true);
    // Every completed callback again, all at once: nothing more is counted.
    await Promise.all(calls.map((c) => postVoiceWebhook(app, 'status', { CallSid: c.callSid, From: '+14155550142', To: number, CallStatus: 'completed', CallDuration: '180' })));
    const row = await app.services.prisma.receptionistBilling.findUniqueOrThrow({ where: { businessId } });
    expect(row.usedMinutes).toBe(310);
    expect(committedCents(ledger(row, app.services.clock.now()))).toBe(5100);
    const metered = await app.services.prisma.voiceCall.aggregate({ where: { callSid: { in: calls.map((c) => c.callSid) } }, _sum: { minutes: true } });
    expect(metered._sum.minutes).toBe(10);
    const usage = await app.services.prisma.receptionistUsage.aggregate({ where: { businessId, usageId: { in: calls.map((c) => `call:${c.callSid}`) } }, _sum: { minutes: true }, _count: true });
    expect(usage).toMatchObject({ _count: agent.length, _sum: { minutes: 10 } });
    expect(await app.services.prisma.event.count({ where: { businessId, type: 'receptionist.limit_reached' } })).toBe(events + 1);
    // The limit's note once, and one per forwarded call.
    expect(await app.services.prisma.ownerNote.count({ where: { businessId } })).toBe(notes + 1 + forwarded.length);
    // At the limit now: the next call goes to the owner's phone, with a note (ask).
    const next = await placeCall(app, number, 3);
    expect(next.answer).toBe('forwarded');
    expect(await app.services.prisma.ownerNote.count({ where: { businessId } })).toBe(notes + 2 + forwarded.length);
    expect((await app.services.prisma.receptionistBilling.findUniqueOrThrow({ where: { businessId } })).usedMinutes).toBe(310);
  });
});
