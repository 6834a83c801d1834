/**
 * Events have one home: a row written in the change's own transaction, published only after
 * that transaction commits, and read by `updates` in an order no late commit can jump.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { demoIds } from '../../src/demo/generate.js';
import type { PublishedEvent } from '../../src/events/kinds.js';
import { bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
let businessId: string;
let owner: string;
beforeAll(async () => {
  app = await startApp();
  businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin } })).id;
  owner = await businessKey(app, demoIds.cleanerAustin);
});
afterAll(async () => app?.close());

/** Everything the owner's live channel publishes from now on. */
function listen() {
  const heard: PublishedEvent[] = [];
  const iterator = app.services.events.subscribe('ownerEvent', businessId)[Symbol.asyncIterator]();
  const pump = (async () => {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      heard.push(next.value);
    }
  })();
  return { heard, stop: async () => (await iterator.return?.(), pump) };
}

const tick = () => new Promise((r) => setTimeout(r, 50));

describe('ctx.emit', () => {
  it('publishes after commit, never from inside the transaction', async () => {
    const live = listen();
    await tick();
    let heardInside = -1;
    await app.services.transaction(async (tx) => {
      await app.services.emit(tx, { type: 'message.received', businessId, inquiryId: 'inq_committed', data: { text: 'hello' } });
      await tick();
      heardInside = live.heard.length;
    });
    await tick();
    await live.stop();
    expect(heardInside).toBe(0);
    expect(live.heard).toEqual([expect.objectContaining({ type: 'message.received', inquiryId: 'inq_committed', businessId })]);
    expect(await app.services.prisma.event.count({ where: { inquiryId: 'inq_committed' } })).toBe(1);
  });

  it('publishes and stores nothing when the transaction rolls back', async () => {
    const live = listen();
    await tick();
    await expect(
      app.services.transaction(async (tx) => {
        await app.services.emit(tx, { type: 'message.received', businessId, inquiryId: 'inq_rolled_back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await tick();
    await live.stop();
    expect(live.heard).toEqual([]);
    expect(await app.services.prisma.event.count({ where: { inquiryId: 'inq_rolled_back' } })).toBe(0);
  });

  it('refuses a transaction it cannot follow to its commit', async () => {
    await expect(app.services.prisma.$transaction((tx) => app.services.emit(tx, { type: 'message.received', businessId }))).rejects.toThrow(/services.transaction/);
  });
});

describe('updates reads the events in commit-safe order', () => {
  it.skipIf(!onPostgres)('holds back an event until an older transaction still running has finished, then delivers both in order', async () => {
    const start = await app.rest('updates', {}, bearer(owner));
    const slow = new pg.Client({ connectionString: app.services.config.databaseUrl });
    await slow.connect();
    try {
      await slow.query('BEGIN');
      // Stamped by the service clock, as emit stamps events: updates lists them in time order.
      await slow.query(`INSERT INTO "Event" ("type", "businessId", "inquiryId", "data", "at") VALUES ('message.received', $1, 'inq_slow', '{}', $2)`, [businessId, app.services.clock.date()]);
      // A later transaction commits first.
      await app.services.transaction((tx) => app.services.emit(tx, { type: 'message.received', businessId, inquiryId: 'inq_fast' }));
      const during = await app.rest('updates', { since: start.body.cursor }, bearer(owner));
      expect(during.body.events.filter((e: { inquiry_id: string }) => e.inquiry_id?.startsWith('inq_'))).toEqual([]);
      await slow.query('COMMIT');
      const after = await app.rest('updates', { since: during.body.cursor }, bearer(owner));
      expect(after.body.events.map((e: { inquiry_id: string }) => e.inquiry_id)).toEqual(['inq_slow', 'inq_fast']);
      const again = await app.rest('updates', { since: after.body.cursor }, bearer(owner));
      expect(again.body.events).toEqual([]);
    } finally {
      await slow.end();
    }
  });

  it('pages through many events with more and next_check_in_minutes 0, losing and repeating none', async () => {
    const start = await app.rest('updates', {}, bearer(owner));
    await app.services.transaction(async (tx) => {
      for (let i = 0; i < 130; i++) await app.services.emit(tx, { type: 'message.received', businessId, inquiryId: `inq_page_${i}` });
    });
    const first = await app.rest('updates', { since: start.body.cursor }, bearer(owner));
    expect(first.body).toMatchObject({ more: true, next_check_in_minutes: 0 });
    const second = await app.rest('updates', { since: first.body.cursor }, bearer(owner));
    expect(second.body.more).toBe(false);
    const ids = [...first.body.events, ...second.body.events].map((e: { inquiry_id: string }) => e.inquiry_id).filter((id: string) => id?.startsWith('inq_page_'));
    expect(ids).toEqual(Array.from({ length: 130 }, (_, i) => `inq_page_${i}`));
  });
});
