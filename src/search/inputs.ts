import { z } from 'zod';
import { city, date, page, positiveMoney, requireOneOf, sortOrder, timeWindow, zip } from '../registry/fields.js';
import { cleaningJobFields, searchAddOns } from '../pricing/job.js';
import { issueOfTrade, serviceCallFields } from '../pricing/service-call.js';

export const findCleanersInput = requireOneOf(
  z.object({
    zip: zip.optional(),
    city: city.optional(),
    ...cleaningJobFields,
    add_ons: searchAddOns,
    ...timeWindow,
    date: date('date').optional().describe('Earliest day (business-local).'),
    max_price: positiveMoney('max_price').optional().describe('Maximum total in USD.'),
    sort: sortOrder,
    page,
  }),
  ['zip', 'city'],
  'Pass zip (5 digits) or city (e.g. "Austin TX") so we know where the cleaning is.',
);

export const findServiceCallInput = requireOneOf(
  z.object({
    zip: zip.optional(),
    city: city.optional(),
    ...serviceCallFields,
    ...timeWindow,
    date: date('date').optional().describe('Earliest day (business-local).'),
    days: z.int().min(1, 'days must be between 1 and 14.').max(14, 'days must be between 1 and 14.').default(7)
      .describe('Days to look ahead.'),
    max_price: positiveMoney('max_price').optional().describe('Maximum service-call fee in USD.'),
    sort: sortOrder,
    page,
  }).superRefine(issueOfTrade),
  ['zip', 'city'],
  'Pass zip (5 digits) or city (e.g. "Austin TX") so we know where the visit is.',
);

export const BUSINESS_TYPES = ['cleaning', 'plumbing', 'hvac', 'services', 'auto_repair', 'beauty', 'retail', 'food'] as const;

export const findBusinessesInput = requireOneOf(
  z.object({
    zip: zip.optional(),
    city: city.optional(),
    query: z.string().max(100, 'query must be at most 100 characters.').optional()
      .describe('What the person wants, in their words ("haircut", "oil change"); matched against names, kinds and services.'),
    type: z.enum(BUSINESS_TYPES, { error: `type must be one of ${BUSINESS_TYPES.join(', ')}.` }).optional()
      .describe('Only businesses of this kind.'),
    page,
  }),
  ['zip', 'city'],
  'Pass zip (5 digits) or city (e.g. "San Francisco CA") so we know where to look.',
);
