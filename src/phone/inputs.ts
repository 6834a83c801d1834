import { z } from 'zod';
import { text } from '../registry/fields.js';

const number = text('number', 30, 7).describe('US number.');

export const phoneNumbersInput = z.object({
  area_code: z.string().regex(/^\d{3}$/, 'area_code must be 3 digits, e.g. 512.').optional().describe('Default: the business\'s.'),
  contains: z.string().regex(/^\d{1,7}$/, 'contains must be 1-7 digits.').optional().describe('Digits the number should contain, e.g. 2024.'),
});

export const activatePhoneNumberInput = z.object({
  number: number.describe('One from phone_numbers.'),
  owner_approved: z.boolean().describe('true once the owner approved this exact number.'),
});

export const phonePortabilityInput = z.object({ number: number.describe("The owner's existing US number.") });

export const prepareNumberPortInput = z.object({
  number,
  owner_requested: z.boolean().describe('true only when the owner asked to move this number.'),
  replace_number: z.boolean().optional().describe("true only if the owner agreed it replaces the business's number (given back to the carrier); else refused if it has one."),
});
