/**
 * Deterministic demo data for Porchlight: owners, businesses, weekly hours, service ZIPs and
 * profile links in the three live cities (Austin TX, San Francisco CA, San Jose CA).
 *
 * PURE: the output depends only on the seed. Every business draws from its own PRNG stream
 * (derived from the seed and a stable label), so the data set is reproducible byte for byte.
 * ZIP codes come from the `zipcodes` package (through search/zips.ts), never from hand-typed lists.
 *
 * Owners' `passwordHash` is left empty here (hashing is slow and random-salted, so it would
 * make this function neither fast nor pure); seed.ts fills it with one shared hash of
 * DEMO_PASSWORD.
 */
import { createRequire } from 'node:module';
import { ISSUES } from '../pricing/service-call.js';
import { BusinessKind } from '../generated/prisma/enums.js';
import { LIVE_CITIES as PRODUCT_CITIES } from '../search/catalog.js';
import { zipDistance, zipsAround, zipsOfLiveCity } from '../search/zips.js';
import type { ZipRecord } from '../search/zip-data.js';
import { generateMonth, type DemoMonth } from './month.js';
import { addDemoKnowledge, emptyKnowledgeSet, type DemoKnowledgeSet } from './receptionist.js';
import { addDemoMenu, emptyMenuSet, type DemoMenuSet, type MenuTier } from './menus.js';
import { APPOINTMENT_TIERS, addDemoAppointments, emptyAppointmentSet, type DemoAppointmentSet } from './appointments.js';
import { PLAN_TIERS, addDemoPlan, emptyBillingSet, type DemoBillingSet } from './billing.js';

export type { ZipRecord };

// ---------------------------------------------------------------------------------------------
// Public constants and types

export const DEFAULT_DEMO_SEED = 20260101;
export const DEMO_PASSWORD = 'porchlight-demo';
export const demoOwnerEmail = (slug: string) => `owner+${slug}@demo.porchlight.test`;

/** A business may serve ZIPs of neighbouring towns no further than this from its own ZIP. */
export const NEIGHBOUR_RADIUS_MILES = 15;

export type CityKey = 'austin' | 'san_francisco' | 'san_jose';
export interface LiveCity {
  key: CityKey;
  /** Suffix of the slugs of the city's businesses. */
  slug: string;
  city: string;
  state: string;
  timeZone: string;
  areaCode: string;
  /** The city's well-known demo ZIP (see demoIds); also the centre of its neighbour search. */
  demoZip: string;
  /** Price level relative to Austin. */
  priceFactor: number;
}

const DEMO_CITY: Record<string, Omit<LiveCity, 'city' | 'state' | 'timeZone'>> = {
  Austin: { key: 'austin', slug: 'austin', areaCode: '512', demoZip: '78704', priceFactor: 1 },
  'San Francisco': { key: 'san_francisco', slug: 'san-francisco', areaCode: '415', demoZip: '94110', priceFactor: 1.2 },
  'San Jose': { key: 'san_jose', slug: 'san-jose', areaCode: '408', demoZip: '95112', priceFactor: 1.15 },
};

/** The product's live cities with what the demo needs to fill them. */
export const LIVE_CITIES: readonly LiveCity[] = PRODUCT_CITIES.map((c) => ({ ...c, ...DEMO_CITY[c.city]! }));

export const BUSINESS_KINDS = Object.values(BusinessKind);
export type DemoBusinessKind = BusinessKind;
export const OTHER_KINDS = ['auto_repair', 'beauty', 'retail', 'food', 'services'] as const;
type OtherKind = (typeof OTHER_KINDS)[number];


export type AddOnKey = 'fridge' | 'oven' | 'windows' | 'cabinets' | 'laundry' | 'restock';
export type CleaningPriceListData = {
  base_cents: number;
  per_bedroom_cents: number;
  per_bathroom_cents: number;
  clean_type_multiplier: { standard: number; deep: number; move_out?: number; turnover?: number };
  /** Square feet included per bedroom (at least one bedroom's worth). */
  included_sqft: number;
  per_extra_100_sqft_cents: number;
  add_ons: { [K in AddOnKey]?: { cents: number; minutes: number } };
  pets_cents: number;
  minimum_cents: number;
  duration: {
    base_minutes: number;
    per_bedroom_minutes: number;
    per_bathroom_minutes: number;
    per_extra_100_sqft_minutes: number;
    pets_minutes: number;
  };
};
export type ServiceCallPriceListData = {
  service_call: { [issue: string]: number };
  window_minutes: 120 | 180;
};
export type EmptyPriceList = { [key: string]: never };
export type DemoPriceList = CleaningPriceListData | ServiceCallPriceListData | EmptyPriceList;

