import { z } from 'zod';
import { ADD_ONS, CLEAN_TYPES } from './engine.js';
import { FREQUENCIES } from '../core/recurrence.js';

// A cleaning job as customers describe it; shared by search, times, booking and questions.


export const bedrooms = z.int().min(0, 'bedrooms must be between 0 and 10.').max(10, 'bedrooms must be between 0 and 10.').describe('0 for a studio.');
export const bathrooms = z
  .number()
  .min(1, 'bathrooms must be between 1 and 10.')
  .max(10, 'bathrooms must be between 1 and 10.')
  .multipleOf(0.5, 'bathrooms may only be whole or half numbers, e.g. 1.5.')
  .describe('Halves allowed.');
export const cleanType = z.enum(CLEAN_TYPES).default('standard').describe('move_out covers move-in; turnover: between guests.');
export const sqft = z.int().min(200, 'sqft must be between 200 and 15000.').max(15000, 'sqft must be between 200 and 15000.').describe('Only if the user said it.');
export const frequency = z.enum(FREQUENCIES).default('once').describe('A series (same cleaner, weekday, time) up to 60 days ahead; monthly: every 4 weeks; times are the first visit\'s.');
export const pets = z.boolean().default(false).describe('Pets at home (priced in).');
export const searchAddOns = z.array(z.enum(ADD_ONS)).max(6).default([]).describe('Extras to price in.');
export const bookingAddOns = z
  .array(z.string().min(1).max(40, 'Each item of add_ons must be at most 40 characters.'))
  .max(10, 'add_ons may hold at most 10 items.')
  .default([])
  .describe('fridge, oven, windows, cabinets, laundry, restock.');

/** The job fields every cleaning operation takes (add_ons differ: a fixed list when searching). */
export const cleaningJobFields = { bedrooms, bathrooms, clean_type: cleanType, sqft: sqft.optional(), frequency, pets };
