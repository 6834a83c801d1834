/**
 * The owner's schedule is answered from a page each instance keeps (owners/schedule-cache.ts):
 * every write that changes what it shows, by whatever connection or instance, shows on the next
 * read, and so does the passing of time (holds lapsing, entries ending or coming into the window).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { demoIds } from '../../src/demo/generate.js';
import { createPorchlight } from '../../main.js';
import { BASE, bearer, businessKey, onPostgres, startApp, type TestApp } from '../helpers/harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let app: TestApp;
let key: Record<string, string>;
let businessId: string;
let queries = 0;

beforeAll(async () => {
  app = await startApp({ onQuery: () => queries++ });
  // A salon: no demo jobs or blocks, so every entry here is the test's own.
  key = bearer(await businessKey(app, demoIds.beautySanFrancisco));
  businessId = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.beautySanFrancisco } })).id;
});
afterAll(async () => {
  vi.restoreAllMocks();
  await app?.close();
});

/** The schedule now, and how many statements it took. */
async function schedule(days = 14) {
  await app.services.outbox.flush();
  queries = 0;
  const r = await app.rest('schedule', { days }, key);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return { ...r.body, statements: queries } as {
    jobs: { booking_id: string; customer_name: string; customer_phone: string | null }[];
    awaiting_confirmation: { booking_id: string }[];
    blocks: { block_id: string; reason: string | null }[];
    hours: Record<string, string>;
    notifications: { type: string; text: string; read: boolean }[];
    statements: number;
  };
}

/** A job of the business's own, written straight to the database (no operation, so nothing but the database knows). */
async function ownJob(id: string, start: number, minutes = 60, booking: { status?: 'pending' | 'confirmed'; holdUntil?: Date } = {}) {
  await app.services.prisma.booking.create({
    data: {
      id, businessId, kind: 'service_call', status: booking.status ?? 'confirmed', manageTokenHash: `m_${id}`, confirmTokenHash: `c_${id}`, priceCents: 9900,
      address: '1 Main St', zip: '94110', customerName: `Customer ${id}`, customerPhone: '415-555-0100', holdUntil: booking.holdUntil ?? null,
    },
  });
  await app.services.prisma.bookingVisit.create({ data: { bookingId: id, businessId, start: new Date(start), end: new Date(start + minutes * 60_000), holdUntil: booking.holdUntil ?? null } });
  await app.services.prisma.ownJob.create({ data: { bookingId: id, businessId } });
}

const ids = (entries: { booking_id: string }[]) => entries.map((e) => e.booking_id);

