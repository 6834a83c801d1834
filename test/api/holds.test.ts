/**
 * Unconfirmed bookings hold their time only for a while, and only a few at once per customer
 * and per connection; the business's notes for customers reach customers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whenForPeople } from '../../src/core/for-people.js';
import { demoIds } from '../../src/demo/generate.js';
import { loadConfig } from '../../src/config.js';
import { createPorchlight } from '../../main.js';
import { lapseExpiredHolds } from '../../src/bookings/service.js';
import { remindHolds } from '../../src/bookings/reminders.js';
import { operationByName } from '../../src/operations.js';
import { BASE, TEST_NOW, bearer, freshDatabase, businessKey, lastMailTo, onPostgres, startApp, type TestApp } from '../helpers/harness.js';

const job = { bedrooms: 2, bathrooms: 1.5 };
const pro = demoIds.cleanerAustin;
const zip = demoIds.austinZip;
const address = '1100 S Congress Ave, Austin TX';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

async function starts(on: TestApp = app, extra: Record<string, unknown> = {}) {
  const r = await on.rest('available_times', { pro_id: pro, ...job, days: 14, ...extra });
  expect(r.status).toBe(200);
  return r.body as { price: number; starts: string[]; customer_notes: string | null };
}

async function book(on: TestApp, start: string, email: string, extra: Record<string, unknown> = {}) {
  return on.rest('book_cleaning', { pro_id: pro, ...job, start, address, zip, customer_name: 'Hold Tester', customer_email: email, ...extra });
}

/** One start per day, so that bookings of the same job never overlap. */
function perDay(open: string[]) {
  const byDay = new Map<string, string>();
  for (const s of open) if (!byDay.has(s.slice(0, 10))) byDay.set(s.slice(0, 10), s);
  return [...byDay.values()];
}

/** Time passes for one booking: its hold ends a minute ago (as if the clock had moved on). */
async function expireHold(on: TestApp, bookingId: string) {
  const past = new Date(on.services.clock.now() - 60_000);
  await on.services.prisma.booking.update({ where: { id: bookingId }, data: { holdUntil: past } });
  await on.services.prisma.bookingVisit.updateMany({ where: { bookingId }, data: { holdUntil: past } });
  on.services.search.clear();
}

