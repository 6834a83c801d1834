import { z } from 'zod';
import { builder } from '../builder.js';
import { defineOperation } from '../registry/operation.js';
import { city, date, page, positiveMoney, requireOneOf, sortOrder, timeWindow, zip } from '../registry/fields.js';
import { cleaningJobFields, searchAddOns } from '../pricing/job.js';
import { issueOfTrade, serviceCallFields } from '../pricing/service-call.js';
import { findCleanersService, type CleanerResult } from './service.js';
import { findServiceCallService, type ArrivalWindow, type ServiceCallPro } from './service-calls.js';

export const LinkType = builder.objectRef<{ url: string; label: string; rating: number | null }>('Link').implement({
  description: "A website or marketplace profile checked to belong to the business, with the rating shown there. Best-effort, not an endorsement.",
  fields: (t) => ({
    url: t.exposeString('url'),
    label: t.exposeString('label'),
    rating: t.exposeFloat('rating', { nullable: true }),
  }),
});

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
  }),
});

const nextPageField = { nullable: true, description: 'The page to ask for next, or null when this is the last.' } as const;

const FindCleanersResult = builder.objectRef<{ cleaners: CleanerResult[]; nextPage: number | null; note: string | null }>('FindCleanersResult').implement({
  fields: (t) => ({
    cleaners: t.field({ type: [Cleaner], resolve: (r) => r.cleaners }),
    nextPage: t.exposeInt('nextPage', nextPageField),
    note: t.exposeString('note', { nullable: true }),
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
  }),
});

const FindServiceCallResult = builder
  .objectRef<Awaited<ReturnType<typeof findServiceCallService>>>('FindServiceCallResult')
  .implement({
    fields: (t) => ({
      pros: t.field({ type: [Pro], resolve: (r) => r.pros }),
      nextPage: t.exposeInt('nextPage', nextPageField),
      feeNote: t.exposeString('feeNote', { description: 'What the fee covers: the visit and diagnosis, never the repair.' }),
      safety: t.exposeString('safety', { description: 'Safety instruction to relay to the user with every result.' }),
      note: t.exposeString('note', { nullable: true }),
    }),
  });

export const findCleanersInput = requireOneOf(
  z.object({
    zip: zip.optional(),
    city: city.optional(),
    ...cleaningJobFields,
    add_ons: searchAddOns,
    ...timeWindow,
    date: date('date').optional().describe('Earliest day, YYYY-MM-DD (business-local).'),
    max_price: positiveMoney('max_price').optional().describe('Maximum total in USD.'),
    sort: sortOrder,
    page,
  }),
  ['zip', 'city'],
  'Pass zip (5 digits) or city (e.g. "Austin TX") so we know where the cleaning is.',
);

export const findCleaners = defineOperation({
  name: 'find_cleaners',
  domain: 'search',
  method: 'GET',
  auth: 'public',
  result: FindCleanersResult,
  resolve: findCleanersService,
  description:
    'Find house cleaners serving a ZIP or city (zip is more precise), each with a firm total for the job (no added fees), its length, next open starts and checked profile links with ratings. ' +
    'Links are best-effort checks, not endorsements; licences and insurance are not checked.',
  input: findCleanersInput,
  example: { input: { zip: '78704', bedrooms: 2, bathrooms: 1.5, clean_type: 'standard' } },
});

export const findServiceCallInput = requireOneOf(
  z.object({
    zip: zip.optional(),
    city: city.optional(),
    ...serviceCallFields,
    ...timeWindow,
    date: date('date').optional().describe('Earliest day, YYYY-MM-DD (business-local).'),
    days: z.int().min(1, 'days must be between 1 and 14.').max(14, 'days must be between 1 and 14.').default(7)
      .describe('Days to look ahead, 1-14, default 7.'),
    max_price: positiveMoney('max_price').optional().describe('Maximum service-call fee in USD.'),
    sort: sortOrder,
    page,
  }).superRefine(issueOfTrade),
  ['zip', 'city'],
  'Pass zip (5 digits) or city (e.g. "Austin TX") so we know where the visit is.',
);

export const findServiceCall = defineOperation({
  name: 'find_service_call',
  domain: 'search',
  method: 'GET',
  auth: 'public',
  result: FindServiceCallResult,
  resolve: findServiceCallService,
  description:
    'Find plumbers or HVAC (heating/air) pros serving a ZIP or city, with a firm service-call fee for the issue, open arrival windows and checked profile links with ratings. ' +
    'The fee covers the visit and diagnosis only, never the repair (quoted on site). Relay `safety`: for gas smells, flooding or danger the user leaves and calls 911 or the utility first. ' +
    'Links are best-effort checks, not endorsements; licences and insurance are not checked.',
  input: findServiceCallInput,
  example: { input: { zip: '78704', trade: 'plumbing', issue: 'leak', details: 'Water drips under the kitchen sink.' } },
});

export const operations = [findCleaners, findServiceCall];
