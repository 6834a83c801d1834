/**
 * request_key on every operation that creates something (issue 21, contract "Idempotent
 * writes"), and REST's Idempotency-Key header: a retry with the same key and input answers the
 * first result (same ids, no second mail or event), other input is 400 idempotency_mismatch, a
 * key is its caller's own, a refused call stores nothing, and concurrent retries make one booking
 * (PostgreSQL).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { operationByName } from '../../src/operations.js';
import { REQUEST_KEY_TTL_MS, requestKeyDigests, sweepRequestKeys } from '../../src/registry/request-keys.js';
import { parseInput } from '../../src/registry/validate.js';
import { seal } from '../../src/auth/sealed.js';
import { bearer, businessKey, onPostgres, personalKey, startApp, type TestApp } from '../helpers/harness.js';
import { SURFACES, call, type Surface } from '../helpers/surfaces.js';

let app: TestApp;
const logs: string[] = [];
let cleanerOwner: Record<string, string>;
let customerKey: Record<string, string>;
let garage: string;
/** Milliseconds the service clock has been moved on by a test. */
let shift = 0;

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000', TRUST_PROXY: '127.0.0.1' }, logs });
  const clock = app.services.clock;
  const real = clock.now.bind(clock);
  clock.now = () => real() + shift;
  clock.date = () => new Date(clock.now());
  cleanerOwner = bearer(await businessKey(app, demoIds.cleanerAustin));
  customerKey = bearer(await personalKey(app));
  // A business whose appointments are free and confirmed at once.
  garage = (
    await app.services.prisma.business.findFirstOrThrow({
      where: { kind: 'auto_repair', city: 'Austin', appointmentServices: { some: { payment: 'none' } } },
      orderBy: { slug: 'asc' },
    })
  ).slug;
});
afterAll(async () => app?.close());

const job = { bedrooms: 2, bathrooms: 1 };
let n = 0;
const unique = (what: string) => `${what}-${++n}-${randomUUID().slice(0, 8)}`;

/** The first open cleaning start of a day (each test books its own day). */
async function cleaningStart(date: string): Promise<string> {
  const times = await app.rest('available_times', { pro_id: demoIds.cleanerAustin, ...job, date, days: 1 });
  expect(times.body.starts.length, JSON.stringify(times.body)).toBeGreaterThan(0);
  return times.body.starts[0];
}

async function cleaning(date: string, extra: Record<string, unknown> = {}) {
  return {
    pro_id: demoIds.cleanerAustin, ...job, start: await cleaningStart(date), zip: demoIds.austinZip, address: '1100 S Congress Ave, Austin TX',
    customer_name: 'Alex Rivera', customer_email: `${unique('alex')}@example.com`, request_key: randomUUID(), ...extra,
  };
}

async function serviceCall(date: string) {
  const found = await app.rest('find_service_call', { zip: demoIds.austinZip, trade: 'plumbing', issue: 'leak', date, days: 1 });
  const pro = found.body.pros.find((p: { pro_id: string }) => p.pro_id === demoIds.plumberAustin);
  return {
    pro_id: demoIds.plumberAustin, trade: 'plumbing', issue: 'leak', start: pro.windows[0].start, zip: demoIds.austinZip, address: '12 Oak St, Austin TX',
    customer_name: 'Sam Lee', customer_email: `${unique('sam')}@example.com`, request_key: randomUUID(),
  };
}

/** What a business has been sent and has announced: a retry adds to neither. */
async function sent(slug: string, to: string[]) {
  const business = await app.services.prisma.business.findUniqueOrThrow({ where: { slug }, select: { id: true, email: true } });
  const addresses = [...to, ...(business.email ? [business.email] : [])];
  const [mails, events] = await Promise.all([
    app.services.prisma.outboxMessage.count({ where: { to: { in: addresses } } }),
    app.services.prisma.event.count({ where: { businessId: business.id } }),
  ]);
  return { mails, events };
}

