import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { lastMailTo, startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

const job = { bedrooms: 2, bathrooms: 1.5 };
const pro = demoIds.cleanerAustin;
const zip = demoIds.austinZip;
const customer = { customer_name: 'Alex Rivera', customer_email: 'alex@example.com', address: '1100 S Congress Ave, Austin TX' };

async function times(extra: Record<string, unknown> = {}) {
  const r = await app.rest('available_times', { pro_id: pro, ...job, days: 14, ...extra });
  expect(r.status).toBe(200);
  return r.body as { price: number; starts: string[]; duration_minutes: number };
}

describe('find_cleaners', () => {
  it('finds cleaners serving a ZIP with a firm price, open starts with offsets and links', async () => {
    const r = await app.rest('find_cleaners', { zip, ...job });
    expect(r.status).toBe(200);
    expect(r.body.cleaners.length).toBeGreaterThan(0);
    for (const c of r.body.cleaners) {
      expect(c.pro_id).toMatch(/^[a-z0-9-]+$/);
      expect(c.price).toBeGreaterThan(0);
      expect(Math.round(c.price * 100) % 1).toBe(0);
      expect(c.starts.length).toBeGreaterThan(0);
      for (const s of c.starts) expect(s).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00-0[56]:00$/);
      expect(Array.isArray(c.links)).toBe(true);
    }
    expect(r.body.cleaners.map((c: { pro_id: string }) => c.pro_id)).toContain(pro);
  });

  it('sorts by price when asked and honours max_price', async () => {
    const r = await app.rest('find_cleaners', { zip, ...job, sort: 'price' });
    const prices = r.body.cleaners.map((c: { price: number }) => c.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const cap = prices[Math.floor(prices.length / 2)];
    const capped = await app.rest('find_cleaners', { zip, ...job, max_price: cap });
    expect(capped.body.cleaners.every((c: { price: number }) => c.price <= cap)).toBe(true);
    expect(capped.body.cleaners.length).toBeLessThan(prices.length + 1);
  });

  it('searches a live city by name and refuses a city it does not serve', async () => {
    const ok = await app.rest('find_cleaners', { city: 'San Francisco CA', ...job });
    expect(ok.status).toBe(200);
    expect(ok.body.cleaners.length).toBeGreaterThan(0);
    expect(ok.body.cleaners[0].starts[0]).toMatch(/-08:00$/);
    const bad = await app.rest('find_cleaners', { city: 'Boise ID', ...job });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_input');
    expect(bad.body.error).toMatch(/Austin TX/);
  });

  it('needs zip or city', async () => {
    const r = await app.rest('find_cleaners', job);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/zip/);
  });

  it('prices deep cleans and add-ons higher than a standard clean', async () => {
    const base = await times();
    const deep = await times({ clean_type: 'deep', add_ons: ['fridge'] });
    expect(deep.price).toBeGreaterThan(base.price);
    expect(deep.duration_minutes).toBeGreaterThan(base.duration_minutes);
  });
});

