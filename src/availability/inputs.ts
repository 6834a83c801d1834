import { z } from 'zod';
import { date, identifier, timeWindow } from '../registry/fields.js';
import { cleaningJobFields, searchAddOns } from '../pricing/job.js';

export const availableTimesInput = z.object({
  pro_id: identifier('pro_id').describe('A pro_id from find_cleaners.'),
  ...cleaningJobFields,
  clean_type: cleaningJobFields.clean_type.describe('move_out covers move-in; turnover: between guests. Offers vary (a 400 names them).'),
  add_ons: searchAddOns.describe('Extras to price in. Offers vary (a 400 names them).'),
  ...timeWindow,
  date: date('date').optional().describe('First day (business-local); default today.'),
  days: z.int().min(1, 'days must be between 1 and 21.').max(21, 'days must be between 1 and 21.').default(7).describe('Days to look ahead.'),
});
