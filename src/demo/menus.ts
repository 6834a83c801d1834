/**
 * Demo menus and teams for the menu businesses (auto repair, beauty, services, retail, food).
 *
 * Each business gets a realistic menu for its trade (a salon's cuts, colour, add-ons and
 * scents; an auto shop's oil changes, brakes and diagnostics...) and one of three setups:
 * - book: fixed prices, known durations, staff scheduling on, 2-6 technicians with different
 *   skills and hours (book_visit works);
 * - request: prices from or confirm, so only request_visit works (staff confirm a time);
 * - unscheduled: fixed prices but no team and no staff scheduling (request_visit only).
 *
 * Everything depends on the seed except the staff's time off, which is placed a few days after
 * the clock so that a server started at any NOW shows it ahead.
 */
import { DateTime } from 'luxon';

/** What this module needs of the generator's seeded PRNG. */
export interface DemoRng {
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
}

export type MenuTier = 'book' | 'request' | 'unscheduled';
type Kind = 'auto_repair' | 'beauty' | 'retail' | 'food' | 'services';

interface ServiceT {
  id: string;
  name: string;
  description: string;
  kind: 'fixed' | 'from' | 'confirm';
  cents: number | null;
  minutes: number | null;
  group?: string;
  addOns?: string[];
  scents?: string[];
}

interface Template {
  services: ServiceT[];
  addOns: { id: string; name: string; cents: number | null; minutes: number | null }[];
  scents: { id: string; name: string }[];
  /** Skill sets the team is drawn from; the first member always does everything. */
  roles: string[][];
}

const s = (id: string, name: string, kind: ServiceT['kind'], cents: number | null, minutes: number | null, extra: Partial<ServiceT> = {}, description = ''): ServiceT => ({
  id,
  name,
  description,
  kind,
  cents,
  minutes,
  ...extra,
});

const HAIR_SCENTS = [
  { id: 'lavender', name: 'Lavender' },
  { id: 'eucalyptus-mint', name: 'Eucalyptus mint' },
  { id: 'citrus', name: 'Citrus' },
  { id: 'unscented', name: 'Unscented' },
];
const hairScents = HAIR_SCENTS.map((x) => x.id);

