import { builder } from '../builder.js';
import { ownerContext } from './credentials.js';
import { createManageCode } from './manage-codes.js';
import { formatInstant } from '../core/time.js';
import { businessZone } from '../db/business-zone.js';

const ManageCodeResult = builder.objectRef<{ code: string; expiresAt: string }>('ManageCode').implement({
  description: 'A Manage with AI code: works once, for 10 minutes. Show it to the owner; never log it.',
  fields: (t) => ({
    code: t.exposeString('code'),
    expiresAt: t.exposeString('expiresAt', { description: 'ISO 8601 (UTC).' }),
  }),
});

// The dashboard's "Manage with AI" button: a code the owner types into the sign-in window or
// an assistant exchanges at /app/api/connect. A code buys a new credential, so only the owner
// signed in to the dashboard creates one: a connection or a key that could would mint
// credentials that outlive it (issue 18).
builder.mutationField('createManageCode', (t) =>
  t.field({
    type: ManageCodeResult,
    description: 'A fresh Manage with AI code, for the owner signed in to the dashboard (/app) only: connected apps and keys are refused (403).',
    access: 'dashboard',
    resolve: async (_root, _args, ctx) => {
      const businessId = ownerContext(ctx).business.id;
      const { code, expiresAt } = await createManageCode(ctx, businessId);
      return { code, expiresAt: formatInstant(expiresAt, await businessZone(ctx.prisma, businessId)) };
    },
  }),
);
