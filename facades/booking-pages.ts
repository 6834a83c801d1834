/**
 * Booking from the business page without JavaScript (issue 24): step 1 chooses what, step 2 a
 * time from the open starts, step 3 takes the person's details and books. Each step is a form
 * POST answered by a 303 to the next page (the choice travels in the address, never secrets).
 * Every step runs the registry's operations through the same pipeline as REST (runOperation), so
 * every rule, budget, limit, mail and event applies exactly as for an assistant.
 *
 * Also here: the conversation page a visit or appointment booked on the page leads to (its status,
 * move and cancel), and the manage page's move form for cleanings and service calls.
 */
import { businessZoneBySlug } from '../src/db/business-zone.js';
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { ExecutionResult } from 'graphql';
import type { Services } from '../src/context.js';
import type { Operation } from '../src/registry/contract.js';
import { baseOf } from '../src/registry/zod-shape.js';
import { centsForPeople, clockForPeople, dayForPeople, dollarsForPeople, instantsInWords, whenForPeople, wordsFor } from '../src/core/for-people.js';
import { ROUTES } from '../src/links.js';
import type { Outcome } from './execute.js';
import type { Yoga } from './graphql.js';
import { clientAddress } from './client-address.js';
import { formFields, htmlPage, messagePage, type PageForms } from './page-forms.js';

type Run = (op: Operation, raw: unknown, request: Request, clientAddress: string) => Promise<Outcome>;
export interface BookingDeps {
  yoga: Yoga;
  byName: ReadonlyMap<string, Operation>;
  run: Run;
  forms: PageForms;
}

type Kind = 'cleaning' | 'service_call' | 'visit' | 'appointment';
const KINDS: readonly Kind[] = ['cleaning', 'service_call', 'visit', 'appointment'];
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The values a field of an operation's input may take (an enum, or a list of one), read off its schema. */
export function enumOptions(op: Operation, field: string): string[] {
  const shape = op.input.shape as Record<string, import('zod').z.ZodType>;
  if (!shape[field]) return [];
  let { def, schema } = baseOf(shape[field]);
  if (def.type === 'array') ({ def, schema } = baseOf(def.element as import('zod').z.ZodType));
  const options = (schema as unknown as { options?: unknown[] }).options;
  return Array.isArray(options) ? options.map(String) : [];
}

const csrfField = `<input type="hidden" name="csrf" value="<%= it.csrf %>">`;
const hidden = `<% Object.keys(it.keep).forEach(function (k) { %><input type="hidden" name="<%= k %>" value="<%= it.keep[k] %>"><% }) %>`;
const errorBlock = `<% if (it.error) { %><p class="error" id="error" role="alert"><%= it.error %></p><% } %>`;
const steps = `<% if (it.step) { %><ol class="steps" aria-label="Steps"><% ['Choose', 'Time', 'Details'].forEach(function (s, i) { %><li<% if (i + 1 === it.step) { %> aria-current="step" class="current"<% } %>><%= s %></li><% }) %></ol><% } %>`;

/** Step 1 on the business page: one form per thing the business offers. */
const offerTemplate = `<h2 id="book">Book</h2>
<% if (!it.offers.length) { %><p>This business takes no bookings here yet. <% } %>
<% it.offers.forEach(function (o) { %>
<% if (o.kind === 'cleaning') { %><section class="offer" id="offer-cleaning"><h3>A cleaning</h3>
<form method="post" action="<%= it.base %>/book/cleaning">${csrfField}
<label class="field" for="bedrooms">Bedrooms</label><select id="bedrooms" name="bedrooms"><% [0,1,2,3,4,5,6].forEach(function (n) { %><option value="<%= n %>"<% if (n === 2) { %> selected<% } %>><%= n === 0 ? 'Studio' : n %></option><% }) %></select>
<label class="field" for="bathrooms">Bathrooms</label><select id="bathrooms" name="bathrooms"><% [1,1.5,2,2.5,3,3.5,4].forEach(function (n) { %><option value="<%= n %>"><%= n %></option><% }) %></select>
<label class="field" for="clean_type">Kind of cleaning</label><select id="clean_type" name="clean_type"><% o.cleanTypes.forEach(function (t) { %><option value="<%= t.value %>"><%= t.label %></option><% }) %></select>
<label class="field" for="frequency">How often</label><select id="frequency" name="frequency"><% o.frequencies.forEach(function (t) { %><option value="<%= t.value %>"><%= t.label %></option><% }) %></select>
<fieldset><legend>Extras</legend><% o.addOns.forEach(function (a) { %><label class="check"><input type="checkbox" name="add_ons" value="<%= a.value %>"> <%= a.label %></label><% }) %>
<label class="check"><input type="checkbox" name="pets" value="1"> Pets at home</label></fieldset>
<button type="submit" id="choose-cleaning">See open times</button></form></section><% } %>
<% if (o.kind === 'service_call') { %><section class="offer" id="offer-service-call"><h3>A service call (<%= o.trade %>)</h3>
<p class="note">The fee covers the visit and diagnosis; any repair is quoted on site before work starts. If you smell gas or water is flooding, leave and call 911 or your utility first.</p>
<form method="post" action="<%= it.base %>/book/service_call">${csrfField}
<label class="field" for="issue">What is wrong</label><select id="issue" name="issue"><% o.issues.forEach(function (t) { %><option value="<%= t.value %>"><%= t.label %></option><% }) %></select>
<label class="field" for="sc_zip">ZIP code of the visit</label><input id="sc_zip" name="zip" inputmode="numeric" pattern="[0-9]{5}" maxlength="5" required autocomplete="postal-code">
<label class="field" for="details">The problem in your words (optional)</label><textarea id="details" name="details" maxlength="500"></textarea>
<button type="submit" id="choose-service-call">See arrival windows</button></form></section><% } %>
<% if (o.kind === 'visit') { %><section class="offer" id="offer-visit"><h3><%= o.request ? 'Request a visit' : 'Book a visit' %></h3>
<form method="post" action="<%= it.base %>/book/visit">${csrfField}
<fieldset><legend>Service</legend><% o.services.forEach(function (s, i) { %><div class="choice"><label class="check"><input type="radio" name="service_id" value="<%= s.id %>" required<% if (i === 0) { %> checked<% } %>> <strong><%= s.name %></strong> — <%= s.price %><% if (s.minutes) { %>, <%= s.minutes %> min<% } %></label>
<% if (s.addOns.length) { %><div class="addons"><% s.addOns.forEach(function (a) { %><label class="check"><input type="checkbox" name="add_on_<%= s.id %>" value="<%= a.id %>"> add <%= a.name %> (<%= a.price %>)</label><% }) %></div><% } %></div><% }) %></fieldset>
<label class="field" for="visit_date">Day</label><input id="visit_date" name="date" type="date" required value="<%= it.tomorrow %>" min="<%= it.today %>">
<button type="submit" id="choose-visit">See open times</button></form></section><% } %>
<% if (o.kind === 'appointment') { %><section class="offer" id="offer-appointment"><h3>An appointment</h3>
<form method="post" action="<%= it.base %>/book/appointment">${csrfField}
<fieldset><legend>Appointment</legend><% o.services.forEach(function (s, i) { %><label class="check"><input type="radio" name="service_id" value="<%= s.id %>" required<% if (i === 0) { %> checked<% } %>> <strong><%= s.name %></strong> — <%= s.price %>, <%= s.minutes %> min<% if (s.upfront) { %> (paid by card when booked)<% } %></label><% }) %></fieldset>
<label class="field" for="appointment_date">Day</label><input id="appointment_date" name="date" type="date" required value="<%= it.tomorrow %>" min="<%= it.today %>">
<button type="submit" id="choose-appointment">See open times</button></form></section><% } %>
<% }) %>`;

