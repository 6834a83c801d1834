import { builder } from '../builder.js';
import type { quoteView } from '../owners/jobs.js';

export const LineItem = builder.objectRef<{ label: string; amount: number }>('LineItem').implement({
  fields: (t) => ({ label: t.exposeString('label'), amount: t.exposeFloat('amount', { description: 'USD.' }) }),
});

export const QuoteType = builder.objectRef<ReturnType<typeof quoteView>>('JobQuote').implement({
  description: "A firm quote from the business's own price list: exactly what a customer would be charged booking that job.",
  fields: (t) => ({
    total: t.exposeFloat('total', { nullable: true, description: 'Cleaning: the firm total in USD.' }),
    fee: t.exposeFloat('fee', { nullable: true, description: 'Service call: the firm service-call fee in USD (visit and diagnosis; repairs are quoted on site).' }),
    lineItems: t.field({ type: [LineItem], resolve: (q) => q.lineItems }),
    estimatedHours: t.exposeFloat('estimatedHours', { description: 'Cleaning: the job length; service call: the arrival window the booking holds.' }),
    durationMinutes: t.exposeInt('durationMinutes'),
    job: t.exposeString('job'),
  }),
});