const TEMPLATES: Record<string, Template> = {
  salon: {
    services: [
      s('womens-cut', "Women's cut & style", 'fixed', 6500, 60, { group: 'haircut', addOns: ['deep-conditioning', 'scalp-massage'], scents: hairScents }, 'Consultation, wash, cut and finish.'),
      s('mens-cut', "Men's cut", 'fixed', 4000, 30, { group: 'haircut', addOns: ['scalp-massage'], scents: hairScents }),
      s('childrens-cut', "Children's cut (under 12)", 'fixed', 2800, 30, { group: 'haircut' }),
      s('blow-dry', 'Blow-dry & style', 'fixed', 4500, 45, { addOns: ['deep-conditioning'], scents: hairScents }),
      s('single-process-colour', 'Single-process colour', 'from', 9500, 90, { group: 'colour', addOns: ['toner', 'bond-treatment'] }, 'Root touch-up or all-over colour; longer or thicker hair costs more.'),
      s('partial-highlights', 'Partial highlights', 'from', 12500, 120, { group: 'colour', addOns: ['toner', 'bond-treatment'] }),
      s('balayage', 'Balayage', 'confirm', null, 180, { group: 'colour', addOns: ['toner', 'bond-treatment'] }, 'Priced after a consultation.'),
      s('colour-correction', 'Colour correction', 'confirm', null, null, { group: 'colour' }, 'Priced and timed after a consultation.'),
    ],
    addOns: [
      { id: 'deep-conditioning', name: 'Deep conditioning', cents: 1500, minutes: 15 },
      { id: 'scalp-massage', name: 'Scalp massage', cents: 1200, minutes: 10 },
      { id: 'toner', name: 'Gloss toner', cents: 2500, minutes: 20 },
      { id: 'bond-treatment', name: 'Bond-repair treatment', cents: 3500, minutes: 15 },
    ],
    scents: HAIR_SCENTS,
    roles: [
      ['womens-cut', 'mens-cut', 'childrens-cut', 'blow-dry'],
      ['single-process-colour', 'partial-highlights', 'balayage', 'colour-correction', 'blow-dry'],
      ['mens-cut', 'childrens-cut', 'blow-dry'],
    ],
  },
  barber: {
    services: [
      s('classic-cut', 'Classic cut', 'fixed', 3500, 30, { group: 'haircut', addOns: ['hair-wash'] }),
      s('skin-fade', 'Skin fade', 'fixed', 4000, 45, { group: 'haircut', addOns: ['hair-wash'] }),
      s('kids-cut', "Kid's cut", 'fixed', 2500, 30, { group: 'haircut' }),
      s('beard-trim', 'Beard trim & line-up', 'fixed', 2000, 15, { group: 'beard', addOns: ['hot-towel', 'beard-oil'], scents: ['sandalwood', 'bay-rum', 'unscented'] }),
      s('hot-towel-shave', 'Hot-towel straight-razor shave', 'fixed', 4000, 30, { group: 'beard', addOns: ['beard-oil'], scents: ['sandalwood', 'bay-rum', 'unscented'] }),
    ],
    addOns: [
      { id: 'hair-wash', name: 'Wash', cents: 1000, minutes: 10 },
      { id: 'hot-towel', name: 'Hot towel', cents: 800, minutes: 5 },
      { id: 'beard-oil', name: 'Beard oil finish', cents: 500, minutes: 0 },
    ],
    scents: [
      { id: 'sandalwood', name: 'Sandalwood' },
      { id: 'bay-rum', name: 'Bay rum' },
      { id: 'unscented', name: 'Unscented' },
    ],
    roles: [['classic-cut', 'kids-cut', 'beard-trim'], ['skin-fade', 'classic-cut', 'hot-towel-shave', 'beard-trim']],
  },
  nails: {
    services: [
      s('classic-manicure', 'Classic manicure', 'fixed', 2500, 30, { group: 'hands', addOns: ['french-tips', 'paraffin-dip', 'nail-art'], scents: ['lavender', 'coconut', 'unscented'] }),
      s('gel-manicure', 'Gel manicure', 'fixed', 4000, 45, { group: 'hands', addOns: ['french-tips', 'gel-removal', 'nail-art'], scents: ['lavender', 'coconut', 'unscented'] }),
      s('classic-pedicure', 'Classic pedicure', 'fixed', 3500, 45, { group: 'feet', addOns: ['paraffin-dip'], scents: ['lavender', 'peppermint', 'unscented'] }),
      s('spa-pedicure', 'Spa pedicure', 'fixed', 5500, 60, { group: 'feet', addOns: ['paraffin-dip'], scents: ['lavender', 'peppermint', 'unscented'] }),
    ],
    addOns: [
      { id: 'french-tips', name: 'French tips', cents: 1000, minutes: 10 },
      { id: 'paraffin-dip', name: 'Paraffin dip', cents: 1200, minutes: 10 },
      { id: 'gel-removal', name: 'Gel removal', cents: 1000, minutes: 15 },
      { id: 'nail-art', name: 'Nail art (priced by design)', cents: null, minutes: 20 },
    ],
    scents: [
      { id: 'lavender', name: 'Lavender' },
      { id: 'coconut', name: 'Coconut' },
      { id: 'peppermint', name: 'Peppermint' },
      { id: 'unscented', name: 'Unscented' },
    ],
    roles: [['classic-manicure', 'gel-manicure'], ['classic-pedicure', 'spa-pedicure', 'classic-manicure']],
  },
  spa: {
    services: [
      s('swedish-massage', 'Swedish massage, 60 min', 'fixed', 9500, 60, { group: 'massage', addOns: ['aromatherapy', 'hot-stones'], scents: ['lavender', 'eucalyptus', 'unscented'] }),
      s('deep-tissue-massage', 'Deep-tissue massage, 60 min', 'fixed', 11000, 60, { group: 'massage', addOns: ['aromatherapy', 'hot-stones'], scents: ['lavender', 'eucalyptus', 'unscented'] }),
      s('signature-facial', 'Signature facial', 'fixed', 9000, 60, { group: 'facial', addOns: ['led-mask'], scents: ['lavender', 'unscented'] }),
      s('express-facial', 'Express facial', 'fixed', 5500, 30, { group: 'facial', addOns: ['led-mask'] }),
      s('brow-shaping', 'Brow shaping', 'fixed', 2500, 20, { group: 'brows', addOns: ['brow-tint'] }),
      s('lash-lift', 'Lash lift', 'from', 7500, 45),
    ],
    addOns: [
      { id: 'aromatherapy', name: 'Aromatherapy', cents: 1000, minutes: 0 },
      { id: 'hot-stones', name: 'Hot stones', cents: 2000, minutes: 15 },
      { id: 'led-mask', name: 'LED light mask', cents: 2500, minutes: 15 },
      { id: 'brow-tint', name: 'Brow tint', cents: 1500, minutes: 10 },
    ],
    scents: [
      { id: 'lavender', name: 'Lavender' },
      { id: 'eucalyptus', name: 'Eucalyptus' },
      { id: 'unscented', name: 'Unscented' },
    ],
    roles: [['swedish-massage', 'deep-tissue-massage'], ['signature-facial', 'express-facial', 'brow-shaping', 'lash-lift']],
  },
  auto: {
    services: [
      s('synthetic-oil-change', 'Full-synthetic oil change', 'fixed', 8900, 45, { group: 'oil-change', addOns: ['cabin-air-filter', 'engine-air-filter', 'wiper-blades'] }, 'Up to 5 quarts, new filter, fluid top-off and a multi-point check.'),
      s('conventional-oil-change', 'Conventional oil change', 'fixed', 5900, 30, { group: 'oil-change', addOns: ['cabin-air-filter', 'engine-air-filter', 'wiper-blades'] }),
      s('tire-rotation', 'Tire rotation & pressure check', 'fixed', 3000, 30),
      s('brake-inspection', 'Brake inspection', 'fixed', 0, 30, { group: 'brakes' }, 'Free: pads, rotors and fluid measured and shown to you.'),
      s('front-brake-pads', 'Front brake pads & rotor resurfacing', 'from', 18900, 120, { group: 'brakes' }, 'Most sedans; trucks and performance brakes cost more.'),
      s('rear-brake-pads', 'Rear brake pads', 'from', 17900, 120, { group: 'brakes' }),
      s('check-engine-diagnostic', 'Check-engine light diagnostic', 'fixed', 12900, 60, {}, 'Scan, pinpoint tests and a written repair estimate; the repair is quoted before any work.'),
      s('battery-replacement', 'Battery test & replacement', 'from', 16900, 30),
      s('ac-recharge', 'A/C performance check & recharge', 'from', 14900, 60),
      s('timing-belt', 'Timing belt replacement', 'confirm', null, null, {}, 'Quoted for your engine.'),
      s('interior-detail', 'Interior detail', 'fixed', 14900, 120, { scents: ['new-car', 'vanilla', 'unscented'] }),
    ],
    addOns: [
      { id: 'cabin-air-filter', name: 'Cabin air filter', cents: 3900, minutes: 10 },
      { id: 'engine-air-filter', name: 'Engine air filter', cents: 3500, minutes: 10 },
      { id: 'wiper-blades', name: 'Wiper blades (pair)', cents: 2900, minutes: 5 },
    ],
    scents: [
      { id: 'new-car', name: 'New car' },
      { id: 'vanilla', name: 'Vanilla' },
      { id: 'unscented', name: 'Unscented' },
    ],
    roles: [
      ['synthetic-oil-change', 'conventional-oil-change', 'tire-rotation', 'brake-inspection'],
      ['front-brake-pads', 'rear-brake-pads', 'brake-inspection', 'tire-rotation'],
      ['check-engine-diagnostic', 'battery-replacement', 'ac-recharge', 'timing-belt', 'synthetic-oil-change', 'conventional-oil-change'],
      ['interior-detail'],
    ],
  },
  tailor: {
    services: [
      s('hem-trousers', 'Hem trousers', 'fixed', 1800, 20),
      s('take-in-shirt', 'Take in a shirt or blouse', 'from', 2500, 30),
      s('suit-alterations', 'Suit fitting & alterations', 'from', 6000, 45, { addOns: ['pressing', 'rush'] }),
      s('zipper-replacement', 'Zipper replacement', 'fixed', 2200, 20, { addOns: ['rush'] }),
      s('wedding-dress-fitting', 'Wedding dress fitting', 'confirm', null, 60, {}, 'Priced at the first fitting.'),
    ],
    addOns: [
      { id: 'pressing', name: 'Pressing', cents: 800, minutes: 0 },
      { id: 'rush', name: 'Rush (ready in 2 days)', cents: 2000, minutes: 0 },
    ],
    scents: [],
    roles: [['hem-trousers', 'zipper-replacement', 'take-in-shirt']],
  },
  grooming: {
    services: [
      s('bath-brush-small', 'Bath & brush, small dog', 'fixed', 4500, 60, { group: 'groom', addOns: ['nail-trim', 'teeth-brushing'], scents: ['oatmeal', 'lavender', 'coconut', 'unscented'] }),
      s('bath-brush-large', 'Bath & brush, large dog', 'fixed', 6500, 90, { group: 'groom', addOns: ['nail-trim', 'teeth-brushing', 'de-shedding'], scents: ['oatmeal', 'lavender', 'coconut', 'unscented'] }),
      s('full-groom-small', 'Full groom, small dog', 'fixed', 6500, 90, { group: 'groom', addOns: ['nail-trim', 'teeth-brushing'], scents: ['oatmeal', 'lavender', 'coconut', 'unscented'] }),
      s('full-groom-large', 'Full groom, large dog', 'from', 9500, 120, { group: 'groom', addOns: ['nail-trim', 'teeth-brushing', 'de-shedding'], scents: ['oatmeal', 'lavender', 'coconut', 'unscented'] }, 'Doodles and double coats cost more.'),
      s('nail-trim-only', 'Nail trim (walk-in length)', 'fixed', 1500, 15),
    ],
    addOns: [
      { id: 'nail-trim', name: 'Nail trim', cents: 1500, minutes: 10 },
      { id: 'teeth-brushing', name: 'Teeth brushing', cents: 1200, minutes: 10 },
      { id: 'de-shedding', name: 'De-shedding treatment', cents: 2000, minutes: 20 },
    ],
    scents: [
      { id: 'oatmeal', name: 'Oatmeal (sensitive skin)' },
      { id: 'lavender', name: 'Lavender' },
      { id: 'coconut', name: 'Coconut' },
      { id: 'unscented', name: 'Unscented' },
    ],
    roles: [['bath-brush-small', 'bath-brush-large', 'nail-trim-only']],
  },
  tax: {
    services: [
      s('tax-consultation', 'Tax consultation', 'fixed', 9500, 60),
      s('individual-tax-return', 'Individual tax return', 'from', 25000, 90, {}, 'W-2 income; itemising and self-employment cost more.'),
      s('small-business-return', 'Small-business tax return', 'confirm', null, 120),
      s('bookkeeping-review', 'Bookkeeping review', 'fixed', 15000, 60),
    ],
    addOns: [],
    scents: [],
    roles: [['tax-consultation', 'individual-tax-return'], ['bookkeeping-review', 'tax-consultation']],
  },
  locksmith: {
    services: [
      s('key-cutting', 'Key cutting', 'fixed', 500, 10),
      s('car-key-programming', 'Car key fob programming', 'from', 12000, 45),
      s('lock-rekey', 'Lock rekey (per cylinder, in shop)', 'fixed', 2500, 20),
      s('safe-opening', 'Safe opening', 'confirm', null, null),
    ],
    addOns: [],
    scents: [],
    roles: [['key-cutting', 'lock-rekey'], ['car-key-programming', 'key-cutting']],
  },
  photo: {
    services: [
      s('headshot-session', 'Headshot session', 'fixed', 19500, 60, { addOns: ['extra-look', 'rush-edits'] }),
      s('family-mini-session', 'Family mini session', 'fixed', 29500, 45, { addOns: ['rush-edits'] }),
      s('portrait-session', 'Portrait session', 'from', 35000, 120, { addOns: ['extra-look', 'rush-edits'] }),
      s('event-coverage', 'Event coverage', 'confirm', null, null),
    ],
    addOns: [
      { id: 'extra-look', name: 'Extra outfit or look', cents: 5000, minutes: 30 },
      { id: 'rush-edits', name: 'Edited photos in 48 hours', cents: 4000, minutes: 0 },
    ],
    scents: [],
    roles: [['headshot-session', 'family-mini-session']],
  },
  cleaners: {
    services: [
      s('garment-fitting', 'Alterations fitting', 'fixed', 3000, 30),
      s('wedding-gown-preservation', 'Wedding gown cleaning & preservation', 'from', 24900, 30),
      s('leather-suede-care', 'Leather and suede care drop-off', 'from', 4500, 15),
      s('rug-consultation', 'Rug cleaning consultation', 'confirm', null, 30),
    ],
    addOns: [],
    scents: [],
    roles: [['garment-fitting', 'leather-suede-care']],
  },
  books: {
    services: [
      s('book-matching', 'Book-matching consultation', 'fixed', 0, 30, { addOns: ['gift-wrap'] }, 'Tell us who it is for; we pull a stack to choose from.'),
      s('storytime-party', "Children's storytime party", 'from', 15000, 90),
      s('book-club-evening', 'Book club evening in the shop', 'fixed', 12000, 120),
      s('library-appraisal', 'Home library appraisal', 'confirm', null, 60),
    ],
    addOns: [{ id: 'gift-wrap', name: 'Gift wrapping', cents: 500, minutes: 5 }],
    scents: [],
    roles: [['book-matching', 'storytime-party'], ['book-club-evening', 'book-matching']],
  },
  hardware: {
    services: [
      s('key-cutting', 'Key cutting', 'fixed', 500, 10),
      s('knife-sharpening', 'Knife sharpening (up to 5 knives)', 'fixed', 2000, 20),
      s('screen-repair', 'Window screen repair', 'from', 2500, 60),
      s('paint-matching', 'Paint colour matching', 'fixed', 0, 15),
    ],
    addOns: [],
    scents: [],
    roles: [['key-cutting', 'paint-matching'], ['knife-sharpening', 'screen-repair']],
  },
  flowers: {
    services: [
      s('bouquet-consultation', 'Bouquet consultation', 'fixed', 0, 30, { addOns: ['delivery-note'] }),
      s('arranging-class', 'Flower arranging class', 'fixed', 6500, 90, { scents: ['garden-rose', 'eucalyptus', 'lavender'] }),
      s('wedding-flowers', 'Wedding flowers consultation', 'confirm', null, 60),
    ],
    addOns: [{ id: 'delivery-note', name: 'Handwritten card', cents: 300, minutes: 0 }],
    scents: [
      { id: 'garden-rose', name: 'Garden rose' },
      { id: 'eucalyptus', name: 'Eucalyptus' },
      { id: 'lavender', name: 'Lavender' },
    ],
    roles: [['bouquet-consultation', 'arranging-class']],
  },
  plants: {
    services: [
      s('repotting', 'Repotting (bring your plant)', 'fixed', 1500, 20, { addOns: ['premium-soil'] }),
      s('plant-consultation', 'Plant doctor consultation', 'fixed', 4500, 45),
      s('terrarium-workshop', 'Terrarium workshop', 'fixed', 5500, 90),
    ],
    addOns: [{ id: 'premium-soil', name: 'Premium soil mix', cents: 800, minutes: 0 }],
    scents: [],
    roles: [['repotting', 'plant-consultation']],
  },
  styling: {
    services: [
      s('personal-styling', 'Personal styling session', 'from', 7500, 60),
      s('wardrobe-fitting', 'Fitting & alterations check', 'fixed', 2500, 30),
      s('vintage-appraisal', 'Vintage piece appraisal', 'from', 4000, 30),
      s('gift-consultation', 'Gift consultation', 'fixed', 0, 20, { addOns: ['gift-wrap'] }),
    ],
    addOns: [{ id: 'gift-wrap', name: 'Gift wrapping', cents: 500, minutes: 5 }],
    scents: [],
    roles: [['wardrobe-fitting', 'gift-consultation']],
  },
  bakery: {
    services: [
      s('cake-consultation', 'Custom cake consultation', 'fixed', 0, 30),
      s('cake-tasting', 'Cake tasting (4 flavours)', 'fixed', 3500, 45),
      s('decorating-class', 'Cake decorating class', 'fixed', 6500, 120),
      s('wedding-cake', 'Wedding cake design', 'confirm', null, 60),
    ],
    addOns: [],
    scents: [],
    roles: [['cake-consultation', 'cake-tasting', 'wedding-cake'], ['decorating-class', 'cake-consultation']],
  },
  coffee: {
    services: [
      s('latte-art-class', 'Latte art class', 'fixed', 4500, 60),
      s('coffee-tasting', 'Coffee tasting flight', 'fixed', 2500, 45),
      s('office-catering', 'Office coffee catering consultation', 'confirm', null, 30),
    ],
    addOns: [],
    scents: [],
    roles: [['latte-art-class', 'coffee-tasting']],
  },
  kitchen: {
    services: [
      s('catering-consultation', 'Catering consultation', 'fixed', 0, 30),
      s('cooking-class', 'Cooking class', 'from', 7500, 120),
      s('tasting-menu', "Chef's tasting menu (per person)", 'from', 6500, 90),
      s('private-dining', 'Private dining event', 'confirm', null, 120),
    ],
    addOns: [],
    scents: [],
    roles: [['catering-consultation', 'cooking-class', 'tasting-menu', 'private-dining']],
  },
};

