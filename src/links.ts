/**
 * The public pages and where they live. Domain code asks for a link here; the page routes in
 * facades/ are registered from the same patterns, so a link and its page cannot drift apart.
 */
export const ROUTES = {
  confirm: '/confirm/:token',
  manage: '/manage/:token',
  keyConfirm: '/key/confirm/:token',
  businessPage: '/b/:slug',
  /** A form that starts a conversation with the business (contact_business). */
  businessContact: '/b/:slug/contact',
  /** How AI assistants reach the business through Porchlight (plain text, llms.txt style). */
  agentInfo: '/b/:slug/llms.txt',
  paymentWebhook: '/webhooks/payments',
  /** Where the payment provider sends a customer after checkout and an owner after onboarding: pages that only inform. */
  checkoutDone: '/payments/checkout/done',
  checkoutLeft: '/payments/checkout/left',
  onboardingDone: '/payments/onboarding/done',
  onboardingExpired: '/payments/onboarding/expired',
  /** Where the provider sends an owner after the receptionist plan's checkout, and back from its billing portal. */
  planDone: '/payments/plan/done',
  planLeft: '/payments/plan/left',
  portalReturn: '/payments/portal/return',
  /** The payment sandbox's hosted pages (standing in for Stripe's). */
  sandboxCheckout: '/sandbox/checkout/:id',
  sandboxOnboarding: '/sandbox/onboarding/:token',
  sandboxPortal: '/sandbox/portal/:token',
  /** The dashboard's front-desk page where the owner, signed in, finishes a number transfer (prepare_number_port). */
  portSetup: '/app/front-desk/port/:token',
  /** A visit's or appointment's conversation, for the customer: status, pay, move, cancel, messages (the reply token opens it). */
  conversation: '/conversation/:inquiry/:token',
  /** The business's private calendar feed: `<token>.ics` (calendar/feed.ts). */
  calendarFeed: '/calendar/:file',
  /** Where that page was before the dashboard existed: links already handed out redirect. */
  legacyPortSetup: '/dashboard/front-desk/port/:token',
} as const;

export type Links = ReturnType<typeof createLinks>;

export function createLinks(baseUrl: string) {
  const at = (route: string, value: string) => `${baseUrl}${route.replace(/:\w+/, encodeURIComponent(value))}`;
  return {
    /** With the manage token, the confirm page can link to the manage page once confirmed (both links are in the same message). */
    confirm: (token: string, manageToken?: string) => `${at(ROUTES.confirm, token)}${manageToken ? `?manage=${encodeURIComponent(manageToken)}` : ''}`,
    manage: (token: string) => at(ROUTES.manage, token),
    keyConfirm: (token: string) => at(ROUTES.keyConfirm, token),
    businessPage: (slug: string) => at(ROUTES.businessPage, slug),
    businessContact: (slug: string) => at(ROUTES.businessContact, slug),
    agentInfo: (slug: string) => at(ROUTES.agentInfo, slug),
    paymentWebhook: () => `${baseUrl}${ROUTES.paymentWebhook}`,
    /** The provider fills in {CHECKOUT_SESSION_ID} (Stripe does; so does the sandbox), so the page can say what was paid. */
    checkoutDone: () => `${baseUrl}${ROUTES.checkoutDone}?session_id={CHECKOUT_SESSION_ID}`,
    checkoutLeft: () => `${baseUrl}${ROUTES.checkoutLeft}`,
    onboardingDone: () => `${baseUrl}${ROUTES.onboardingDone}`,
    onboardingExpired: () => `${baseUrl}${ROUTES.onboardingExpired}`,
    sandboxCheckout: (id: string) => at(ROUTES.sandboxCheckout, id),
    sandboxOnboarding: (token: string) => at(ROUTES.sandboxOnboarding, token),
    planDone: () => `${baseUrl}${ROUTES.planDone}`,
    planLeft: () => `${baseUrl}${ROUTES.planLeft}`,
    portalReturn: () => `${baseUrl}${ROUTES.portalReturn}`,
    sandboxPortal: (token: string) => at(ROUTES.sandboxPortal, token),
    portSetup: (token: string) => at(ROUTES.portSetup, token),
    calendarFeed: (token: string) => at(ROUTES.calendarFeed, `${token}.ics`),
    conversation: (inquiryId: string, replyToken: string) => at(at(ROUTES.conversation, inquiryId).slice(baseUrl.length), replyToken),
  };
}
