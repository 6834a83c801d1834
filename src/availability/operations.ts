import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { date, identifier, timeWindow } from '../registry/fields.js';
import { cleaningJobFields, searchAddOns } from '../pricing/job.js';

export const availableTimes = defineOperation({
  name: 'available_times',
  method: 'GET',
  auth: 'public',
  description:
    'Open start times for one cleaner and job, as ISO 8601 strings with the business\'s UTC offset, plus the firm total price. ' +
    'With a recurring frequency the times are for the first visit, and only times where every visit of the series is free are shown.',
  input: z.object({
    pro_id: identifier('pro_id').describe('A pro_id from find_cleaners.'),
    ...cleaningJobFields,
    add_ons: searchAddOns,
    ...timeWindow,
    date: date('date').optional().describe('First day, YYYY-MM-DD (business-local); default today.'),
    days: z.int('days must be a whole number.').min(1, 'days must be between 1 and 21.').max(21, 'days must be between 1 and 21.').default(7).describe('Days to look ahead, 1-21, default 7.'),
  }),
  example: { input: { pro_id: 'DEMO_CLEANER', bedrooms: 2, bathrooms: 1.5, days: 7 } },
});

export const operations = [availableTimes];
