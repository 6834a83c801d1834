import { Hono } from 'hono';
import type { Services } from '../src/context.js';
import { ROUTES } from '../src/links.js';
import { portPage, submitPortPage, type PortPageView } from '../src/phone/ports.js';
import { eta, layout } from './html.js';
import { DASHBOARD_HEADERS, type DashboardGate } from './dashboard.js';

/**
 * The dashboard's front-desk page for moving the owner's number (the link from
 * prepare_number_port): the draft, and the form where the owner gives the legal authorisation and
 * the current carrier's details. They go to the carrier when sent; nothing typed into the account
 * number or PIN fields is stored or shown back. Only the owner signed in to the dashboard sees it:
 * anyone else is sent to sign in, and another owner gets the page of an unknown link.
 */
const FIELDS = [
  ['customer_name', 'Name on the current phone account', 'organization', 'text'],
  ['authorised_person', 'Your full name (authorised to move the number)', 'name', 'text'],
  ['authorised_email', 'Your e-mail', 'email', 'email'],
  ['street', 'Service address (street)', 'street-address', 'text'],
  ['city', 'City', 'address-level2', 'text'],
  ['state', 'State (2 letters)', 'address-level1', 'text'],
  ['zip', 'ZIP', 'postal-code', 'text'],
  ['account_number', 'Account number with the current carrier', 'off', 'text'],
  ['pin', 'Transfer PIN from the current carrier', 'off', 'password'],
] as const;
/** What a person typed, shown back: never the account number or PIN. */
const KEPT = new Set(['customer_name', 'authorised_person', 'authorised_email', 'street', 'city', 'state', 'zip']);

const template = `<h1>Move <%= it.v.number %> to your AI receptionist</h1>
<p><%= it.v.businessName %> · transfer <code id="port-id"><%= it.v.portId %></code> · <span class="status" id="status"><%= it.v.status %></span></p>
<% if (it.v.replaces) { %><p id="replaces">This transfer replaces <%= it.v.replaces %>, as you asked: once it completes, <%= it.v.replaces %> is given back to the carrier and no longer answers calls.</p><% } %>
<% if (it.v.status === 'draft') { %>
<p>This is where the transfer is finished: you give the legal authorisation (the letter of authorisation the carriers need), the details of your current phone account and a recent bill from that carrier. They go to the carrier when you send this form; Porchlight keeps neither the account number, the PIN nor the bill.</p>
<% Object.keys(it.errors).forEach(function (k) { %><p class="error" id="error-<%= k %>" role="alert"><strong><%= it.errors[k] %></strong></p><% }) %>
<form method="post" action="<%= it.action %>" enctype="multipart/form-data"><input type="hidden" name="csrf" value="<%= it.csrf %>">
<% it.fields.forEach(function (f) { %><p><label for="<%= f[0] %>"><%= f[1] %></label><br><input id="<%= f[0] %>" name="<%= f[0] %>" type="<%= f[3] %>" autocomplete="<%= f[2] %>" maxlength="200" required value="<%= it.kept.has(f[0]) ? (it.values[f[0]] || '') : '' %>"></p>
<% }) %>
<p><label for="bill">A bill from the current carrier, from the last 30 days (PDF, PNG or JPEG, up to 10 MB), showing the account name and service address</label><br><input id="bill" name="bill" type="file" accept="application/pdf,image/png,image/jpeg" required></p>
<p><label><input type="checkbox" name="consent" value="yes" id="consent" style="width:auto"> I am authorised to move this number, and I sign the letter of authorisation for the transfer to Porchlight's carrier.</label></p>
<button type="submit" id="submit">Authorise and send the transfer</button>
</form>
<% } else if (it.v.status === 'submitted') { %><p id="outcome">The transfer is with the carrier. It usually takes a few days; receptionist_service shows when it is done.</p>
<% if (it.v.reason) { %><p id="progress"><%= it.v.reason %></p><% } else if (it.v.carrier === 'twilio') { %><p id="progress">The carrier e-mails the letter of authorisation to the authorised person for an electronic signature: the transfer moves on once it is signed.</p><% } %>
<% } else if (it.v.status === 'completed') { %><p id="outcome"><%= it.v.reason || 'Done: ' + it.v.number + ' now rings your AI receptionist.' %></p>
<% } else { %><p id="outcome">The number was not moved: <%= it.v.reason %></p><% } %>
<% if (it.v.carrier === 'sandbox') { %><p class="note">Carrier sandbox: nothing is sent to a real carrier. A transfer completes 10 minutes after it is sent; numbers ending in 8 are refused.</p><% } %>`;

const typed = (value: unknown) => (typeof value === 'string' ? value.replace(/[\u0000-\u001F\u007F]/g, '').slice(0, 200) : '');

export function frontDeskRoutes(services: Services, gate: DashboardGate) {
  const app = new Hono();
  const render = (token: string, csrf: string, v: PortPageView, values: Record<string, string> = {}, errors: Record<string, string> = {}, status: 200 | 400 = 200) =>
    new Response(layout('Move your number', eta.renderString(template, { v, csrf, values, errors, fields: FIELDS, kept: KEPT, action: ROUTES.portSetup.replace(':token', encodeURIComponent(token)) })), {
      status,
      headers: DASHBOARD_HEADERS,
    });
  const gone = () =>
    new Response(layout('Link expired', '<h1 id="title">This link has expired</h1><p id="message">Ask your assistant for a new one (prepare_number_port).</p>'), {
      status: 404,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    });

  app.get(ROUTES.portSetup, async (c) => {
    const signedIn = await gate.session(c);
    if (!signedIn) return gate.toSignIn(c);
    const token = c.req.param('token');
    const v = await portPage(services, token, signedIn.session.ownerId);
    return v ? render(token, signedIn.csrf, v) : gone();
  });
  app.post(ROUTES.portSetup, async (c) => {
    const signedIn = await gate.session(c);
    const form = await c.req.parseBody();
    const fields = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const refused = gate.refuseForm(c, fields, signedIn);
    if (refused) return refused;
    const token = c.req.param('token');
    const outcome = await submitPortPage(services, token, signedIn!.session.ownerId, form);
    if (outcome.ok) return render(token, signedIn!.csrf, outcome.view);
    if (!outcome.view) return gone();
    const values = Object.fromEntries([...KEPT].map((k) => [k, typed(form[k])]));
    return render(token, signedIn!.csrf, outcome.view, values, outcome.errors, 400);
  });
  // Links handed out before the page moved under /app (GET; a POST keeps its method and body).
  app.on(['GET', 'POST'], ROUTES.legacyPortSetup, (c) =>
    new Response(null, { status: 308, headers: { location: ROUTES.portSetup.replace(':token', encodeURIComponent(c.req.param('token'))), 'cache-control': 'no-store' } }),
  );
  return app;
}
