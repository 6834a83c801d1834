/**
 * Demo knowledge for the AI receptionist: a few businesses have sources (an owner's note, a page
 * of their website, an uploaded PDF) and a published page with front-desk preferences saved;
 * a few more have sources and a draft only, one of them with a source shared before publishing.
 * The text is written here as if already read, so seeding runs no OCR or PDF parsing; the draft
 * is built by the same function the service uses. Nothing here quotes a price: prices come from
 * each business's own price list or menu.
 */
import { DAY } from '../core/time.js';
import { buildDraft, type SourceKind } from '../receptionist/draft.js';
import type { DemoRng } from './menus.js';

export interface DemoKnowledgeSet {
  receptionists: { businessId: string; draft: string; instructions: string; published: string | null; publishedAt: Date | null; updatedAt: Date }[];
  receptionistSources: {
    id: string;
    businessId: string;
    kind: SourceKind;
    origin: string | null;
    format: string | null;
    title: string | null;
    text: string;
    shareable: boolean;
    addedAt: Date;
  }[];
  frontDesks: { businessId: string; greeting: string; tone: string; handOff: string; answerWhen: string; completedAt: Date | null; updatedAt: Date }[];
}

export const emptyKnowledgeSet = (): DemoKnowledgeSet => ({ receptionists: [], receptionistSources: [], frontDesks: [] });

type Trade = 'cleaning' | 'plumbing' | 'hvac' | 'auto_repair' | 'beauty' | 'retail' | 'food' | 'services';

const NOTES: Record<Trade, string[]> = {
  cleaning: [
    'We bring all supplies and equipment, including a vacuum with a HEPA filter. If you prefer your own products, leave them out and tell us.\nPets are welcome; please let us know about them when you book.',
    'First visits take a little longer while we learn your home. Recurring customers keep the same cleaner whenever we can.\nWe do not move heavy furniture or clean outside windows above the first floor.',
  ],
  plumbing: [
    'The service-call fee covers the visit and the diagnosis. We quote the repair on site before any work starts, and you decide.\nWe carry common parts on the truck, so most repairs are done in one visit.',
    'For a burst pipe, turn off the main water valve first (usually near the water heater or where the line enters the house), then call us.',
  ],
  hvac: [
    'The service-call fee covers the visit and the diagnosis; repairs are quoted on site before work starts.\nWe service all major brands of furnaces, heat pumps and central air.',
    'Tune-ups are best in spring for cooling and in fall for heating. Change 1-inch filters every one to three months.',
  ],
  auto_repair: [
    'We always call before doing any work beyond what you approved. Old parts are kept for you to see if you ask.\nLoaner cars are limited: ask when you book.',
  ],
  beauty: ['Please arrive five minutes early for your first visit. Running late by more than 15 minutes may mean a shorter service.\nPatch tests for colour are free and take ten minutes.'],
  retail: ['Returns within 30 days with the receipt, in original condition. Gift cards never expire.\nWe can hold an item for you for two days.'],
  food: ['Allergies: tell us when you order. Our kitchen handles nuts, gluten and dairy, so we cannot promise an allergen-free dish.\nLarge orders need a day\'s notice.'],
  services: ['We confirm every appointment by text the day before. Reschedule any time up to a day ahead at no charge.'],
};