interface Case {
  name: string;
  /** The business it writes to (book_appointment's garage is found at start). */
  business: () => string;
  /** Who calls: customers anonymously, ask_business with a personal key, owners with their business key. */
  caller: () => Record<string, string>;
  /** A fresh input (its own key); `date` keeps bookings of different cases apart. */
  input(date: string): Promise<Record<string, unknown>>;
  /** The ids the first answer gave, which a retry must give again. */
  ids: string[];
  /** A field to change for a mismatching retry. */
  change: Record<string, unknown>;
  /** The rows it made for this input. */
  made(input: Record<string, unknown>): Promise<number>;
  /** Mails to the customer's own address (not the business's). */
  customerMails?: number;
  /** What its first call sends (mail to the customer and the business) and announces. */
  sends: { mails: number; events: number };
}

const prisma = () => app.services.prisma;

const CASES: Case[] = [
  {
    name: 'book_cleaning',
    sends: { mails: 1, events: 1 },
    business: () => demoIds.cleanerAustin,
    caller: () => ({}),
    input: (date) => cleaning(date),
    ids: ['booking_id', 'manage_token'],
    change: { address: '999 Other St, Austin TX' },
    made: (input) => prisma().booking.count({ where: { customerEmail: input.customer_email as string } }),
    customerMails: 1,
  },
  {
    name: 'book_service_call',
    sends: { mails: 1, events: 1 },
    business: () => demoIds.plumberAustin,
    caller: () => ({}),
    input: (date) => serviceCall(date),
    ids: ['booking_id', 'manage_token'],
    change: { details: 'Also the kitchen tap drips.' },
    made: (input) => prisma().booking.count({ where: { customerEmail: input.customer_email as string } }),
    customerMails: 1,
  },
  {
    name: 'contact_business',
    sends: { mails: 1, events: 1 },
    business: () => demoIds.cleanerAustin,
    caller: () => ({}),
    input: async () => ({ business: demoIds.cleanerAustin, customer_name: 'Pat Doe', customer_email: `${unique('pat')}@example.com`, message: unique('Do you bring supplies?'), request_key: randomUUID() }),
    ids: ['inquiry_id', 'reply_token'],
    change: { message: 'Something else entirely.' },
    made: (input) => prisma().conversation.count({ where: { customerEmail: input.customer_email as string } }),
  },
  {
    name: 'ask_business',
    sends: { mails: 1, events: 1 },
    business: () => demoIds.cleanerSanFrancisco,
    caller: () => customerKey,
    input: async () => ({ pro_id: demoIds.cleanerSanFrancisco, question: unique('Can you do a deep clean?'), request_key: randomUUID() }),
    ids: ['inquiry_id', 'reply_token'],
    change: { question: 'A different question.' },
    made: (input) => prisma().conversationMessage.count({ where: { text: input.question as string } }),
  },
  {
    name: 'book_appointment',
    sends: { mails: 2, events: 1 },
    business: () => garage,
    caller: () => ({}),
    input: async (date) => {
      const email = `${unique('appt')}@example.com`;
      const c = await app.rest('contact_business', { business: garage, customer_name: 'Jo Park', customer_email: email, message: 'An appointment, please.', request_type: 'appointment' });
      expect(c.status, JSON.stringify(c.body)).toBe(200);
      const list = await app.rest('appointment_times', { business: garage });
      const service = list.body.services.find((s: { payment: string }) => s.payment === 'none');
      const times = await app.rest('appointment_times', { business: garage, service_id: service.service_id, date });
      expect(times.body.starts.length, JSON.stringify(times.body)).toBeGreaterThan(0);
      return {
        inquiry_id: c.body.inquiry_id, reply_token: c.body.reply_token, service_id: service.service_id, start: times.body.starts[0],
        expected_price_cents: service.price_cents, customer_authorized: true, request_key: randomUUID(), email,
      };
    },
    ids: ['booking_id', 'inquiry_id'],
    change: { customer_phone: '512-555-0199' },
    made: (input) => prisma().appointment.count({ where: { conversationId: input.inquiry_id as string } }),
    customerMails: 1,
  },
  {
    name: 'book_job',
    sends: { mails: 0, events: 1 },
    business: () => demoIds.cleanerAustin,
    caller: () => cleanerOwner,
    input: async (date) => {
      const open = await app.rest('open_times', { ...job, date, days: 7 }, cleanerOwner);
      return { customer_name: 'Dana Ortiz', customer_phone: '512-555-0148', address: unique('2400 S 1st St, Austin TX 78704'), start: open.body.starts[0], ...job, request_key: randomUUID() };
    },
    ids: ['booking_id'],
    change: { customer_name: 'Someone Else' },
    made: (input) => prisma().booking.count({ where: { address: input.address as string } }),
  },
  {
    name: 'log_lead',
    sends: { mails: 0, events: 0 },
    business: () => demoIds.cleanerAustin,
    caller: () => cleanerOwner,
    input: async () => ({ platform: 'thumbtack', zip: demoIds.austinZip, ...job, cost: 18.5, message: unique('Need a clean before my parents visit.'), request_key: randomUUID() }),
    ids: ['lead_id'],
    change: { cost: 20 },
    made: (input) => prisma().lead.count({ where: { message: input.message as string } }),
  },
  {
    name: 'block_time',
    sends: { mails: 0, events: 0 },
    business: () => demoIds.cleanerAustin,
    caller: () => cleanerOwner,
    input: async (date) => ({ date: date.replace(/^2026-1[12]/, '2027-03'), start: '19:00', end: '20:00', reason: unique('dentist'), request_key: randomUUID() }),
    ids: ['block_id'],
    change: { end: '20:30' },
    made: (input) => prisma().block.count({ where: { label: input.reason as string } }),
  },
];