export type DemoOwner = { id: string; email: string; name: string; passwordHash: string };
export type DemoBusiness = {
  id: string;
  slug: string;
  name: string;
  kind: DemoBusinessKind;
  timeZone: string;
  city: string;
  state: string;
  zip: string;
  phone: string;
  email: string;
  website: string;
  textsCustomers: boolean;
  priceList: DemoPriceList;
  minNoticeMinutes: number;
  customerNotes: string;
  jobsConfirmedDone: number;
  ownerId: string;
};
export type DemoWeeklyHours = { businessId: string; weekday: number; startMinute: number; endMinute: number };
export type DemoServiceZip = { businessId: string; zip: string };

/**
 * The catalog (owners, businesses, hours, ZIPs, links, menus and teams) depends on the seed
 * alone; the month of jobs, blocks and leads, and the staff's time off, also on the clock.
 */
export interface DemoData extends DemoMonth, DemoMenuSet, DemoKnowledgeSet, DemoAppointmentSet, DemoBillingSet {
  owners: DemoOwner[];
  businesses: DemoBusiness[];
  weeklyHours: DemoWeeklyHours[];
  serviceZips: DemoServiceZip[];
}

/** Area codes of the demo customers' fictional numbers (overlays of the cities' own codes). */
const CUSTOMER_AREA_CODE: Record<CityKey, string> = { austin: '737', san_francisco: '628', san_jose: '669' };

/**
 * Well-known demo ids for docs and examples (slugs = pro_id / business id). They hold for every
 * seed: these businesses have fixed names (FIXED_NAMES), and the first cleaner, plumber and HVAC
 * pro of each city (and the well-known demo businesses) are based in the city's demo ZIP, so each
 * ZIP below is served by the businesses of its city listed here. test/unit/demo.test.ts checks
 * them.
 */
export const demoIds = {
  cleanerAustin: 'sparkle-shine-cleaning-austin',
  cleanerSanFrancisco: 'fog-city-maids-san-francisco',
  plumberAustin: 'hill-country-plumbing-co-austin',
  hvacSanJose: 'cool-breeze-heating-air-san-jose',
  beautySanFrancisco: 'velvet-hair-studio-san-francisco',
  austinZip: '78704',
  sanFranciscoZip: '94110',
  sanJoseZip: '95112',
} as const;

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: a tiny 32-bit PRNG; good enough for demo data and fully deterministic. */
function mulberry32(a: number): () => number {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a over the label, mixed with the seed: one independent stream per label. */
function streamSeed(seed: number, label: string): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // murmur3's finaliser: similar labels must not give correlated streams.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number, label: string) {
    this.next = mulberry32(streamSeed(seed, label));
  }
  float(): number {
    return this.next();
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  /** Multiple of `step` in [min, max] (both multiples of step). */
  step(min: number, max: number, step: number): number {
    return min + step * this.int(0, Math.round((max - min) / step));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  }
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// ZIP codes

const cityZipCache = new Map<CityKey, ZipRecord[]>();
const neighbourZipCache = new Map<CityKey, ZipRecord[]>();

/** Keeps ZIPs with their own coordinates: many PO-box/unique ZIPs share one centroid. */
function withOwnCoordinates(records: readonly ZipRecord[]): ZipRecord[] {
  const counts = new Map<string, number>();
  const key = (r: ZipRecord) => `${r.latitude},${r.longitude}`;
  for (const r of records) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
  return records.filter((r) => counts.get(key(r)) === 1);
}

/** The city's ZIPs that look like delivery areas, sorted. */
export function cityZips(city: LiveCity): ZipRecord[] {
  let zips = cityZipCache.get(city.key);
  if (!zips) {
    zips = withOwnCoordinates(zipsOfLiveCity(city.city, city.state)).sort((a, b) => a.zip.localeCompare(b.zip));
    cityZipCache.set(city.key, zips);
  }
  return zips;
}

/** ZIPs of neighbouring towns within NEIGHBOUR_RADIUS_MILES of the city's demo ZIP. */
function neighbourZips(city: LiveCity): ZipRecord[] {
  let zips = neighbourZipCache.get(city.key);
  if (!zips) {
    const live = new Set(LIVE_CITIES.map((c) => `${c.city.toUpperCase()}|${c.state}`));
    const around = zipsAround(city.city, city.state, NEIGHBOUR_RADIUS_MILES);
    zips = withOwnCoordinates(around)
      .filter((r) => !live.has(`${r.city.toUpperCase()}|${r.state}`))
      .sort((a, b) => a.zip.localeCompare(b.zip));
    neighbourZipCache.set(city.key, zips);
  }
  return zips;
}


/** Precise distance, only used to order ZIPs by nearness (rounded so ties sort by ZIP). */
function nearness(a: ZipRecord, b: ZipRecord): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad * Math.cos(((a.latitude + b.latitude) / 2) * rad);
  return Math.round(Math.sqrt(dLat * dLat + dLon * dLon) * 3958.8 * 100);
}

