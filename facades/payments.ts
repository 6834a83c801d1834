import { Hono } from 'hono';
import type { Services } from '../src/context.js';
import { ROUTES } from '../src/links.js';
import { receivePaymentWebhook } from '../src/payments/webhooks.js';
import { WebhookSignatureError } from '../src/payments/provider.js';
import type { CheckoutView, OnboardingView, PortalView } from '../src/payments/sandbox.js';
import { eta, layout } from './html.js';
import { centsForPeople, whenForPeople, wordsFor } from '../src/core/for-people.js';

/**
 * POST /webhooks/payments: the payment provider's events (Stripe's, or the sandbox's in the
 * same format). The raw body is verified against Stripe-Signature before anything else; an
 * unsigned or wrongly signed request gets 400 and changes nothing.
 */
export function paymentWebhookRoutes(services: Services) {
  const app = new Hono();
  app.post(ROUTES.paymentWebhook, async (c) => {
    const raw = await c.req.text();
    try {
      const outcome = await receivePaymentWebhook(services, raw, c.req.header('stripe-signature'));
      return c.json({ received: true, outcome });
    } catch (err) {
      if (err instanceof WebhookSignatureError) return c.json({ error: err.message, code: 'invalid_signature' }, 400);
      throw err;
    }
  });
  return app;
}

const SANDBOX_NOTE = `<p class="note" id="sandbox">Porchlight payment sandbox: no real money or personal data moves. With Stripe configured, Stripe's own pages stand here.</p>`;

const checkoutTemplate = `${SANDBOX_NOTE}
<h1>Pay <%= it.v.businessName %></h1>
<% if (it.v.terms) { %><p id="terms">A monthly plan: <%= it.v.terms %>. Cancel any time in the billing portal.</p><% } %>
<table id="items"><% it.v.lineItems.forEach(function (i) { %><tr><td><%= i.name %></td><td><%= i.quantity %> × <%= i.amount %></td></tr><% }) %></table>
<p>Total: <strong id="total"><%= it.v.total %></strong><% if (it.v.terms) { %> a month<% } %></p>
<% if (it.v.status === 'open') { %>
<p class="note" id="deadline">This checkout takes payment until <%= it.deadline %>.</p>
<% if (it.error) { %><p id="error" role="alert"><strong><%= it.error %></strong></p><% } %>
<form method="post" action="<%= it.action %>">
<p><label for="card_number">Card number</label><br><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="30" required></p>
<p><label for="expiry">Expiry (MM/YY)</label><br><input id="expiry" name="expiry" autocomplete="cc-exp" maxlength="7" required>
<label for="cvc">CVC</label> <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" size="5" required></p>
<p><label for="name">Name on card</label><br><input id="name" name="name" autocomplete="cc-name" maxlength="100" required value="<%= it.name %>"></p>
<button type="submit" id="pay"><% if (it.v.terms) { %>Subscribe<% } else { %>Pay <%= it.v.total %><% } %></button>
</form>
<p><a id="leave" href="<%= it.v.cancelUrl %>">Leave without paying</a></p>
<p class="note">Test cards (any future expiry, any CVC): 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 5126 pays, and refunds of that payment fail.</p>
<% } else if (it.v.status === 'complete') { %>
<p id="outcome">Paid. <a href="<%= it.v.successUrl %>">Continue</a></p>
<% } else { %>
<p id="outcome">This checkout has expired: nothing was charged.</p>
<% } %>`;