/** book_appointment's test input carries the customer's address beside the operation's input. */
const wire = ({ email: _e, ...input }: Record<string, unknown>) => input;

// Days kept apart per case and surface, so no two bookings of this file compete for a time.
let day = 0;
/** The next weekday from 2026-11-30 on. */
function nextDay(): string {
  for (;;) {
    const d = new Date(Date.UTC(2026, 10, 30 + day++));
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) return d.toISOString().slice(0, 10);
  }
}

describe('a retry with the same request_key', () => {
  for (const c of CASES) {
    it(`${c.name}: answers the first result again, same ids, nothing made or sent twice`, async () => {
      const input = await c.input(nextDay());
      const to = [input.customer_email, input.email].filter((e): e is string => typeof e === 'string');
      const before = await sent(c.business(), to);
      const first = await call(app, 'rest', c.name, wire(input), c.caller());
      expect(first.ok, JSON.stringify(first)).toBe(true);
      const after = await sent(c.business(), to);
      expect({ mails: after.mails - before.mails, events: after.events - before.events }).toEqual(c.sends);
      if (c.customerMails) expect(await prisma().outboxMessage.count({ where: { to: { in: to } } })).toBe(c.customerMails);
      const retry = await call(app, 'rest', c.name, wire(input), c.caller());
      expect(retry.ok, JSON.stringify(retry)).toBe(true);
      for (const id of c.ids) expect(retry.body[id], id).toBe(first.body[id]);
      expect(await c.made(input)).toBe(1);
      expect(await sent(c.business(), to)).toEqual(after);
    });
  }

  it('declares idempotentHint on these tools, and request_key in their input schemas', async () => {
    const { body } = await app.mcp('tools/list');
    const tools = new Map<string, any>(body.result.tools.map((t: any) => [t.name, t]));
    for (const c of CASES) {
      expect(tools.get(c.name).annotations.idempotentHint, c.name).toBe(true);
      expect(tools.get(c.name).inputSchema.properties.request_key, c.name).toMatchObject({ type: 'string', minLength: 20, maxLength: 100 });
      expect(tools.get(c.name).inputSchema.required ?? [], c.name).not.toContain('request_key');
    }
    // An operation that creates nothing takes no key.
    expect(tools.get('cancel_booking').inputSchema.properties.request_key).toBeUndefined();
  });
});

