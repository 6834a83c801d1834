import { builder } from '../builder.js';
import type { activatePhoneNumberService, phoneNumbersService } from './numbers.js';
import type { phonePortabilityService, prepareNumberPortService } from './ports.js';

type Found = Awaited<ReturnType<typeof phoneNumbersService>>;

const AvailableNumberType = builder.objectRef<Found['numbers'][number]>('AvailableNumber').implement({
  fields: (t) => ({
    number: t.exposeString('number', { description: 'E.164.' }),
    locality: t.exposeString('locality'),
    region: t.exposeString('region'),
  }),
});

export const PhoneNumbersResult = builder.objectRef<Found>('PhoneNumbersResult').implement({
  fields: (t) => ({
    numbers: t.field({ type: [AvailableNumberType], resolve: (r) => r.numbers }),
    areaCode: t.exposeString('areaCode'),
    next: t.exposeString('next'),
  }),
});

export const ActivateResult = builder.objectRef<Awaited<ReturnType<typeof activatePhoneNumberService>>>('ActivatePhoneNumberResult').implement({
  fields: (t) => ({
    number: t.exposeString('number'),
    status: t.exposeString('status', { description: 'pending or active.' }),
    next: t.exposeString('next'),
  }),
});

export const PortabilityResult = builder.objectRef<Awaited<ReturnType<typeof phonePortabilityService>>>('PhonePortability').implement({
  fields: (t) => ({
    number: t.exposeString('number'),
    portable: t.exposeBoolean('portable'),
    reason: t.exposeString('reason'),
    pinRequired: t.exposeBoolean('pinRequired'),
  }),
});

export const PortDraftResult = builder.objectRef<Awaited<ReturnType<typeof prepareNumberPortService>>>('NumberPortDraft').implement({
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