/** Step 2: the open starts of the choice, as radio buttons grouped by day. */
const timesTemplate = `${steps}<h1><%= it.heading %></h1>
<p id="what"><%= it.what %></p><% if (it.price) { %><p id="price"><%= it.price %></p><% } %>
${errorBlock}
<% if (it.requestOnly) { %><p id="request-only"><%= it.requestOnly %></p>
<form method="post" action="<%= it.action %>">${csrfField}${hidden}<input type="hidden" name="start" value=""><button type="submit" id="continue-request">Continue with a request</button></form>
<% } else if (!it.days.length) { %><p id="no-times">No open times<%= it.range %>.</p>
<% } else { %><form method="post" action="<%= it.action %>">${csrfField}${hidden}
<% it.days.forEach(function (d, i) { %><fieldset class="times"><legend><%= d.day %></legend><% d.times.forEach(function (t, j) { %><label class="slot"><input type="radio" name="start" value="<%= t.value %>" required<% if (i === 0 && j === 0) { %> checked<% } %>> <%= t.label %></label><% }) %></fieldset><% }) %>
<button type="submit" id="choose-time"><%= it.button %></button></form><% } %>
<p class="nav"><% if (it.earlier) { %><a href="<%= it.earlier %>" id="earlier"><%= it.oneDay ? 'Day before' : 'Earlier days' %></a> · <% } %><% if (it.later) { %><a href="<%= it.later %>" id="later"><%= it.oneDay ? 'Next day' : 'Later days' %></a> · <% } %><a href="<%= it.back %>">Back</a></p>`;

/** Step 3: what and when, then the person's details. */
const detailsTemplate = `${steps}<h1><%= it.heading %></h1>
<dl id="summary"><% it.summary.forEach(function (s) { %><dt><%= s[0] %></dt><dd><%= s[1] %></dd><% }) %></dl>
${errorBlock}
<form method="post" action="<%= it.action %>">${csrfField}${hidden}<input type="hidden" name="request_key" value="<%= it.requestKey %>">
<label class="field" for="customer_name">Your name</label><input id="customer_name" name="customer_name" maxlength="100" required autocomplete="name" value="<%= it.form.customer_name %>">
<label class="field" for="customer_email">Your e-mail</label><input id="customer_email" name="customer_email" type="email" maxlength="200" required autocomplete="email" value="<%= it.form.customer_email %>">
<label class="field" for="customer_phone">Your phone (optional)</label><input id="customer_phone" name="customer_phone" type="tel" maxlength="30" autocomplete="tel" value="<%= it.form.customer_phone %>">
<% if (it.address) { %><label class="field" for="address">Street address</label><input id="address" name="address" maxlength="300" minlength="3" required autocomplete="street-address" value="<%= it.form.address %>">
<label class="field" for="zip">ZIP code</label><input id="zip" name="zip" inputmode="numeric" pattern="[0-9]{5}" maxlength="5" required autocomplete="postal-code" value="<%= it.form.zip %>">
<label class="field" for="notes">Access notes (optional)</label><textarea id="notes" name="notes" maxlength="500"><%= it.form.notes %></textarea><% } else { %>
<% if (it.preferredTime) { %><label class="field" for="preferred_time">When would suit you (optional)</label><input id="preferred_time" name="preferred_time" maxlength="80" value="<%= it.form.preferred_time %>"><% } %>
<label class="field" for="note">A note for <%= it.businessName %> (optional)</label><textarea id="note" name="note" maxlength="500"><%= it.form.note %></textarea>
<label class="check"><input type="checkbox" id="agree" name="agree" value="1" required> <%= it.agree %></label><% } %>
<p class="note"><%= it.after %></p>
<button type="submit" id="book-now"><%= it.button %></button></form>
<p class="nav"><a href="<%= it.back %>">Choose another time</a></p>`;

/** The conversation a visit or appointment was booked in: status, pay, move, cancel, messages. */
const conversationTemplate = `<h1 id="heading"><%= it.heading %></h1>
<% if (it.flash) { %><p class="note" id="outcome" role="status"><%= it.flash %></p><% } %>
${errorBlock}
<p>With <strong><%= it.c.business_name %></strong></p>
<% if (it.visit) { %><section id="visit"><h2>Visit</h2><dl><dt>What</dt><dd><%= it.visit.what %></dd><dt>Status</dt><dd><span class="status" id="visit-status"><%= it.visit.status %></span></dd>
<% if (it.visit.when) { %><dt>When</dt><dd id="visit-when"><%= it.visit.when %></dd><% } %><% if (it.visit.technician) { %><dt>With</dt><dd><%= it.visit.technician %></dd><% } %><dt>Estimate</dt><dd><%= it.visit.price %></dd></dl>
<p class="note" id="visit-terms"><%= it.visit.terms %></p>
<% if (it.visit.canMove) { %><p><a href="<%= it.base %>/move?what=visit" id="move-visit">Move this visit</a></p><% } %>
<% if (it.visit.canCancel) { %><form method="post" action="<%= it.base %>/cancel">${csrfField}<input type="hidden" name="what" value="visit"><button class="danger" type="submit" id="cancel-visit"><%= it.visit.cancelLabel %></button></form><% } %></section><% } %>
<% it.appointments.forEach(function (a) { %><section class="appointment"><h2>Appointment</h2><dl><dt>What</dt><dd><%= a.service %></dd><dt>Status</dt><dd><span class="status appointment-status"><%= a.status %></span></dd><dt>When</dt><dd class="appointment-when"><%= a.when %></dd></dl>
<% if (a.checkout) { %><p><a href="<%= a.checkout %>" class="pay button" id="pay">Pay now</a> <span class="note">(the time is held until <%= a.holdUntil %>)</span></p><% } %>
<p class="note"><%= a.terms %></p>
<% if (a.canMove) { %><p><a href="<%= it.base %>/move?what=appointment&amp;booking_id=<%= a.id %>" class="move-appointment" id="move-appointment">Move this appointment</a></p><% } %>
<% if (a.canCancel) { %><form method="post" action="<%= it.base %>/cancel">${csrfField}<input type="hidden" name="what" value="appointment"><input type="hidden" name="booking_id" value="<%= a.id %>"><button class="danger" type="submit" id="cancel-appointment">Cancel appointment</button></form><% } %></section><% }) %>
<h2>Messages</h2><div id="messages"><% it.messages.forEach(function (m) { %><div class="msg"><strong><%= m.from %></strong> · <%= m.at %><br><%= m.text %></div><% }) %><% if (!it.messages.length) { %><p class="note">No messages yet.</p><% } %></div>
<p class="note">Keep this page's address private: it opens this conversation. <a href="<%= it.page %>">Back to <%= it.c.business_name %></a></p>`;