/** The template a business's trade and name call for. */
function templateFor(kind: Kind, name: string): Template {
  const has = (...words: string[]) => words.some((w) => name.includes(w));
  switch (kind) {
    case 'auto_repair':
      return TEMPLATES.auto!;
    case 'beauty':
      return has('Barbershop') ? TEMPLATES.barber! : has('Nail') ? TEMPLATES.nails! : has('Spa', 'Brow', 'Skin') ? TEMPLATES.spa! : TEMPLATES.salon!;
    case 'services':
      return has('Grooming') ? TEMPLATES.grooming! : has('Photography') ? TEMPLATES.photo! : has('Dry Cleaners') ? TEMPLATES.cleaners! : has('Tax') ? TEMPLATES.tax! : has('Locksmith') ? TEMPLATES.locksmith! : TEMPLATES.tailor!;
    case 'retail':
      return has('Books') ? TEMPLATES.books! : has('Hardware') ? TEMPLATES.hardware! : has('Flowers') ? TEMPLATES.flowers! : has('Plant') ? TEMPLATES.plants! : TEMPLATES.styling!;
    case 'food':
      return has('Bakery') ? TEMPLATES.bakery! : has('Coffee') ? TEMPLATES.coffee! : TEMPLATES.kitchen!;
  }
}