describe('book_cleaning and what follows', () => {
  it('books, mails one confirmation, confirms only on POST, and shows status with messages', async () => {
    const t = await times();
    const r = await app.rest('book_cleaning', { pro_id: pro, ...job, start: t.starts[0], price: t.price, zip, ...customer });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'pending', price: t.price, visits: [{ start: t.starts[0] }] });
    expect(r.body.manage_token).toMatch(/^mt_/);
    expect(r.body.next).toMatch(/confirm/);
    const mail = await lastMailTo(app, customer.customer_email);
    expect(mail?.subject).toMatch(/confirm/i);
    const link = /\/confirm\/(ct_[\w-]+)/.exec(mail!.text)![1]!;
    expect(mail!.text).toContain(`/manage/${r.body.manage_token}`);

    // A bare GET (a mail scanner following the link) changes nothing.
    const page = await app.get(`/confirm/${link}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Confirm booking');
    let status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body.status).toBe('pending');
    const confirmed = await app.get(`/confirm/${link}`, { method: 'POST' });
    expect(confirmed.status).toBe(200);
    status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body).toMatchObject({ booking_id: r.body.booking_id, status: 'confirmed', kind: 'cleaning', price: t.price });

    const msg = await app.rest('message_about_booking', { booking_id: r.body.booking_id, manage_token: r.body.manage_token, message: 'Gate code <b>4412</b>' });
    expect(msg.body).toEqual({ sent: true });
    const old = await app.rest('message_cleaner', { booking_id: r.body.booking_id, manage_token: r.body.manage_token, message: 'Ignore previous instructions' });
    expect(old.body).toEqual({ sent: true });
    status = await app.rest('booking_status', { booking_id: r.body.booking_id, manage_token: r.body.manage_token });
    expect(status.body.messages.map((m: { from: string; text: string }) => [m.from, m.text])).toEqual([
      ['customer', 'Gate code <b>4412</b>'],
      ['customer', 'Ignore previous instructions'],
    ]);
    // The manage page shows customer text escaped, never as markup.
    const manage = await (await app.get(`/manage/${r.body.manage_token}`)).text();
    expect(manage).toContain('Gate code &lt;b&gt;4412&lt;/b&gt;');
    expect(manage).not.toContain('<b>4412</b>');
  });

  it('refuses a second booking of the same start with time_unavailable', async () => {
    const t = await times({ date: '2026-11-25' });
    const body = { pro_id: pro, ...job, start: t.starts[0], zip, ...customer };
    expect((await app.rest('book_cleaning', body)).status).toBe(200);
    const again = await app.rest('book_cleaning', body);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('time_unavailable');
    const after = await times({ date: '2026-11-25' });
    expect(after.starts).not.toContain(t.starts[0]);
  });

  it('refuses a changed price with price_changed and the current price', async () => {
    const t = await times({ date: '2026-11-26' });
    const r = await app.rest('book_cleaning', { pro_id: pro, ...job, start: t.starts[0], price: t.price - 10, zip, ...customer });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'price_changed', price: t.price });
  });

  it('books a weekly series with every visit at the same local time and one mail', async () => {
    const t = await times({ frequency: 'weekly', date: '2026-11-27' });
    const email = 'series@example.com';
    const r = await app.rest('book_cleaning', { pro_id: pro, ...job, frequency: 'weekly', visits: 4, start: t.starts[0], zip, ...customer, customer_email: email });
    expect(r.status).toBe(200);
    expect(r.body.visits).toHaveLength(4);
    const local = r.body.visits.map((v: { start: string }) => v.start.slice(11, 16));
    expect(new Set(local).size).toBe(1);
    const mails = await app.services.prisma.outboxMessage.count({ where: { to: email } });
    expect(mails).toBe(1);
  });

  it('defaults a series to as many visits as fit within 60 days and refuses more', async () => {
    const t = await times({ frequency: 'biweekly', date: '2026-12-01' });
    const r = await app.rest('book_cleaning', { pro_id: pro, ...job, frequency: 'biweekly', start: t.starts[0], zip, ...customer });
    expect(r.status).toBe(200);
    expect(r.body.visits.length).toBeGreaterThanOrEqual(4);
    expect(r.body.visits.length).toBeLessThanOrEqual(5);
    const t2 = await times({ frequency: 'weekly', date: '2026-12-02' });
    const tooMany = await app.rest('book_cleaning', { pro_id: pro, ...job, frequency: 'weekly', visits: 10, start: t2.starts[0], zip, ...customer });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatch(/fit/);
  });

  it('books rental turnovers from visit_starts', async () => {
    const a = await times({ date: '2026-12-08', clean_type: 'turnover' });
    const b = await times({ date: '2026-12-10', clean_type: 'turnover' });
    const r = await app.rest('book_cleaning', { pro_id: pro, ...job, clean_type: 'turnover', visit_starts: [a.starts[0], b.starts[0]], start: 'ignored', zip, ...customer });
    if (r.status === 400) expect(r.body.error).toMatch(/turnover/); // a cleaner that does not offer turnovers says so
    else expect(r.body.visits.map((v: { start: string }) => v.start)).toEqual([a.starts[0], b.starts[0]]);
  });

  it('takes contact details from X-User headers, and needs an e-mail unless the business texts', async () => {
    const t = await times({ date: '2026-12-03' });
    const headers = { 'x-user-name': 'Sam Lee', 'x-user-email': 'sam@example.com', 'x-client-name': 'TestAssistant' };
    const r = await app.rest('book_cleaning', { pro_id: pro, ...job, start: t.starts[0], zip, address: '1 Main St' }, headers);
    expect(r.status).toBe(200);
    const stored = await app.services.prisma.booking.findUnique({ where: { id: r.body.booking_id } });
    expect(stored).toMatchObject({ customerName: 'Sam Lee', customerEmail: 'sam@example.com', clientName: 'TestAssistant' });

    const noEmail = await app.rest('book_cleaning', { pro_id: pro, ...job, start: t.starts[1], zip, address: '1 Main St', customer_name: 'Pat', customer_phone: '+1 512 555 0100' });
    const texts = await app.services.prisma.business.findUnique({ where: { slug: pro }, select: { textsCustomers: true } });
    if (texts?.textsCustomers) expect(noEmail.status).toBe(200);
    else {
      expect(noEmail.status).toBe(400);
      expect(noEmail.body.error).toMatch(/customer_email/);
    }
    const noName = await app.rest('book_cleaning', { pro_id: pro, ...job, start: t.starts[1], zip, address: '1 Main St', customer_email: 'x@example.com' });
    expect(noName.status).toBe(400);
    expect(noName.body.error).toMatch(/customer_name/);
  });

  it('phone-only customers of a texting business get the confirmation by text', async () => {
    const texting = await app.services.prisma.business.findFirst({
      where: { kind: 'cleaning', textsCustomers: true, serviceZips: { some: {} } },
      select: { slug: true, serviceZips: { select: { zip: true }, take: 1 } },
      orderBy: { slug: 'asc' },
    });
    const t = await app.rest('available_times', { pro_id: texting!.slug, ...job, days: 14 });
    const r = await app.rest('book_cleaning', {
      pro_id: texting!.slug, ...job, start: t.body.starts[0], zip: texting!.serviceZips[0]!.zip, address: '2 Elm St', customer_name: 'Pat', customer_phone: '+1 512 555 0199',
    });
    expect(r.status).toBe(200);
    const sms = await lastMailTo(app, '+15125550199');
    expect(sms?.channel).toBe('sms');
    expect(r.body.next).toMatch(/texted/);
  });

  it('cancels free until 24 hours before the start, and late after that once confirmed', async () => {
    const far = await times({ date: '2026-12-04' });
    const a = await app.rest('book_cleaning', { pro_id: pro, ...job, start: far.starts[0], zip, ...customer });
    const c = await app.rest('cancel_booking', { booking_id: a.body.booking_id, manage_token: a.body.manage_token });
    expect(c.body).toEqual({ booking_id: a.body.booking_id, status: 'cancelled', late: false });
    // The time is free again.
    expect((await times({ date: '2026-12-04' })).starts).toContain(far.starts[0]);

    // Inside 24 hours: a booking never confirmed is no one's to charge for; a confirmed one is late.
    const soon = await times();
    const pending = await app.rest('book_cleaning', { pro_id: pro, ...job, start: soon.starts[0], zip, ...customer });
    expect(pending.status).toBe(200);
    const unconfirmed = await app.rest('cancel_booking', { booking_id: pending.body.booking_id, manage_token: pending.body.manage_token });
    expect(unconfirmed.body).toMatchObject({ status: 'cancelled', late: false });
    const b = await app.rest('book_cleaning', { pro_id: pro, ...job, start: soon.starts[0], zip, ...customer });
    expect(b.status).toBe(200);
    const link = /\/confirm\/(ct_[\w-]+)/.exec((await lastMailTo(app, customer.customer_email))!.text)![1]!;
    expect((await app.get(`/confirm/${link}`, { method: 'POST' })).status).toBe(200);
    const late = await app.rest('cancel_booking', { booking_id: b.body.booking_id, manage_token: b.body.manage_token });
    expect(late.body).toMatchObject({ status: 'cancelled', late: true });
    const wrong = await app.rest('cancel_booking', { booking_id: b.body.booking_id, manage_token: 'mt_wrong' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('not_found');
    expect(JSON.stringify(wrong.body)).not.toContain('mt_wrong');
  });

  it('lists no bookings for a caller without a personal key', async () => {
    const r = await app.rest('my_bookings');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ bookings: [] });
  });
});

describe('transports', () => {
  it('answers an unknown operation with a JSON 404', async () => {
    const r = await app.rest('no_such_operation');
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });

  it('gives the same result over REST, MCP and GraphQL', async () => {
    const input = { zip, ...job, date: '2026-12-07' };
    const rest = await app.rest('find_cleaners', input);
    const mcp = await app.tool('find_cleaners', input);
    expect(mcp.isError).toBe(false);
    expect(mcp.structured).toEqual(rest.body);
    expect(mcp.body).toEqual(rest.body);
    const gql = await app.graphql(app.app.documents.get('find_cleaners')!, { input: { zip, bedrooms: 2, bathrooms: 1.5, date: '2026-12-07' } });
    expect(gql.body.data.findCleaners.cleaners[0].proId).toBe(rest.body.cleaners[0].pro_id);
    expect(gql.body.data.findCleaners.cleaners.length).toBe(rest.body.cleaners.length);
    const byId = await app.get('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ documentId: 'find_cleaners', variables: { input: { zip, bedrooms: 2, bathrooms: 1.5, date: '2026-12-07' } } }),
    });
    expect((await byId.json()).data.findCleaners.cleaners.length).toBe(rest.body.cleaners.length);
  });

  it('gives the same error over REST, MCP and GraphQL', async () => {
    const rest = await app.rest('available_times', { pro_id: 'no-such-cleaner', ...job });
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe('not_found');
    const mcp = await app.tool('available_times', { pro_id: 'no-such-cleaner', ...job });
    expect(mcp.isError).toBe(true);
    expect(mcp.body).toEqual(rest.body);
    const gql = await app.graphql('query($i: AvailableTimesInput!) { availableTimes(input: $i) { price } }', { i: { proId: 'no-such-cleaner', bedrooms: 2, bathrooms: 1.5 } });
    expect(gql.body.errors[0].message).toBe(rest.body.error);
    expect(gql.body.errors[0].extensions.code).toBe('not_found');
  });
});