describe('moves with a request_key', () => {
  it('reschedule_booking: a retry answers the first move, announcing it once; another start under the key is a mismatch', async () => {
    const input = await cleaning(nextDay());
    const made = (await app.rest('book_cleaning', input)).body;
    const to = await cleaningStart(nextDay());
    const move = { booking_id: made.booking_id, manage_token: made.manage_token, start: to, request_key: randomUUID() };
    const before = await sent(demoIds.cleanerAustin, [input.customer_email]);
    const first = await call(app, 'rest', 'reschedule_booking', move);
    expect(first.ok, JSON.stringify(first)).toBe(true);
    const after = await sent(demoIds.cleanerAustin, [input.customer_email]);
    expect(after.events - before.events).toBe(1);
    const retry = await call(app, 'mcp', 'reschedule_booking', move);
    expect(retry.body).toEqual(first.body);
    const elsewhere = await call(app, 'graphql', 'reschedule_booking', { ...move, start: await cleaningStart(nextDay()) });
    expect(elsewhere.code).toBe('idempotency_mismatch');
    expect(await sent(demoIds.cleanerAustin, [input.customer_email])).toEqual(after);
    const visits = await prisma().bookingVisit.findMany({ where: { bookingId: made.booking_id, active: true } });
    expect(visits.map((v) => v.start.getTime())).toEqual([Date.parse(to)]);
  });

  it('reschedule_job: the same for an owner', async () => {
    const job = await CASES.find((c) => c.name === 'book_job')!.input(nextDay());
    const made = (await app.rest('book_job', job, cleanerOwner)).body;
    const open = (await app.rest('open_times', { bedrooms: 2, bathrooms: 1, date: nextDay(), days: 7 }, cleanerOwner)).body.starts;
    const move = { booking_id: made.booking_id, start: open[0], request_key: randomUUID() };
    const first = await call(app, 'rest', 'reschedule_job', move, cleanerOwner);
    expect(first.ok, JSON.stringify(first)).toBe(true);
    const events = await prisma().event.count({ where: { bookingId: made.booking_id } });
    const retry = await call(app, 'graphql', 'reschedule_job', move, cleanerOwner);
    expect(retry.body).toEqual(first.body);
    expect(await prisma().event.count({ where: { bookingId: made.booking_id } })).toBe(events);
    expect((await call(app, 'mcp', 'reschedule_job', { ...move, start: open[1] }, cleanerOwner)).code).toBe('idempotency_mismatch');
  });
});

describe('a changed retry', () => {
  for (const c of CASES) {
    it(`${c.name}: is refused with idempotency_mismatch, and makes nothing`, async () => {
      const input = await c.input(nextDay());
      const first = await call(app, 'rest', c.name, wire(input), c.caller());
      expect(first.ok, JSON.stringify(first)).toBe(true);
      const changed = await call(app, 'rest', c.name, wire({ ...input, ...c.change }), c.caller());
      expect(changed.code, JSON.stringify(changed)).toBe('idempotency_mismatch');
      expect(changed.error).toMatch(/already used for a different .* request.*new random key/);
      expect(await c.made(input)).toBe(1);
    });
  }

  it('is refused on MCP and GraphQL too, where request_key is an argument', async () => {
    for (const via of ['mcp', 'graphql'] as Surface[]) {
      const input = await cleaning(nextDay());
      const first = await call(app, via, 'book_cleaning', input);
      expect(first.ok, `${via}: ${JSON.stringify(first)}`).toBe(true);
      const again = await call(app, via, 'book_cleaning', input);
      expect(again.ok, `${via}: ${JSON.stringify(again)}`).toBe(true);
      expect(again.body.booking_id).toBe(first.body.booking_id);
      expect(again.body.manage_token).toBe(first.body.manage_token);
      const changed = await call(app, via, 'book_cleaning', { ...input, notes: 'Ring twice.' });
      expect(changed.code, via).toBe('idempotency_mismatch');
      expect(await prisma().booking.count({ where: { customerEmail: input.customer_email } })).toBe(1);
    }
  });
});

