import { builder } from '../builder.js';
import { operationField } from '../registry/graphql.js';
import { availableTimes } from './operations.js';
import { availableTimesService } from './service.js';

const AvailableTimesResult = builder
  .objectRef<{ proId: string; price: number; durationMinutes: number; starts: string[] }>('AvailableTimesResult')
  .implement({
    fields: (t) => ({
      proId: t.exposeString('proId'),
      price: t.exposeFloat('price', { description: 'Firm total in USD for the described job (per visit for a series).' }),
      durationMinutes: t.exposeInt('durationMinutes'),
      starts: t.exposeStringList('starts', { description: 'Open starts, ISO 8601 with the business\'s UTC offset; pass one as start to book_cleaning.' }),
    }),
  });

operationField(availableTimes, AvailableTimesResult, availableTimesService);