function nearestFirst(home: ZipRecord, zips: readonly ZipRecord[]): ZipRecord[] {
  return zips
    .map((z) => ({ z, d: nearness(home, z) }))
    .sort((a, b) => a.d - b.d || a.z.zip.localeCompare(b.z.zip))
    .map(({ z }) => z);
}

// ---------------------------------------------------------------------------------------------
// Names

/**
 * The word lists names are drawn from: data, kept in data/words.json. Changing one changes the
 * demo businesses drawn after it (the generator is seeded, so a change is the same on every start).
 */
interface DemoWords {
  firstNames: readonly string[];
  lastNames: readonly string[];
  cityWords: Record<CityKey, readonly string[]>;
  cleaningWords: readonly string[];
  cleaningSuffixes: readonly string[];
  tradeWords: readonly string[];
  plumbingSuffixes: readonly string[];
  hvacWords: readonly string[];
  hvacSuffixes: readonly string[];
  /** Storefront names: curated (so the word fits the trade) plus "<neighbourhood> <suffix>". */
  otherNames: Record<OtherKind, { names: readonly string[]; suffixes: readonly string[] }>;
  customerNotes: readonly string[];
}
// require, not an import: esbuild drops the import's `type: 'json'` attribute, which Node needs.
const WORDS: DemoWords = createRequire(import.meta.url)('./data/words.json');
const {
  firstNames: FIRST_NAMES,
  lastNames: LAST_NAMES,
  cityWords: CITY_WORDS,
  cleaningWords: CLEANING_WORDS,
  cleaningSuffixes: CLEANING_SUFFIXES,
  tradeWords: TRADE_WORDS,
  plumbingSuffixes: PLUMBING_SUFFIXES,
  hvacWords: HVAC_WORDS,
  hvacSuffixes: HVAC_SUFFIXES,
  otherNames: OTHER_NAMES,
  customerNotes: CUSTOMER_NOTES,
} = WORDS;

/** Lowercase letters, digits and single hyphens; '&' and apostrophes vanish. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// ---------------------------------------------------------------------------------------------
// Hours

const h = (hours: number, minutes = 0) => hours * 60 + minutes;
type Day = [weekday: number, start: number, end: number];
const days = (weekdays: readonly number[], start: number, end: number): Day[] => weekdays.map((d) => [d, start, end]);
const MON_FRI = [1, 2, 3, 4, 5] as const;
const MON_SAT = [1, 2, 3, 4, 5, 6] as const;
const TUE_SAT = [2, 3, 4, 5, 6] as const;
const TUE_SUN = [0, 2, 3, 4, 5, 6] as const;
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6] as const;

const HOURS: Record<DemoBusinessKind, readonly (readonly [Day[], number])[]> = {
  cleaning: [
    [days(MON_FRI, h(8), h(17)), 3],
    [[...days(MON_FRI, h(8), h(17)), [6, h(9), h(14)]], 3],
    [days(MON_SAT, h(7), h(19)), 1],
    [days(MON_FRI, h(9), h(18)), 1],
    [days(TUE_SAT, h(8), h(16)), 1],
    [[...days(MON_SAT, h(8), h(18)), [0, h(10), h(16)]], 1],
  ],
  plumbing: [
    [[...days(MON_FRI, h(7), h(17)), [6, h(8), h(12)]], 3],
    [days(MON_FRI, h(8), h(17)), 2],
    [days(MON_SAT, h(7), h(19)), 2],
    [days(EVERY_DAY, h(7), h(19)), 1],
    [days(MON_FRI, h(7, 30), h(16, 30)), 1],
  ],
  hvac: [
    [[...days(MON_FRI, h(7), h(17)), [6, h(8), h(12)]], 3],
    [days(MON_FRI, h(8), h(17)), 2],
    [days(MON_SAT, h(7), h(19)), 2],
    [days(EVERY_DAY, h(7), h(19)), 1],
    [days(MON_FRI, h(7, 30), h(16, 30)), 1],
  ],
  auto_repair: [
    [[...days(MON_FRI, h(7, 30), h(18)), [6, h(8), h(14)]], 2],
    [days(MON_FRI, h(8), h(17, 30)), 1],
  ],
  beauty: [
    [days(TUE_SAT, h(9), h(19)), 2],
    [[...days([2, 3, 4, 5], h(10), h(20)), [6, h(9), h(17)], [0, h(10), h(15)]], 1],
    [days(MON_SAT, h(9), h(18)), 1],
  ],
  retail: [
    [[...days(MON_SAT, h(10), h(19)), [0, h(11), h(17)]], 2],
    [days(TUE_SUN, h(10), h(18)), 1],
  ],
  food: [
    [days(TUE_SUN, h(11), h(21)), 1],
    [days(EVERY_DAY, h(7), h(15)), 1],
    [days(MON_SAT, h(11), h(22)), 1],
  ],
  services: [
    [[...days(MON_FRI, h(9), h(18)), [6, h(10), h(15)]], 2],
    [days(MON_FRI, h(8), h(17)), 1],
  ],
};

// ---------------------------------------------------------------------------------------------
// Price lists

const roundTo = (value: number, unit: number) => Math.round(value / unit) * unit;
/** Two-decimal multiplier from integer hundredths, so values are exact decimal literals. */
const hundredths = (rng: Rng, min: number, max: number, step = 5) => rng.step(min, max, step) / 100;

