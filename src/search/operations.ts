import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { city, date, positiveMoney, sortOrder, timeWindow, zip } from '../registry/fields.js';
import { cleaningJobFields, searchAddOns } from '../pricing/job.js';
import { issueOfTrade, serviceCallFields } from '../pricing/service-call.js';

export const findCleaners = defineOperation({
  name: 'find_cleaners',
  method: 'GET',
  auth: 'public',
  description:
    'Find house cleaners serving a ZIP code or city, each with a firm total price for the described job (no added fees), ' +
    'the job length, the next open start times (ISO 8601 with the business\'s UTC offset) and links to the business\'s checked profiles with the rating shown there. ' +
    'Pass zip or city (zip is more precise). Links are best-effort checks, never an endorsement; the service does not check licences or insurance.',
  input: z.object({
    zip: zip.optional(),
    city: city.optional(),
    ...cleaningJobFields,
    add_ons: searchAddOns,
    ...timeWindow,
    date: date('date').optional().describe('Earliest day, YYYY-MM-DD (business-local).'),
    max_price: positiveMoney('max_price').optional().describe('Maximum total in USD.'),
    sort: sortOrder,
  }),
  example: { input: { zip: '78704', bedrooms: 2, bathrooms: 1.5, clean_type: 'standard' } },
});

export const findServiceCall = defineOperation({
  name: 'find_service_call',
  method: 'GET',
  auth: 'public',
  description:
    'Find plumbers or heating/air-conditioning (HVAC) pros serving a ZIP code or city, each with a firm service-call fee for the issue, ' +
    'open arrival windows ({start, end}, ISO 8601 with the business\'s UTC offset) and links to the business\'s checked profiles with the rating shown there. ' +
    'The fee covers the visit and diagnosis only; repairs are quoted on site before work starts, so the fee is never the price of the repair. ' +
    'For gas smells, uncontrollable flooding or anything unsafe, the user must first leave and call 911 or the gas utility from outside: every result carries this as `safety`; relay it. ' +
    'Links are best-effort checks, never an endorsement; the service does not check licences or insurance.',
  input: z
    .object({
      zip: zip.optional(),
      city: city.optional(),
      ...serviceCallFields,
      ...timeWindow,
      date: date('date').optional().describe('Earliest day, YYYY-MM-DD (business-local).'),
      days: z.int('days must be a whole number.').min(1, 'days must be between 1 and 14.').max(14, 'days must be between 1 and 14.').default(7)
        .describe('Days to look ahead, 1-14, default 7.'),
      max_price: positiveMoney('max_price').optional().describe('Maximum service-call fee in USD.'),
      sort: sortOrder,
    })
    .superRefine(issueOfTrade),
  example: { input: { zip: '78704', trade: 'plumbing', issue: 'leak', details: 'Water drips under the kitchen sink.' } },
});

export const operations = [findCleaners, findServiceCall];