describe('the Idempotency-Key header on REST', () => {
  it('is the request_key, bare or as a structured-field string', async () => {
    const { request_key: key, ...input } = await cleaning(nextDay());
    const first = await app.rest('book_cleaning', input, { 'idempotency-key': key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const quoted = await app.rest('book_cleaning', input, { 'idempotency-key': `"${key}"` });
    expect(quoted.status).toBe(200);
    expect(quoted.body.booking_id).toBe(first.body.booking_id);
    // The same key in the body is the same key.
    const field = await app.rest('book_cleaning', { ...input, request_key: key });
    expect(field.body.booking_id).toBe(first.body.booking_id);
    const changed = await app.rest('book_cleaning', { ...input, address: '1 Else St, Austin TX' }, { 'idempotency-key': key });
    expect(changed.status).toBe(400);
    expect(changed.body.code).toBe('idempotency_mismatch');
    expect(await prisma().booking.count({ where: { customerEmail: input.customer_email } })).toBe(1);
  });

  it('refused when it differs from request_key, when malformed, and where the operation takes no key; never echoed', async () => {
    const input = await cleaning(nextDay());
    const other = randomUUID();
    const differ = await app.rest('book_cleaning', input, { 'idempotency-key': other });
    expect(differ.status).toBe(400);
    expect(differ.body).toMatchObject({ code: 'invalid_input' });
    expect(differ.body.error).toMatch(/Idempotency-Key header and request_key differ/);
    expect(JSON.stringify(differ.body)).not.toContain(other);
    const { request_key: _k, ...bare } = input;
    const short = await app.rest('book_cleaning', bare, { 'idempotency-key': 'abc' });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/request_key must be at least 20 characters/);
    const pattern = await app.rest('book_cleaning', bare, { 'idempotency-key': 'a'.repeat(30) });
    expect(pattern.body.error).toMatch(/must be random/);
    const status = await app.rest('cancel_booking', { booking_id: 'x', manage_token: 'y' }, { 'idempotency-key': other });
    expect(status.status).toBe(400);
    expect(status.body.error).toMatch(/cancel_booking takes no Idempotency-Key/);
    expect(await prisma().booking.count({ where: { customerEmail: input.customer_email } })).toBe(0);
  });

  it('is request_visit\'s own required key too', async () => {
    const selections = [{ service_id: 'womens-cut' }];
    const e = (await app.rest('estimate_visit', { business: demoIds.beautySanFrancisco, selections: JSON.stringify(selections) })).body;
    const input = { business: demoIds.beautySanFrancisco, selections, customer_name: 'Vic Tim', menu_revision: e.menu_revision, expected_estimate_cents: e.estimate_cents, customer_authorized: true };
    const key = randomUUID();
    const first = await app.rest('request_visit', input, { 'idempotency-key': key });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await app.rest('request_visit', { ...input, request_key: key });
    expect(again.body.request.visit_id).toBe(first.body.request.visit_id);
    expect(again.body.reply_token).toBe(first.body.reply_token);
  });

  it('is documented in OpenAPI as a header parameter of the operations that take a key', async () => {
    const doc = (await (await app.get('/openapi.json')).json()) as any;
    for (const c of CASES) {
      const op = doc.paths[`/api/v1/${c.name}`].post;
      const header = op.parameters.find((p: { in: string }) => p.in === 'header');
      expect(header, c.name).toMatchObject({ name: 'Idempotency-Key', required: false, schema: { type: 'string', minLength: 20, maxLength: 100 } });
      expect(op.responses['409'], c.name).toBeDefined();
    }
    expect(doc.paths['/api/v1/request_visit'].post.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key')).toBeDefined();
    expect(doc.paths['/api/v1/request_visit'].post.responses['409']).toBeUndefined();
    expect(doc.paths['/api/v1/cancel_booking'].post.parameters).toBeUndefined();
  });
});

describe('a duplicate of a request still running', () => {
  it('waits for it, then answers 409 request_in_progress with Retry-After (MCP: the tool\'s error); once done, its answer', async () => {
    const raw = { business: demoIds.cleanerAustin, customer_name: 'Pat Doe', message: unique('Still running?'), request_key: randomUUID() };
    const { request_key: _k, ...input } = parseInput(operationByName.get('contact_business')!.input, raw);
    const who = { 'x-forwarded-for': '198.51.100.60' };
    const { keyHash, fingerprint } = requestKeyDigests('contact_business', raw.request_key, input, { credential: null, clientAddress: '198.51.100.60', user: {} });
    const now = app.services.clock.now();
    // The first request's claim, committed with its write, its answer not stored yet.
    await prisma().requestKey.create({ data: { keyHash, fingerprint, createdAt: new Date(now), expiresAt: new Date(now + REQUEST_KEY_TTL_MS) } });
    const [rest, mcp] = await Promise.all([app.rest('contact_business', raw, who), app.mcp('tools/call', { name: 'contact_business', arguments: raw }, who)]);
    expect(rest.status).toBe(409);
    expect(rest.headers.get('retry-after')).toBe('2');
    expect(rest.body).toMatchObject({ code: 'request_in_progress', retry_after: 2 });
    expect(rest.body.error).toMatch(/still being processed.*Retry the same request/);
    expect(mcp.status).toBe(200);
    expect(mcp.body.result.isError).toBe(true);
    expect(JSON.parse(mcp.body.result.content[0].text).code).toBe('request_in_progress');
    expect(await prisma().conversationMessage.count({ where: { text: raw.message } })).toBe(0);
    // The first request stores its answer while a retry waits: the retry gets it.
    const retry = app.rest('contact_business', raw, who);
    await new Promise((r) => setTimeout(r, 300));
    const answer = { inquiryId: 'first-inquiry', replyToken: 'rt_first', status: 'waiting_for_response', next: 'Read the answer with inquiry_status.' };
    await prisma().requestKey.update({ where: { keyHash }, data: { status: 'done', result: await seal(app.services.secretsKey, 'request-key-result', JSON.stringify(answer)) } });
    const done = await retry;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ inquiry_id: 'first-inquiry', reply_token: 'rt_first', status: 'waiting_for_response', next: 'Read the answer with inquiry_status.' });
    expect(await prisma().conversationMessage.count({ where: { text: raw.message } })).toBe(0);
  });
});