function cleaningPriceList(rng: Rng, city: LiveCity): CleaningPriceListData {
  const f = city.priceFactor;
  const money = (min: number, max: number, step: number) => roundTo(rng.step(min, max, step) * f, 100);

  const offersTurnover = !rng.chance(0.2);
  const offersMoveOut = !rng.chance(0.12);
  const clean_type_multiplier: CleaningPriceListData['clean_type_multiplier'] = { standard: 1, deep: hundredths(rng, 140, 170) };
  if (offersMoveOut) clean_type_multiplier.move_out = hundredths(rng, 160, 200);
  if (offersTurnover) clean_type_multiplier.turnover = hundredths(rng, 80, 100);

  const catalogue: Record<AddOnKey, () => { cents: number; minutes: number }> = {
    fridge: () => ({ cents: money(3000, 4500, 500), minutes: rng.step(20, 30, 5) }),
    oven: () => ({ cents: money(3000, 4500, 500), minutes: rng.step(30, 45, 5) }),
    windows: () => ({ cents: money(4000, 7000, 500), minutes: rng.step(45, 60, 15) }),
    cabinets: () => ({ cents: money(3000, 5000, 500), minutes: rng.step(30, 45, 15) }),
    laundry: () => ({ cents: money(2000, 3500, 500), minutes: rng.step(30, 60, 15) }),
    restock: () => ({ cents: money(1500, 2500, 500), minutes: rng.step(15, 20, 5) }),
  };
  const basics: AddOnKey[] = ['fridge', 'oven', 'windows', 'cabinets', 'laundry'];
  // Most offer 4-5 of the basic five; restock comes mostly with turnover cleans.
  const dropped = new Set(rng.shuffle(basics).slice(0, rng.weighted([[0, 3], [1, 5], [2, 1]] as const)));
  const offered = new Set(basics.filter((a) => !dropped.has(a)));
  if (rng.chance(offersTurnover ? 0.75 : 0.08)) offered.add('restock');
  const add_ons: CleaningPriceListData['add_ons'] = {};
  for (const key of ['fridge', 'oven', 'windows', 'cabinets', 'laundry', 'restock'] as const) {
    if (offered.has(key)) add_ons[key] = catalogue[key]();
  }

  const base_cents = money(9000, 14000, 500);
  return {
    base_cents,
    per_bedroom_cents: money(2000, 3500, 250),
    per_bathroom_cents: money(1500, 3000, 250),
    clean_type_multiplier,
    included_sqft: rng.step(500, 750, 50),
    per_extra_100_sqft_cents: money(500, 1000, 100),
    add_ons,
    pets_cents: money(1000, 2500, 500),
    minimum_cents: Math.max(base_cents, money(10000, 16000, 1000)),
    duration: {
      base_minutes: rng.step(90, 120, 15),
      per_bedroom_minutes: rng.step(30, 45, 5),
      per_bathroom_minutes: rng.step(30, 45, 5),
      per_extra_100_sqft_minutes: rng.int(5, 8),
      pets_minutes: rng.step(10, 20, 5),
    },
  };
}

/** Fees look like 7900, 8900 … 19900 cents. */
const fee = (cents: number) => Math.min(19900, Math.max(7900, roundTo(cents, 1000) - 100));