export interface DemoMenuSet {
  serviceMenus: { businessId: string; revision: number; schedulingEnabled: boolean; bufferMinutes: number }[];
  menuServices: {
    businessId: string;
    id: string;
    position: number;
    name: string;
    description: string;
    priceKind: 'fixed' | 'from' | 'confirm';
    priceCents: number | null;
    durationMinutes: number | null;
    group: string | null;
    addOnIds: string[];
    scentIds: string[];
  }[];
  menuAddOns: { businessId: string; id: string; position: number; name: string; priceCents: number | null; durationMinutes: number | null }[];
  menuScents: { businessId: string; id: string; position: number; name: string }[];
  staffMembers: { id: string; businessId: string; name: string; position: number; serviceIds: string[] }[];
  staffHours: { staffId: string; weekday: number; startMinute: number; endMinute: number }[];
  staffTimeOff: { id: string; staffId: string; start: Date; end: Date }[];
}

export const emptyMenuSet = (): DemoMenuSet => ({ serviceMenus: [], menuServices: [], menuAddOns: [], menuScents: [], staffMembers: [], staffHours: [], staffTimeOff: [] });

export interface MenuPlan {
  businessId: string;
  slug: string;
  name: string;
  kind: Kind;
  timeZone: string;
  priceFactor: number;
  hours: readonly (readonly [weekday: number, start: number, end: number])[];
  tier: MenuTier;
  /** Team size for the book and request tiers. */
  teamSize: number;
  firstNames: readonly string[];
}