const portalTemplate = `${SANDBOX_NOTE}
<h1>Billing</h1>
<% if (it.flash) { %><p class="note" id="outcome" role="status"><%= it.flash %></p><% } %>
<% if (it.error) { %><p id="error" role="alert"><strong><%= it.error %></strong></p><% } %>
<h2>Plans</h2>
<% if (!it.v.subscriptions.length) { %><p class="note">No plans.</p><% } %>
<% it.v.subscriptions.forEach(function (s) { %><div class="msg plan" id="plan-<%= s.id %>">
<p><strong><%= s.name %></strong> · <span class="status"><%= s.status %></span><br><%= s.terms %></p>
<% if (s.status === 'active') { %><p><% if (s.cancelAtPeriodEnd) { %>Ends on <%= s.periodEnd %>.<% } else { %>Renews on <%= s.periodEnd %>.<% } %></p>
<form method="post" action="<%= it.action %>"><input type="hidden" name="subscription_id" value="<%= s.id %>">
<% if (s.cancelAtPeriodEnd) { %><button type="submit" name="action" value="keep" id="keep">Keep the plan</button>
<% } else { %><button class="danger" type="submit" name="action" value="cancel_at_period_end" id="cancel">Cancel at the end of the period</button>
<button class="danger" type="submit" name="action" value="cancel_now" id="cancel-now">Cancel now</button><% } %>
</form><% } else { %><p>Ended <%= s.periodEnd %>.</p><% } %></div><% }) %>
<h2>Invoices</h2>
<table id="invoices"><% it.v.invoices.forEach(function (i) { %><tr><td><%= i.date %></td><td><%= i.amount %></td><td><%= i.status %></td><td><%= i.lines.join('; ') %></td></tr><% }) %></table>
<p><a id="return" href="<%= it.v.returnUrl %>">Back to Porchlight</a></p>
<p class="note">This link is private and works until <%= it.v.expiresAt %> (UTC). Opening it changes nothing.</p>`;

const FIELDS = [
  ['business_name', 'Legal business name', 'organization'],
  ['tax_id', 'Employer Identification Number (EIN)', 'off'],
  ['routing_number', 'Bank routing number', 'off'],
  ['account_number', 'Bank account number', 'off'],
  ['representative_name', 'Your full name (the person responsible for the account)', 'name'],
  ['date_of_birth', 'Your date of birth (YYYY-MM-DD)', 'bday'],
  ['ssn_last4', 'Last 4 digits of your SSN', 'off'],
] as const;

const onboardingTemplate = `${SANDBOX_NOTE}
<h1>Set up payments for <%= it.v.businessName %></h1>
<p>Customers will pay you upfront for appointments. These details go to the payment provider, never to Porchlight.</p>
<% if (it.v.detailsSubmitted) { %><p class="note" id="on-file">Your details are on file; sending this form updates them.</p><% } %>
<form method="post" action="<%= it.action %>">
<% it.fields.forEach(function (f) { %><p><label for="<%= f[0] %>"><%= f[1] %></label><br><input id="<%= f[0] %>" name="<%= f[0] %>" autocomplete="<%= f[2] %>" maxlength="100" required value="<%= f[0] === 'business_name' || f[0] === 'representative_name' ? (it.values[f[0]] || '') : '' %>"><% if (it.errors[f[0]]) { %><br><strong class="error" id="error-<%= f[0] %>"><%= it.errors[f[0]] %></strong><% } %></p>
<% }) %>
<button type="submit" id="submit">Submit to the payment provider</button>
</form>
<p class="note">Sandbox test values: EIN 000000000, routing 110000000, account 000123456789, SSN last 4 0000.</p>`;

/** What a person typed, shown back in a form: plain text only. */
const typed = (value: unknown) => (typeof value === 'string' ? value.replace(/[\u0000-\u001F\u007F]/g, '').slice(0, 100) : '');

const infoTemplate = `<h1 id="title"><%= it.title %></h1><p id="message"><%= it.message %></p>`;

// The page a customer lands on after paying for an appointment. It only reads: the appointment's
// state comes from the payment provider's signed webhook, never from this redirect.
const receiptTemplate = `<h1 id="title"><%= it.title %></h1>
<% if (it.r) { %><dl id="receipt">
<dt>Business</dt><dd id="business"><%= it.r.businessName %></dd>
<dt>Appointment</dt><dd id="appointment"><%= it.r.service %>, <%= it.r.when %></dd>
<dt><% if (it.r.paid) { %>Paid<% } else { %>Amount<% } %></dt><dd id="amount"><%= it.r.amount %></dd>
<dt>Status</dt><dd id="status"><%= it.r.status %></dd>
</dl>
<h2>What happens next</h2><p id="message"><%= it.r.next %></p>
<% } else { %><p id="message">Thank you. The appointment is confirmed as soon as the payment provider tells Porchlight, usually within seconds. You will see it in your conversation with the business, and so will your assistant.</p><% } %>`;