function serviceCallPriceList(rng: Rng, city: LiveCity, kind: 'plumbing' | 'hvac'): ServiceCallPriceListData {
  const level = rng.step(8000, 12000, 500) * city.priceFactor;
  const extra: Record<string, readonly [number, number]> =
    kind === 'plumbing'
      ? { leak: [0, 1000], clog: [0, 2000], water_heater: [4000, 7000], toilet: [0, 1000], fixture: [0, 1500], no_water: [3000, 5000], other: [0, 1000] }
      : { no_cool: [2000, 5000], no_heat: [2000, 5000], maintenance: [-1000, 0], noise: [0, 2000], thermostat: [-500, 1000], other: [0, 1000] };
  const issues = ISSUES[kind];
  const service_call: Record<string, number> = {};
  for (const issue of issues) {
    const [lo, hi] = extra[issue]!;
    service_call[issue] = fee(level + rng.step(lo, hi, 500));
  }
  return { service_call, window_minutes: rng.chance(0.6) ? 120 : 180 };
}

// ---------------------------------------------------------------------------------------------
// Links


// ---------------------------------------------------------------------------------------------
// Business assembly


interface Plan {
  kind: DemoBusinessKind;
  city: LiveCity;
  /** Index among businesses of this kind in this city; index 0 is pinned to the demo ZIP. */
  index: number;
  /** Explicit name (a second location of an existing business). */
  name?: string;
  /** Fixed name for the well-known demo businesses. */
  fixedName?: DrawnName;
}

const PER_CITY: Record<'cleaning' | 'plumbing' | 'hvac', Record<CityKey, number>> = {
  cleaning: { austin: 22, san_francisco: 22, san_jose: 20 },
  plumbing: { austin: 11, san_francisco: 10, san_jose: 10 },
  hvac: { austin: 11, san_francisco: 10, san_jose: 10 },
};
/** Other kinds: one per city each, plus one more in the listed city. */
const OTHER_EXTRA: Record<OtherKind, CityKey> = {
  auto_repair: 'san_jose',
  beauty: 'austin',
  retail: 'san_francisco',
  food: 'austin',
  services: 'san_jose',
};
const TIER_WEIGHTS: Record<OtherKind, readonly (readonly [MenuTier, number])[]> = {
  beauty: [['book', 3], ['request', 1], ['unscheduled', 1]],
  auto_repair: [['book', 3], ['request', 1], ['unscheduled', 1]],
  services: [['book', 2], ['request', 2], ['unscheduled', 1]],
  retail: [['book', 1], ['request', 2], ['unscheduled', 1]],
  food: [['book', 1], ['request', 2], ['unscheduled', 1]],
};

/** Well-known names (see demoIds) and their distinctive word; the rest are drawn. */
const FIXED_NAMES: Partial<Record<`${DemoBusinessKind}:${CityKey}`, DrawnName>> = {
  'cleaning:austin': { key: 'Sparkle & Shine', name: 'Sparkle & Shine Cleaning' },
  'cleaning:san_francisco': { key: 'Fog City', name: 'Fog City Maids' },
  'plumbing:austin': { key: 'Hill Country', name: 'Hill Country Plumbing Co.' },
  'hvac:san_jose': { key: 'Cool Breeze', name: 'Cool Breeze Heating & Air' },
  'beauty:san_francisco': { key: 'Velvet Hair Studio', name: 'Velvet Hair Studio' },
};

/** `key` is the distinctive part; a city never has two businesses of one kind sharing it. */
interface DrawnName {
  key: string;
  name: string;
}

/** "<word> <suffix>", skipping pairs that repeat a word ("Comfort Zone Comfort Systems"). */
function combine(rng: Rng, words: readonly string[], suffixes: readonly string[]): DrawnName {
  const word = rng.pick(words);
  const lower = new Set(word.toLowerCase().split(/\W+/));
  const fitting = suffixes.filter((s) => !s.toLowerCase().split(/\W+/).some((w) => lower.has(w)));
  return { key: word, name: `${word} ${rng.pick(fitting.length > 0 ? fitting : suffixes)}` };
}

function drawName(rng: Rng, kind: DemoBusinessKind, city: LiveCity, owner: { first: string; last: string }): DrawnName {
  const local = CITY_WORDS[city.key];
  // Keyed by the name part shown, so one city never has both "Chloe's Maid Service" and "Chloe's House Cleaning".
  const person = (shown: string, name: string): DrawnName => ({ key: shown, name });
  switch (kind) {
    case 'cleaning':
      return rng.weighted([
        [() => combine(rng, CLEANING_WORDS, CLEANING_SUFFIXES), 6],
        [() => combine(rng, local, CLEANING_SUFFIXES), 2],
        [() => person(owner.first, `${owner.first}'s ${rng.pick(['Cleaning Service', 'House Cleaning', 'Maid Service'] as const)}`), 2],
      ] as const)();
    case 'plumbing':
      return rng.weighted([
        [() => combine(rng, TRADE_WORDS, PLUMBING_SUFFIXES), 5],
        [() => combine(rng, local, PLUMBING_SUFFIXES), 2],
        [() => person(owner.last, `${owner.last} & Sons Plumbing`), 1],
        [() => person(owner.last, `${owner.last} Plumbing`), 1],
      ] as const)();
    case 'hvac':
      return rng.weighted([
        [() => combine(rng, HVAC_WORDS, HVAC_SUFFIXES), 5],
        [() => combine(rng, local, HVAC_SUFFIXES), 2],
        [() => person(owner.last, `${owner.last} ${rng.pick(HVAC_SUFFIXES)}`), 1],
      ] as const)();
    default: {
      const { names, suffixes } = OTHER_NAMES[kind];
      if (rng.chance(0.75)) {
        const name = rng.pick(names);
        return { key: name, name };
      }
      return combine(rng, local, suffixes);
    }
  }
}

