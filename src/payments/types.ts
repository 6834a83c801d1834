import { builder } from '../builder.js';
import type { customerPaymentOnboardingService } from './accounts.js';

export const OnboardingResult = builder.objectRef<Awaited<ReturnType<typeof customerPaymentOnboardingService>>>('PaymentOnboardingResult').implement({
  fields: (t) => ({
    url: t.exposeString('url', { description: "Private: the provider's onboarding page, for the owner only." }),
    expiresAt: t.exposeString('expiresAt'),
    provider: t.exposeString('provider', { description: 'stripe or sandbox.' }),
    accountReady: t.exposeBoolean('accountReady', { description: 'Customers can pay upfront now.' }),
    next: t.exposeString('next'),
  }),
});
