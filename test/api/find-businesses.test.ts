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

  it('treats typed words as data, and says why nothing was found', async () => {
    for (const query of ["haircut') OR 1=1 --", 'a & b | !c <-> d:*', '\u0000', 'the and of']) {
      const r = await app.rest('find_businesses', { city: 'Austin', query });
      expect(r.status, `${JSON.stringify(query)} ${JSON.stringify(r.body)}`).toBeLessThan(500);
    }
    const none = await app.rest('find_businesses', { zip: demoIds.austinZip, query: 'zeppelin airship' });
    expect(none.body.businesses).toEqual([]);
    expect(none.body.note).toMatch(/without query/);
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
