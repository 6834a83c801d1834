import { z } from 'zod';
import { builder } from '../builder.js';
import { defineOperation } from '../registry/operation.js';
import { receptionistBillingPortalService, receptionistCheckoutService } from './plan.js';
import { receptionistLimitsService, receptionistRefreshService, receptionistServiceView } from './service.js';

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

const SpendingLimitType = builder.objectRef<View['spendingLimit']>('SpendingLimit').implement({
  fields: (t) => ({
    monthlyDollars: t.exposeFloat('monthlyDollars', { description: 'Plan and overages together.' }),
    atLimit: t.exposeString('atLimit', { description: 'pause or ask.' }),
    committedDollars: t.exposeFloat('committedDollars', { description: 'Already committed this month.' }),
    reached: t.exposeBoolean('reached', { description: 'Paid minutes stopped.' }),
  }),
});

const ServiceType = builder.objectRef<View>('ReceptionistService').implement({
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

const LinkType = builder
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

export const receptionistCheckoutInput = z.object({
  owner_approved: z.boolean().describe('true once the owner agreed to the plan shown.'),
});

export const receptionistLimitsInput = z.object({
  monthly_dollars: z.int().min(0, 'monthly_dollars must be 0-10000.').max(10_000, 'monthly_dollars must be 0-10000.').describe('Plan and overages together.'),
  at_limit: z.enum(['pause', 'ask']).describe('Both stop paid minutes; ask also leaves the owner a note.'),
});

export const receptionistService = defineOperation({
  name: 'receptionist_service',
  domain: 'billing',
  method: 'GET',
  auth: 'owner',
  result: ServiceType,
  resolve: (_input, ctx) => receptionistServiceView(ctx),
  description: 'Private view of the receptionist plan, phone number and transfer, customer payments, usage, overage and spending limit.',
  input: z.object({}),
  example: { input: {} },
});

export const receptionistCheckout = defineOperation({
  name: 'receptionist_checkout',
  domain: 'billing',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true, openWorldHint: true },
  result: LinkType,
  resolve: receptionistCheckoutService,
  description: "Link to the provider's checkout for the receptionist plan. Needs owner_approved true. Pays nothing, activates nothing.",
  input: receptionistCheckoutInput,
  example: { input: { owner_approved: true } },
});

export const receptionistBillingPortal = defineOperation({
  name: 'receptionist_billing_portal',
  domain: 'billing',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true, openWorldHint: true },
  result: LinkType,
  resolve: receptionistBillingPortalService,
  description: "Private short-lived link to the provider's billing portal (invoices, cancel). Opening it neither charges nor cancels.",
  input: z.object({}),
});

export const receptionistLimits = defineOperation({
  name: 'receptionist_limits',
  domain: 'billing',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true },
  result: SpendingLimitType,
  resolve: receptionistLimitsService,
  description: 'Set the enforced monthly limit (plan plus overages); never below committed charges (400 below_committed_charges).',
  input: receptionistLimitsInput,
  example: { input: { monthly_dollars: 80, at_limit: 'ask' } },
});

export const receptionistRefresh = defineOperation({
  name: 'receptionist_refresh',
  domain: 'billing',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true, openWorldHint: true },
  result: ServiceType,
  resolve: receptionistRefreshService,
  description: 'Read payment provider and carrier status now (after checkout, onboarding or a carrier update); returns receptionist_service.',
  input: z.object({}),
});

export const operations = [receptionistService, receptionistCheckout, receptionistBillingPortal, receptionistLimits, receptionistRefresh];