describe('a pending booking holds its time until its hold lapses', () => {
  it('says until when in next and in the mail, and hides the start meanwhile', async () => {
    const { starts: open } = await starts();
    const start = open[3]!;
    const r = await book(app, start, 'hold1@example.com');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const holdUntil = new Date(app.services.clock.now() + 120 * 60_000);
    expect(Math.abs(Date.parse(r.body.hold_until) - holdUntil.getTime())).toBeLessThan(60_000);
    expect(r.body.hold_until).toMatch(/-06:00$/);
    expect(r.body.next).toContain(`by ${r.body.hold_until} it lapses and the time is released`);
    expect((await lastMailTo(app, 'hold1@example.com'))?.text).toContain(`Confirm the booking by ${whenForPeople(r.body.hold_until, 'America/Chicago')}`);
    expect((await starts()).starts).not.toContain(start);

    await expireHold(app, r.body.booking_id);
    // Lapsed at once in every read, before any sweep has run.
    expect((await starts()).starts).toContain(start);
    expect((await app.rest('find_cleaners', { zip, ...job, date: start.slice(0, 10) })).body.cleaners.find((c: { pro_id: string }) => c.pro_id === pro)?.starts ?? []).toContain(start);
    const status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body).toMatchObject({ status: 'lapsed', hold_until: null });

    // The same start can be booked again: the lapsed visit is released inside the new booking.
    const again = await book(app, start, 'hold2@example.com');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
  });

  it('refuses to confirm a lapsed booking, and the sweep marks it lapsed and tells the owner', async () => {
    const owner = await businessKey(app, pro);
    const before = await app.rest('updates', {}, bearer(owner));
    const { starts: open } = await starts();
    const r = await book(app, open[5]!, 'hold3@example.com');
    const mail = await lastMailTo(app, 'hold3@example.com');
    const confirmPath = /\/confirm\/\S+/.exec(mail!.text)![0].replace(BASE, '');
    await expireHold(app, r.body.booking_id);

    const page = await app.get(confirmPath, { method: 'POST' });
    expect(page.status).toBe(400);
    expect(await page.text()).toMatch(/lapsed/);
    expect((await app.services.prisma.booking.findUniqueOrThrow({ where: { id: r.body.booking_id } })).status).toBe('pending');

    expect(await lapseExpiredHolds(app.services)).toBeGreaterThanOrEqual(1);
    expect(await lapseExpiredHolds(app.services)).toBe(0);
    const row = await app.services.prisma.booking.findUniqueOrThrow({ where: { id: r.body.booking_id }, include: { visits: true } });
    expect(row.status).toBe('lapsed');
    expect(row.visits.every((v) => !v.active)).toBe(true);
    const after = await app.rest('updates', { since: before.body.cursor }, bearer(owner));
    expect(after.body.events).toContainEqual(expect.objectContaining({ type: 'booking.lapsed', booking_id: r.body.booking_id }));

    const cancel = await app.rest('cancel_booking', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(cancel.status).toBe(400);
    expect(cancel.body.error).toMatch(/lapsed/);
  });

  it('e-mails one reminder half an hour before the hold runs out; either link then confirms', async () => {
    const { starts: open } = await starts();
    const r = await book(app, open.at(-1)!, 'remind@example.com');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const first = (await lastMailTo(app, 'remind@example.com'))!.text;
    const now = app.services.clock.now();
    await app.services.prisma.booking.update({ where: { id: r.body.booking_id }, data: { createdAt: new Date(now - 100 * 60_000), holdUntil: new Date(now + 20 * 60_000) } });
    expect(await remindHolds(app.services)).toBe(1);
    expect(await remindHolds(app.services)).toBe(0);
    await app.services.outbox.flush();
    const reminder = (await lastMailTo(app, 'remind@example.com'))!;
    expect(reminder.subject).toMatch(/^Reminder: confirm your cleaning with .+ by \w{3}, \w{3} \d+, \d+:\d\d [AP]M C[SD]T$/);
    expect(reminder.text).toContain('The link in the first e-mail works too.');
    const tokenIn = (text: string) => /\/confirm\/(ct_[\w-]+)/.exec(text)![1]!;
    expect(tokenIn(reminder.text)).not.toBe(tokenIn(first));
    const confirm = (t: string) => app.graphql('mutation ($t: String!) { confirmBooking(confirmToken: $t) { status } }', { t });
    expect((await confirm(tokenIn(first))).body.data?.confirmBooking.status).toBe('confirmed');
    expect((await confirm(tokenIn(reminder.text))).body.data?.confirmBooking.status).toBe('confirmed');
  });

  it('lapses by the server clock, across a restart', async () => {
    const db = await freshDatabase(true);
    const config = (now: string) => ({ ...loadConfig({ NODE_ENV: 'test' }), databaseUrl: db.url, dataDir: db.dataDir, now, baseUrl: BASE });
    try {
      const first = await createPorchlight(config(TEST_NOW));
      const run = (name: string, input: Record<string, unknown>) => first.app.run(operationByName.get(name)!, input, new Request(BASE, { method: 'POST' }), 'restart-test');
      const times = await run('available_times', { pro_id: pro, ...job });
      const start = (times.body.starts as string[])[2]!;
      const booked = await run('book_cleaning', { pro_id: pro, ...job, start, address, zip, customer_name: 'Restart', customer_email: 'restart@example.com' });
      expect(booked.status, JSON.stringify(booked.body)).toBe(200);
      await first.close();

      // Three hours later: the hold (two hours) has passed while the server was down.
      const later = new Date(Date.parse(TEST_NOW) + 3 * 3_600_000).toISOString();
      const second = await createPorchlight(config(later));
      try {
        const row = await second.services.prisma.booking.findUniqueOrThrow({ where: { id: booked.body.booking_id as string } });
        expect(row.status).toBe('lapsed');
      } finally {
        await second.close();
      }
    } finally {
      await db.drop();
    }
  }, 60_000);
});

