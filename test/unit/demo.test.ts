import { createRequire } from 'node:module';
import { demoProfileRating } from '../../src/demo/profiles.js';
import { IANAZone } from 'luxon';
import { ISSUES } from '../../src/pricing/service-call.js';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DEMO_SEED,
  LIVE_CITIES,
  NEIGHBOUR_RADIUS_MILES,
  demoIds,
  demoOwnerEmail,
  generateDemoData,
  type CleaningPriceListData,
  type DemoBusiness,
  type DemoData,
  type ServiceCallPriceListData,
} from '../../src/demo/generate.js';
import { hashPassword, verifyPassword } from '../../src/auth/password.js';
import { type MenuData } from '../../src/menus/menu.js';
import { MENU_ID } from '../../src/core/menu-ids.js';
import { estimateVisit, requestOnlyReason } from '../../src/menus/estimate.js';
import { buildDraft } from '../../src/receptionist/draft.js';

const zipcodes = createRequire(import.meta.url)('zipcodes') as {
  lookup(zip: string): { zip: string; city: string; state: string } | undefined;
  distance(a: string, b: string): number | null;
};

const NOW = Date.parse('2026-03-02T15:00:00Z');
const offsetMinutes = (zone: string, at: number) => IANAZone.create(zone).offset(at);
const data = generateDemoData({ now: NOW });
const { businesses, owners, weeklyHours, serviceZips } = data;
const byKind = (kind: DemoBusiness['kind']) => businesses.filter((b) => b.kind === kind);
const zipsOf = (b: DemoBusiness) => serviceZips.filter((z) => z.businessId === b.id).map((z) => z.zip);
const bySlug = (slug: string) => businesses.find((b) => b.slug === slug);
const bySlugId = (id: string) => businesses.find((b) => b.id === id);

