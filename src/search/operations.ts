import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { city, date, hhmm, positiveMoney, sortOrder, zip } from '../registry/fields.js';
import { bathrooms, bedrooms, cleanType, frequency, pets, searchAddOns, sqft } from '../pricing/job.js';

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
    bedrooms,
    bathrooms,
    clean_type: cleanType,
    sqft: sqft.optional(),
    frequency,
    add_ons: searchAddOns,
    pets,
    start_after: hhmm('start_after').optional().describe('Earliest start, local HH:MM.'),
    finish_by: hhmm('finish_by').optional().describe('The job must finish by this local HH:MM.'),
    date: date('date').optional().describe('Earliest day, YYYY-MM-DD (business-local).'),
    max_price: positiveMoney('max_price').optional().describe('Maximum total in USD.'),
    sort: sortOrder,
  }),
  example: { input: { zip: '78704', bedrooms: 2, bathrooms: 1.5, clean_type: 'standard' } },
});

export const operations = [findCleaners];
