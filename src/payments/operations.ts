import { z } from 'zod';
import { builder } from '../builder.js';
import { defineOperation } from '../registry/operation.js';
import { customerPaymentOnboardingService } from './accounts.js';

const OnboardingResult = builder.objectRef<Awaited<ReturnType<typeof customerPaymentOnboardingService>>>('PaymentOnboardingResult').implement({
  fields: (t) => ({
    url: t.exposeString('url', { description: "Private: the provider's onboarding page, for the owner only." }),
    expiresAt: t.exposeString('expiresAt'),
    provider: t.exposeString('provider', { description: 'stripe or sandbox.' }),
    accountReady: t.exposeBoolean('accountReady', { description: 'Customers can pay upfront now.' }),
    next: t.exposeString('next'),
  }),
});

export const customerPaymentOnboarding = defineOperation({
  name: 'customer_payment_onboarding',
  domain: 'payments',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: true, openWorldHint: true },
  result: OnboardingResult,
  resolve: customerPaymentOnboardingService,
  description:
    "A private, short-lived link to the payment provider's onboarding, where the owner gives business, bank and identity details to the provider (never to Porchlight), so customers can pay upfront. Reads the account's status from the provider.",
  input: z.object({}),
});

export const operations = [customerPaymentOnboarding];
