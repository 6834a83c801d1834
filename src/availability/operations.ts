import { defineOperation } from '../registry/operation.js';
import { availableTimesService } from './service.js';
import { availableTimesInput } from './inputs.js';
import { AvailableTimesResult } from './types.js';

export const availableTimes = defineOperation({
  name: 'available_times',
  domain: 'availability',
  method: 'GET',
  auth: 'public',
  result: AvailableTimesResult,
  resolve: availableTimesService,
  description:
    "Open starts for one cleaner and job (ISO 8601 with the business's offset) and the firm total price. With a recurring frequency, times are for the first " +
    "visit, offered only where every visit of the series is free. Book with book_cleaning.",
  input: availableTimesInput,
  example: { input: { pro_id: 'DEMO_CLEANER', bedrooms: 2, bathrooms: 1.5, days: 7 } },
});

export const operations = [availableTimes];