describe('a key is its caller\'s own', () => {
  it('the same key from another address or key makes another booking, and hears of no mismatch', async () => {
    const date = nextDay();
    const key = randomUUID();
    const callers = [{ 'x-forwarded-for': '198.51.100.7' }, { 'x-forwarded-for': '198.51.100.8' }, bearer(await personalKey(app))];
    const ids = new Set<string>();
    for (const [i, who] of callers.entries()) {
      // Different details each time: no other caller's use of the key tells anything.
      const r = await call(app, SURFACES[i]!, 'contact_business', { business: demoIds.cleanerAustin, customer_name: `Caller ${i}`, message: `Question ${i} about ${date}`, request_key: key }, who);
      expect(r.ok, JSON.stringify(r)).toBe(true);
      ids.add(r.body.inquiry_id);
    }
    expect(ids.size).toBe(3);
  });

  it('one owner\'s key is not another business\'s', async () => {
    const plumber = bearer(await businessKey(app, demoIds.plumberAustin));
    const input = { platform: 'angi', zip: demoIds.austinZip, cost: 12, message: unique('A lead'), request_key: randomUUID() };
    const a = await call(app, 'rest', 'log_lead', { ...input, ...job }, cleanerOwner);
    const b = await call(app, 'rest', 'log_lead', { ...input, issue: 'leak' }, plumber);
    expect(a.ok && b.ok, JSON.stringify([a, b])).toBe(true);
    expect(a.body.lead_id).not.toBe(b.body.lead_id);
  });
});