describe('few unconfirmed bookings at once', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startApp({ env: { PENDING_PER_CONTACT: '2', PENDING_PER_REQUESTER: '3' } });
  });
  afterAll(async () => limited?.close());

  it('per e-mail address: the third waits until one is confirmed', async () => {
    const open = perDay((await starts(limited)).starts);
    expect((await book(limited, open[0]!, 'Same@Example.com')).status).toBe(200);
    const second = await book(limited, open[1]!, 'same@example.com');
    expect(second.status).toBe(200);
    const prisma = limited.services.prisma;
    const written = () => Promise.all([prisma.booking.count(), prisma.bookingVisit.count(), prisma.outboxMessage.count(), prisma.event.count()]);
    const before = await written();
    const third = await book(limited, open[2]!, 'same@example.com');
    expect(third.status, JSON.stringify(third.body)).toBe(400);
    expect(third.body.code).toBe('too_many_pending');
    expect(third.body.error).toMatch(/Confirm them/);
    // The refusal rolled the whole write back: no booking, visit, confirmation or event.
    expect(await written()).toEqual(before);
    await expireHold(limited, second.body.booking_id);
    const after = await book(limited, open[2]!, 'same@example.com');
    expect(after.status, JSON.stringify(after.body)).toBe(200);
  });

  it('per client address or key: many addresses from one place are limited too', async () => {
    const open = perDay((await starts(limited)).starts);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await book(limited, open[3 + i]!, `someone${i}@example.com`)).status);
    // The earlier test's two pending bookings came from the same (in-process) address.
    expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(0);
  });

  it.skipIf(!onPostgres)('holds under concurrency: five at once for one e-mail address, exactly two allowed', async () => {
    const racing = await startApp({ env: { PENDING_PER_CONTACT: '2' } });
    try {
      const open = perDay((await starts(racing, { date: '2026-12-01' })).starts);
      const results = await Promise.all([0, 1, 2, 3, 4].map((i) => book(racing, open[i]!, 'race@example.com', { customer_name: 'Race' })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(2);
      expect(results.filter((r) => r.status === 400).map((r) => r.body.code)).toEqual(['too_many_pending', 'too_many_pending', 'too_many_pending']);
    } finally {
      await racing.close();
    }
  });
});

describe('book_cleaning rules', () => {
  it('refuses visits with visit_starts, and visit_starts beyond 60 days', async () => {
    const open = (await starts()).starts;
    const both = await book(app, open[0]!, 'rules@example.com', { visit_starts: [open[0], open[6]], visits: 2 });
    expect(both.status).toBe(400);
    expect(both.body.error).toMatch(/not both/);
    const far = new Date(app.services.clock.now() + 70 * 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z');
    const beyond = await book(app, open[0]!, 'rules@example.com', { visit_starts: [open[0], far] });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error).toMatch(/60 days/);
  });

  it('does not promise free cancellation for a start less than 24 hours away', async () => {
    const soon = (await starts(app, { days: 2 })).starts[0]!;
    expect(Date.parse(soon) - app.services.clock.now()).toBeLessThan(86_400_000);
    const r = await book(app, soon, 'soon@example.com');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.next).not.toMatch(/free until/);
    expect(r.body.next).toMatch(/no longer free/);
  });
});

describe("the business's notes for customers reach customers", () => {
  it('shows them in available_times, next, the confirmation mail and the manage page, as text', async () => {
    const owner = await businessKey(app, pro);
    const notes = 'Please leave pets outside. <script>alert(1)</script>';
    expect((await app.rest('set_customer_notes', { notes }, bearer(owner))).status).toBe(200);
    const t = await starts();
    expect(t.customer_notes).toBe(notes);
    const r = await book(app, t.starts[9]!, 'notes@example.com');
    expect(r.body.next).toContain(notes);
    expect((await lastMailTo(app, 'notes@example.com'))?.text).toContain(notes);
    const html = await (await app.get(`/manage/${r.body.manage_token}`)).text();
    expect(html).toContain('Please leave pets outside. &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).not.toContain('<script>');
    await app.rest('set_customer_notes', { notes: '' }, bearer(owner));
  });
});

describe('the public business page', () => {
  it('is my_business.booking_page, served escaped at /b/<slug>', async () => {
    const owner = await businessKey(app, pro);
    const mine = await app.rest('my_business', {}, bearer(owner));
    expect(mine.body.booking_page).toBe(`${BASE}/b/${pro}`);
    const res = await app.get(`/b/${pro}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(mine.body.name.replace(/&/g, '&amp;'));
    expect(html).toMatch(/Hours/);
    expect((await app.get('/b/no-such-business')).status).toBe(404);
    expect((await app.get('/b/BAD%00slug')).status).toBe(404);
  });
});