type Receipt = { businessName: string; service: string; when: string; amount: string; paid: boolean; status: string; next: string };

/** What the receipt page says about an appointment, in the business's zone. */
export function receiptOf(
  a: { status: string; priceCents: number; paidCents: number | null; serviceName: string; start: Date; business: { name: string; timeZone: string } },
  now: number,
): Receipt {
  const when = whenForPeople(a.start, a.business.timeZone, now);
  const paid = a.paidCents !== null && a.paidCents > 0;
  const base = { businessName: a.business.name, service: a.serviceName, when, amount: centsForPeople(paid ? a.paidCents! : a.priceCents), paid };
  const cancel = `To cancel (with a full refund until 24 hours before the start), ask ${a.business.name} in your conversation or through your assistant.`;
  switch (a.status) {
    case 'confirmed':
      return { ...base, status: 'Confirmed', next: `You are booked: ${a.business.name} expects you ${when}. ${cancel}` };
    case 'awaiting_payment':
      return { ...base, status: 'Waiting for the payment provider', next: 'Porchlight confirms the appointment as soon as the payment provider reports the payment, usually within seconds: reload this page to see it. Until then nothing is confirmed; unpaid, the time is released when the checkout expires.' };
    case 'lapsed':
      return { ...base, status: 'Not paid in time', next: 'The checkout expired before a payment arrived, so the time was released and nothing was charged. Book again to get a new time.' };
    default:
      return { ...base, status: wordsFor(a.status).replace(/^./, (c) => c.toUpperCase()), next: `Ask ${a.business.name} in your conversation if anything is unclear.` };
  }
}

const INFO = {
  [ROUTES.checkoutLeft]: ['No payment made', 'Nothing was charged. The time stays held until the checkout expires, 30 minutes after booking: open the checkout link again to pay until then. Unpaid, the booking lapses.'],
  [ROUTES.onboardingDone]: ['Details sent to the payment provider', 'Thank you. Once the provider has checked them, booking_setup shows payment_account_ready true and services can be paid upfront.'],
  [ROUTES.onboardingExpired]: ['This link has expired', 'Onboarding links work once and only for a short while. Ask your assistant for a new one (customer_payment_onboarding).'],
  [ROUTES.planDone]: ['Payment submitted', 'Thank you. The receptionist plan is active as soon as the payment provider tells Porchlight, usually within seconds: receptionist_service shows it.'],
  [ROUTES.planLeft]: ['No plan bought', 'Nothing was charged. The checkout link works for an hour; ask your assistant for it again (receptionist_checkout).'],
  [ROUTES.portalReturn]: ['Back from billing', 'Changes made in the billing portal reach Porchlight within seconds: receptionist_service shows the plan.'],
} as const;

/**
 * The pages the payment provider sends people back to (they only inform: no state changes from
 * a redirect), and, with the sandbox, its hosted checkout and onboarding pages. No scripts: the
 * forms POST, every value is escaped, and the pages carry the secure headers of every page.
 */