describe('what is kept', () => {
  it('a refused call keeps nothing: its retry, corrected, runs', async () => {
    const input = await cleaning(nextDay());
    const keys = await prisma().requestKey.count();
    const wrong = await app.rest('book_cleaning', { ...input, price: 1 });
    expect(wrong.body.code).toBe('price_changed');
    expect(await prisma().requestKey.count()).toBe(keys);
    const right = await app.rest('book_cleaning', { ...input, price: wrong.body.price });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    // The same refusal again, after: now it is a mismatch with the booking made.
    expect((await app.rest('book_cleaning', { ...input, price: 1 })).body.code).toBe('idempotency_mismatch');
  });

  it('a call refused inside its transaction takes its claim back with it', async () => {
    // book_appointment checks the live price after claiming the key, in the same transaction.
    const c = CASES.find((x) => x.name === 'book_appointment')!;
    const input = wire(await c.input(nextDay()));
    const keys = await prisma().requestKey.count();
    const wrong = await app.rest('book_appointment', { ...input, expected_price_cents: (input.expected_price_cents as number) + 100 });
    expect(wrong.body.code, JSON.stringify(wrong.body)).toBe('price_changed');
    expect(await prisma().requestKey.count()).toBe(keys);
    const right = await app.rest('book_appointment', input);
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body.replayed).toBe(false);
    expect(await prisma().requestKey.count()).toBe(keys + 1);
    // Its retry says it is one.
    const retry = await app.rest('book_appointment', input);
    expect(retry.body).toEqual({ ...right.body, replayed: true });
  });

  it('stores digests and a sealed answer: no key, token or customer detail in the clear, and no key in any log line', async () => {
    const input = await cleaning(nextDay());
    const r = await app.rest('book_cleaning', input);
    expect(r.status).toBe(200);
    const rows = await prisma().requestKey.findMany();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(input.request_key);
    expect(dump).not.toContain(r.body.manage_token);
    expect(dump).not.toContain(r.body.booking_id);
    expect(dump).not.toContain(input.customer_email);
    const row = rows.find((k) => k.status === 'done' && k.expiresAt.getTime() - k.createdAt.getTime() === REQUEST_KEY_TTL_MS);
    expect(row).toBeDefined();
    await app.rest('book_cleaning', input, { 'idempotency-key': input.request_key });
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(input.request_key);
  });

  it('a key is kept 24 hours: then it is forgotten, and the sweep deletes it', async () => {
    const input = { business: demoIds.cleanerAustin, customer_name: 'Pat Doe', message: unique('Hello'), request_key: randomUUID() };
    const first = await app.rest('contact_business', input);
    expect(first.status).toBe(200);
    try {
      shift = REQUEST_KEY_TTL_MS - 60_000;
      expect((await app.rest('contact_business', { ...input, message: 'Other' })).body.code).toBe('idempotency_mismatch');
      shift = REQUEST_KEY_TTL_MS + 60_000;
      const later = await app.rest('contact_business', { ...input, message: 'Other' });
      expect(later.status, JSON.stringify(later.body)).toBe(200);
      expect(later.body.inquiry_id).not.toBe(first.body.inquiry_id);
      shift = 3 * REQUEST_KEY_TTL_MS;
      await sweepRequestKeys(app.services);
      expect(await prisma().requestKey.count()).toBe(0);
    } finally {
      shift = 0;
    }
  });
});

// PGlite runs one statement at a time, so a race there proves nothing: these run on PostgreSQL.
describe.skipIf(!onPostgres)('concurrent retries on PostgreSQL', () => {
  // Bookings also meet the exclusion constraint; a conversation has nothing but the key's claim.
  for (const c of CASES.filter((x) => ['book_cleaning', 'book_service_call', 'contact_business'].includes(x.name))) {
    it(`20 concurrent identical ${c.name} calls with one key make exactly one, answered to all`, async () => {
      const input = await c.input(nextDay());
      const results = await Promise.all(Array.from({ length: 20 }, () => app.rest(c.name, input)));
      for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
      for (const id of c.ids) expect(new Set(results.map((r) => r.body[id])).size, id).toBe(1);
      expect(await c.made(input)).toBe(1);
      expect(await prisma().outboxMessage.count({ where: { to: input.customer_email as string } })).toBe(c.customerMails ?? 0);
    });
  }

  it('20 concurrent calls with one key and different details: one booking, the others idempotency_mismatch', async () => {
    const input = await cleaning(nextDay());
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => app.rest('book_cleaning', { ...input, notes: `Variant ${i}` })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.body.code, JSON.stringify(r.body)).toBe('idempotency_mismatch');
    expect(await prisma().booking.count({ where: { customerEmail: input.customer_email } })).toBe(1);
  });
});

it('every operation that creates something takes a key; the rest do not', () => {
  const keyed = [...operationByName.values()].filter((op) => op.requestKey).map((op) => op.name).sort();
  const moves = ['reschedule_appointment', 'reschedule_booking', 'reschedule_job', 'reschedule_visit'];
  expect(keyed).toEqual([...CASES.map((c) => c.name), ...moves].sort());
  for (const op of operationByName.values()) if (op.method === 'GET') expect(op.requestKey, op.name).toBeUndefined();
});
