import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from './generated/pothos-types.js';
import { getDatamodel } from './generated/pothos-types.js';
import type { Context } from './context.js';
import AccessPlugin from './registry/access-plugin.js';

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: { ID: { Input: string; Output: string } };
}>({
  defaultFieldNullability: false,
  // Access first: its guard runs before any other plugin's wrapper (registry/access-plugin.ts).
  plugins: [AccessPlugin, PrismaPlugin],
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    // A resolver that ignores Pothos's planned `query` would fetch too little or issue N+1
    // queries; tests run with this on and fail on it.
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
  },
});

builder.queryType({});
builder.mutationType({});
