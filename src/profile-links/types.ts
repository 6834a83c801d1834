import { builder } from '../builder.js';
import type { addProfileLinkService, ownerProfileLinks } from './service.js';

const Verification = builder.objectRef<{ code: string; how: string }>('LinkVerification').implement({
  fields: (t) => ({
    code: t.exposeString('code'),
    how: t.exposeString('how', { description: 'What to put on the page, for the owner.' }),
  }),
});

export const AddProfileLinkResult = builder.objectRef<Awaited<ReturnType<typeof addProfileLinkService>>>('AddProfileLinkResult').implement({
  fields: (t) => ({
    linkId: t.exposeID('linkId'),
    url: t.exposeString('url'),
    status: t.exposeString('status'),
    verification: t.field({ type: Verification, resolve: (r) => r.verification }),
  }),
});

export const RemoveProfileLinkResult = builder.objectRef<{ linkId: string; removed: boolean }>('RemoveProfileLinkResult').implement({
  fields: (t) => ({ linkId: t.exposeID('linkId'), removed: t.exposeBoolean('removed') }),
});

export const OwnerLinkType = builder.objectRef<Awaited<ReturnType<typeof ownerProfileLinks>>[number]>('OwnerLink').implement({
  description: "A website or profile page of the business and its last check; search shows only verified ones.",
  fields: (t) => ({
    linkId: t.exposeID('linkId'),
    url: t.exposeString('url'),
    label: t.exposeString('label'),
    status: t.exposeString('status', { description: 'pending, verified or failed.' }),
    rating: t.exposeFloat('rating', { nullable: true, description: 'From the page (schema.org AggregateRating), 0-5.' }),
    ratingCount: t.exposeInt('ratingCount', { nullable: true }),
    checkedAt: t.exposeString('checkedAt', { nullable: true }),
    problem: t.exposeString('problem', { nullable: true, description: 'Why the last check did not verify it.' }),
  }),
});
