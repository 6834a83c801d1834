import { z } from 'zod';
import { builder } from '../builder.js';
import { defineOperation } from '../registry/operation.js';
import { text } from '../registry/fields.js';
import { activatePhoneNumberService, phoneNumbersService } from './numbers.js';
import { phonePortabilityService, prepareNumberPortService } from './ports.js';

type Found = Awaited<ReturnType<typeof phoneNumbersService>>;

const AvailableNumberType = builder.objectRef<Found['numbers'][number]>('AvailableNumber').implement({
  fields: (t) => ({
    number: t.exposeString('number', { description: 'E.164.' }),
    locality: t.exposeString('locality'),
    region: t.exposeString('region'),
  }),
});

const PhoneNumbersResult = builder.objectRef<Found>('PhoneNumbersResult').implement({
  fields: (t) => ({
    numbers: t.field({ type: [AvailableNumberType], resolve: (r) => r.numbers }),
    areaCode: t.exposeString('areaCode'),
    next: t.exposeString('next'),
  }),
});

const ActivateResult = builder.objectRef<Awaited<ReturnType<typeof activatePhoneNumberService>>>('ActivatePhoneNumberResult').implement({
  fields: (t) => ({
    number: t.exposeString('number'),
    status: t.exposeString('status', { description: 'pending or active.' }),
    next: t.exposeString('next'),
  }),
});

const PortabilityResult = builder.objectRef<Awaited<ReturnType<typeof phonePortabilityService>>>('PhonePortability').implement({
  fields: (t) => ({
    number: t.exposeString('number'),
    portable: t.exposeBoolean('portable'),
    reason: t.exposeString('reason'),
    pinRequired: t.exposeBoolean('pinRequired'),
  }),
});

const PortDraftResult = builder.objectRef<Awaited<ReturnType<typeof prepareNumberPortService>>>('NumberPortDraft').implement({
  fields: (t) => ({
    portId: t.exposeID('portId'),
    number: t.exposeString('number'),
    status: t.exposeString('status', { description: 'draft until the owner finishes it on the page.' }),
    replaces: t.exposeString('replaces', { nullable: true, description: 'The business\'s own number this transfer replaces (given back to the carrier when it completes), or null.' }),
    dashboardUrl: t.exposeString('dashboardUrl', { description: "The owner's page; it asks for their dashboard sign-in." }),
    expiresAt: t.exposeString('expiresAt'),
    next: t.exposeString('next'),
  }),
});

const number = text('number', 30, 7).describe('US number.');

export const phoneNumbersInput = z.object({
  area_code: z.string().regex(/^\d{3}$/, 'area_code must be 3 digits, e.g. 512.').optional().describe('Default: the business\'s.'),
  contains: z.string().regex(/^\d{1,7}$/, 'contains must be 1-7 digits.').optional(),
});

export const activatePhoneNumberInput = z.object({
  number: number.describe('One from phone_numbers.'),
  owner_approved: z.boolean().describe('true once the owner approved this exact number.'),
});

export const phonePortabilityInput = z.object({ number: number.describe("The owner's existing US number.") });

export const prepareNumberPortInput = z.object({
  number,
  owner_requested: z.boolean().describe('true only when the owner asked to move this number.'),
  replace_number: z.boolean().optional().describe("true only when the owner agreed that this number replaces the business's own, which is then given back to the carrier. Without it, a business with a number is refused."),
});

export const phoneNumbers = defineOperation({
  name: 'phone_numbers',
  domain: 'phone',
  method: 'GET',
  auth: 'owner',
  result: PhoneNumbersResult,
  resolve: phoneNumbersService,
  description: 'Search available US local numbers included in the plan. Buys nothing.',
  input: phoneNumbersInput,
  example: { input: { area_code: '512' } },
});

export const activatePhoneNumber = defineOperation({
  name: 'activate_phone_number',
  domain: 'phone',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true, openWorldHint: true },
  result: ActivateResult,
  resolve: activatePhoneNumberService,
  description: 'Buy the number from phone_numbers the owner approved; needs an active plan. May stay pending; a repeat checks, never buys twice.',
  input: activatePhoneNumberInput,
});

export const phonePortability = defineOperation({
  name: 'phone_portability',
  domain: 'phone',
  method: 'GET',
  auth: 'owner',
  annotations: { openWorldHint: true },
  result: PortabilityResult,
  resolve: phonePortabilityService,
  description: "Check whether the owner's US number can move to the receptionist. Submits nothing.",
  input: phonePortabilityInput,
});

export const prepareNumberPort = defineOperation({
  name: 'prepare_number_port',
  domain: 'phone',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true },
  result: PortDraftResult,
  resolve: prepareNumberPortService,
  description: 'On the owner\'s explicit request, with an active plan: a draft transfer and the dashboard page where the owner, signed in, finishes it (authorisation, carrier details). Replaces an existing number only with replace_number.',
  input: prepareNumberPortInput,
});

export const operations = [phoneNumbers, activatePhoneNumber, phonePortability, prepareNumberPort];
