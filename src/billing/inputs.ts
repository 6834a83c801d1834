import { z } from 'zod';

export const receptionistCheckoutInput = z.object({
  owner_approved: z.boolean().describe('true once the owner agreed to the plan shown.'),
});

export const receptionistLimitsInput = z.object({
  monthly_dollars: z.int().min(0, 'monthly_dollars must be 0-10000.').max(10_000, 'monthly_dollars must be 0-10000.').describe('Plan and overages together.'),
  at_limit: z.enum(['pause', 'ask']).describe('Both stop paid minutes; ask also leaves the owner a note.'),
});
