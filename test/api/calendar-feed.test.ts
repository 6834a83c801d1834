/**
 * The calendar outside Porchlight: my_business calendar_feed_url (a private iCalendar feed of the
 * schedule, read back with ical.js), rotate_calendar_feed on REST, MCP and GraphQL, and the .ics
 * events customers' confirmation and cancellation mails carry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ICAL from 'ical.js';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';
import { attachmentsOf } from '../../src/mail/transport.js';
import { signInToDashboard } from '../helpers/dashboard.js';

let app: TestApp;
let plumber: Record<string, string>;
let cleaner: Record<string, string>;
const logs: string[] = [];
const job = { bedrooms: 2, bathrooms: 1.5 };
const FEED_URL = /^http:\/\/porchlight\.test\/calendar\/([A-Za-z0-9_-]{43})\.ics$/;

beforeAll(async () => {
  app = await startApp({ logs, env: { DEV_OUTBOX: '1' } });
  plumber = bearer(await businessKey(app, demoIds.plumberAustin));
  cleaner = bearer(await businessKey(app, demoIds.cleanerAustin));
});
afterAll(async () => app?.close());

interface Parsed {
  method: string | null;
  events: { uid: string; start: number; end: number; summary: string; status: string | null; sequence: number }[];
}

function parse(text: string): Parsed {
  const cal = new ICAL.Component(ICAL.parse(text));
  return {
    method: (cal.getFirstPropertyValue('method') as string | null) ?? null,
    events: cal.getAllSubcomponents('vevent').map((v) => {
      const e = new ICAL.Event(v);
      return {
        uid: e.uid,
        start: e.startDate.toJSDate().getTime(),
        end: e.endDate.toJSDate().getTime(),
        summary: e.summary,
        status: (v.getFirstPropertyValue('status') as string | null) ?? null,
        sequence: e.sequence,
      };
    }),
  };
}

const feedPath = (url: string) => new URL(url).pathname;

async function feedUrl(headers: Record<string, string>) {
  const r = await call(app, 'rest', 'my_business', {}, headers);
  expect(r.ok, JSON.stringify(r.body)).toBe(true);
  return r.body.calendar_feed_url as string;
}

async function book(name: string, date: string, email: string) {
  const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, date, days: 1 });
  expect(times.body.starts.length, `no start on ${date}`).toBeGreaterThan(0);
  const r = await app.rest('book_cleaning', {
    pro_id: demoIds.cleanerAustin, ...job, start: times.body.starts[0], customer_name: name, customer_email: email, address: '1100 S Congress Ave, Austin TX', zip: demoIds.austinZip,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as { booking_id: string; manage_token: string };
}

async function mailsFor(bookingId: string, to: string) {
  const rows = await app.services.prisma.outboxMessage.findMany({ where: { bookingId, to }, orderBy: { createdAt: 'asc' } });
  return rows.map((r) => ({ subject: r.subject, files: attachmentsOf(r.attachments) }));
}

describe('calendar_feed_url', () => {
  it('is the same private URL on every surface, made once', async () => {
    const urls = new Set<string>();
    for (const via of SURFACES) {
      const r = await call(app, via, 'my_business', {}, plumber);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      expect(r.body.calendar_feed_url, via).toMatch(FEED_URL);
      urls.add(r.body.calendar_feed_url);
    }
    expect(urls.size).toBe(1);
    // Only its hash and its sealed form are stored.
    const token = FEED_URL.exec([...urls][0]!)![1]!;
    const stored = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.plumberAustin }, select: { calendarFeedHash: true, calendarFeedSealed: true } });
    expect(stored.calendarFeedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("serves the schedule as iCalendar: every job and block with the schedule's own start and end", async () => {
    const url = await feedUrl(plumber);
    const res = await app.get(feedPath(url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, max-age=300');
    const feed = parse(await res.text());
    const schedule = (await call(app, 'rest', 'schedule', { days: 60 }, plumber)).body;
    expect(schedule.jobs.length).toBeGreaterThan(0);
    expect(schedule.blocks.length).toBeGreaterThan(0);
    for (const j of schedule.jobs as { booking_id: string; start: string; end: string; customer_name: string }[]) {
      const e = feed.events.find((x) => x.uid.includes(j.booking_id) && x.start === Date.parse(j.start));
      expect(e, `job ${j.booking_id} at ${j.start}`).toBeDefined();
      expect(e!.end).toBe(Date.parse(j.end));
      expect(e!.summary).toContain(j.customer_name);
    }
    for (const b of schedule.blocks as { block_id: string; start_at: string; end_at: string }[]) {
      const e = feed.events.find((x) => x.uid.includes(b.block_id));
      expect(e, `block ${b.block_id}`).toBeDefined();
      expect([e!.start, e!.end]).toEqual([Date.parse(b.start_at), Date.parse(b.end_at)]);
      expect(e!.summary).toMatch(/^Blocked/);
    }
    // Nothing in the schedule's window that the schedule does not show.
    const now = Date.parse('2026-11-23T15:00:00Z');
    const inWindow = feed.events.filter((e) => !e.uid.includes('.block.') && e.end > now && e.start < now + 60 * 86_400_000);
    expect(inWindow.length).toBe(schedule.jobs.length);
  });

  it("carries customers' names as data, escaped by the format", async () => {
    const name = 'Zoë "Z" Smith, Jr.; BEGIN:VEVENT\\n';
    const made = await book(name, '2026-12-10', 'zoe@example.com');
    const feed = parse(await (await app.get(feedPath(await feedUrl(cleaner)))).text());
    const e = feed.events.find((x) => x.uid.includes(made.booking_id));
    expect(e?.summary).toContain(name);
    expect(feed.events.filter((x) => x.summary.includes('BEGIN')).length).toBe(1);
  });

  it('answers 404 for a wrong, malformed or unknown token, saying nothing about which', async () => {
    const url = await feedUrl(plumber);
    const token = FEED_URL.exec(url)![1]!;
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const bodies = new Set<string>();
    for (const path of [`/calendar/${wrong}.ics`, `/calendar/${token}`, `/calendar/${token}.ics.ics`, '/calendar/short.ics', `/calendar/${'%00'.repeat(3)}.ics`]) {
      const res = await app.get(path);
      expect(res.status, path).toBe(404);
      bodies.add(await res.text());
    }
    expect(bodies.size).toBe(1);
  });

  it('keeps the token out of the logs', async () => {
    const url = await feedUrl(plumber);
    const token = FEED_URL.exec(url)![1]!;
    expect((await app.get(feedPath(url))).status).toBe(200);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter((l) => l.includes(token))).toEqual([]);
  });
});

describe('rotate_calendar_feed', () => {
  it('replaces the URL on every surface: the old one is a 404 at once, the new one serves the feed', async () => {
    let current = await feedUrl(plumber);
    for (const via of SURFACES) {
      const r = await call(app, via, 'rotate_calendar_feed', {}, plumber);
      expect(r.ok, `${via}: ${JSON.stringify(r.body)}`).toBe(true);
      expect(r.body.calendar_feed_url).toMatch(FEED_URL);
      expect(r.body.calendar_feed_url).not.toBe(current);
      expect((await app.get(feedPath(current))).status, via).toBe(404);
      expect((await app.get(feedPath(r.body.calendar_feed_url))).status, via).toBe(200);
      expect(await feedUrl(plumber)).toBe(r.body.calendar_feed_url);
      current = r.body.calendar_feed_url;
    }
  });

  it("is the owner's: customers and other businesses' keys cannot rotate it", async () => {
    const before = await feedUrl(plumber);
    for (const via of SURFACES) {
      const r = await call(app, via, 'rotate_calendar_feed', {});
      expect(r.ok, via).toBe(false);
    }
    await call(app, 'rest', 'rotate_calendar_feed', {}, cleaner);
    expect(await feedUrl(plumber)).toBe(before);
  });
});

describe('the dashboard Calendar page', () => {
  it('shows the feed URL and replaces it with its button; a form without its token changes nothing', async () => {
    const owner = await signInToDashboard(app, demoIds.cleanerAustin);
    const before = await feedUrl(cleaner);
    const urlOn = async (res: Response) => /id="calendar-feed-url" readonly[^>]*>([^<]+)<\/textarea>/.exec(await res.text())?.[1];
    const page = await owner.get('/app/calendar');
    expect(page.status).toBe(200);
    expect(await urlOn(page)).toBe(before);
    expect((await owner.post('/app/calendar/rotate', { csrf: '' })).status).toBe(403);
    expect(await feedUrl(cleaner)).toBe(before);
    const done = await owner.post('/app/calendar/rotate');
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/app/calendar?done=rotated');
    const after = await urlOn(await owner.get('/app/calendar?done=rotated'));
    expect(after).toMatch(FEED_URL);
    expect(after).not.toBe(before);
    expect(await feedUrl(cleaner)).toBe(after);
    expect((await app.get(feedPath(before))).status).toBe(404);
  });
});

describe('.ics in customer mails', () => {
  it('a confirmation carries METHOD:REQUEST with a stable UID; the cancellation the same UID, CANCEL and a higher SEQUENCE', async () => {
    const made = await book('Robin Park', '2026-12-11', 'robin@example.com');
    const [confirmation] = await mailsFor(made.booking_id, 'robin@example.com');
    expect(confirmation!.files.map((f) => f.filename)).toEqual(['invite.ics']);
    expect(confirmation!.files[0]!.contentType).toBe('text/calendar; charset=utf-8; method=REQUEST');
    const invite = parse(confirmation!.files[0]!.content);
    expect(invite.method).toBe('REQUEST');
    expect(invite.events).toHaveLength(1);
    const uid = `${made.booking_id}@porchlight.test`;
    expect(invite.events[0]).toMatchObject({ uid, sequence: 0 });
    const visit = await app.services.prisma.bookingVisit.findFirstOrThrow({ where: { bookingId: made.booking_id } });
    expect([invite.events[0]!.start, invite.events[0]!.end]).toEqual([visit.start.getTime(), visit.end.getTime()]);

    const cancelled = await app.rest('cancel_booking', { booking_id: made.booking_id, manage_token: made.manage_token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const mails = await mailsFor(made.booking_id, 'robin@example.com');
    const cancel = parse(mails.at(-1)!.files[0]!.content);
    expect(cancel.method).toBe('CANCEL');
    expect(cancel.events[0]).toMatchObject({ uid, status: 'CANCELLED' });
    expect(cancel.events[0]!.sequence).toBeGreaterThan(invite.events[0]!.sequence);
    // The business's copy of the cancellation carries no invitation.
    const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug: demoIds.cleanerAustin }, select: { email: true } });
    if (business.email) for (const m of await mailsFor(made.booking_id, business.email)) expect(m.files).toEqual([]);
  });

  it("the owner's cancel_job cancels the customer's event too, on every surface", async () => {
    for (const [i, via] of SURFACES.entries()) {
      const email = `kim${i}@example.com`;
      const made = await book(`Kim ${via}`, `2026-12-${14 + i}`, email);
      const r = await call(app, via, 'cancel_job', { booking_id: made.booking_id }, cleaner);
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      const mails = await mailsFor(made.booking_id, email);
      const [first, last] = [parse(mails[0]!.files[0]!.content), parse(mails.at(-1)!.files[0]!.content)];
      expect(last.method, via).toBe('CANCEL');
      expect(last.events[0]!.uid).toBe(first.events[0]!.uid);
      expect(last.events[0]!.sequence).toBe(first.events[0]!.sequence + 1);
    }
  });

  it("a visit's and an appointment's customer mails carry their event: REQUEST when booked, CANCEL with a higher SEQUENCE when the owner cancels", async () => {
    const salon = bearer(await businessKey(app, demoIds.beautySanFrancisco));
    const invitesTo = async (to: string) =>
      (await app.services.prisma.outboxMessage.findMany({ where: { to }, orderBy: { createdAt: 'asc' } }))
        .flatMap((r) => attachmentsOf(r.attachments))
        .map((f) => parse(f.content));
    // A visit booked at once, then cancelled by the owner through the one calendar.
    const selections = [{ service_id: 'womens-cut' }];
    const estimate = await app.rest('estimate_visit', { business: demoIds.beautySanFrancisco, selections: JSON.stringify(selections) });
    let start: string | undefined;
    for (let d = 1; d <= 7 && !start; d++) {
      const date = `2026-12-${String(d).padStart(2, '0')}`;
      start = (await app.rest('visit_times', { business: demoIds.beautySanFrancisco, selections: JSON.stringify(selections), date })).body.starts?.[0];
    }
    const visit = await app.rest('book_visit', {
      business: demoIds.beautySanFrancisco, selections, customer_name: 'Ari Vale', customer_email: 'ari@example.com', menu_revision: estimate.body.menu_revision,
      expected_estimate_cents: estimate.body.estimate_cents, customer_authorized: true, request_key: 'calendar-feed-visit-key-01', start,
    });
    expect(visit.status, JSON.stringify(visit.body)).toBe(200);
    expect((await call(app, 'mcp', 'cancel_job', { booking_id: visit.body.visit.visit_id }, salon)).ok).toBe(true);
    const [booked, cancelled] = await invitesTo('ari@example.com');
    expect(booked).toMatchObject({ method: 'REQUEST', events: [{ uid: `${visit.body.visit.visit_id}@porchlight.test`, start: Date.parse(start!) }] });
    expect(cancelled).toMatchObject({ method: 'CANCEL', events: [{ uid: booked!.events[0]!.uid, status: 'CANCELLED' }] });
    expect(cancelled!.events[0]!.sequence).toBeGreaterThan(booked!.events[0]!.sequence);

    // An appointment, the same way.
    const asked = await app.rest('contact_business', { business: demoIds.beautySanFrancisco, customer_name: 'Bo Reyes', message: 'A consultation, please.', request_type: 'appointment' });
    const services = (await app.rest('appointment_times', { business: demoIds.beautySanFrancisco })).body.services as { service_id: string; price_cents: number; payment: string }[];
    const free = services.find((x) => x.payment === 'none')!;
    let at: string | undefined;
    for (let d = 1; d <= 7 && !at; d++) {
      at = (await app.rest('appointment_times', { business: demoIds.beautySanFrancisco, service_id: free.service_id, date: `2026-12-${String(d + 7).padStart(2, '0')}` })).body.starts?.[0];
    }
    const appointment = await app.rest('book_appointment', {
      inquiry_id: asked.body.inquiry_id, reply_token: asked.body.reply_token, service_id: free.service_id, start: at, expected_price_cents: free.price_cents,
      customer_authorized: true, customer_email: 'bo@example.com',
    });
    expect(appointment.status, JSON.stringify(appointment.body)).toBe(200);
    expect((await call(app, 'graphql', 'cancel_job', { booking_id: appointment.body.booking_id }, salon)).ok).toBe(true);
    const [held, dropped] = await invitesTo('bo@example.com');
    expect(held).toMatchObject({ method: 'REQUEST', events: [{ uid: `${appointment.body.booking_id}@porchlight.test`, start: Date.parse(at!), status: 'CONFIRMED' }] });
    expect(dropped).toMatchObject({ method: 'CANCEL', events: [{ uid: held!.events[0]!.uid, status: 'CANCELLED' }] });
    expect(dropped!.events[0]!.sequence).toBeGreaterThan(held!.events[0]!.sequence);
  });

  it('/dev/outbox.json shows the attachment', async () => {
    const made = await book('Sam Lee', '2026-12-18', 'sam@example.com');
    const res = await app.fetch(new Request(`http://localhost:${app.services.config.port}/dev/outbox.json`));
    const body = (await res.json()) as { messages: { booking_id: string; to: string; attachments: { filename: string; content_type: string; content: string }[] }[] };
    const mine = body.messages.find((m) => m.booking_id === made.booking_id && m.to === 'sam@example.com');
    expect(mine?.attachments[0]).toMatchObject({ filename: 'invite.ics', content_type: expect.stringMatching(/^text\/calendar/) });
    expect(mine!.attachments[0]!.content).toContain('METHOD:REQUEST');
  });
});


