import { builder } from '../builder.js';
import type { ShownLink } from './catalog.js';
import type { CleanerResult } from './service.js';
import type { BusinessEntry, ServiceMatch } from './businesses.js';
import type { ArrivalWindow, ServiceCallPro, findServiceCallService } from './service-calls.js';

export const LinkType = builder.objectRef<ShownLink>('Link').implement({
  description: 'A website or profile page verified to belong to the business, with the rating that page states (null if none). Best-effort, not an endorsement.',
  fields: (t) => ({
    url: t.exposeString('url'),
    label: t.exposeString('label'),
    rating: t.exposeFloat('rating', { nullable: true }),
    ratingCount: t.exposeInt('ratingCount', { nullable: true }),
    checkedAt: t.exposeString('checkedAt'),
  }),
});

const servedZipsField = { nullable: true, description: "City search: the city's ZIPs it serves; book only there." } as const;

const Cleaner = builder.objectRef<CleanerResult>('Cleaner').implement({
  fields: (t) => ({
    proId: t.exposeString('proId', { description: 'The business slug; pass it as pro_id.' }),
    name: t.exposeString('name'),
    price: t.exposeFloat('price', { description: 'Firm total in USD for the described job, no added fees.' }),
    durationMinutes: t.exposeInt('durationMinutes'),
    starts: t.exposeStringList('starts', { description: 'Next open start times, ISO 8601 with the business\'s UTC offset.' }),
    links: t.field({ type: [LinkType], resolve: (c) => c.links }),
    jobsConfirmedDone: t.exposeInt('jobsConfirmedDone'),
    textsCustomers: t.exposeBoolean('textsCustomers', { description: 'Confirms by text message when the customer has no e-mail.' }),
    zips: t.exposeStringList('zips', servedZipsField),
  }),
});

const emptyNoteField = { nullable: true, description: 'Why empty, and the nearest alternative.' } as const;

const nextPageField = { nullable: true, description: 'The page to ask for next, or null when this is the last.' } as const;

export const FindCleanersResult = builder.objectRef<{ cleaners: CleanerResult[]; nextPage: number | null; note: string | null }>('FindCleanersResult').implement({
  fields: (t) => ({
    cleaners: t.field({ type: [Cleaner], resolve: (r) => r.cleaners }),
    nextPage: t.exposeInt('nextPage', nextPageField),
    note: t.exposeString('note', emptyNoteField),
  }),
});

export const ArrivalWindowType = builder.objectRef<ArrivalWindow>('ArrivalWindow').implement({
  description: 'A window in which the pro arrives, ISO 8601 with the business\'s UTC offset; pass start as start to book_service_call.',
  fields: (t) => ({ start: t.exposeString('start'), end: t.exposeString('end') }),
});

const Pro = builder.objectRef<ServiceCallPro>('ServiceCallPro').implement({
  fields: (t) => ({
    proId: t.exposeString('proId', { description: 'The business slug; pass it as pro_id.' }),
    name: t.exposeString('name'),
    fee: t.exposeFloat('fee', { description: 'Firm service-call fee in USD for the issue: the visit and diagnosis only, never the repair price.' }),
    windowMinutes: t.exposeInt('windowMinutes', { description: 'Length of this pro\'s arrival windows.' }),
    windows: t.field({ type: [ArrivalWindowType], resolve: (p) => p.windows }),
    links: t.field({ type: [LinkType], resolve: (p) => p.links }),
    jobsConfirmedDone: t.exposeInt('jobsConfirmedDone'),
    textsCustomers: t.exposeBoolean('textsCustomers', { description: 'Confirms by text message when the customer has no e-mail.' }),
    zips: t.exposeStringList('zips', servedZipsField),
  }),
});

export const FindServiceCallResult = builder
  .objectRef<Awaited<ReturnType<typeof findServiceCallService>>>('FindServiceCallResult')
  .implement({
    fields: (t) => ({
      pros: t.field({ type: [Pro], resolve: (r) => r.pros }),
      nextPage: t.exposeInt('nextPage', nextPageField),
      feeNote: t.exposeString('feeNote', { description: 'What the fee covers: the visit and diagnosis, never the repair.' }),
      safety: t.exposeString('safety', { description: 'Safety instruction to relay to the user with every result.' }),
      note: t.exposeString('note', emptyNoteField),
    }),
  });

const ServiceMatchType = builder.objectRef<ServiceMatch>('ServiceMatch').implement({
  description: 'A service of the business that matches the query (without query: its first services).',
  fields: (t) => ({
    serviceId: t.exposeString('serviceId', { description: 'service_id for estimate_visit/visit_times (visit) or appointment_times (appointment).' }),
    name: t.exposeString('name'),
    priceKind: t.exposeString('priceKind', { description: 'fixed (the price), from (a lower bound, staff confirm) or confirm (staff price it; price_cents null).' }),
    priceCents: t.exposeInt('priceCents', { nullable: true }),
    bookableAs: t.exposeString('bookableAs', { description: 'visit (menu: estimate_visit, visit_times, book_visit) or appointment (appointment_times, book_appointment).' }),
  }),
});

const BusinessBooking = builder.objectRef<BusinessEntry['booking']>('BusinessBooking').implement({
  description: 'How the business books.',
  fields: (t) => ({
    visits: t.exposeBoolean('visits', { description: 'Menu visits book at once (visit_times, book_visit).' }),
    appointments: t.exposeBoolean('appointments', { description: 'Appointments book at once (appointment_times, book_appointment).' }),
    requestOnly: t.exposeBoolean('requestOnly', { description: 'Menu visits are requested (request_visit); the business confirms a time.' }),
  }),
});

const BusinessEntryType = builder.objectRef<BusinessEntry>('BusinessEntry').implement({
  fields: (t) => ({
    business: t.exposeString('business', { description: 'The business id (slug): works as business or pro_id in every operation.' }),
    name: t.exposeString('name'),
    type: t.exposeString('type', { description: 'cleaning, plumbing, hvac, services, auto_repair, beauty, retail or food.' }),
    city: t.exposeString('city'),
    summary: t.exposeString('summary', { description: 'One line about what it offers and how it books.' }),
    miles: t.exposeInt('miles', { description: 'Whole miles from the ZIP or city centre searched (0: serves it).' }),
    matches: t.field({ type: [ServiceMatchType], resolve: (b) => b.matches }),
    matchedOn: t.exposeString('matchedOn', {
      nullable: true,
      description: 'What the query matched: services (what it offers), name, or type (only the words for its kind of business: none of its services or its name); null without query.',
    }),
    unmatched: t.exposeStringList('unmatched', { description: 'Words of the query it matches nothing for: a partial match (see note).' }),
    booking: t.field({ type: BusinessBooking, resolve: (b) => b.booking }),
    next: t.exposeString('next', { description: 'Which operations give prices and times for it.' }),
  }),
});

export const FindBusinessesResult = builder
  .objectRef<{ businesses: BusinessEntry[]; nextPage: number | null; note: string | null }>('FindBusinessesResult')
  .implement({
    fields: (t) => ({
      businesses: t.field({ type: [BusinessEntryType], resolve: (r) => r.businesses, description: 'Best match first, then nearest.' }),
      nextPage: t.exposeInt('nextPage', nextPageField),
      note: t.exposeString('note', { nullable: true, description: 'Why nothing was found, or why the matches are partial or by type only, and what to try instead.' }),
    }),
  });
