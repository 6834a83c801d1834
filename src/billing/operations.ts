import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { receptionistBillingPortalService, receptionistCheckoutService } from './plan.js';
import { receptionistLimitsService, receptionistRefreshService, receptionistServiceView } from './service.js';
import { receptionistCheckoutInput, receptionistLimitsInput } from './inputs.js';
import { LinkType, ServiceType, SpendingLimitType } from './types.js';

export const receptionistService = defineOperation({
  name: 'receptionist_service',
  domain: 'billing',
  method: 'GET',
  auth: 'owner',
  result: ServiceType,
  resolve: (_input, ctx) => receptionistServiceView(ctx),
  description:
    'Private view of the receptionist plan, phone number and transfer, customer payments, usage, overage and spending limit.',
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
  description:
    "Link to the provider's checkout for the receptionist plan (monthly subscription). Needs owner_approved true. Pays and activates nothing by itself; after paying, " +
    "call receptionist_refresh.",
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
  description:
    "Private short-lived link to the provider's billing portal (invoices, cancel). Opening it neither charges nor cancels.",
  input: z.object({}),
  example: { input: {} },
});

export const receptionistLimits = defineOperation({
  name: 'receptionist_limits',
  domain: 'billing',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true },
  result: SpendingLimitType,
  resolve: receptionistLimitsService,
  description:
    'Set the enforced monthly spending limit (plan plus overage charges); never below charges already committed (400 below_committed_charges).',
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
  description:
    'Read payment provider and carrier status now (after checkout, onboarding or a carrier update); returns receptionist_service.',
  input: z.object({}),
  example: { input: {} },
});

export const operations = [receptionistService, receptionistCheckout, receptionistBillingPortal, receptionistLimits, receptionistRefresh];
