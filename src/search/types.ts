import { builder } from '../builder.js';
import type { CleanerResult } from './service.js';
import type { ArrivalWindow, ServiceCallPro, findServiceCallService } from './service-calls.js';

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

export const FindCleanersResult = builder.objectRef<{ cleaners: CleanerResult[]; nextPage: number | null; note: string | null }>('FindCleanersResult').implement({
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

export const FindServiceCallResult = builder
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
