import { z } from 'zod';

// The spec's recurring field rules, each written once with a message a person can act on.

export const zip = z.string().regex(/^\d{5}$/, 'zip must be exactly 5 digits, e.g. 78704.').describe('ZIP code, exactly 5 digits.');
export const city = z.string().min(1).max(60).describe('City with optional state, e.g. "Austin TX". Live cities: Austin TX, San Francisco CA, San Jose CA.');
export const hhmm = (name: string) =>
  z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${name} must be a local 24-hour time HH:MM, e.g. 09:30.`);
/** A real calendar date within the years the service can schedule in. */
export const date = (name: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${name} must be a date YYYY-MM-DD.`)
    .refine((s) => s >= '2000-01-01' && s <= '2099-12-31' && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), {
      message: `${name} must be a real calendar date YYYY-MM-DD between 2000 and 2099.`,
    })
    .meta({ format: 'date' });
export const positiveMoney = (name: string) =>
  z.number().gt(0, `${name} must be greater than 0.`).max(1_000_000, `${name} is too large.`);
export const page = z.int().min(1, 'page must be between 1 and 20.').max(20, 'page must be between 1 and 20.').default(1).describe('Page of 20 results, 1-20 (default 1); next_page says whether another follows.');
export const sortOrder = z.enum(['soonest', 'price']).default('soonest').describe('soonest (default) or price.');
export const text = (name: string, max: number, min = 0) =>
  z
    .string()
    .min(min, min === 1 ? `${name} must not be empty.` : `${name} must be at least ${min} characters.`)
    .max(max, `${name} must be at most ${max} characters.`);
export const identifier = (name: string, max = 100) => z.string().min(1, `${name} is required.`).max(max, `${name} must be at most ${max} characters.`);

/** Customer time-of-day filters shared by searches and time listings. */
export const timeWindow = {
  start_after: hhmm('start_after').optional().describe('Earliest start, local HH:MM.'),
  finish_by: hhmm('finish_by').optional().describe('The job must finish by this local HH:MM.'),
};