describe('generateDemoData', () => {
  it('is deterministic for a seed; only the month of jobs and leads and the staff\'s time off follow the clock', () => {
    const again = generateDemoData({ now: NOW });
    expect(again).toEqual(data);
    const catalog = (d: DemoData) =>
      JSON.stringify({
        owners: d.owners, businesses: d.businesses, weeklyHours: d.weeklyHours, serviceZips: d.serviceZips,
        serviceMenus: d.serviceMenus, menuServices: d.menuServices, menuAddOns: d.menuAddOns, menuScents: d.menuScents, staffMembers: d.staffMembers, staffHours: d.staffHours,
      });
    const later = NOW + 1000 * 86_400_000;
    const otherNow = generateDemoData({ now: later });
    expect(catalog(otherNow)).toBe(catalog(data));
    expect(catalog(generateDemoData({ now: 0, seed: DEFAULT_DEMO_SEED }))).toBe(catalog(data));
    expect(catalog(generateDemoData({ now: NOW, seed: 7 }))).toBe(catalog(generateDemoData({ now: 0, seed: 7 })));
    // The same time off, as many days after the other clock (within the DST hour of the zone).
    expect(otherNow.staffTimeOff.map((o) => o.id)).toEqual(data.staffTimeOff.map((o) => o.id));
    otherNow.staffTimeOff.forEach((o, i) => {
      const moved = o.start.getTime() - data.staffTimeOff[i]!.start.getTime();
      expect(Math.abs(moved - 1000 * 86_400_000)).toBeLessThanOrEqual(3_600_000);
    });
    expect(generateDemoData({ now: NOW, seed: 7 })).not.toEqual(data);
    // The month moves with the clock.
    expect(otherNow.bookingVisits[0]!.start.getTime()).toBeGreaterThan(NOW + 900 * 86_400_000);
  });

  it('has enough businesses of every kind, in all three cities', () => {
    expect(byKind('cleaning').length).toBeGreaterThanOrEqual(60);
    expect(byKind('plumbing').length).toBeGreaterThanOrEqual(30);
    expect(byKind('hvac').length).toBeGreaterThanOrEqual(30);
    const others = ['auto_repair', 'beauty', 'retail', 'food', 'services'] as const;
    expect(businesses.filter((b) => (others as readonly string[]).includes(b.kind)).length).toBeGreaterThanOrEqual(20);
    for (const kind of others) expect(byKind(kind).length, kind).toBeGreaterThanOrEqual(3);
    for (const city of LIVE_CITIES) {
      for (const kind of ['cleaning', 'plumbing', 'hvac', ...others] as const) {
        expect(businesses.some((b) => b.kind === kind && b.city === city.city), `${kind} in ${city.city}`).toBe(true);
      }
    }
  });

  it('uses unique, well-formed slugs, ids and contact details', () => {
    const slugs = businesses.map((b) => b.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const b of businesses) {
      expect(b.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(b.id).toBe(`biz_${b.slug}`);
      expect(b.email).toBe(`hello@${b.slug}.example`);
      expect(b.website).toBe(`https://${b.slug}.example`);
      const city = LIVE_CITIES.find((c) => c.city === b.city)!;
      expect(city, b.city).toBeDefined();
      expect(b.state).toBe(city.state);
      expect(b.timeZone).toBe(city.timeZone);
      expect(b.slug.endsWith(`-${city.slug}`)).toBe(true);
      expect(b.phone).toMatch(new RegExp(`^\\+1-${city.areaCode}-555-01\\d\\d$`));
      expect([120, 240, 1440]).toContain(b.minNoticeMinutes);
    }
    const phones = businesses.map((b) => b.phone);
    expect(new Set(phones).size).toBe(phones.length);
    const texting = businesses.filter((b) => b.textsCustomers).length / businesses.length;
    expect(texting).toBeGreaterThan(0.15);
    expect(texting).toBeLessThan(0.35);
  });

  it('takes every ZIP from the business city (or a neighbour within the radius)', () => {
    const pairs = serviceZips.map((z) => `${z.businessId}|${z.zip}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    for (const b of businesses) {
      expect(b.zip).toMatch(/^\d{5}$/);
      const home = zipcodes.lookup(b.zip);
      expect(home?.city.toUpperCase(), b.slug).toBe(b.city.toUpperCase());
      expect(home?.state).toBe(b.state);
      const zips = zipsOf(b);
      expect(zips).toContain(b.zip);
      expect(zips.length, b.slug).toBeGreaterThanOrEqual(5);
      expect(zips.length, b.slug).toBeLessThanOrEqual(20);
      for (const zip of zips) {
        expect(zip).toMatch(/^\d{5}$/);
        const record = zipcodes.lookup(zip);
        expect(record, zip).toBeDefined();
        expect(record!.state).toBe(b.state);
        if (record!.city.toUpperCase() !== b.city.toUpperCase()) {
          expect(zipcodes.distance(b.zip, zip), `${b.slug} ${zip}`).toBeLessThanOrEqual(NEIGHBOUR_RADIUS_MILES);
        }
      }
    }
    // San Francisco and San Jose pros reach into neighbouring towns.
    for (const city of ['San Francisco', 'San Jose']) {
      const crossing = businesses.filter(
        (b) => b.city === city && zipsOf(b).some((z) => zipcodes.lookup(z)!.city.toUpperCase() !== city.toUpperCase()),
      );
      expect(crossing.length, city).toBeGreaterThan(5);
    }
  });

  it('gives every business weekly hours and an owner', () => {
    for (const b of businesses) {
      const hours = weeklyHours.filter((h) => h.businessId === b.id);
      expect(hours.length, b.slug).toBeGreaterThan(0);
      expect(new Set(hours.map((h) => h.weekday)).size).toBe(hours.length);
      for (const h of hours) {
        expect(Number.isInteger(h.weekday) && h.weekday >= 0 && h.weekday <= 6).toBe(true);
        expect(h.startMinute).toBeGreaterThanOrEqual(0);
        expect(h.endMinute).toBeGreaterThan(h.startMinute);
        expect(h.endMinute).toBeLessThanOrEqual(24 * 60);
      }
      expect(owners.some((o) => o.id === b.ownerId), b.slug).toBe(true);
    }
    expect(weeklyHours.every((h) => businesses.some((b) => b.id === h.businessId))).toBe(true);
    // Most businesses are closed on Sundays.
    const sunday = new Set(weeklyHours.filter((h) => h.weekday === 0).map((h) => h.businessId));
    expect(sunday.size).toBeLessThan(businesses.length / 2);

    const ownerIds = owners.map((o) => o.id);
    const emails = owners.map((o) => o.email);
    expect(new Set(ownerIds).size).toBe(ownerIds.length);
    expect(new Set(emails).size).toBe(emails.length);
    // contract.md: every demo business has an owner who signs in as owner+<business slug>.
    expect(owners.length).toBe(businesses.length);
    for (const owner of owners) {
      const owned = businesses.filter((b) => b.ownerId === owner.id);
      expect(owned.length).toBe(1);
      expect(owner.id).toBe(`own_${owned[0]!.slug}`);
      expect(owner.email).toBe(demoOwnerEmail(owned[0]!.slug));
      expect(owner.name).toMatch(/^\S+ \S+$/);
      expect(owner.passwordHash).toBe('');
    }
  });

  it('gives cleaners complete price lists, pricier in San Francisco', () => {
    const keys = [
      'add_ons', 'base_cents', 'clean_type_multiplier', 'duration', 'included_sqft', 'minimum_cents',
      'per_bathroom_cents', 'per_bedroom_cents', 'per_extra_100_sqft_cents', 'pets_cents',
    ];
    const durationKeys = ['base_minutes', 'per_bathroom_minutes', 'per_bedroom_minutes', 'per_extra_100_sqft_minutes', 'pets_minutes'];
    const addOnKeys = ['fridge', 'oven', 'windows', 'cabinets', 'laundry', 'restock'];
    let withoutTurnover = 0;
    for (const b of byKind('cleaning')) {
      const list = b.priceList as CleaningPriceListData;
      expect(Object.keys(list).sort(), b.slug).toEqual(keys);
      expect(Object.keys(list.duration).sort()).toEqual(durationKeys);
      expect(list.clean_type_multiplier.standard).toBe(1);
      expect(list.clean_type_multiplier.deep).toBeGreaterThanOrEqual(1.4);
      expect(list.clean_type_multiplier.deep).toBeLessThanOrEqual(1.7);
      for (const t of Object.keys(list.clean_type_multiplier)) expect(['standard', 'deep', 'move_out', 'turnover']).toContain(t);
      if (list.clean_type_multiplier.turnover === undefined) withoutTurnover++;
      const addOns = Object.entries(list.add_ons);
      expect(addOns.length).toBeGreaterThanOrEqual(3);
      for (const [name, addOn] of addOns) {
        expect(addOnKeys).toContain(name);
        expect(Object.keys(addOn).sort()).toEqual(['cents', 'minutes']);
        expect(Number.isInteger(addOn.cents) && Number.isInteger(addOn.minutes)).toBe(true);
      }
      for (const k of keys.filter((k) => k.endsWith('_cents') || k === 'included_sqft')) {
        const v = list[k as keyof CleaningPriceListData] as number;
        expect(Number.isInteger(v) && v > 0, `${b.slug} ${k}`).toBe(true);
      }
      expect(list.minimum_cents).toBeGreaterThanOrEqual(list.base_cents);
    }
    expect(withoutTurnover).toBeGreaterThan(0);
    expect(withoutTurnover).toBeLessThan(byKind('cleaning').length / 2);
    const meanBase = (city: string) => {
      const lists = byKind('cleaning').filter((b) => b.city === city).map((b) => (b.priceList as CleaningPriceListData).base_cents);
      return lists.reduce((s, v) => s + v, 0) / lists.length;
    };
    expect(meanBase('San Francisco') / meanBase('Austin')).toBeGreaterThan(1.05);
  });

  it('gives plumbers and HVAC pros service-call fees and storefronts empty price lists', () => {
    for (const [kind, issues] of [['plumbing', ISSUES.plumbing], ['hvac', ISSUES.hvac]] as const) {
      for (const b of byKind(kind)) {
        const list = b.priceList as ServiceCallPriceListData;
        expect(Object.keys(list).sort()).toEqual(['service_call', 'window_minutes']);
        expect(Object.keys(list.service_call).sort()).toEqual([...issues].sort());
        for (const fee of Object.values(list.service_call)) {
          expect(Number.isInteger(fee) && fee >= 7900 && fee <= 19900).toBe(true);
        }
        expect([120, 180]).toContain(list.window_minutes);
        expect(b.jobsConfirmedDone).toBeGreaterThanOrEqual(0);
        expect(b.jobsConfirmedDone).toBeLessThanOrEqual(400);
      }
    }
    for (const b of businesses.filter((b) => !['cleaning', 'plumbing', 'hvac'].includes(b.kind))) expect(b.priceList).toEqual({});
  });

  it("rates each business on the demo's own profile site the same every time, 3.8-5.0 in tenths", () => {
    for (const b of businesses) {
      const rating = demoProfileRating(b.slug);
      expect(rating).toEqual(demoProfileRating(b.slug));
      expect(rating.value).toBeGreaterThanOrEqual(3.8);
      expect(rating.value).toBeLessThanOrEqual(5);
      expect(Math.round(rating.value * 10) / 10).toBe(rating.value);
      expect(Number.isInteger(rating.count) && rating.count >= 4).toBe(true);
    }
  });

  it('contains the well-known demo ids, and their ZIPs are served', () => {
    const expectBusiness = (slug: string, kind: DemoBusiness['kind'], city: string) => {
      const b = bySlug(slug);
      expect(b, slug).toBeDefined();
      expect(b!.kind).toBe(kind);
      expect(b!.city).toBe(city);
      return b!;
    };
    const cleanerAustin = expectBusiness(demoIds.cleanerAustin, 'cleaning', 'Austin');
    const plumberAustin = expectBusiness(demoIds.plumberAustin, 'plumbing', 'Austin');
    const cleanerSf = expectBusiness(demoIds.cleanerSanFrancisco, 'cleaning', 'San Francisco');
    const beautySf = expectBusiness(demoIds.beautySanFrancisco, 'beauty', 'San Francisco');
    const hvacSj = expectBusiness(demoIds.hvacSanJose, 'hvac', 'San Jose');
    expect(zipsOf(cleanerAustin)).toContain(demoIds.austinZip);
    expect(zipsOf(plumberAustin)).toContain(demoIds.austinZip);
    expect(zipsOf(cleanerSf)).toContain(demoIds.sanFranciscoZip);
    expect(zipsOf(beautySf)).toContain(demoIds.sanFranciscoZip);
    expect(zipsOf(hvacSj)).toContain(demoIds.sanJoseZip);
    expect(zipcodes.lookup(demoIds.austinZip)?.city).toBe('Austin');
    expect(zipcodes.lookup(demoIds.sanFranciscoZip)?.city).toBe('San Francisco');
    expect(zipcodes.lookup(demoIds.sanJoseZip)?.city).toBe('San Jose');
    // Each demo ZIP is served by several cleaners, plumbers and HVAC pros of its city.
    for (const zip of [demoIds.austinZip, demoIds.sanFranciscoZip, demoIds.sanJoseZip]) {
      for (const kind of ['cleaning', 'plumbing', 'hvac'] as const) {
        expect(byKind(kind).filter((b) => zipsOf(b).includes(zip)).length, `${kind} ${zip}`).toBeGreaterThanOrEqual(2);
      }
    }
    expect(owners.some((o) => o.email === `owner+${demoIds.cleanerAustin}@demo.porchlight.test`)).toBe(true);
  });
});

describe('the demo month of every pro', () => {
  const DAY = 86_400_000;
  const pros = businesses.filter((b) => ['cleaning', 'plumbing', 'hvac'].includes(b.kind));
  const of = <T extends { businessId: string }>(rows: T[], b: DemoBusiness) => rows.filter((r) => r.businessId === b.id);
  const visitOf = (id: string) => data.bookingVisits.find((v) => v.bookingId === id)!;

  it('gives every pro past jobs (done, and a no-show for most), upcoming jobs, blocks and leads; storefronts get none', () => {
    let noShows = 0;
    for (const b of pros) {
      const bookings = of(data.bookings, b);
      const past = bookings.filter((x) => visitOf(x.id).end.getTime() <= NOW);
      const upcoming = bookings.filter((x) => visitOf(x.id).start.getTime() > NOW);
      expect(past.filter((x) => x.status === 'done').length, b.slug).toBeGreaterThanOrEqual(1);
      expect(past.filter((x) => x.status === 'no_show').length, b.slug).toBeLessThanOrEqual(1);
      noShows += past.filter((x) => x.status === 'no_show').length;
      expect(upcoming.length, b.slug).toBeGreaterThanOrEqual(1);
      expect(upcoming.every((x) => x.status === 'confirmed')).toBe(true);
      expect(of(data.blocks, b).length, b.slug).toBeGreaterThanOrEqual(1);
      const leads = of(data.leads, b);
      expect(new Set(leads.map((l) => l.platform)).size, b.slug).toBeGreaterThanOrEqual(2);
      expect(new Set(leads.map((l) => l.status))).toEqual(new Set(['quoted', 'booked', 'lost']));
      expect(leads.some((l) => l.costCents > 0 && l.flaggedAt !== null)).toBe(true);
      // A lead is due its first follow-up now (quoted a day and more ago, no follow-up yet).
      expect(leads.some((l) => l.status === 'quoted' && l.followUps === 0 && !l.repliedAt && !l.flaggedAt && l.quotedAt.getTime() <= NOW - DAY)).toBe(true);
      // No-shows are bookings made through the service (own jobs carry no fee to waive).
      for (const x of bookings.filter((y) => y.status === 'no_show')) expect(data.ownJobs.some((o) => o.bookingId === x.id)).toBe(false);
    }
    expect(noShows).toBeGreaterThan(pros.length / 2);
    const storefronts = new Set(businesses.filter((b) => !pros.includes(b)).map((b) => b.id));
    for (const rows of [data.bookings, data.blocks, data.leads]) expect(rows.some((r) => storefronts.has(r.businessId))).toBe(false);
  });

  it('keeps every pro\'s schedule consistent: within hours, no overlaps, no block over a job, mostly open days', () => {
    for (const b of pros) {
      const zone = b.timeZone;
      const visits = of(data.bookingVisits, b).filter((v) => v.active).sort((x, y) => x.start.getTime() - y.start.getTime());
      for (let i = 1; i < visits.length; i++) expect(visits[i]!.start.getTime(), b.slug).toBeGreaterThanOrEqual(visits[i - 1]!.end.getTime());
      for (const block of of(data.blocks, b)) {
        expect(visits.some((v) => v.start < block.end && v.end > block.start), `${b.slug} ${block.id}`).toBe(false);
      }
      const hours = weeklyHours.filter((h) => h.businessId === b.id);
      for (const v of visits) {
        const local = new Date(v.start.getTime() + offsetMinutes(zone, v.start.getTime()) * 60_000);
        const h = hours.find((x) => x.weekday === local.getUTCDay());
        const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
        expect(h, `${b.slug} ${v.start.toISOString()}`).toBeDefined();
        expect(minute).toBeGreaterThanOrEqual(h!.startMinute);
        expect(minute + (v.end.getTime() - v.start.getTime()) / 60_000).toBeLessThanOrEqual(h!.endMinute);
      }
      // At most one job a day, so customers' searches keep finding starts.
      const days = visits.map((v) => new Date(v.start.getTime() + offsetMinutes(zone, v.start.getTime()) * 60_000).toISOString().slice(0, 10));
      expect(new Set(days).size).toBe(days.length);
      for (const v of visits) expect(v.start.getTime()).toBeGreaterThan(NOW - 31 * DAY);
      for (const v of visits) expect(v.start.getTime()).toBeLessThan(NOW + 22 * DAY);
    }
  });

  it('stores no name or contact for platform leads, and links booked leads to own jobs', () => {
    for (const lead of data.leads) {
      if (lead.platform === 'direct') {
        expect(lead.customerName).not.toBeNull();
        expect(lead.phoneKey).toMatch(/^\+1\d{10}$/);
      } else {
        expect([lead.customerName, lead.customerEmail, lead.customerPhone, lead.phoneKey]).toEqual([null, null, null, null]);
      }
      expect(lead.quoteCents).toBeGreaterThan(0);
    }
    const linked = data.ownJobs.filter((o) => o.leadId);
    expect(linked.length).toBeGreaterThan(pros.length / 2);
    for (const o of linked) expect(data.leads.find((l) => l.id === o.leadId)!.status).toBe('booked');
    // Customers' numbers are fictional 555-01xx numbers of the cities' overlay area codes, never a business's.
    const last10 = (phone: string) => phone.replace(/\D/g, '').slice(-10);
    const businessPhones = new Set(businesses.map((b) => last10(b.phone)));
    const customerPhones = data.bookings.flatMap((x) => (x.customerPhone ? [last10(x.customerPhone)] : []));
    expect(customerPhones.length).toBeGreaterThan(100);
    for (const phone of customerPhones) {
      expect(phone).toMatch(/^(737|628|669)55501\d\d$/);
      expect(businessPhones.has(phone)).toBe(false);
    }
  });

  it('gives owners unread notifications: new bookings made by assistants in the last three days', () => {
    const created = data.events.filter((e) => e.type === 'booking.created');
    expect(created.length).toBeGreaterThan(pros.length / 2);
    for (const e of created) expect(e.at.getTime()).toBeGreaterThanOrEqual(NOW - 3 * DAY);
    expect(created.some((e) => e.clientName)).toBe(true);
  });
});

const MENU_KINDS = ['auto_repair', 'beauty', 'retail', 'food', 'services'] as const;
const menuBusinesses = businesses.filter((b) => (MENU_KINDS as readonly string[]).includes(b.kind));
const menuOf = (b: DemoBusiness): MenuData => ({
  revision: data.serviceMenus.find((m) => m.businessId === b.id)!.revision,
  services: data.menuServices.filter((x) => x.businessId === b.id),
  addOns: data.menuAddOns.filter((x) => x.businessId === b.id),
  scents: data.menuScents.filter((x) => x.businessId === b.id),
});
const teamOf = (b: DemoBusiness) => data.staffMembers.filter((x) => x.businessId === b.id);
const setupOf = (b: DemoBusiness) => data.serviceMenus.find((m) => m.businessId === b.id)!;
const tierOf = (b: DemoBusiness) => {
  const menu = menuOf(b);
  if (!setupOf(b).schedulingEnabled) return 'unscheduled';
  return menu.services.every((x) => x.priceKind === 'fixed' && x.durationMinutes !== null) ? 'book' : 'request';
};

describe('generateDemoData: menu businesses', () => {
  it('gives at least 20 businesses of the five other kinds, in all three cities, a menu', () => {
    expect(menuBusinesses.length).toBeGreaterThanOrEqual(20);
    expect(data.serviceMenus.map((m) => m.businessId).sort()).toEqual(menuBusinesses.map((b) => b.id).sort());
    for (const city of LIVE_CITIES) {
      for (const kind of MENU_KINDS) expect(menuBusinesses.some((b) => b.kind === kind && b.city === city.city), `${kind} in ${city.city}`).toBe(true);
    }
    for (const b of menuBusinesses) expect(menuOf(b).services.length, b.slug).toBeGreaterThanOrEqual(3);
  });

  it('sets some up for book_visit, some for requests only, a few without staff scheduling', () => {
    const tiers = menuBusinesses.map(tierOf);
    expect(tiers.filter((t) => t === 'book').length).toBeGreaterThanOrEqual(5);
    expect(tiers.filter((t) => t === 'request').length).toBeGreaterThanOrEqual(4);
    expect(tiers.filter((t) => t === 'unscheduled').length).toBeGreaterThanOrEqual(2);
    for (const b of menuBusinesses) {
      const team = teamOf(b);
      const menu = menuOf(b);
      switch (tierOf(b)) {
        case 'book': {
          expect(team.length, b.slug).toBeGreaterThanOrEqual(2);
          expect(team.length, b.slug).toBeLessThanOrEqual(6);
          expect(menu.addOns.every((a) => a.priceCents !== null && a.durationMinutes !== null), b.slug).toBe(true);
          // Different skills and different hours across the team.
          expect(new Set(team.map((t) => t.serviceIds.join())).size, b.slug).toBeGreaterThan(1);
          // Every service can be booked: someone does it, and one selection of it books at once.
          for (const service of menu.services) {
            const estimate = estimateVisit(menu, [{ service_id: service.id, add_on_ids: [] }]);
            expect(requestOnlyReason(estimate, setupOf(b), team), `${b.slug} ${service.id}`).toBeNull();
          }
          break;
        }
        case 'request':
          expect(menu.services.every((x) => x.priceKind !== 'fixed'), b.slug).toBe(true);
          expect(team.length, b.slug).toBeGreaterThanOrEqual(1);
          for (const service of menu.services) {
            const estimate = estimateVisit(menu, [{ service_id: service.id, add_on_ids: [] }]);
            expect(estimate.partial).toBe(true);
            expect(requestOnlyReason(estimate, setupOf(b), team), `${b.slug} ${service.id}`).toMatch(/staff confirm the price/);
          }
          break;
        case 'unscheduled':
          expect(team).toEqual([]);
          expect(requestOnlyReason(estimateVisit(menu, [{ service_id: menu.services[0]!.id, add_on_ids: [] }]), setupOf(b), team)).toMatch(/staff scheduling/);
      }
    }
    const salon = bySlug(demoIds.beautySanFrancisco)!;
    expect(tierOf(salon)).toBe('book');
    expect(teamOf(salon)).toHaveLength(6);
  });

  it('writes menus that hold together: ids, prices by kind, allowed add-ons and scents', () => {
    for (const b of menuBusinesses) {
      const menu = menuOf(b);
      for (const list of [menu.services, menu.addOns, menu.scents]) {
        const ids = list.map((x) => x.id);
        expect(new Set(ids).size, b.slug).toBe(ids.length);
        for (const id of ids) expect(id).toMatch(MENU_ID);
      }
      for (const x of menu.services) {
        expect(x.priceKind === 'confirm' ? x.priceCents === null : Number.isInteger(x.priceCents) && x.priceCents! >= 0, `${b.slug} ${x.id}`).toBe(true);
        if (x.durationMinutes !== null) expect(x.durationMinutes).toBeGreaterThan(0);
        for (const id of x.addOnIds) expect(menu.addOns.some((a) => a.id === id), `${b.slug} ${x.id} ${id}`).toBe(true);
        for (const id of x.scentIds) expect(menu.scents.some((a) => a.id === id), `${b.slug} ${x.id} ${id}`).toBe(true);
      }
    }
    const salon = menuOf(bySlug(demoIds.beautySanFrancisco)!);
    expect(salon.services.map((x) => x.id)).toEqual(expect.arrayContaining(['womens-cut', 'mens-cut', 'single-process-colour', 'blow-dry']));
    expect(salon.services.find((x) => x.id === 'womens-cut')).toMatchObject({ group: 'haircut', addOnIds: expect.arrayContaining(['deep-conditioning']), scentIds: expect.arrayContaining(['lavender']) });
    const garage = menuBusinesses.find((b) => b.kind === 'auto_repair' && tierOf(b) === 'book')!;
    expect(menuOf(garage).services.map((x) => x.id)).toEqual(
      expect.arrayContaining(['synthetic-oil-change', 'conventional-oil-change', 'front-brake-pads', 'check-engine-diagnostic']),
    );
    // San Francisco prices sit above Austin's for the same service.
    const price = (city: string) => menuBusinesses.filter((b) => b.kind === 'auto_repair' && b.city === city && tierOf(b) === 'book').map((b) => menuOf(b).services.find((x) => x.id === 'synthetic-oil-change')!.priceCents!)[0]!;
    expect(price('San Francisco')).toBeGreaterThan(price('Austin'));
  });

  it('gives staff hours inside business hours and time off a few days after the clock', () => {
    const ids = data.staffMembers.map((x) => x.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const member of data.staffMembers) {
      const mine = data.staffHours.filter((h) => h.staffId === member.id);
      expect(mine.length, member.id).toBeGreaterThan(0);
      for (const h of mine) {
        const open = weeklyHours.find((w) => w.businessId === member.businessId && w.weekday === h.weekday);
        expect(open, `${member.id} ${h.weekday}`).toBeDefined();
        expect(h.startMinute).toBeGreaterThanOrEqual(open!.startMinute);
        expect(h.endMinute).toBeLessThanOrEqual(open!.endMinute);
        expect(h.endMinute).toBeGreaterThan(h.startMinute);
      }
      const menu = menuOf(businesses.find((b) => b.id === member.businessId)!);
      for (const id of member.serviceIds) expect(menu.services.some((x) => x.id === id)).toBe(true);
    }
    expect(data.staffTimeOff.length).toBeGreaterThanOrEqual(5);
    for (const off of data.staffTimeOff) {
      expect(off.start.getTime()).toBeGreaterThan(NOW + 86_400_000);
      expect(off.start.getTime()).toBeLessThan(NOW + 9 * 86_400_000);
      expect(off.end.getTime() - off.start.getTime()).toBeGreaterThanOrEqual(23 * 3_600_000);
    }
  });
});

describe('generateDemoData: receptionist knowledge', () => {
  const { receptionists, receptionistSources, frontDesks } = data;
  const sourcesOf = (id: string) => receptionistSources.filter((s) => s.businessId === id).sort((a, b) => a.addedAt.getTime() - b.addedAt.getTime() || a.id.localeCompare(b.id));

  it('gives a few businesses a published page and a few a draft only, each draft built from its sources', () => {
    const published = receptionists.filter((r) => r.published !== null);
    const drafts = receptionists.filter((r) => r.published === null);
    expect(published.length).toBeGreaterThanOrEqual(9);
    expect(drafts.length).toBeGreaterThanOrEqual(6);
    expect(receptionists.length).toBeLessThan(businesses.length / 3);
    for (const kind of ['cleaning', 'plumbing', 'hvac', 'beauty', 'auto_repair'] as const) {
      expect(published.some((r) => bySlugId(r.businessId)?.kind === kind), kind).toBe(true);
    }
    for (const r of receptionists) {
      const sources = sourcesOf(r.businessId);
      expect(sources.length).toBeGreaterThanOrEqual(2);
      expect(r.draft).toBe(buildDraft(sources));
      if (r.published !== null) expect(r.published).toBe(r.draft);
      if (r.publishedAt) expect(r.publishedAt.getTime()).toBeLessThan(NOW);
    }
    // Published ones have their front desk saved; one draft shares a source before publishing.
    expect(new Set(frontDesks.map((f) => f.businessId))).toEqual(new Set(published.map((r) => r.businessId)));
    expect(receptionistSources.some((s) => s.shareable && drafts.some((r) => r.businessId === s.businessId))).toBe(true);
    expect(receptionistSources.every((s) => !s.shareable || drafts.some((r) => r.businessId === s.businessId))).toBe(true);
  });

  it('leaves the well-known demo businesses blank and quotes no prices', () => {
    const wellKnown = new Set(Object.values(demoIds).map((slug) => bySlug(slug)?.id).filter(Boolean));
    expect(receptionists.some((r) => wellKnown.has(r.businessId))).toBe(false);
    for (const s of receptionistSources) expect(s.text, s.id).not.toMatch(/\$\s?\d/);
    expect(new Set(receptionistSources.map((s) => s.id)).size).toBe(receptionistSources.length);
  });
});

describe('generateDemoData: appointments', () => {
  const services = (id: string) => data.appointmentServices.filter((s) => s.businessId === id);
  const accountOf = (id: string) => data.paymentAccounts.find((a) => a.businessId === id);

  it('has businesses paid upfront into a ready sandbox account, free ones, and one with onboarding unfinished', () => {
    const taking = [...new Set(data.appointmentServices.map((s) => s.businessId))].map((id) => businesses.find((b) => b.id === id)!);
    expect(taking.every((b) => ['auto_repair', 'beauty', 'retail', 'food', 'services'].includes(b.kind))).toBe(true);
    const upfront = taking.filter((b) => services(b.id).some((s) => s.payment === 'upfront'));
    const free = taking.filter((b) => services(b.id).every((s) => s.payment === 'none'));
    expect(upfront.length).toBeGreaterThanOrEqual(2);
    expect(free.length).toBeGreaterThanOrEqual(3);
    expect(upfront.map((b) => b.slug)).toContain(demoIds.beautySanFrancisco);
    for (const b of upfront) {
      expect(accountOf(b.id)).toMatchObject({ provider: 'sandbox', chargesEnabled: true, detailsSubmitted: true });
      // The sandbox's own record of the account, under the key customer_payment_onboarding uses.
      expect(data.sandboxPaymentObjects).toContainEqual(expect.objectContaining({ id: accountOf(b.id)!.accountId, type: 'account', status: 'ready', idempotencyKey: `account:porchlight-business-${b.id}` }));
      // A card cannot carry less than 50 cents; a free consultation is paid at the business.
      for (const s of services(b.id)) expect(s.payment === 'upfront' ? s.priceCents >= 50 : s.payment === 'none').toBe(true);
    }
    const unfinished = data.paymentAccounts.filter((a) => !a.chargesEnabled);
    expect(unfinished).toHaveLength(1);
    expect(services(unfinished[0]!.businessId).every((s) => s.payment === 'none')).toBe(true);
  });

  it('takes appointments in the business hours, with well-formed services', () => {
    for (const id of new Set(data.appointmentServices.map((s) => s.businessId))) {
      const hours = weeklyHours.filter((h) => h.businessId === id).map((h) => [h.weekday, h.startMinute, h.endMinute]);
      expect(data.appointmentHours.filter((h) => h.businessId === id).map((h) => [h.weekday, h.startMinute, h.endMinute])).toEqual(hours);
      for (const s of services(id)) {
        expect(s.id).toMatch(MENU_ID);
        expect(s.durationMinutes).toBeGreaterThan(0);
      }
    }
  });
});

describe('password hashing', () => {
  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('porchlight-demo');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(await verifyPassword('porchlight-demo', stored)).toBe(true);
    expect(await verifyPassword('porchlight-demo!', stored)).toBe(false);
    expect(await verifyPassword('porchlight-demo', 'not-a-hash')).toBe(false);
    expect(await hashPassword('porchlight-demo')).not.toBe(stored);
  });
});
