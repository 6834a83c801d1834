import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { city, date, positiveMoney, sortOrder, timeWindow, zip } from '../registry/fields.js';
import { cleaningJobFields, searchAddOns } from '../pricing/job.js';

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

export const operations = [findCleaners];