describe('the schedule kept per business', () => {
  it('answers an unchanged schedule with the credential statement alone, and shows every write made straight through Prisma on the next read', async () => {
    const now = app.services.clock.now();
    const { statements: _, ...read } = await schedule();
    const kept = await schedule();
    expect(kept.statements).toBe(1);
    // The kept page's answer, made once and sent again (facades/execute.ts), is the read's, on REST and MCP.
    expect(kept).toEqual({ ...read, statements: 1 });
    const { body: tool } = await app.mcp('tools/call', { name: 'schedule', arguments: { days: 14 } }, key);
    expect(JSON.parse(tool.result.content[0].text)).toEqual(read);
    expect(tool.result.structuredContent).toEqual(read);

    await ownJob('cache_a', now + 2 * DAY);
    let s = await schedule();
    expect(ids(s.jobs)).toContain('cache_a');
    expect(s.statements).toBe(2);
    expect((await schedule()).statements).toBe(1);

    // The customer's contact, changed on the booking row.
    await app.services.prisma.booking.update({ where: { id: 'cache_a' }, data: { customerName: 'Renamed Customer' } });
    s = await schedule();
    expect(s.jobs.find((j) => j.booking_id === 'cache_a')?.customer_name).toBe('Renamed Customer');

    // A block, weekly hours and a note for the owner.
    const block = await app.services.prisma.block.create({ data: { businessId, start: new Date(now + 5 * DAY), end: new Date(now + 5 * DAY + 2 * HOUR), label: 'Kept page test' } });
    s = await schedule();
    expect(s.blocks.map((b) => b.block_id)).toContain(block.id);
    await app.services.prisma.weeklyHours.upsert({
      where: { businessId_weekday: { businessId, weekday: 1 } },
      create: { businessId, weekday: 1, startMinute: 7 * 60, endMinute: 11 * 60 },
      update: { startMinute: 7 * 60, endMinute: 11 * 60 },
    });
    expect((await schedule()).hours.monday).toBe('07:00-11:00');
    await app.services.prisma.ownerNote.create({ data: { businessId, text: 'Call me back about the kept page' } });
    s = await schedule();
    expect(s.notifications.find((n) => n.text.includes('kept page'))).toMatchObject({ type: 'note', read: false });
    // Reading marked it read: a change too.
    expect((await schedule()).notifications.find((n) => n.text.includes('kept page'))).toMatchObject({ read: true });

    // The job cancelled (its visit no longer holds time), then the block removed.
    await app.services.prisma.bookingVisit.updateMany({ where: { bookingId: 'cache_a' }, data: { active: false } });
    await app.services.prisma.block.delete({ where: { id: block.id } });
    s = await schedule();
    expect(ids(s.jobs)).not.toContain('cache_a');
    expect(s.blocks.map((b) => b.block_id)).not.toContain(block.id);
  });

  it('follows the clock with no write: a hold lapsing, an entry ending into awaiting confirmation, an entry coming into the window', async () => {
    const base = app.services.clock.now();
    const clock = vi.spyOn(app.services.clock, 'now').mockReturnValue(base);
    try {
      await ownJob('clock_ends', base + HOUR, 60);
      await ownJob('clock_held', base + 3 * HOUR, 60, { status: 'pending', holdUntil: new Date(base + 30 * 60_000) });
      await ownJob('clock_later', base + 7 * DAY + HOUR, 60);
      let s = await schedule(7);
      expect(ids(s.jobs)).toEqual(expect.arrayContaining(['clock_ends', 'clock_held']));
      expect(ids(s.jobs)).not.toContain('clock_later');
      expect((await schedule(7)).statements).toBe(1);

      clock.mockReturnValue(base + 45 * 60_000);
      s = await schedule(7);
      expect(ids(s.jobs)).not.toContain('clock_held');
      expect(ids(s.jobs)).toContain('clock_ends');

      clock.mockReturnValue(base + 2 * HOUR + 60_000);
      s = await schedule(7);
      expect(ids(s.jobs)).not.toContain('clock_ends');
      expect(ids(s.awaiting_confirmation)).toContain('clock_ends');
      expect(ids(s.jobs)).toContain('clock_later');
      // Still there, and from the kept page, until the next thing moves.
      s = await schedule(7);
      expect(s.statements).toBe(1);
      expect(ids(s.awaiting_confirmation)).toContain('clock_ends');
    } finally {
      clock.mockRestore();
    }
  });

  it.skipIf(!onPostgres)('shows a write made over another PostgreSQL connection, and one made by a second instance, on the next read', async () => {
    const now = app.services.clock.now();
    await schedule();
    const other = new pg.Client({ connectionString: app.services.config.databaseUrl });
    await other.connect();
    try {
      await other.query(`INSERT INTO "Block" (id, "businessId", start, "end", label) VALUES ('cache_sql_block', $1, $2, $3, 'From psql')`, [
        businessId, new Date(now + 6 * DAY), new Date(now + 6 * DAY + HOUR),
      ]);
      expect((await schedule()).blocks.map((b) => b.block_id)).toContain('cache_sql_block');
      await other.query(`DELETE FROM "Block" WHERE id = 'cache_sql_block'`);
      expect((await schedule()).blocks.map((b) => b.block_id)).not.toContain('cache_sql_block');
    } finally {
      await other.end();
    }

    const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-second-'));
    const second = await createPorchlight({ ...app.services.config, dataDir, baseUrl: BASE });
    try {
      const viaSecond = async (name: string, body: Record<string, unknown>) => {
        const res = await second.fetch(new Request(`${BASE}/api/v1/${name}`, { method: 'POST', headers: { 'content-type': 'application/json', ...key }, body: JSON.stringify(body) }));
        expect(res.status).toBe(200);
        return res.json() as Promise<{ block_id: string }>;
      };
      await schedule();
      const date = new Date(now + 9 * DAY).toISOString().slice(0, 10);
      const block = await viaSecond('block_time', { date, start: '12:00', end: '13:00', reason: 'Second instance' });
      expect((await schedule()).blocks.map((b) => b.block_id)).toContain(block.block_id);
      await viaSecond('unblock_time', { block_id: block.block_id });
      expect((await schedule()).blocks.map((b) => b.block_id)).not.toContain(block.block_id);
    } finally {
      await second.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!onPostgres)('keeps no page while an event is held back behind a transaction still running, and shows the event once it ends', async () => {
    await schedule();
    const running = new pg.Client({ connectionString: app.services.config.databaseUrl });
    await running.connect();
    try {
      await running.query('BEGIN');
      await running.query('SELECT pg_current_xact_id()');
      await app.services.transaction((tx) => app.services.emit(tx, { type: 'booking.created', businessId, data: { customerName: 'Held Back' } }));
      // A later transaction's event waits for the earlier one (the notifications' commit-safe order).
      expect((await schedule()).notifications.map((n) => n.text).join(' ')).not.toContain('Held Back');
      expect((await schedule()).notifications.map((n) => n.text).join(' ')).not.toContain('Held Back');
      await running.query('COMMIT');
      expect((await schedule()).notifications.map((n) => n.text).join(' ')).toContain('Held Back');
    } finally {
      await running.end();
    }
  });
});
