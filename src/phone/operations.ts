import { defineOperation } from '../registry/operation.js';
import { activatePhoneNumberService, phoneNumbersService } from './numbers.js';
import { phonePortabilityService, prepareNumberPortService } from './ports.js';
import { activatePhoneNumberInput, phoneNumbersInput, phonePortabilityInput, prepareNumberPortInput } from './inputs.js';
import { ActivateResult, PhoneNumbersResult, PortDraftResult, PortabilityResult } from './types.js';

export const phoneNumbers = defineOperation({
  name: 'phone_numbers',
  domain: 'phone',
  method: 'GET',
  auth: 'owner',
  result: PhoneNumbersResult,
  resolve: phoneNumbersService,
  description:
    'Search available US local numbers, included in the plan. Buys nothing; activate one with activate_phone_number.',
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
  description:
    'Buy the phone_numbers number the owner approved (included in the active plan it needs). May stay pending; a repeat checks, never buys twice.',
  input: activatePhoneNumberInput,
  example: { input: { number: '+15125550100', owner_approved: true } },
});

export const phonePortability = defineOperation({
  name: 'phone_portability',
  domain: 'phone',
  method: 'GET',
  auth: 'owner',
  annotations: { openWorldHint: true },
  result: PortabilityResult,
  resolve: phonePortabilityService,
  description:
    "Check whether the owner's US number can move to the receptionist. Submits nothing; start a move with prepare_number_port.",
  input: phonePortabilityInput,
  example: { input: { number: '+15125550142' } },
});

export const prepareNumberPort = defineOperation({
  name: 'prepare_number_port',
  domain: 'phone',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true, openWorldHint: true },
  result: PortDraftResult,
  resolve: prepareNumberPortService,
  description:
    "On the owner's explicit request, with an active plan: checks the number with the carrier and drafts a transfer, returning the dashboard page where the owner, signed in, " +
    "finishes it (authorisation, carrier details).",
  input: prepareNumberPortInput,
  example: { input: { number: '+15125550142', owner_requested: true, replace_number: true } },
});

export const operations = [phoneNumbers, activatePhoneNumber, phonePortability, prepareNumberPort];
