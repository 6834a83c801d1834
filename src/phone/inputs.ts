import { z } from 'zod';
import { usPhone } from '../registry/fields.js';
import { AREA_CODES } from './carrier.js';

const areaCodes = Object.keys(AREA_CODES) as [string, ...string[]];
const areaList = Object.entries(AREA_CODES).map(([code, p]) => `${code} (${p.locality})`).join(', ');

const number = usPhone('number');

export const phoneNumbersInput = z.object({
  // A string with the codes as its JSON Schema enum (GraphQL enum values cannot start with a digit).
  area_code: z
    .string()
    .regex(new RegExp(`^(${areaCodes.join('|')})$`), `The plan includes local numbers in these area codes: ${areaList}.`)
    .meta({ enum: areaCodes })
    .optional()
    .describe("One of the live cities' area codes. Default: the business's (or its city's)."),
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