/** A name without its kind suffix: "Casa Taqueria" → "Casa". */
function stem(name: string, kind: OtherKind): string {
  const suffix = OTHER_NAMES[kind].suffixes.find((s) => name.endsWith(` ${s}`));
  return suffix ? name.slice(0, -suffix.length - 1) : name;
}

function pickHours(rng: Rng, kind: DemoBusinessKind): Day[] {
  return rng.weighted(HOURS[kind]);
}

function serviceArea(rng: Rng, kind: DemoBusinessKind, city: LiveCity, home: ZipRecord): string[] {
  const local = nearestFirst(home, cityZips(city));
  const trade = kind === 'cleaning' || kind === 'plumbing' || kind === 'hvac';
  const [radiusMin, radiusMax, countMin, countMax] = kind === 'cleaning' ? [4, 9, 8, 20] : trade ? [6, 12, 10, 20] : [2, 4, 5, 8];
  const radius = rng.int(radiusMin, radiusMax);
  const cap = rng.int(countMin, countMax);

  // Towns next door: for San Francisco and San Jose most trades cross the city line.
  let neighbours: string[] = [];
  if (trade && city.key !== 'austin' && rng.chance(0.75)) {
    const reach = Math.min(NEIGHBOUR_RADIUS_MILES, rng.int(4, 8));
    neighbours = nearestFirst(home, neighbourZips(city))
      .filter((z) => zipDistance(home.zip, z.zip) <= reach)
      .slice(0, rng.int(1, 5))
      .map((z) => z.zip);
  }
  const inCity = local.filter((z, i) => i < 5 || zipDistance(home.zip, z.zip) <= radius).slice(0, Math.max(5, cap - neighbours.length));
  return [...inCity.map((z) => z.zip), ...neighbours];
}

// ---------------------------------------------------------------------------------------------