const priced = (cents: number | null, factor: number) => (cents === null || cents === 0 ? cents : Math.round((cents * factor) / 100) * 100);

/** Adds one business's menu and team to `out`. */
export function addDemoMenu(out: DemoMenuSet, rng: DemoRng, plan: MenuPlan, now: number): void {
  const template = templateFor(plan.kind, plan.name);
  const { businessId, tier } = plan;
  // book: everything fixed and timed; request: nothing fixed; unscheduled: the trade's own mix.
  const services = template.services.flatMap((t): ServiceT[] => {
    if (tier === 'book') return t.kind === 'confirm' || t.minutes === null ? [] : [{ ...t, kind: 'fixed' }];
    // A free consultation cannot be "from $0": request-only businesses leave it out.
    if (tier === 'request' && t.kind === 'fixed') return t.cents === 0 ? [] : [{ ...t, kind: 'from' }];
    return [t];
  });
  const usedAddOns = new Set(services.flatMap((x) => x.addOns ?? []));
  const usedScents = new Set(services.flatMap((x) => x.scents ?? []));
  // Add-ons priced by staff make an estimate partial: the book tier prices them all.
  const addOns = template.addOns.filter((a) => usedAddOns.has(a.id)).filter((a) => tier !== 'book' || a.cents !== null);
  const addOnIds = new Set(addOns.map((a) => a.id));
  out.serviceMenus.push({ businessId, revision: 1, schedulingEnabled: tier !== 'unscheduled', bufferMinutes: plan.kind === 'auto_repair' ? 15 : rng.pick([0, 0, 5, 10]) });
  services.forEach((x, position) =>
    out.menuServices.push({
      businessId,
      id: x.id,
      position,
      name: x.name,
      description: x.description,
      priceKind: x.kind,
      priceCents: x.kind === 'confirm' ? null : priced(x.cents, plan.priceFactor),
      durationMinutes: x.minutes,
      group: x.group ?? null,
      addOnIds: (x.addOns ?? []).filter((id) => addOnIds.has(id)),
      scentIds: x.scents ?? [],
    }),
  );
  addOns.forEach((a, position) => out.menuAddOns.push({ businessId, id: a.id, position, name: a.name, priceCents: priced(a.cents, plan.priceFactor), durationMinutes: a.minutes }));
  template.scents.filter((x) => usedScents.has(x.id)).forEach((x, position) => out.menuScents.push({ businessId, ...x, position }));

  if (tier === 'unscheduled') return;
  const offered = new Set(services.map((x) => x.id));
  const names = rng.shuffle(plan.firstNames).slice(0, plan.teamSize);
  const roles = rng.shuffle(template.roles);
  names.forEach((name, i) => {
    const id = `stf_${plan.slug}_${i + 1}`;
    // The first member does everything; the others one skill set each, with different hours.
    const role = roles[(i - 1) % roles.length]?.filter((sid) => offered.has(sid)) ?? [];
    const skills = i === 0 || role.length === 0 ? [...offered] : role;
    out.staffMembers.push({ id, businessId, name, position: i, serviceIds: skills });
    const shift = i === 0 ? 'full' : rng.pick(['full', 'full', 'early', 'late', 'short-week'] as const);
    const days = shift === 'short-week' ? rng.shuffle(plan.hours).slice(0, Math.max(1, plan.hours.length - 2)) : plan.hours;
    for (const [weekday, start, end] of days) {
      const span = end - start;
      const cut = Math.round((span * 0.6) / 30) * 30;
      const [from, to] = shift === 'early' ? [start, start + cut] : shift === 'late' ? [end - cut, end] : [start, end];
      out.staffHours.push({ staffId: id, weekday, startMinute: from, endMinute: to });
    }
    // One member of each team is off for a day soon, wherever the clock stands.
    if (i === 1) {
      const day = DateTime.fromMillis(now, { zone: plan.timeZone }).startOf('day').plus({ days: 2 + rng.int(0, 6) });
      out.staffTimeOff.push({ id: `off_${plan.slug}_${i + 1}`, staffId: id, start: day.toJSDate(), end: day.plus({ days: 1 }).toJSDate() });
    }
  });
}
