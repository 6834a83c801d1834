import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { customerPaymentOnboardingService } from './accounts.js';
import { OnboardingResult } from './types.js';

export const customerPaymentOnboarding = defineOperation({
  name: 'customer_payment_onboarding',
  domain: 'payments',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true, openWorldHint: true },
  result: OnboardingResult,
  resolve: customerPaymentOnboardingService,
  description:
    "A private, short-lived link to the payment provider's onboarding: the owner gives it (never Porchlight) business, bank and identity details so customers can pay " +
    "upfront. Reads the account status.",
  input: z.object({}),
  example: { input: {} },
});

export const operations = [customerPaymentOnboarding];