export function paymentPageRoutes(services: Services) {
  const app = new Hono();
  const page = (title: string, template: string, data: object, status: 200 | 400 | 404 = 200) =>
    new Response(layout(title, eta.renderString(template, data)), { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });

  for (const [route, [title, message]] of Object.entries(INFO)) app.get(route, () => page(title, infoTemplate, { title, message }));

  const appointmentOf = (sessionId: string) =>
    services.prisma.appointment.findUnique({
      where: { checkoutSessionId: sessionId },
      select: { status: true, priceCents: true, paidCents: true, serviceName: true, start: true, conversation: { select: { business: { select: { name: true, timeZone: true } } } } },
    });
  app.get(ROUTES.checkoutDone, async (c) => {
    const id = c.req.query('session_id');
    const a = id && id.length <= 200 ? await appointmentOf(id) : null;
    const r = a ? receiptOf({ ...a, business: a.conversation.business }, services.clock.now()) : null;
    const title = r?.paid ? 'Payment received' : 'Payment submitted';
    return page(title, receiptTemplate, { title, r });
  });

  /** The zone a checkout's deadline is shown in: its business's (UTC for none). */
  const checkoutZone = async (sessionId: string) => {
    const a = await appointmentOf(sessionId);
    if (a) return a.conversation.business.timeZone;
    const plan = await services.prisma.receptionistBilling.findFirst({ where: { checkoutSessionId: sessionId }, select: { businessId: true } });
    const business = plan ? await services.prisma.business.findUnique({ where: { id: plan.businessId }, select: { timeZone: true } }) : null;
    return business?.timeZone ?? 'UTC';
  };

  const sandbox = services.payments.sandbox;
  if (!sandbox) return app;
  const missing = (what: string) => page('Not found', infoTemplate, { title: `No such ${what}`, message: `This ${what} link is not valid or has expired.` }, 404);

  const checkoutPage = async (id: string, v: CheckoutView, extra: { error?: string; name?: string } = {}, status: 200 | 400 = 200) => {
    const deadline = whenForPeople(v.expiresAt, await checkoutZone(id), services.clock.now());
    return page(`Pay ${v.businessName}`, checkoutTemplate, { v, deadline, action: `/sandbox/checkout/${encodeURIComponent(id)}`, error: extra.error, name: extra.name ?? '' }, status);
  };

  app.get(ROUTES.sandboxCheckout, async (c) => {
    const id = c.req.param('id');
    const v = await sandbox.checkout(id);
    return v ? checkoutPage(id, v) : missing('checkout');
  });
  app.post(ROUTES.sandboxCheckout, async (c) => {
    const id = c.req.param('id');
    const form = await c.req.parseBody();
    const outcome = await sandbox.pay(id, form);
    if (outcome.ok) return c.redirect(outcome.redirect, 303);
    if (!outcome.view) return missing('checkout');
    return checkoutPage(id, outcome.view, { error: outcome.error, name: typed(form.name) }, 400);
  });

  const portalPage = (token: string, v: PortalView, extra: { flash?: string; error?: string } = {}, status: 200 | 400 = 200) =>
    page('Billing', portalTemplate, { v, action: `/sandbox/portal/${encodeURIComponent(token)}`, ...extra }, status);
  const portalGone = () => page('Link expired', infoTemplate, { title: 'This link has expired', message: 'Billing portal links are private and short-lived. Ask your assistant for a new one (receptionist_billing_portal).' }, 404);

  app.get(ROUTES.sandboxPortal, async (c) => {
    const token = c.req.param('token');
    const v = await sandbox.portal(token);
    return v ? portalPage(token, v) : portalGone();
  });
  app.post(ROUTES.sandboxPortal, async (c) => {
    const token = c.req.param('token');
    const outcome = await sandbox.portalAction(token, await c.req.parseBody());
    const v = await sandbox.portal(token);
    if (!v) return portalGone();
    return outcome.ok ? portalPage(token, v, { flash: outcome.message }) : portalPage(token, v, { error: outcome.error }, 400);
  });

  const onboardingPage = (token: string, v: OnboardingView, values: Record<string, unknown> = {}, errors: Record<string, string> = {}, status: 200 | 400 = 200) =>
    page('Payment onboarding', onboardingTemplate, { v, values: { business_name: v.businessName, ...values }, errors, fields: FIELDS, action: `/sandbox/onboarding/${encodeURIComponent(token)}` }, status);

  app.get(ROUTES.sandboxOnboarding, async (c) => {
    const token = c.req.param('token');
    const v = await sandbox.onboarding(token);
    return v ? onboardingPage(token, v) : c.redirect(services.links.onboardingExpired(), 303);
  });
  app.post(ROUTES.sandboxOnboarding, async (c) => {
    const token = c.req.param('token');
    const form = await c.req.parseBody();
    const outcome = await sandbox.submitOnboarding(token, form);
    if (outcome.ok) return c.redirect(outcome.redirect, 303);
    if (!outcome.view) return c.redirect(services.links.onboardingExpired(), 303);
    const kept = Object.fromEntries(['business_name', 'representative_name'].map((k) => [k, typed(form[k])]));
    return onboardingPage(token, outcome.view, kept, outcome.errors, 400);
  });
  return app;
}