const PAGES: Record<Trade, { path: string; title: string; text: string }> = {
  cleaning: {
    path: '/what-we-clean',
    title: 'What we clean',
    text:
      'Kitchen: counters, sink, stovetop, outside of appliances and cabinets, floors.\nBathrooms: toilet, tub and shower, sink, mirrors, floors.\n' +
      'Bedrooms and living areas: dusting of reachable surfaces, beds made (linens changed if left out), vacuuming and mopping.\n' +
      'Deep cleans add baseboards, door frames, light switches and inside the microwave. Move-out cleans add inside cabinets and closets.',
  },
  plumbing: {
    path: '/services',
    title: 'Plumbing services',
    text: 'Leaks and burst pipes, clogged drains and sewer lines, water heaters (tank and tankless), toilets, faucets and fixtures, garbage disposals, gas lines.\nLicensed plumbers; all work guaranteed for one year.',
  },
  hvac: {
    path: '/services',
    title: 'Heating and cooling',
    text: 'Air conditioner and heat pump repair, furnace repair, seasonal tune-ups, thermostat installation, duct inspection.\nWe explain what we find in plain words before we fix anything.',
  },
  auto_repair: { path: '/about', title: 'About the shop', text: 'Family-run shop with ASE-certified technicians. Warranty on parts and labour: 12 months or 12,000 miles.' },
  beauty: { path: '/about', title: 'About the studio', text: 'A small studio with a calm atmosphere. We use sulfate-free products and offer consultations for colour changes.' },
  retail: { path: '/about', title: 'About the shop', text: 'An independent shop stocking local makers. New arrivals every Thursday.' },
  food: { path: '/about', title: 'About us', text: 'Everything is made in house each morning. Seating inside and on the patio; dogs welcome outside.' },
  services: { path: '/about', title: 'About us', text: 'Friendly, insured and on time. We serve the whole metro area.' },
};

const FILES: Partial<Record<Trade, string>> = {
  cleaning: 'Cleaning checklist\nDusting: shelves, picture frames, lamps, ceiling fans (reachable)\nFloors: vacuum carpets and rugs, mop hard floors\nTrash: emptied and bags replaced',
  plumbing: 'Before we arrive\n1. Clear the area under the sink or around the water heater.\n2. Keep pets in another room.\n3. Have the main water valve location ready.',
  hvac: 'Seasonal tune-up checklist\nInspect and clean coils\nCheck refrigerant pressure\nTest capacitor and contactor\nReplace filter (if provided)\nCheck thermostat calibration',
};

const INSTRUCTIONS = [
  'Offer the earliest open time first. If the caller sounds upset, apologise once and take a message for the owner.',
  'Speak Spanish if the caller does. Never promise a same-day visit.',
  '',
];

export interface KnowledgePlan {
  businessId: string;
  slug: string;
  name: string;
  kind: Trade;
  /** published: sources, a published page and a saved front desk; draft: sources and a draft only. */
  state: 'published' | 'draft';
  /** One source may answer customers before publishing (draft businesses). */
  shareOne: boolean;
}

/** Adds one business's receptionist knowledge to `out`. */
export function addDemoKnowledge(out: DemoKnowledgeSet, rng: DemoRng, plan: KnowledgePlan, now: number): void {
  const { businessId, slug, kind } = plan;
  const days = rng.int(10, 40);
  const page = PAGES[kind];
  const sources: DemoKnowledgeSet['receptionistSources'] = [
    { id: `src_${slug}_note`, businessId, kind: 'note', origin: null, format: null, title: null, text: rng.pick(NOTES[kind]), shareable: false, addedAt: new Date(now - days * DAY) },
    {
      id: `src_${slug}_page`,
      businessId,
      kind: 'url',
      origin: `https://${slug}.example${page.path}`,
      format: 'html',
      title: `${page.title} | ${plan.name}`,
      text: page.text,
      shareable: false,
      addedAt: new Date(now - (days - 1) * DAY),
    },
  ];
  const file = FILES[kind];
  if (file && rng.chance(0.7)) {
    sources.push({ id: `src_${slug}_file`, businessId, kind: 'file', origin: null, format: 'pdf', title: null, text: file, shareable: false, addedAt: new Date(now - (days - 2) * DAY) });
  }
  if (plan.shareOne) sources[0]!.shareable = true;
  out.receptionistSources.push(...sources);
  const draft = buildDraft(sources);
  const published = plan.state === 'published';
  const updatedAt = new Date(now - (days - 3) * DAY);
  out.receptionists.push({ businessId, draft, instructions: published ? rng.pick(INSTRUCTIONS) : '', published: published ? draft : null, publishedAt: published ? updatedAt : null, updatedAt });
  if (published) {
    out.frontDesks.push({
      businessId,
      greeting: `Thanks for calling ${plan.name}! This is the virtual assistant. How can I help?`,
      tone: '',
      handOff: 'Emergencies and complaints go to the owner.',
      answerWhen: rng.pick(['always', 'after_hours']),
      completedAt: updatedAt,
      updatedAt,
    });
  }
}