const flashes: Record<string, string> = {
  booked_visit: 'Booked. The business has your visit; this page shows it, and you can move or cancel it here. Keep the address: it is your link to this booking.',
  requested_visit: 'Request sent. The business confirms a time with you; this page shows its answer.',
  held_appointment: 'Held for you: pay with the link below to confirm the appointment. Unpaid by the time shown, it lapses and the time is released.',
  booked_appointment: 'Booked. This page shows your appointment; you can move or cancel it here. Keep the address: it is your link to this booking.',
  moved: 'Moved to the new time.',
  cancelled: 'Cancelled.',
  refund: 'Cancelled. What you paid is being refunded to your card.',
};

export function bookingPageRoutes(services: Services, deps: BookingDeps) {
  const { prisma, config } = services;
  const app = new Hono();
  const { byName, forms } = deps;
  const now = () => services.clock.now();
  const address = (c: Context) => clientAddress(c, config.trustProxy);

  /** One registry operation, run as this visitor through the same pipeline as REST. */
  const call = async (c: Context, name: string, input: Record<string, unknown>) => {
    const op = byName.get(name)!;
    const request = new Request(`${config.baseUrl}/b`, { method: op.method, headers: { 'x-client-name': 'Porchlight business page' } });
    return deps.run(op, input, request, address(c));
  };
  const gql = async (c: Context, query: string, variables: Record<string, unknown>) =>
    (await deps.yoga.getResultForParams({ params: { query, variables }, request: c.req.raw }, { clientAddress: address(c) })) as ExecutionResult<Record<string, never>>;

  const zoneOf = (slug: string) => businessZoneBySlug(prisma, slug);
  /** A business-local day (YYYY-MM-DD) `offset` days from today. */
  const localDay = (zone: string, offset = 0, from?: string) => {
    const base = from ? Date.parse(`${from}T12:00:00Z`) : now();
    const d = new Date(base + offset * 86_400_000);
    return from ? d.toISOString().slice(0, 10) : new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(d);
  };
  const page = (c: Context, title: string, template: string, data: Record<string, unknown>, status = 200) => {
    const { csrf, setCookie } = forms.token(c);
    return htmlPage(title, template, { csrf, error: null, ...data }, status, setCookie ? { 'set-cookie': setCookie } : {});
  };
  const see = (location: string) => new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
  const bizPath = (slug: string) => ROUTES.businessPage.replace(':slug', encodeURIComponent(slug));
  const noBusiness = (message: string) => messagePage('Not found', message, 404);

  /** What the business offers, from business_info and appointment_times. */
  const offersOf = async (c: Context, slug: string, known?: { kind: string; prices: { item: string }[] }) => {
    // A cleaner's or a trade's offer follows from its kind and price list, which the page has
    // already read: the page view then costs its visitor one operation, as before.
    let b: Body;
    if (known && ['cleaning', 'plumbing', 'hvac'].includes(known.kind)) b = { type: known.kind, prices: known.prices };
    else {
      const info = await call(c, 'business_info', { business: slug });
      if (info.status !== 200) return { error: String(info.body.error) };
      b = info.body as Body;
    }
    const offers: Body[] = [];
    if (b.type === 'cleaning') {
      const op = byName.get('available_times')!;
      offers.push({
        kind: 'cleaning',
        cleanTypes: enumOptions(op, 'clean_type').map((v) => ({ value: v, label: cap(`${wordsFor(v)} cleaning`) })),
        frequencies: enumOptions(op, 'frequency').map((v) => ({ value: v, label: cap(wordsFor(v)) })),
        addOns: enumOptions(op, 'add_ons').map((v) => ({ value: v, label: cap(wordsFor(v)) })),
      });
    }
    if (b.type === 'plumbing' || b.type === 'hvac') {
      const offered = (b.prices as { item: string }[]).map((p) => /^Service call: (\w+)$/.exec(p.item)?.[1]).filter(Boolean) as string[];
      const all = enumOptions(byName.get('book_service_call')!, 'issue');
      const issues = (offered.length ? offered : all).filter((i) => all.includes(i));
      offers.push({ kind: 'service_call', trade: wordsFor(b.type), issues: issues.map((v) => ({ value: v, label: cap(wordsFor(v)) })) });
    }
    if (b.booking?.visits && b.booking.visits !== 'none' && (b.services as unknown[]).length) {
      offers.push({
        kind: 'visit',
        request: b.booking.visits !== 'book',
        services: (b.services as Body[]).map((s) => ({
          id: s.service_id, name: s.name, minutes: s.duration_minutes,
          price: s.price_kind === 'confirm' || s.price_cents === null ? 'priced by the staff' : s.price_cents === 0 && s.price_kind === 'fixed' ? 'free' : `${s.price_kind === 'from' ? 'from ' : ''}${centsForPeople(s.price_cents)}`,
          addOns: ((s.add_ons ?? []) as Body[]).map((a) => ({ id: a.add_on_id, name: a.name, price: a.price_cents === null ? 'priced by the staff' : centsForPeople(a.price_cents) })),
        })),
      });
    }
    if (b.booking?.appointments && b.booking.appointments !== 'none') {
      const t = await call(c, 'appointment_times', { business: slug });
      const services = t.status === 200 ? ((t.body.services ?? []) as Body[]) : [];
      if (services.length) {
        offers.push({ kind: 'appointment', services: services.map((s) => ({ id: s.service_id, name: s.name, minutes: s.duration_minutes, price: s.price_cents === 0 ? 'free' : centsForPeople(s.price_cents), upfront: s.payment === 'upfront' })) });
      }
    }
    return { b, offers };
  };

  /** The business page's booking section (step 1), placed by pages.ts. */
  const bookSection = async (c: Context, slug: string, known?: { kind: string; prices: { item: string }[] }): Promise<{ html: string; setCookie: string | null }> => {
    const { csrf, setCookie } = forms.token(c);
    const found = await offersOf(c, slug, known);
    if ('error' in found) return { html: '', setCookie };
    const zone = await zoneOf(slug);
    const { eta } = await import('./html.js');
    const html = eta.renderString(offerTemplate, { csrf, offers: found.offers, base: bizPath(slug), today: localDay(zone), tomorrow: localDay(zone, 1) });
    return { html, setCookie };
  };

  // ---- The three steps ----------------------------------------------------------------------

  const kindOf = (c: Context): Kind | null => {
    const k = c.req.param('kind') as Kind;
    return KINDS.includes(k) ? k : null;
  };
  /** The choice a step carries forward: only the known fields of its kind. */
  const CHOICE: Record<Kind, string[]> = {
    cleaning: ['bedrooms', 'bathrooms', 'clean_type', 'frequency', 'add_ons', 'pets', 'date'],
    service_call: ['issue', 'zip', 'details', 'date'],
    visit: ['service_id', 'add_on_ids', 'date'],
    appointment: ['service_id', 'date'],
  };
  const choiceOf = (kind: Kind, values: Record<string, string | undefined>) => {
    const out: Record<string, string> = {};
    for (const k of CHOICE[kind]) if (values[k]) out[k] = values[k]!.slice(0, 600);
    return out;
  };
  const query = (o: Record<string, string>) => new URLSearchParams(o).toString();
  const list = (s: string | undefined) => (s ? s.split(',').filter(Boolean) : []);
  const selections = (ch: Record<string, string>) => [{ service_id: ch.service_id ?? '', add_on_ids: list(ch.add_on_ids) }];

  // Step 1 posted: the choice goes into the times page's address.
  app.post(`${ROUTES.businessPage}/book/:kind`, async (c) => {
    const kind = kindOf(c);
    if (!kind) return c.notFound();
    const form = await formFields(c);
    const refused = await forms.refuse(c, form);
    if (refused) return refused;
    // A visit's add-ons come from the chosen service's own checkboxes.
    if (kind === 'visit' && form.service_id) form.add_on_ids = form[`add_on_${form.service_id}`] ?? '';
    const slug = c.req.param('slug');
    return see(`${bizPath(slug)}/book/${kind}/times?${query(choiceOf(kind, form))}`);
  });

  /** The open starts (or the reason there are none) for a choice: each kind through its own operations. */
  const timesFor = async (c: Context, slug: string, kind: Kind, ch: Record<string, string>) => {
    const zone = await zoneOf(slug);
    if (kind === 'cleaning') {
      const input = {
        pro_id: slug, bedrooms: num(ch.bedrooms), bathrooms: num(ch.bathrooms), clean_type: ch.clean_type, frequency: ch.frequency,
        add_ons: list(ch.add_ons), pets: ch.pets === '1', days: 7, ...(ch.date ? { date: ch.date } : {}),
      };
      const r = await call(c, 'available_times', input);
      if (r.status !== 200) return { error: String(r.body.error), zone };
      const what = cleaningWhat(ch);
      return { zone, starts: r.body.starts as string[], price: r.body.price as number, priceText: `${dollarsForPeople(r.body.price as number)}${ch.frequency && ch.frequency !== 'once' ? ' per visit' : ''}, firm, no added fees (about ${hours(r.body.duration_minutes as number)})`, what };
    }
    if (kind === 'service_call') {
      const b = await call(c, 'business_info', { business: slug });
      if (b.status !== 200) return { error: String(b.body.error), zone };
      const trade = (b.body as Body).type as string;
      // find_service_call lists every pro serving the ZIP: this business is one of them, or it does not come there.
      for (let p = 1; p <= 10; p++) {
        const r = await call(c, 'find_service_call', { zip: ch.zip, trade, issue: ch.issue, ...(ch.details ? { details: ch.details } : {}), days: 1, ...(ch.date ? { date: ch.date } : {}), page: p });
        if (r.status !== 200) return { error: String(r.body.error), zone };
        const mine = ((r.body.pros ?? []) as Body[]).find((x) => x.pro_id === slug);
        if (mine) {
          return {
            zone, trade, fee: mine.fee as number,
            starts: (mine.windows as { start: string; end: string }[]).map((w) => w.start),
            windowMinutes: mine.window_minutes as number,
            priceText: `Service-call fee ${dollarsForPeople(mine.fee)}, firm: the visit and diagnosis; any repair is quoted on site before work starts.`,
            what: serviceCallWhat(trade, ch),
          };
        }
        if (!r.body.next_page) break;
      }
      return { error: `${(b.body as Body).name} does not take ${wordsFor(ch.issue)} calls in ZIP ${ch.zip ?? ''}. Go back and check the ZIP code, or choose another problem.`, zone };
    }
    if (kind === 'visit') {
      const sel = selections(ch);
      const e = await call(c, 'estimate_visit', { business: slug, selections: sel });
      if (e.status !== 200) return { error: String(e.body.error), zone };
      const est = e.body as Body;
      const date = ch.date ?? localDay(zone, 1);
      const t = await call(c, 'visit_times', { business: slug, selections: sel, date });
      if (t.status !== 200) return { error: String(t.body.error), zone };
      const items = (est.items as Body[]).map((i) => `${i.name}${(i.add_ons as Body[]).length ? ` with ${(i.add_ons as Body[]).map((a) => a.name).join(', ')}` : ''}`).join('; ');
      return {
        zone, date, starts: t.body.starts as string[], requestOnly: t.body.request_only ? String(t.body.reason ?? 'This visit cannot be booked online: the business confirms a time with you.') : null,
        menuRevision: est.menu_revision as number, estimateCents: est.estimate_cents as number,
        priceText: `Estimate ${centsForPeople(est.estimate_cents)}${est.partial ? ' so far (the staff price the rest)' : ''}; paid at the business.`,
        what: items,
      };
    }
    const date = ch.date ?? localDay(zone, 1);
    const t = await call(c, 'appointment_times', { business: slug, service_id: ch.service_id, date });
    if (t.status !== 200) return { error: String(t.body.error), zone };
    const list2 = await call(c, 'appointment_times', { business: slug });
    const service = ((list2.body.services ?? []) as Body[]).find((s) => s.service_id === ch.service_id);
    return {
      zone, date, starts: t.body.starts as string[], priceCents: t.body.price_cents as number, upfront: service?.payment === 'upfront',
      priceText: (t.body.price_cents as number) === 0 ? 'Free.' : `${centsForPeople(t.body.price_cents as number)}${service?.payment === 'upfront' ? ', paid by card when you book' : ', paid at the business'}.`,
      what: `${service?.name ?? ch.service_id}${service ? `, ${service.duration_minutes} min` : ''}`,
    };
  };

  /** Starts as radio buttons grouped by the business-local day. */
  const byDay = (starts: string[], zone: string, windowMinutes?: number) => {
    const days: { key: string; day: string; times: { value: string; label: string }[] }[] = [];
    for (const s of starts) {
      const day = dayForPeople(s, zone, now());
      const label = windowMinutes ? `${clockForPeople(s, zone, false)} – ${clockForPeople(Date.parse(s) + windowMinutes * 60_000, zone, false)}` : clockForPeople(s, zone, false);
      // The zone once per day (it can change overnight), not on every time.
      if (days.at(-1)?.key !== day) days.push({ key: day, day: `${day} · times in ${clockForPeople(s, zone).split(' ').at(-1)}`, times: [] });
      days.at(-1)!.times.push({ value: s, label });
    }
    return days;
  };

  const business = async (c: Context, slug: string) => {
    const r = await call(c, 'business_info', { business: slug });
    return r.status === 200 ? (r.body as Body) : null;
  };

  app.get(`${ROUTES.businessPage}/book/:kind/times`, async (c) => {
    const kind = kindOf(c);
    if (!kind) return c.notFound();
    const slug = c.req.param('slug');
    const b = await business(c, slug);
    if (!b) return noBusiness('No business has this address. Check the link, or find the business at /.');
    const ch = choiceOf(kind, c.req.query());
    const t = await timesFor(c, slug, kind, ch);
    const base = `${bizPath(slug)}/book/${kind}`;
    const title = `Choose a time with ${b.name}`;
    if ('error' in t && t.error) {
      return page(c, title, timesTemplate, { step: 2, heading: 'Choose a time', what: '', price: null, error: t.error, days: [], range: '', action: `${base}/times`, keep: ch, back: bizPath(slug), button: '' }, 400);
    }
    const tt = t as Exclude<typeof t, { error: string }> & Body;
    const dayShift = (n: number) => {
      const from = tt.date ?? ch.date ?? localDay(tt.zone);
      const date = localDay(tt.zone, n, from);
      return date < localDay(tt.zone) ? null : `${base}/times?${query({ ...ch, date })}`;
    };
    // find_service_call gives each pro's next few windows: one day at a time shows them all.
    const span = kind === 'cleaning' ? 7 : 1;
    const keep = { ...ch, ...(tt.price !== undefined ? { price: String(tt.price) } : {}), ...(tt.fee !== undefined ? { price: String(tt.fee) } : {}),
      ...(tt.menuRevision !== undefined ? { menu_revision: String(tt.menuRevision), estimate_cents: String(tt.estimateCents) } : {}),
      ...(tt.priceCents !== undefined ? { price_cents: String(tt.priceCents) } : {}), ...(tt.date ? { date: tt.date } : {}),
      ...(tt.windowMinutes ? { window: String(tt.windowMinutes) } : {}) };
    return page(c, title, timesTemplate, {
      step: 2, heading: `Choose a time with ${b.name}`, what: tt.what, price: tt.priceText, requestOnly: tt.requestOnly ?? null,
      days: byDay(tt.starts ?? [], tt.zone, tt.windowMinutes), oneDay: span === 1,
      range: span === 1 ? ` on ${dayForPeople(`${tt.date ?? ch.date ?? localDay(tt.zone)}T12:00:00Z`, 'UTC', now())}` : ' in these seven days',
      action: `${base}/times`, keep, back: bizPath(slug), earlier: dayShift(-span), later: dayShift(span),
      button: kind === 'service_call' ? 'Continue with this arrival window' : 'Continue with this time',
    });
  });

  // Step 2 posted: the chosen start joins the choice.
  const STEP2_KEEP = ['price', 'menu_revision', 'estimate_cents', 'price_cents', 'start', 'window'];
  app.post(`${ROUTES.businessPage}/book/:kind/times`, async (c) => {
    const kind = kindOf(c);
    if (!kind) return c.notFound();
    const form = await formFields(c);
    const refused = await forms.refuse(c, form);
    if (refused) return refused;
    const slug = c.req.param('slug');
    const keep = { ...choiceOf(kind, form), ...Object.fromEntries(STEP2_KEEP.filter((k) => form[k] !== undefined).map((k) => [k, form[k]!.slice(0, 100)])) };
    return see(`${bizPath(slug)}/book/${kind}/details?${query(keep)}`);
  });

  const emptyDetails = { customer_name: '', customer_email: '', customer_phone: '', address: '', zip: '', notes: '', note: '', preferred_time: '' };
  const detailsPage = async (c: Context, kind: Kind, slug: string, values: Record<string, string>, form: Record<string, string>, error?: string, status = 200) => {
    const b = await business(c, slug);
    if (!b) return noBusiness('No business has this address. Check the link, or find the business at /.');
    const zone = await zoneOf(slug);
    const keep: Record<string, string> = { ...choiceOf(kind, values), ...Object.fromEntries(STEP2_KEEP.filter((k) => values[k] !== undefined).map((k) => [k, values[k]!])) };
    // The visit's ZIP is the form's own field here.
    if (kind === 'service_call') delete keep.zip;
    const start = values.start;
    const summary: [string, string][] = [['With', b.name]];
    let heading = 'Your details';
    let button = 'Book';
    let agree = '';
    let after = '';
    if (kind === 'cleaning' || kind === 'service_call') {
      const ch = choiceOf(kind, values);
      summary.push(['What', kind === 'cleaning' ? cleaningWhat(ch) : serviceCallWhat(String(b.type), ch)]);
      if (start) summary.push([kind === 'service_call' ? 'Arrival' : 'When', whenLabel(start, zone, values.window ? num(values.window) : undefined)]);
      if (values.price) summary.push(['Price', kind === 'cleaning' ? `${dollarsForPeople(num(values.price))}, firm` : `Service-call fee ${dollarsForPeople(num(values.price))}, firm; repairs quoted on site`]);
      after = "We e-mail you a link to confirm the booking: it is only booked once you confirm. You can move or cancel it free until 24 hours before the start.";
      button = 'Book and send me the confirmation';
    } else if (kind === 'visit') {
      const e = await call(c, 'estimate_visit', { business: slug, selections: selections(values) });
      const est = e.body as Body;
      if (e.status === 200) summary.push(['What', (est.items as Body[]).map((i) => `${i.name}${(i.add_ons as Body[]).length ? ` with ${(i.add_ons as Body[]).map((a) => a.name).join(', ')}` : ''}`).join('; ')]);
      if (start) summary.push(['When', whenForPeople(start, zone, now())]);
      else summary.push(['Day wished', dayForPeople(`${values.date ?? localDay(zone, 1)}T12:00:00Z`, 'UTC', now())]);
      summary.push(['Estimate', `${centsForPeople(num(values.estimate_cents))}; paid at the business`]);
      agree = `I agree to the estimate of ${centsForPeople(num(values.estimate_cents))}.`;
      heading = start ? 'Your details' : 'Your request';
      button = start ? 'Book this visit' : 'Send the request';
      after = start ? 'Booked at once; you can move or cancel it on the next page until 24 hours before the start.' : 'Nothing is booked yet: the business answers with a time.';
    } else {
      const t = await timesFor(c, slug, kind, choiceOf(kind, values));
      summary.push(['What', 'what' in t && t.what ? String(t.what) : 'Appointment']);
      if (start) summary.push(['When', whenForPeople(start, zone, now())]);
      const upfront = 'upfront' in t && t.upfront;
      summary.push(['Price', num(values.price_cents) === 0 ? 'Free' : `${centsForPeople(num(values.price_cents))}${upfront ? ', paid by card when you book' : ''}`]);
      agree = num(values.price_cents) === 0 ? 'I agree to this appointment.' : `I agree to this appointment and its price of ${centsForPeople(num(values.price_cents))}.`;
      button = upfront ? 'Book and go to payment' : 'Book this appointment';
      after = upfront ? 'The next page has the payment link; the time is held for 30 minutes while you pay.' : 'Booked at once; you can move or cancel it on the next page until 24 hours before the start.';
    }
    return page(c, `${heading} · ${b.name}`, detailsTemplate, {
      step: 3, heading, summary, error, keep, requestKey: randomUUID(), action: `${bizPath(slug)}/book/${kind}/details`,
      form: { ...emptyDetails, ...(kind === 'service_call' ? { zip: values.zip ?? '' } : {}), ...form },
      address: kind === 'cleaning' || kind === 'service_call', preferredTime: kind === 'visit' && !start, businessName: b.name,
      agree, after, button, back: `${bizPath(slug)}/book/${kind}/times?${query(choiceOf(kind, values))}`,
    }, status);
  };

  app.get(`${ROUTES.businessPage}/book/:kind/details`, async (c) => {
    const kind = kindOf(c);
    if (!kind) return c.notFound();
    return detailsPage(c, kind, c.req.param('slug'), c.req.query(), {});
  });

  // Step 3 posted: the booking itself, through the registry's operations.
  app.post(`${ROUTES.businessPage}/book/:kind/details`, async (c) => {
    const kind = kindOf(c);
    if (!kind) return c.notFound();
    const form = await formFields(c);
    const refused = await forms.refuse(c, form);
    if (refused) return refused;
    const slug = c.req.param('slug');
    const person = {
      customer_name: form.customer_name ?? '',
      customer_email: form.customer_email ?? '',
      ...(form.customer_phone ? { customer_phone: form.customer_phone } : {}),
    };
    const requestKey = /^[\w-]{20,100}$/.test(form.request_key ?? '') ? form.request_key! : randomUUID();
    const again = (out: Outcome) => detailsPage(c, kind, slug, form, Object.fromEntries(Object.keys(emptyDetails).map((k) => [k, form[k] ?? ''])), String(out.body.error), out.status === 429 ? 429 : 400);
    if (kind === 'cleaning' || kind === 'service_call') {
      const ch = choiceOf(kind, form);
      const job = kind === 'cleaning'
        ? { bedrooms: num(ch.bedrooms), bathrooms: num(ch.bathrooms), clean_type: ch.clean_type, frequency: ch.frequency, add_ons: list(ch.add_ons), pets: ch.pets === '1' }
        : { trade: (await business(c, slug))?.type, issue: ch.issue, ...(ch.details ? { details: ch.details } : {}) };
      const out = await call(c, kind === 'cleaning' ? 'book_cleaning' : 'book_service_call', {
        pro_id: slug, ...job, start: form.start, ...(form.price ? { price: num(form.price) } : {}), address: form.address, zip: form.zip,
        ...(form.notes ? { notes: form.notes } : {}), ...person, request_key: requestKey,
      });
      if (out.status !== 200) return again(out);
      return see(`${ROUTES.manage.replace(':token', encodeURIComponent(String(out.body.manage_token)))}?done=booked`);
    }
    if (kind === 'visit') {
      const input = {
        business: slug, selections: selections(form), ...person, menu_revision: num(form.menu_revision), expected_estimate_cents: num(form.estimate_cents),
        customer_authorized: form.agree === '1', request_key: requestKey, ...(form.note ? { note: form.note } : {}),
      };
      const out = form.start
        ? await call(c, 'book_visit', { ...input, start: form.start })
        : await call(c, 'request_visit', { ...input, ...(form.date ? { preferred_date: form.date } : {}), ...(form.preferred_time ? { preferred_time: form.preferred_time } : {}) });
      if (out.status !== 200) return again(out);
      return see(`${conversationPath(String(out.body.inquiry_id), String(out.body.reply_token))}?done=${form.start ? 'booked_visit' : 'requested_visit'}`);
    }
    // An appointment is booked in a conversation: the same two calls an assistant makes.
    if (form.agree !== '1') return again({ status: 400, body: { error: 'Tick the box to agree to the appointment and its price, then book.' } });
    const convo = await call(c, 'contact_business', {
      business: slug, ...person, request_type: 'appointment', request_key: requestKey,
      message: `I am booking an appointment on your Porchlight page.${form.note ? `\n${form.note}` : ''}`.slice(0, 500),
    });
    if (convo.status !== 200) return again(convo);
    const out = await call(c, 'book_appointment', {
      inquiry_id: convo.body.inquiry_id, reply_token: convo.body.reply_token, service_id: form.service_id, start: form.start,
      expected_price_cents: num(form.price_cents), customer_authorized: true,
    });
    if (out.status !== 200) {
      // The conversation stays (the business sees the attempt); the person chooses again.
      return again(out);
    }
    return see(`${conversationPath(String(convo.body.inquiry_id), String(convo.body.reply_token))}?done=${out.body.status === 'awaiting_payment' ? 'held_appointment' : 'booked_appointment'}`);
  });

  // ---- The conversation page (visits and appointments) ---------------------------------------

  const CONVERSATION = ROUTES.conversation;
  const conversationPath = (inquiry: string, token: string) => new URL(services.links.conversation(inquiry, token)).pathname;
  const conversation = async (c: Context) => {
    const ids = { inquiry_id: c.req.param('inquiry') ?? '', reply_token: c.req.param('token') ?? '' };
    const r = await call(c, 'inquiry_status', ids);
    return { ids, r };
  };
  const conversationPage = async (c: Context, error?: string, status = 200) => {
    const { ids, r } = await conversation(c);
    if (r.status !== 200) return messagePage('Link not valid', String(r.body.error), r.status === 429 ? 429 : 404);
    const cv = r.body as Body;
    const zone = await zoneOf(cv.pro_id);
    const t = now();
    const dayAway = (iso: string | null) => (iso ? Date.parse(iso) - t > 24 * 3600_000 : false);
    const v = cv.visit as Body | null;
    const visit = v && {
      what: ((v.items ?? []) as Body[]).map((i) => `${i.name}${((i.add_ons ?? []) as Body[]).length ? ` with ${(i.add_ons as Body[]).map((a) => a.name).join(', ')}` : ''}`).join('; '),
      status: v.status === 'pending' ? 'requested: waiting for the business to confirm a time' : wordsFor(v.status),
      when: v.start ? whenForPeople(v.start, zone, t) : null,
      technician: v.technician,
      price: v.estimate_cents === null ? 'priced by the staff' : `${centsForPeople(v.estimate_cents)}${v.partial ? ' so far' : ''}, paid at the business`,
      canMove: v.status === 'confirmed' && dayAway(v.start),
      canCancel: v.status === 'pending' || (v.status === 'confirmed' && dayAway(v.start)),
      cancelLabel: v.status === 'pending' ? 'Withdraw the request' : 'Cancel visit',
      terms: v.status === 'pending' ? 'You can withdraw the request at any time.'
        : v.status !== 'confirmed' ? ''
        : dayAway(v.start) ? `Free to move or cancel until ${whenForPeople(Date.parse(v.start) - 24 * 3600_000, zone, t)} (24 hours before the start).`
        : `The start is less than 24 hours away: to change or cancel it, write to ${cv.business_name} (they cancel).`,
    };
    const appointments = ((cv.appointments ?? []) as Body[]).map((a) => {
      const live = a.status === 'confirmed' || a.status === 'awaiting_payment';
      return {
        id: a.booking_id, service: a.service_name,
        status: a.status === 'refund_pending' ? 'cancelled; refund under way' : a.status === 'lapsed' ? 'lapsed (not paid in time; the time was released)' : wordsFor(a.status),
        when: whenForPeople(a.start, zone, t),
        checkout: a.checkout_url, holdUntil: a.hold_until ? whenForPeople(a.hold_until, zone, t) : null,
        canMove: a.status === 'confirmed' && dayAway(a.start),
        canCancel: live && dayAway(a.start),
        terms: !live ? '' : dayAway(a.start) ? `Free to ${a.status === 'confirmed' ? 'move or cancel' : 'cancel'} until ${whenForPeople(Date.parse(a.start) - 24 * 3600_000, zone, t)} (24 hours before the start)${a.status === 'confirmed' ? '; anything paid upfront is refunded' : ''}.` : `The start is less than 24 hours away: to change or cancel it, write to ${cv.business_name}.`,
      };
    });
    const done = c.req.query('done');
    const heading = visit && !appointments.length ? (v!.status === 'pending' ? 'Your visit request' : 'Your visit') : appointments.length ? 'Your appointment' : 'Your conversation';
    return page(c, `${heading} with ${cv.business_name}`, conversationTemplate, {
      c: cv, heading, visit, appointments, error, flash: done && flashes[done] ? flashes[done] : null,
      messages: ((cv.messages ?? []) as Body[]).map((m) => ({ from: m.from === 'customer' ? 'You' : m.from === 'business' ? cv.business_name : String(m.from), text: instantsInWords(String(m.text), zone, t), at: whenForPeople(m.at, zone, t) })),
      base: conversationPath(ids.inquiry_id, ids.reply_token), page: bizPath(cv.pro_id),
    }, status);
  };
  app.get(CONVERSATION, (c) => conversationPage(c));

  app.post(`${CONVERSATION}/cancel`, async (c) => {
    const form = await formFields(c);
    const refused = await forms.refuse(c, form);
    if (refused) return refused;
    const { ids, r } = await conversation(c);
    if (r.status !== 200) return messagePage('Link not valid', String(r.body.error), 404);
    const out = form.what === 'visit'
      ? await call(c, 'cancel_visit_request', { visit_id: (r.body as Body).visit_id, ...ids })
      : await call(c, 'cancel_appointment', { booking_id: form.booking_id, ...ids });
    if (out.status !== 200) return conversationPage(c, String(out.body.error), 400);
    return see(`${conversationPath(ids.inquiry_id, ids.reply_token)}?done=${out.body.status === 'refund_pending' ? 'refund' : 'cancelled'}`);
  });

  /** Open starts to move a visit or an appointment to, on one day. */
  app.get(`${CONVERSATION}/move`, async (c) => {
    const { ids, r } = await conversation(c);
    if (r.status !== 200) return messagePage('Link not valid', String(r.body.error), 404);
    const cv = r.body as Body;
    const zone = await zoneOf(cv.pro_id);
    const what = c.req.query('what') === 'appointment' ? 'appointment' : 'visit';
    const date = /^\d{4}-\d\d-\d\d$/.test(c.req.query('date') ?? '') ? c.req.query('date')! : localDay(zone, 2);
    const base = conversationPath(ids.inquiry_id, ids.reply_token);
    let starts: string[] = [];
    let label = '';
    let error: string | null = null;
    const keep: Record<string, string> = { what, date };
    if (what === 'visit' && cv.visit) {
      const sel = ((cv.visit.items ?? []) as Body[]).map((i) => ({ service_id: i.service_id, add_on_ids: ((i.add_ons ?? []) as Body[]).map((a) => a.add_on_id), ...(i.scent?.scent_id ? { scent_id: i.scent.scent_id } : {}) }));
      const t = await call(c, 'visit_times', { business: cv.pro_id, selections: sel, date });
      if (t.status === 200) starts = (t.body.starts as string[]).filter((s) => s !== cv.visit.start);
      else error = String(t.body.error);
      label = `Visit, booked for ${whenForPeople(cv.visit.start, zone, now())}`;
    } else {
      const a = ((cv.appointments ?? []) as Body[]).find((x) => x.booking_id === c.req.query('booking_id'));
      const list3 = await call(c, 'appointment_times', { business: cv.pro_id });
      const service = ((list3.body.services ?? []) as Body[]).find((s) => s.name === a?.service_name);
      if (!a || !service) error = 'This appointment cannot be moved here: write to the business below.';
      else {
        keep.booking_id = a.booking_id;
        const t = await call(c, 'appointment_times', { business: cv.pro_id, service_id: service.service_id, date });
        if (t.status === 200) starts = (t.body.starts as string[]).filter((s) => s !== a.start);
        else error = String(t.body.error);
        label = `${a.service_name}, booked for ${whenForPeople(a.start, zone, now())}`;
      }
    }
    const shift = (n: number) => {
      const d = localDay(zone, n, date);
      return d < localDay(zone) ? null : `${base}/move?${query({ ...keep, date: d })}`;
    };
    return page(c, `Move your ${what} with ${cv.business_name}`, timesTemplate, {
      step: 0, heading: `Move your ${what}`, what: label, price: null, error, requestOnly: null,
      days: byDay(starts, zone), oneDay: true, range: ` on ${dayForPeople(`${date}T12:00:00Z`, 'UTC', now())}`,
      action: `${base}/move`, keep, back: base, earlier: shift(-1), later: shift(1), button: 'Move to this time',
    }, error ? 400 : 200);
  });

  app.post(`${CONVERSATION}/move`, async (c) => {
    const form = await formFields(c);
    const refused = await forms.refuse(c, form);
    if (refused) return refused;
    const { ids, r } = await conversation(c);
    if (r.status !== 200) return messagePage('Link not valid', String(r.body.error), 404);
    const out = form.what === 'appointment'
      ? await call(c, 'reschedule_appointment', { booking_id: form.booking_id, ...ids, start: form.start })
      : await call(c, 'reschedule_visit', { visit_id: (r.body as Body).visit_id, ...ids, start: form.start });
    if (out.status !== 200) return conversationPage(c, String(out.body.error), 400);
    return see(`${conversationPath(ids.inquiry_id, ids.reply_token)}?done=moved`);
  });

  // ---- Moving a cleaning or a service call from its manage page -------------------------------

  const bookingQuery = 'query($t: String!) { bookingByManageToken(manageToken: $t) { bookingId proId status kind trade issue zip businessName price fee visits { start end active } } job: bookingJobByManageToken(manageToken: $t) { bedrooms bathrooms cleanType sqft addOns pets frequency } }';
  const managed = async (c: Context) => {
    const r = await gql(c, bookingQuery, { t: c.req.param('token') });
    if (r.errors?.length) return { error: r.errors[0]!.message };
    return { b: (r.data as Body).bookingByManageToken as Body, job: (r.data as Body).job as Body | null };
  };
  const managePath = (token: string) => ROUTES.manage.replace(':token', encodeURIComponent(token));

  app.get(`${ROUTES.manage}/move`, async (c) => {
    const token = c.req.param('token');
    const m = await managed(c);
    if ('error' in m) return messagePage('Link not valid', String(m.error), 404);
    const { b, job } = m;
    const zone = await zoneOf(b.proId);
    const date = /^\d{4}-\d\d-\d\d$/.test(c.req.query('date') ?? '') ? c.req.query('date')! : undefined;
    const current = ((b.visits ?? []) as Body[]).filter((v) => v.active).map((v) => v.start as string).sort()[0];
    let starts: string[] = [];
    let price: number | null = null;
    let windowMinutes: number | undefined;
    let error: string | null = null;
    if (b.kind === 'cleaning' && job) {
      const t = await call(c, 'available_times', {
        pro_id: b.proId, bedrooms: job.bedrooms, bathrooms: job.bathrooms, clean_type: job.cleanType, frequency: job.frequency,
        add_ons: job.addOns, pets: job.pets, ...(job.sqft ? { sqft: job.sqft } : {}), days: 7, ...(date ? { date } : {}),
      });
      if (t.status === 200) ({ starts, price } = t.body as { starts: string[]; price: number });
      else error = String(t.body.error);
    } else if (b.kind === 'service_call') {
      for (let p = 1; p <= 10; p++) {
        const r = await call(c, 'find_service_call', { zip: b.zip, trade: b.trade, issue: b.issue, days: 1, ...(date ? { date } : {}), page: p });
        if (r.status !== 200) { error = String(r.body.error); break; }
        const mine = ((r.body.pros ?? []) as Body[]).find((x) => x.pro_id === b.proId);
        if (mine) { starts = (mine.windows as Body[]).map((w) => w.start as string); price = mine.fee as number; windowMinutes = mine.window_minutes as number; break; }
        if (!r.body.next_page) break;
      }
    }
    // Moving within 24 hours of the current start is refused by reschedule_booking: say so first.
    if (current && Date.parse(current) - now() <= 24 * 3600_000) error = `The start is less than 24 hours away, so it can no longer be moved here: message ${b.businessName} on the booking page.`;
    const base = managePath(token);
    const from = date ?? localDay(zone);
    const span = b.kind === 'service_call' ? 1 : 7;
    const shift = (n: number) => {
      const d = localDay(zone, n, from);
      return d < localDay(zone) ? null : `${base}/move?${query({ date: d })}`;
    };
    const priceText = price === null ? null
      : b.kind === 'cleaning' ? `${dollarsForPeople(price)} per visit, firm${b.price !== null && price !== b.price ? ` (booked at ${dollarsForPeople(b.price)}: the new time's price applies)` : ''}.`
      : `Service-call fee ${dollarsForPeople(price)}, firm.`;
    return page(c, `Move your booking with ${b.businessName}`, timesTemplate, {
      step: 0, heading: 'Move your booking', what: current ? `${b.kind === 'cleaning' ? 'Cleaning' : 'Service call'}, booked for ${whenLabel(current, zone, windowMinutes)}` : '', price: priceText,
      error, requestOnly: null, days: error ? [] : byDay(starts.filter((s) => s !== current), zone, windowMinutes), oneDay: span === 1,
      range: span === 1 ? ` on ${dayForPeople(`${from}T12:00:00Z`, 'UTC', now())}` : ' in these seven days',
      action: `${base}/move`, keep: price === null ? {} : { price: String(price) }, back: base, earlier: shift(-span), later: shift(span), button: 'Move to this time',
    }, error ? 400 : 200);
  });

  app.post(`${ROUTES.manage}/move`, async (c) => {
    const token = c.req.param('token');
    const form = await formFields(c);
    const refused = await forms.refuse(c, form);
    if (refused) return refused;
    const m = await managed(c);
    if ('error' in m) return messagePage('Link not valid', String(m.error), 404);
    const out = await call(c, 'reschedule_booking', {
      booking_id: m.b.bookingId, manage_token: token, start: form.start ?? '', ...(form.price ? { price: num(form.price) } : {}),
    });
    if (out.status !== 200) return messagePage('Not moved', `${String(out.body.error)} Nothing was changed.`, out.status === 429 ? 429 : 400, `${managePath(token)}/move`);
    return see(`${managePath(token)}?done=moved`);
  });

  return { app, bookSection };

  function whenLabel(start: string, zone: string, windowMinutes?: number) {
    return windowMinutes
      ? `${dayForPeople(start, zone, now())}, between ${clockForPeople(start, zone, false)} and ${clockForPeople(Date.parse(start) + windowMinutes * 60_000, zone)}`
      : whenForPeople(start, zone, now());
  }
}

/** "Deep cleaning, 2 bedrooms, 1.5 bathrooms, with inside the fridge" */
function cleaningWhat(ch: Record<string, string>) {
  const addOns = (ch.add_ons ?? '').split(',').filter(Boolean);
  const bedrooms = ch.bedrooms === '0' ? 'studio' : `${ch.bedrooms} bedroom${ch.bedrooms === '1' ? '' : 's'}`;
  return `${cap(wordsFor(ch.clean_type ?? 'standard'))} cleaning, ${bedrooms}, ${ch.bathrooms} bathroom${ch.bathrooms === '1' ? '' : 's'}${addOns.length ? `, with ${addOns.map(wordsFor).join(', ')}` : ''}${ch.pets === '1' ? ', pets at home' : ''}${ch.frequency && ch.frequency !== 'once' ? `, ${wordsFor(ch.frequency)}` : ''}`;
}
const serviceCallWhat = (trade: string, ch: Record<string, string>) => `Service call (${wordsFor(trade)}): ${wordsFor(ch.issue)}, ZIP ${ch.zip ?? ''}`;

const num = (s: string | undefined) => (s !== undefined && s !== '' && Number.isFinite(Number(s)) ? Number(s) : (s as unknown as number));
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const hours = (minutes: number) => (minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${(minutes / 60).toFixed(1)} hours`);
