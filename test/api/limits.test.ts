import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

const pro = demoIds.cleanerAustin;
const zip = demoIds.austinZip;
const job = { bedrooms: 2, bathrooms: 1.5 };

// Valid inputs: each case changes one field, so the first (and only) problem is that field.
const base: Record<string, Record<string, unknown>> = {
  find_cleaners: { zip, ...job },
  available_times: { pro_id: pro, ...job },
  book_cleaning: {
    pro_id: pro, ...job, start: '2026-12-01T09:00:00-06:00', address: '1100 S Congress Ave, Austin TX', zip,
    customer_name: 'Alex Rivera', customer_email: 'alex@example.com',
  },
  booking_status: { booking_id: 'bk_unknown', manage_token: 'mt_unknown' },
  cancel_booking: { booking_id: 'bk_unknown', manage_token: 'mt_unknown' },
  message_about_booking: { booking_id: 'bk_unknown', manage_token: 'mt_unknown', message: 'Hello' },
  message_cleaner: { booking_id: 'bk_unknown', manage_token: 'mt_unknown', message: 'Hello' },
};

const s = (n: number, c = 'a') => c.repeat(n);

// [operation, field, bad value, what the error must name]
const cases: [string, string, unknown, RegExp][] = [
  ['find_cleaners', 'bedrooms', -1, /bedrooms/],
  ['find_cleaners', 'bedrooms', 11, /bedrooms/],
  ['find_cleaners', 'bedrooms', 1.5, /bedrooms/],
  ['find_cleaners', 'bathrooms', 0.5, /bathrooms/],
  ['find_cleaners', 'bathrooms', 11, /bathrooms/],
  ['find_cleaners', 'bathrooms', 1.25, /bathrooms/],
  ['find_cleaners', 'sqft', 199, /sqft/],
  ['find_cleaners', 'sqft', 15001, /sqft/],
  ['find_cleaners', 'city', s(61), /city/],
  ['find_cleaners', 'zip', '7870', /zip/],
  ['find_cleaners', 'zip', 'abcde', /zip/],
  ['find_cleaners', 'clean_type', 'sparkly', /clean_type/],
  ['find_cleaners', 'frequency', 'daily', /frequency/],
  ['find_cleaners', 'sort', 'rating', /sort/],
  ['find_cleaners', 'add_ons', ['garage'], /add_ons/],
  ['find_cleaners', 'start_after', '25:00', /start_after/],
  ['find_cleaners', 'start_after', '9am', /start_after/],
  ['find_cleaners', 'finish_by', '25:00', /finish_by/],
  ['find_cleaners', 'finish_by', '9am', /finish_by/],
  ['find_cleaners', 'date', '2026-02-30', /date/],
  ['find_cleaners', 'date', '12/01/2026', /date/],
  ['find_cleaners', 'max_price', 0, /max_price/],
  ['find_cleaners', 'max_price', -5, /max_price/],
  ['available_times', 'bedrooms', 11, /bedrooms/],
  ['available_times', 'bathrooms', 0.5, /bathrooms/],
  ['available_times', 'sqft', 15001, /sqft/],
  ['available_times', 'clean_type', 'sparkly', /clean_type/],
  ['available_times', 'frequency', 'daily', /frequency/],
  ['available_times', 'add_ons', ['garage'], /add_ons/],
  ['available_times', 'start_after', '25:00', /start_after/],
  ['available_times', 'finish_by', '9am', /finish_by/],
  ['available_times', 'date', '2026-02-30', /date/],
  ['available_times', 'date', '12/01/2026', /date/],
  ['available_times', 'days', 0, /days/],
  ['available_times', 'days', 22, /days/],
  ['available_times', 'days', 2.5, /days/],
  ['book_cleaning', 'bedrooms', -1, /bedrooms/],
  ['book_cleaning', 'bathrooms', 11, /bathrooms/],
  ['book_cleaning', 'sqft', 199, /sqft/],
  ['book_cleaning', 'clean_type', 'sparkly', /clean_type/],
  ['book_cleaning', 'frequency', 'daily', /frequency/],
  ['book_cleaning', 'zip', '7870', /zip/],
  ['book_cleaning', 'add_ons', Array.from({ length: 11 }, (_, i) => `extra ${i}`), /add_ons/],
  ['book_cleaning', 'add_ons', [s(41)], /add_ons/],
  ['book_cleaning', 'visits', 1, /visits/],
  ['book_cleaning', 'visits', 11, /visits/],
  ['book_cleaning', 'visit_starts', ['2026-12-01T09:00:00-06:00'], /visit_starts/],
  ['book_cleaning', 'visit_starts', Array.from({ length: 11 }, (_, i) => `2026-12-${String(i + 1).padStart(2, '0')}T09:00:00-06:00`), /visit_starts/],
  ['book_cleaning', 'address', 'ab', /address/],
  ['book_cleaning', 'address', s(301), /address/],
  ['book_cleaning', 'notes', s(501), /notes/],
  ['book_cleaning', 'customer_name', s(101), /customer_name/],
  ['book_cleaning', 'customer_email', `${s(189)}@example.com`, /customer_email/],
  ['book_cleaning', 'customer_email', 'not-an-email', /customer_email/],
  ['book_cleaning', 'customer_phone', s(31, '5'), /customer_phone/],
  ['book_cleaning', 'price', 0, /price/],
  ['message_about_booking', 'message', '', /message/],
  ['message_about_booking', 'message', s(501), /message/],
  ['message_cleaner', 'message', s(501), /message/],
  ['message_about_booking', 'booking_id', s(61), /booking_id/],
  ['booking_status', 'booking_id', s(61), /booking_id/],
  ['cancel_booking', 'booking_id', s(61), /booking_id/],
];