export function generateDemoData(opts: { seed?: number; now: number }): DemoData {
  const seed = (opts.seed ?? DEFAULT_DEMO_SEED) >>> 0;

  const plans: Plan[] = [];
  for (const city of LIVE_CITIES) {
    for (const kind of ['cleaning', 'plumbing', 'hvac'] as const) {
      for (let i = 0; i < PER_CITY[kind][city.key]; i++) plans.push({ kind, city, index: i });
    }
    for (const kind of OTHER_KINDS) {
      const count = OTHER_EXTRA[kind] === city.key ? 2 : 1;
      for (let i = 0; i < count; i++) plans.push({ kind, city, index: i });
    }
  }
  for (const plan of plans) {
    if (plan.index === 0) plan.fixedName = FIXED_NAMES[`${plan.kind}:${plan.city.key}`];
  }

  const data: DemoData = {
    owners: [], businesses: [], weeklyHours: [], serviceZips: [],
    bookings: [], bookingVisits: [], ownJobs: [], blocks: [], leads: [], events: [],
    ...emptyMenuSet(),
    ...emptyKnowledgeSet(),
    ...emptyAppointmentSet(),
    ...emptyBillingSet(),
  };
  const usedSlugs = new Set<string>();
  const usedNameKeys = new Set<string>();
  const usedOwnerNames = new Set<string>();
  const phonePools = new Map<string, string[]>();
  const phoneFor = (city: LiveCity) => {
    let pool = phonePools.get(city.areaCode);
    if (!pool) {
      // Fictional 555-0100 … 555-0199 numbers, shuffled once per area code.
      const lines = Array.from({ length: 100 }, (_, i) => String(100 + i).padStart(4, '0'));
      pool = new Rng(seed, `phones:${city.areaCode}`).shuffle(lines);
      phonePools.set(city.areaCode, pool);
    }
    const line = pool.shift();
    if (!line) throw new Error(`More than 100 demo businesses in area code ${city.areaCode}`);
    return `+1-${city.areaCode}-555-${line}`;
  };

  const addBusiness = (plan: Plan): DemoBusiness => {
    const { kind, city } = plan;
    const rng = new Rng(seed, `business:${kind}:${city.key}:${plan.index}:${plan.name ?? ''}`);

    let person = { first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) };
    for (let tries = 0; usedOwnerNames.has(`${person.first} ${person.last}`) && tries < 50; tries++) {
      person = { first: rng.pick(FIRST_NAMES), last: rng.pick(LAST_NAMES) };
    }

    const keyOf = (drawn: DrawnName) => `${city.key}:${kind}:${drawn.key}`;
    let drawn = plan.name ? { key: plan.name, name: plan.name } : plan.fixedName ?? drawName(rng, kind, city, person);
    for (let tries = 0; (usedNameKeys.has(keyOf(drawn)) || usedSlugs.has(`${slugify(drawn.name)}-${city.slug}`)) && tries < 100; tries++) {
      drawn = drawName(rng, kind, city, person);
    }
    usedNameKeys.add(keyOf(drawn));
    const name = drawn.name;
    let slug = `${slugify(name)}-${city.slug}`;
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${slugify(name)}-${city.slug}-${n}`;
    usedSlugs.add(slug);
    const businessId = `biz_${slug}`;

    usedOwnerNames.add(`${person.first} ${person.last}`);
    const ownerId = `own_${slug}`;
    // passwordHash is filled by seed.ts with one shared hash of DEMO_PASSWORD.
    data.owners.push({ id: ownerId, email: demoOwnerEmail(slug), name: `${person.first} ${person.last}`, passwordHash: '' });

    const zips = cityZips(city);
    const trade = kind === 'cleaning' || kind === 'plumbing' || kind === 'hvac';
    // The first cleaner, plumber and HVAC pro of each city (and the well-known demo businesses)
    // are based in the city's demo ZIP, so demoIds' ZIPs are always served.
    const pinned = !plan.name && plan.index === 0 && (trade || plan.fixedName !== undefined);
    const home = pinned ? zips.find((z) => z.zip === city.demoZip)! : rng.pick(zips);

    const priceList: DemoPriceList =
      kind === 'cleaning' ? cleaningPriceList(rng, city) : kind === 'plumbing' || kind === 'hvac' ? serviceCallPriceList(rng, city, kind) : {};

    const business: DemoBusiness = {
      id: businessId,
      slug,
      name,
      kind,
      timeZone: city.timeZone,
      city: city.city,
      state: city.state,
      zip: home.zip,
      phone: phoneFor(city),
      email: `hello@${slug}.example`,
      website: `https://${slug}.example`,
      textsCustomers: rng.chance(0.25),
      priceList,
      minNoticeMinutes: rng.weighted([[120, 8], [240, 1], [1440, 1]] as const),
      customerNotes: trade && rng.chance(0.3) ? rng.pick(CUSTOMER_NOTES) : '',
      jobsConfirmedDone: trade ? Math.floor(400 * rng.float() ** 1.4) : 0,
      ownerId,
    };
    data.businesses.push(business);

    for (const [weekday, startMinute, endMinute] of pickHours(rng, kind)) {
      data.weeklyHours.push({ businessId, weekday, startMinute, endMinute });
    }

    for (const zip of serviceArea(rng, kind, city, home)) data.serviceZips.push({ businessId, zip });

    // These draws once made placeholder profile links with invented ratings. The links are now
    // the demo's own profile pages, checked like any owner's (demo/profiles.ts); the draws stay
    // so that everything drawn after them (the month of jobs, menus...) stays the same.
    const draws = rng.shuffle([0, 1, 2, 3]).slice(0, trade ? rng.int(1, 2) : rng.int(0, 1));
    draws.forEach(() => rng.float());

    // Pros get a month of work relative to the clock, from a stream of their own so the
    // catalog above is the same whatever the clock reads.
    if (kind === 'cleaning' || kind === 'plumbing' || kind === 'hvac') {
      const month = generateMonth(new Rng(seed, `month:${slug}`), {
        id: businessId, slug, kind, timeZone: city.timeZone, priceList, city: city.city, state: city.state,
        hours: data.weeklyHours.filter((h) => h.businessId === businessId),
        zips: data.serviceZips.filter((z) => z.businessId === businessId).map((z) => z.zip),
        customerAreaCode: CUSTOMER_AREA_CODE[city.key],
      }, opts.now);
      for (const key of ['bookings', 'bookingVisits', 'ownJobs', 'blocks', 'leads', 'events'] as const) (data[key] as unknown[]).push(...month[key]);
    }
    return business;
  };

  const byPlan = new Map<Plan, DemoBusiness>();
  for (const plan of plans) byPlan.set(plan, addBusiness(plan));

  // Second locations: a salon's second location, a café's second place, a repair shop's tire
  // shop. Each has its own owner account, so every business signs in as owner+<slug>.
  const find = (kind: DemoBusinessKind, key: CityKey) => byPlan.get(plans.find((p) => p.kind === kind && p.city.key === key && p.index === 0)!)!;
  const city = (key: CityKey) => LIVE_CITIES.find((c) => c.key === key)!;
  const salon = find('beauty', 'san_francisco');
  const cafe = find('food', 'austin');
  const garage = find('auto_repair', 'san_jose');
  addBusiness({ kind: 'beauty', city: city('san_jose'), index: 1, name: salon.name });
  const cafeSuffix = ['Bakery', 'Coffee', 'Kitchen'].find((s) => !cafe.name.endsWith(` ${s}`))!;
  addBusiness({ kind: 'food', city: city('austin'), index: 2, name: `${stem(cafe.name, 'food')} ${cafeSuffix}` });
  const garageSuffix = garage.name.endsWith(' Tire & Brake') ? 'Auto Body' : 'Tire & Brake';
  addBusiness({ kind: 'auto_repair', city: city('san_jose'), index: 2, name: `${stem(garage.name, 'auto_repair')} ${garageSuffix}` });

  // Menus and teams: the first salon and garage of each city book at once, the first café and
  // shop take requests only, the first of the other services has no staff scheduling; the rest
  // are drawn, leaning the way their trades do.
  const firstOf = new Set(plans.filter((p) => p.index === 0).map((p) => byPlan.get(p)!.id));
  for (const b of data.businesses) {
    if (!(OTHER_KINDS as readonly string[]).includes(b.kind)) continue;
    const kind = b.kind as OtherKind;
    const rng = new Rng(seed, `menu:${b.slug}`);
    const tier: MenuTier = firstOf.has(b.id)
      ? ({ beauty: 'book', auto_repair: 'book', food: 'request', retail: 'request', services: 'unscheduled' } as const)[kind]
      : rng.weighted(TIER_WEIGHTS[kind]);
    const teamSize =
      b.slug === demoIds.beautySanFrancisco ? 6 : tier === 'book' ? rng.int(kind === 'beauty' ? 3 : 2, kind === 'beauty' ? 5 : 4) : rng.int(2, 3);
    addDemoMenu(data, rng, {
      businessId: b.id,
      slug: b.slug,
      name: b.name,
      kind,
      timeZone: b.timeZone,
      priceFactor: LIVE_CITIES.find((c) => c.city === b.city)!.priceFactor,
      hours: data.weeklyHours.filter((h) => h.businessId === b.id).map((h) => [h.weekday, h.startMinute, h.endMinute] as const),
      tier,
      teamSize,
      firstNames: FIRST_NAMES,
    }, opts.now);
  }

  // Receptionist knowledge: in each city, the second business of each kind has a published page
  // and the third of each trade a draft only (a cleaner's with one source shared). The
  // well-known demo businesses (demoIds) keep none, so examples and tests start from a blank one.
  const wellKnown = new Set<string>(Object.values(demoIds));
  const seen = new Map<string, number>();
  for (const b of data.businesses) {
    const group = `${b.city}:${b.kind}`;
    const index = seen.get(group) ?? 0;
    seen.set(group, index + 1);
    const trade = b.kind === 'cleaning' || b.kind === 'plumbing' || b.kind === 'hvac';
    const state = index === 1 ? 'published' : index === 2 && trade ? 'draft' : null;
    // Receptionist plans (see src/demo/billing.ts): the second of a trade in a city.
    const plan = index === 1 ? PLAN_TIERS[group] : undefined;
    if (plan && !wellKnown.has(b.slug)) addDemoPlan(data, b, plan, opts.now);
    if (!state || wellKnown.has(b.slug)) continue;
    addDemoKnowledge(data, new Rng(seed, `knowledge:${b.slug}`), {
      businessId: b.id, slug: b.slug, name: b.name, kind: b.kind, state, shareOne: state === 'draft' && b.kind === 'cleaning',
    }, opts.now);
  }
  // Appointments: the first business of some trades in each city (see APPOINTMENT_TIERS).
  for (const plan of plans) {
    if (plan.index !== 0 || !(OTHER_KINDS as readonly string[]).includes(plan.kind)) continue;
    const tier = APPOINTMENT_TIERS[`${plan.kind as OtherKind}:${plan.city.key}`];
    if (!tier) continue;
    const b = byPlan.get(plan)!;
    addDemoAppointments(data, {
      id: b.id, slug: b.slug, name: b.name, kind: plan.kind as OtherKind, email: b.email, priceFactor: plan.city.priceFactor,
      hours: data.weeklyHours.filter((h) => h.businessId === b.id).map((h) => [h.weekday, h.startMinute, h.endMinute] as const),
    }, tier);
  }

  return data;
}
