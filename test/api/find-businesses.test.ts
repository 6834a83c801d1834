/**
 * find_businesses: any business near a ZIP or city, matched on names, kinds and services by
 * PostgreSQL full-text search, ranked by relevance then distance, on every surface.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES } from '../helpers/surfaces.js';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(async () => app?.close());

interface Entry {
  business: string;
  name: string;
  type: string;
  miles: number;
  summary: string;
  next: string;
  matches: { service_id: string; name: string; price_kind: string; price_cents: number | null; bookable_as: string }[];
  matched_on: 'services' | 'name' | 'type' | null;
  unmatched: string[];
  booking: { visits: boolean; appointments: boolean; request_only: boolean };
}

describe('find_businesses', () => {
  it('finds a salon by "haircut" in San Francisco, with the matching services, on every surface', async () => {
    for (const via of SURFACES) {
      const r = await call(app, via, 'find_businesses', { city: 'San Francisco CA', query: 'haircut' });
      expect(r.ok, JSON.stringify(r.body)).toBe(true);
      const found: Entry[] = r.body.businesses;
      const salon = found.find((b) => b.business === demoIds.beautySanFrancisco);
      expect(salon, `${via}: ${found.map((b) => b.business).join(', ')}`).toBeDefined();
      expect(salon!.type).toBe('beauty');
      expect(salon!.matches.length).toBeGreaterThan(0);
      for (const m of salon!.matches) expect(m.name.toLowerCase()).toMatch(/hair|cut/);
      expect(salon).toMatchObject({ matched_on: 'services', unmatched: [] });
      // Every entry matched the query: a garage has no haircut.
      expect(found.every((b) => b.type !== 'auto_repair')).toBe(true);
    }
  });

  it('gives a business id that works in business_info, service_menu and appointment_times', async () => {
    const r = await app.rest('find_businesses', { city: 'San Francisco CA', query: 'haircut' });
    const slug = r.body.businesses[0].business;
    for (const op of ['business_info', 'service_menu', 'appointment_times']) {
      const got = await app.rest(op, { business: slug });
      expect(got.status, `${op} ${JSON.stringify(got.body)}`).toBe(200);
    }
  });

  it('ranks by relevance, then by distance, and filters by type', async () => {
    const all = await app.rest('find_businesses', { zip: demoIds.austinZip });
    expect(all.status).toBe(200);
    const miles = all.body.businesses.map((b: Entry) => b.miles);
    expect(miles).toEqual([...miles].sort((a: number, b: number) => a - b));
    const types = new Set(all.body.businesses.map((b: Entry) => b.type));
    expect(types.size).toBeGreaterThan(2);
    const plumbers = await app.rest('find_businesses', { zip: demoIds.austinZip, type: 'plumbing' });
    expect(plumbers.body.businesses.length).toBeGreaterThan(0);
    for (const b of plumbers.body.businesses as Entry[]) {
      expect(b.type).toBe('plumbing');
      expect(b.next).toContain('find_service_call');
      expect(b.matches).toEqual([]);
    }
    const cleaners = await app.rest('find_businesses', { zip: demoIds.austinZip, query: 'move-out clean' });
    expect(cleaners.body.businesses[0].type).toBe('cleaning');
    expect(cleaners.body.businesses[0].next).toContain('find_cleaners');
  });

  it('finds a service added a moment ago, ranked first', async () => {
    const owner = bearer(await businessKey(app, demoIds.beautySanFrancisco));
    const setup = await app.rest('booking_setup', {}, owner);
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const before = await app.rest('find_businesses', { city: 'San Francisco', query: 'keratin smoothing' });
    expect(before.body.businesses.find((b: Entry) => b.business === demoIds.beautySanFrancisco)).toBeUndefined();
    const services = setup.body.services.map((s: { service_id: string; name: string; price_cents: number; duration_minutes: number; payment: string }) => ({
      service_id: s.service_id, name: s.name, price_cents: s.price_cents, duration_minutes: s.duration_minutes, payment: s.payment,
    }));
    const changed = await app.rest('update_booking_setup', { services: [...services, { name: 'Keratin smoothing treatment', price_cents: 18000, duration_minutes: 150, payment: 'none' }] }, owner);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const after = await app.rest('find_businesses', { city: 'San Francisco', query: 'keratin smoothing' });
    const salon = (after.body.businesses as Entry[]).find((b) => b.business === demoIds.beautySanFrancisco)!;
    expect(salon.matches[0]).toMatchObject({ name: 'Keratin smoothing treatment', price_cents: 18000, bookable_as: 'appointment' });
    expect(after.body.businesses[0].business).toBe(demoIds.beautySanFrancisco);
  });

  it('gives a summary from the lowest paid price, saying when some services are free', async () => {
    const owner = bearer(await businessKey(app, demoIds.beautySanFrancisco));
    const setup = await app.rest('booking_setup', {}, owner);
    const services = setup.body.services.map((s: { service_id: string; name: string; price_cents: number; duration_minutes: number; payment: string }) => ({
      service_id: s.service_id, name: s.name, price_cents: s.price_cents, duration_minutes: s.duration_minutes, payment: s.payment,
    }));
    const changed = await app.rest('update_booking_setup', { services: [...services, { name: 'Free colour consultation', price_cents: 0, duration_minutes: 15, payment: 'none' }] }, owner);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const found = await app.rest('find_businesses', { city: 'San Francisco', query: 'colour consultation' });
    const salon = (found.body.businesses as Entry[]).find((b) => b.business === demoIds.beautySanFrancisco)!;
    expect(salon.summary).not.toContain('$0.00');
    expect(salon.summary).toMatch(/, from \$\d+\.\d\d \(some free\);/);
  });

  const find = async (where: Record<string, string>, query: string) => {
    const r = await app.rest('find_businesses', { ...where, query });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { businesses: Entry[]; note: string | null };
  };
  const names = (b: Entry) => b.matches.map((m) => m.name);
  const SF = { city: 'San Francisco CA' };

  it('understands a barber as men\'s cuts, beards and shaves, and lists no business that matches nothing', async () => {
    // Before: every beauty business, a day spa too, matched "barber" by its type, with no service to show.
    const sf = await find(SF, 'barber');
    expect(sf.businesses.map((b) => b.business)).toEqual([demoIds.beautySanFrancisco]);
    expect(sf.businesses[0]).toMatchObject({ matched_on: 'services', unmatched: [] });
    expect(names(sf.businesses[0]!)).toEqual(["Men's cut"]);
    expect(sf.note).toBeNull();
    const sanJose = await find({ city: 'San Jose CA' }, 'barber');
    expect(sanJose.businesses.length).toBeGreaterThan(0);
    for (const b of sanJose.businesses) {
      expect(b.business).not.toMatch(/spa/);
      expect(b.matches.length, b.business).toBeGreaterThan(0);
    }
    // The spa is found for what it does.
    const spa = await find({ city: 'San Jose CA' }, 'massage');
    expect(spa.businesses.map((b) => b.business)).toEqual(['almaden-day-spa-san-jose']);
    expect(names(spa.businesses[0]!).every((n) => /massage/i.test(n))).toBe(true);
  });

  it('lists a partial match of "beard trim" only as one, and a real beard trim first when there is one', async () => {
    // Before: a salon's "Fringe trim" was listed as a match.
    const before = await find({ city: 'Austin TX' }, 'beard trim');
    expect(before.businesses.length).toBeGreaterThan(0);
    for (const b of before.businesses) expect(b.unmatched).toEqual(['beard']);
    expect(before.note).toMatch(/matches all of "beard trim".*none of them offers "beard"/);
    const salon = before.businesses[0]!.business;
    const owner = bearer(await businessKey(app, salon));
    const setup = await app.rest('booking_setup', {}, owner);
    const services = setup.body.services.map((s: { service_id: string; name: string; price_cents: number; duration_minutes: number; payment: string }) => ({
      service_id: s.service_id, name: s.name, price_cents: s.price_cents, duration_minutes: s.duration_minutes, payment: s.payment,
    }));
    const changed = await app.rest('update_booking_setup', { services: [...services, { name: 'Beard trims', price_cents: 2000, duration_minutes: 20, payment: 'none' }] }, owner);
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const after = await find({ city: 'Austin TX' }, 'beard trim');
    expect(after.businesses.map((b) => b.business)).toEqual([salon]);
    expect(after.businesses[0]).toMatchObject({ matched_on: 'services', unmatched: [] });
    expect(names(after.businesses[0]!)[0]).toBe('Beard trims');
    expect(after.note).toBeNull();
    // …and it is a barber now.
    const barber = await find({ city: 'Austin TX' }, 'barbers');
    expect(names(barber.businesses.find((b) => b.business === salon)!)).toEqual(expect.arrayContaining(["Men's cut", 'Beard trims']));
  });

  it('matches stems and related words: oil change, mechanic, mani pedi, move-out clean', async () => {
    const oil = await find(SF, 'Oil changes');
    expect(oil.businesses.map((b) => b.type)).toEqual(['auto_repair']);
    expect(names(oil.businesses[0]!).every((n) => /oil change/i.test(n))).toBe(true);
    const mechanic = await find(SF, 'mechanic near me');
    expect(mechanic.businesses.map((b) => b.type)).toEqual(['auto_repair']);
    expect(mechanic.businesses[0]!.matched_on).toBe('services');
    const none = await find(SF, 'mani pedi');
    expect(none.businesses).toEqual([]);
    expect(none.note).toMatch(/Types of business within 25 miles: .*beauty \(1\)/);
    const owner = bearer(await businessKey(app, demoIds.beautySanFrancisco));
    const setup = await app.rest('booking_setup', {}, owner);
    const services = setup.body.services.map((s: { service_id: string; name: string; price_cents: number; duration_minutes: number; payment: string }) => ({
      service_id: s.service_id, name: s.name, price_cents: s.price_cents, duration_minutes: s.duration_minutes, payment: s.payment,
    }));
    const added = [{ name: 'Gel manicure', price_cents: 4000, duration_minutes: 45, payment: 'none' }, { name: 'Spa pedicure', price_cents: 5500, duration_minutes: 60, payment: 'none' }];
    expect((await app.rest('update_booking_setup', { services: [...services, ...added] }, owner)).status).toBe(200);
    const nails = await find(SF, 'mani pedi');
    expect(nails.businesses.map((b) => b.business)).toEqual([demoIds.beautySanFrancisco]);
    expect(names(nails.businesses[0]!).sort()).toEqual(['Gel manicure', 'Spa pedicure']);
    const clean = await find(SF, 'move-out clean');
    expect(clean.businesses.length).toBe(20);
    for (const b of clean.businesses) expect(b).toMatchObject({ type: 'cleaning', matched_on: 'services', unmatched: [] });
  });

  it('says when a business matched only by its type', async () => {
    const salon = await find(SF, 'beauty');
    expect(salon.businesses.map((b) => [b.business, b.matched_on])).toEqual([[demoIds.beautySanFrancisco, 'type']]);
    expect(salon.businesses[0]!.matches).toEqual([]);
    expect(salon.note).toMatch(/by type only/);
    const filler = await find(SF, 'the near me');
    expect(filler.businesses.length).toBeGreaterThan(0);
    expect(filler.businesses.every((b) => b.matched_on === null)).toBe(true);
    expect(filler.note).toMatch(/no words to search for/);
  });

  it('treats typed words as data, and says why nothing was found', async () => {
    for (const query of ["haircut') OR 1=1 --", 'a & b | !c <-> d:*', '\u0000', 'the and of']) {
      const r = await app.rest('find_businesses', { city: 'Austin', query });
      expect(r.status, `${JSON.stringify(query)} ${JSON.stringify(r.body)}`).toBeLessThan(500);
    }
    const none = await app.rest('find_businesses', { zip: demoIds.austinZip, query: 'zeppelin airship' });
    expect(none.body.businesses).toEqual([]);
    expect(none.body.note).toMatch(/without query/);
    expect(none.body.note).toMatch(/Types of business within 25 miles: cleaning \(\d+\)/);
    const far = await app.rest('find_businesses', { zip: '10001' });
    expect(far.body.businesses).toEqual([]);
    expect(far.body.note).toMatch(/Live cities/);
    const bad = await app.rest('find_businesses', { city: 'Austin', type: 'bakery' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/type must be one of/);
    const nowhere = await app.rest('find_businesses', { query: 'haircut' });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.error).toMatch(/zip|city/);
  });
});
