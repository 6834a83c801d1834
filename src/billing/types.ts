import { builder } from '../builder.js';
import type { receptionistServiceView } from './service.js';

type View = Awaited<ReturnType<typeof receptionistServiceView>>;

const PlanType = builder.objectRef<View['plan']>('ReceptionistPlan').implement({
  fields: (t) => ({
    status: t.exposeString('status', { description: 'none, incomplete, active, past_due or cancelled.' }),
    monthlyDollars: t.exposeFloat('monthlyDollars'),
    overageDollarsPerMinute: t.exposeFloat('overageDollarsPerMinute'),
    periodEnd: t.exposeString('periodEnd', { nullable: true }),
    cancelsAtPeriodEnd: t.exposeBoolean('cancelsAtPeriodEnd'),
  }),
});

const PortType = builder.objectRef<NonNullable<View['phone']['port']>>('NumberPortState').implement({
  fields: (t) => ({
    portId: t.exposeID('portId'),
    number: t.exposeString('number'),
    status: t.exposeString('status', { description: 'draft, submitted, completed or rejected.' }),
    reason: t.exposeString('reason', { nullable: true }),
  }),
});

const PhoneType = builder.objectRef<View['phone']>('ReceptionistPhone').implement({
  fields: (t) => ({
    status: t.exposeString('status', { description: 'none, pending, active or failed.' }),
    number: t.exposeString('number', { nullable: true }),
    port: t.field({ type: PortType, nullable: true, resolve: (p) => p.port }),
  }),
});

const CustomerPaymentsType = builder.objectRef<View['customerPayments']>('CustomerPayments').implement({
  fields: (t) => ({ status: t.exposeString('status', { description: 'none, onboarding or ready.' }) }),
});

const UsageType = builder.objectRef<View['usage']>('ReceptionistUsagePeriod').implement({
  description: 'This billing period.',
  fields: (t) => ({
    includedMinutes: t.exposeInt('includedMinutes'),
    usedMinutes: t.exposeInt('usedMinutes'),
    overageDollars: t.exposeFloat('overageDollars'),
  }),
});

export const SpendingLimitType = builder.objectRef<View['spendingLimit']>('SpendingLimit').implement({
  fields: (t) => ({
    monthlyDollars: t.exposeFloat('monthlyDollars', { description: 'Plan and overages together.' }),
    atLimit: t.exposeString('atLimit', { description: 'pause or ask.' }),
    committedDollars: t.exposeFloat('committedDollars', { description: 'Already committed this month.' }),
    reached: t.exposeBoolean('reached', { description: 'Paid minutes stopped.' }),
  }),
});

export const ServiceType = builder.objectRef<View>('ReceptionistService').implement({
  description: 'Private. Holds no card, bank, PIN or account numbers.',
  fields: (t) => ({
    plan: t.field({ type: PlanType, resolve: (v) => v.plan }),
    phone: t.field({ type: PhoneType, resolve: (v) => v.phone }),
    customerPayments: t.field({ type: CustomerPaymentsType, resolve: (v) => v.customerPayments }),
    usage: t.field({ type: UsageType, resolve: (v) => v.usage }),
    spendingLimit: t.field({ type: SpendingLimitType, resolve: (v) => v.spendingLimit }),
    note: t.exposeString('note', { nullable: true }),
  }),
});

export const LinkType = builder
  .objectRef<{ url: string; expiresAt: string; next: string; monthlyDollars?: number; includedMinutes?: number; overageDollarsPerMinute?: number }>('PrivateLink')
  .implement({
    fields: (t) => ({
      url: t.exposeString('url', { description: 'Private, short-lived: for the owner only.' }),
      expiresAt: t.exposeString('expiresAt'),
      monthlyDollars: t.exposeFloat('monthlyDollars', { nullable: true }),
      includedMinutes: t.exposeInt('includedMinutes', { nullable: true }),
      overageDollarsPerMinute: t.exposeFloat('overageDollarsPerMinute', { nullable: true }),
      next: t.exposeString('next'),
    }),
  });