describe('limits', () => {
  it('the 201-character e-mail case really is 201 characters', () => {
    expect(`${s(189)}@example.com`).toHaveLength(201);
  });

  it.each(cases)('%s rejects %s = %j', async (op, field, value, names) => {
    const input = { ...base[op]!, [field]: value };
    const rest = await app.rest(op, input);
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe('invalid_input');
    expect(typeof rest.body.error).toBe('string');
    expect(rest.body.error).toMatch(names);
    expect(rest.body.error).toMatch(/[.)]$/); // a sentence

    const mcp = await app.tool(op, input);
    expect(mcp.isError).toBe(true);
    expect(mcp.body).toEqual(rest.body);
  });

  it('the base inputs themselves pass validation (so each case fails on its own field)', async () => {
    for (const op of ['booking_status', 'cancel_booking', 'message_about_booking']) {
      const r = await app.rest(op, base[op]);
      expect(r.status, op).toBe(400);
      expect(r.body.code, op).toBe('not_found');
    }
    const ok = await app.rest('find_cleaners', base.find_cleaners);
    expect(ok.status).toBe(200);
  });

  it.each([
    { bedrooms: 0 },
    { bedrooms: 10 },
    { bathrooms: 1 },
    { bathrooms: 10 },
    { bathrooms: 2.5 },
    { sqft: 200 },
    { sqft: 15000 },
    { days: 1 },
    { days: 21 },
  ])('available_times accepts the edge value %j', async (edge) => {
    const r = await app.rest('available_times', { pro_id: pro, ...job, ...edge });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pro_id).toBe(pro);
    expect(r.body.price).toBeGreaterThan(0);
    expect(Array.isArray(r.body.starts)).toBe(true);
    const mcp = await app.tool('available_times', { pro_id: pro, ...job, ...edge });
    expect(mcp.isError).toBe(false);
  });

  it('refuses a POST body that is not JSON', async () => {
    for (const body of ['{not json', '[1,2]', '"text"']) {
      const res = await app.get('/api/v1/book_cleaning', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(res.status, body).toBe(400);
      const json = await res.json();
      expect(json.code).toBe('invalid_input');
      expect(json.error).toMatch(/JSON/);
    }
  });

  it('answers a GET operation called with POST with 405', async () => {
    const res = await app.get('/api/v1/find_cleaners', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ zip, ...job }) });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect((await res.json()).error).toMatch(/GET/);
    const post = await fetchLike(`/api/v1/book_cleaning?zip=${zip}`);
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('POST');
  });
});

const fetchLike = (path: string) => Promise.resolve(app.fetch(new Request(`${BASE}${path}`)));
