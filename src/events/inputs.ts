import { z } from 'zod';

export const updatesInput = z.object({
  since: z
    .string()
    .min(1, 'since must not be empty; omit it for the first call.')
    .max(8000, 'since must be at most 8000 characters.')
    .optional()
    .describe('The cursor returned by the previous updates call; omit it on the first call.'),
});
