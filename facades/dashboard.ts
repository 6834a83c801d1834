/**
 * The owner dashboard at /app: sign-in with e-mail and password (the sign-in window's check and
 * limits), Manage with AI codes, and the business's keys and connections. Plain HTML forms that
 * work without JavaScript. The pages act through the same GraphQL pipeline and operations as
 * every other surface, with the session as the credential (auth/credentials.ts actingAs).
 *
 * Every POST is checked twice against cross-site requests: its Origin (or Sec-Fetch-Site) must
 * be this site, and it must carry the session's CSRF token (before sign-in: the token of a
 * cookie set with the form, double-submit).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { serialize } from 'hono/utils/cookie';
import type { ExecutionResult } from 'graphql';
import { DateTime } from 'luxon';
import type { Services } from '../src/context.js';
import type { Operation } from '../src/registry/contract.js';
import { AppError, errorStatus } from '../src/errors.js';
import { actingAs } from '../src/auth/credentials.js';
import { DEVICE_TTL_SECONDS, signInWithPassword } from '../src/auth/oauth/authorize.js';
import {
  SESSION_HOURS,
  csrfMatches,
  csrfToken,
  endSession,
  ownerBusinesses,
  sessionCredential,
  sessionOf,
  startSession,
  switchBusiness,
  type DashboardSession,
} from '../src/auth/sessions.js';
import { clientAddress } from './client-address.js';
import type { Outcome } from './execute.js';
import type { Yoga } from './graphql.js';
import { eta, layout } from './html.js';
import { whenForPeople } from '../src/core/for-people.js';
import { homeTemplate as homeTemplateOf, homeView, webcalOf, type ScheduleBody } from './dashboard-home.js';

export interface DashboardDeps {
  yoga: Yoga;
  byName: Map<string, Operation>;
  run: (op: Operation, raw: unknown, request: Request, address: string) => Promise<Outcome>;
}

const nav = `<nav id="nav"><p><a href="/app">Home</a> · <a href="/app/manage-with-ai">Manage with AI</a> · <a href="/app/keys">Keys and connections</a> · <a href="/app/calendar">Calendar</a></p>
<p class="note">Signed in as <strong><%= it.session.ownerName %></strong> for <strong id="business"><%= it.session.businessName %></strong></p></nav>`;

const csrfField = `<input type="hidden" name="csrf" value="<%= it.csrf %>">`;

const signInTemplate = `<h1>Sign in to your dashboard</h1>
<% if (it.error) { %><p class="note" id="error" role="alert"><strong><%= it.error %></strong></p><% } %>
<% if (it.needed) { %><p id="needed">Sign in as the business owner to continue.</p><% } %>
<form method="post" action="/app/sign-in" id="sign-in-form">${csrfField}<input type="hidden" name="next" value="<%= it.next %>">
<p><label for="email">E-mail</label><br><input type="email" id="email" name="email" autocomplete="username" maxlength="200" required value="<%= it.email %>"></p>
<p><label for="password">Password</label><br><input type="password" id="password" name="password" autocomplete="current-password" maxlength="200" required></p>
<button type="submit" id="sign-in">Sign in</button></form>`;

const homeTemplate = homeTemplateOf(nav, csrfField);

const manageTemplate = `${nav}<h1>Manage with AI</h1>
<% if (it.code) { %><p>Your code for <strong><%= it.session.businessName %></strong>:</p>
<p><code id="code" style="font-size:1.6rem;letter-spacing:.15em"><%= it.code %></code></p>
<p class="note" id="expires">It works once, for 10 minutes (until <%= it.expiresAt %>). Type it yourself into the sign-in window your assistant opens, or give it to a trusted app that exchanges it for a business key. Never paste it into a chat.</p>
<% } else { %><p>Connect your AI assistant: when it opens the Porchlight sign-in window, sign in with your e-mail and password, or use a code from this page.</p>
<% if (it.error) { %><p class="note" id="error" role="alert"><strong><%= it.error %></strong></p><% } %><% } %>
<form method="post" action="/app/manage-with-ai" id="code-form">${csrfField}<button type="submit" id="create-code"><%= it.code ? 'Create another code' : 'Create a code' %></button></form>`;

const keysTemplate = `${nav}<h1>Keys and connections</h1>
<% if (it.flash) { %><p class="note" id="outcome" role="status"><%= it.flash %></p><% } %>
<% if (it.error) { %><p class="note" id="error" role="alert"><strong><%= it.error %></strong></p><% } %>
<h2>Connected apps</h2>
<% if (!it.list.connections.length) { %><p class="note" id="no-connections">No app is connected.</p><% } %>
<ul id="connections"><% it.list.connections.forEach(function (c) { %><li id="connection-<%= c.connection_id %>"><strong><%= c.client_name %></strong> (<%= c.scopes.indexOf('write') >= 0 ? 'see and manage' : 'see' %>)<br>
<span class="note">Connected <%= it.when(c.created_at) %></span>
<form method="post" action="/app/keys/revoke">${csrfField}<input type="hidden" name="id" value="<%= c.connection_id %>"><button type="submit" class="danger">Disconnect</button></form></li>
<% }) %></ul>
<h2>Business keys</h2>
<% if (!it.list.keys.length) { %><p class="note" id="no-keys">No business key works now.</p><% } %>
<ul id="business-keys"><% it.list.keys.forEach(function (k) { %><li id="key-<%= k.key_id %>"><code><%= k.hint %>…</code><br>
<span class="note">Made <%= it.when(k.created_at) %><% if (k.connection_name) { %> through <%= k.connection_name %><% } %> · last used <%= k.last_used_at ? it.when(k.last_used_at) : 'never' %> · works until <%= it.when(k.expires_at) %></span>
<form method="post" action="/app/keys/revoke">${csrfField}<input type="hidden" name="id" value="<%= k.key_id %>"><button type="submit" class="danger">Revoke</button></form></li>
<% }) %></ul>
<p class="note">Revoking takes effect at once, everywhere. Disconnecting an app also revokes the keys it made.</p>`;

const calendarTemplate = `${nav}<h1>Calendar</h1>
<% if (it.flash) { %><p class="note" id="outcome" role="status"><%= it.flash %></p><% } %>
<p>Subscribe to this address in your calendar app (Google Calendar: "From URL"; Apple Calendar: "New Calendar Subscription"). It shows every booking, job and blocked time; calendar apps refresh it every few hours.</p>
<p><label for="calendar-feed-url">Your calendar address</label><br><textarea id="calendar-feed-url" readonly rows="3" spellcheck="false" style="min-height:0;font:.9rem/1.4 ui-monospace,monospace;word-break:break-all"><%= it.url %></textarea></p>
<p><a id="subscribe" href="<%= it.webcal %>">Open it in your calendar app</a></p>
<p class="note">Anyone with this address can read your schedule. If it reached someone else, replace it: the old address stops working at once, and you subscribe to the new one.</p>
<form method="post" action="/app/calendar/rotate" id="rotate-form">${csrfField}<button type="submit" class="danger" id="rotate">Replace the address</button></form>`;

const messageTemplate = `<h1><%= it.title %></h1><p id="error"><%= it.message %></p>`;

const SIGN_IN = '/app/sign-in';

/** The business's own receptionist number a transfer would replace, if it has one that is not the one moving. */
const replacedNumber = (phone: { number: string | null; status: string; port: { number: string } | null }) =>
  phone.number && phone.status !== 'failed' && phone.number !== phone.port?.number ? phone.number : null;
const DEVICE_COOKIE = 'porchlight_device';
const CREATE_CODE = 'mutation { createManageCode { code expiresAt } }';

/** Where a sign-in may return to: a path of the dashboard on this site, nothing else. */
export function returnPath(next: string | undefined): string {
  if (!next || next.length > 500 || /[\\\u0000-\u001F\u007F]/.test(next) || !next.startsWith('/') || next.startsWith('//')) return '/app';
  const url = new URL(next, 'http://dashboard.invalid');
  if (url.origin !== 'http://dashboard.invalid' || !(url.pathname === '/app' || url.pathname.startsWith('/app/'))) return '/app';
  return `${url.pathname}${url.search}`;
}

/**
 * The dashboard's pages keep the Referer within this site (guards.ts's pageHeaders send none):
 * under no-referrer a browser sends `Origin: null` with every form POST, and the CSRF check
 * reads the Origin.
 */
export const DASHBOARD_HEADERS = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'referrer-policy': 'same-origin' };

const page = (title: string, template: string, data: object, status = 200, headers: Record<string, string> = {}) =>
  new Response(layout(title, eta.renderString(template, data)), { status, headers: { ...DASHBOARD_HEADERS, ...headers } });

const see = (location: string, headers: Record<string, string> = {}) => new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } });

const forbidden = (message: string) => page('Refused', messageTemplate, { title: 'This form was refused', message }, 403);

export interface SignedIn {
  session: DashboardSession;
  token: string;
  /** The CSRF token its forms carry. */
  csrf: string;
}

/** What the transfer page and the dashboard's own pages need: who is signed in, and form checks. */
export interface DashboardGate {
  /** Cookie names: `__Host-` ones when BASE_URL is https. */
  cookies: { session: string; signIn: string };
  /** The signed-in owner, or null. */
  session(c: Context): Promise<SignedIn | null>;
  /** Sends the browser to sign in, coming back here afterwards. */
  toSignIn(c: Context): Response;
  /** Whether a POST came from a page of this site (its Origin, or its Sec-Fetch-Site when it sent no Origin). */
  fromThisSite(c: Context): boolean;
  /** null when a signed-in owner's POST may go on; otherwise the 403 page. */
  refuseForm(c: Context, form: Record<string, string>, signedIn: SignedIn | null): Response | null;
}

export function dashboardGate(services: Services): DashboardGate {
  const base = new URL(services.config.baseUrl);
  const https = base.protocol === 'https:';
  const cookies = https ? { session: '__Host-porchlight_session', signIn: '__Host-porchlight_signin' } : { session: 'porchlight_session', signIn: 'porchlight_signin' };

  // Its Origin is BASE_URL's or the Host it was sent to (which the host guard already allowed).
  const fromThisSite = (c: Context) => {
    const origin = c.req.header('origin');
    if (origin === undefined) {
      const site = c.req.header('sec-fetch-site');
      return site === undefined || site === 'same-origin' || site === 'none';
    }
    return origin === base.origin || origin === `${base.protocol}//${c.req.header('host') ?? new URL(c.req.url).host}`;
  };

  return {
    cookies,
    async session(c) {
      const token = getCookie(c, cookies.session);
      const session = await sessionOf(services, token);
      return session && token ? { session, token, csrf: csrfToken(token) } : null;
    },
    toSignIn(c) {
      const url = new URL(c.req.url);
      return see(`${SIGN_IN}?${new URLSearchParams({ next: returnPath(`${url.pathname}${url.search}`) })}`);
    },
    fromThisSite,
    refuseForm(c, form, signedIn) {
      if (!fromThisSite(c)) return forbidden('This form was sent from another site. Open the dashboard at /app and send it from there.');
      if (!signedIn || !csrfMatches(signedIn.token, form.csrf)) {
        return forbidden('This form is out of date or did not come from your dashboard. Open the page again (signing in if asked) and send it from there.');
      }
      return null;
    },
  };
}

/** Form fields as strings (anything else is not a field these forms have). */
async function formOf(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return {};
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export function dashboardRoutes(services: Services, deps: DashboardDeps, gate: DashboardGate): Hono {
  const app = new Hono();
  const config = services.config;
  const https = config.baseUrl.startsWith('https:');
  const { session: sessionCookie, signIn: signInCookie } = gate.cookies;
  const address = (c: Context) => clientAddress(c, config.trustProxy);
  const cookie = (name: string, value: string, maxAge: number, sameSite: 'Lax' | 'Strict' = 'Lax', path = '/') =>
    serialize(name, value, { path, httpOnly: true, secure: https, sameSite, maxAge });

  /** An operation of the registry, run as the signed-in owner through the one pipeline. */
  const asOwner = (c: Context, session: DashboardSession, name: string, input: Record<string, unknown> = {}) => {
    const op = deps.byName.get(name)!;
    // GraphQL over HTTP runs mutations for POST requests only.
    const request = actingAs(new Request(`${config.baseUrl}/app`, { method: op.method }), sessionCredential(session));
    return deps.run(op, input, request, address(c));
  };

  const signInPage = (c: Context, opts: { error?: string; email?: string; next?: string; needed?: boolean; status?: number; headers?: Record<string, string> } = {}) => {
    // The double-submit token: one per browser, kept while it is well formed.
    const existing = getCookie(c, signInCookie);
    const csrf = existing && /^[\w-]{43}$/.test(existing) ? existing : randomBytes(32).toString('base64url');
    return page('Sign in', signInTemplate, { csrf, error: opts.error, email: opts.email ?? '', next: returnPath(opts.next), needed: opts.needed }, opts.status, {
      'set-cookie': cookie(signInCookie, csrf, 60 * 60, 'Strict'),
      ...opts.headers,
    });
  };

  app.get(SIGN_IN, async (c) => {
    const next = c.req.query('next');
    if (await gate.session(c)) return see(returnPath(next));
    return signInPage(c, { next, needed: next !== undefined && returnPath(next) !== '/app' });
  });

  app.post(SIGN_IN, async (c) => {
    const form = await formOf(c);
    const expected = getCookie(c, signInCookie);
    const sent = form.csrf ?? '';
    const sameToken = expected !== undefined && sent.length === expected.length && timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
    if (!gate.fromThisSite(c)) return forbidden('This sign-in was sent from another site. Open the dashboard at /app and sign in there.');
    if (!sameToken) return signInPage(c, { error: 'This sign-in page had expired. Sign in again.', email: form.email, next: form.next, status: 403 });
    try {
      const owner = await signInWithPassword(services, { email: form.email ?? '', password: form.password ?? '', clientAddress: address(c), device: getCookie(c, DEVICE_COOKIE) });
      const { token } = await startSession(services, owner.ownerId, owner.businesses[0]!.id);
      const headers = new Headers({ location: returnPath(form.next), 'cache-control': 'no-store' });
      headers.append('set-cookie', cookie(sessionCookie, token, SESSION_HOURS * 3600));
      // The sign-in window's device cookie (auth/oauth/authorize.ts), for this path.
      headers.append('set-cookie', cookie(DEVICE_COOKIE, owner.device, DEVICE_TTL_SECONDS, 'Lax', '/app'));
      return new Response(null, { status: 303, headers });
    } catch (err) {
      if (!(err instanceof AppError) || (err.code !== 'invalid_input' && err.code !== 'rate_limited')) throw err;
      const limited = err.code === 'rate_limited';
      return signInPage(c, { error: err.message, email: form.email, next: form.next, status: limited ? 429 : 400, headers: limited ? { 'retry-after': String(err.extra.retry_after ?? 60) } : {} });
    }
  });

  /** Pages and forms for the signed-in owner only; anyone else is sent to sign in. */
  const signedIn =
    (handle: (c: Context, s: SignedIn, form: Record<string, string>) => Promise<Response>) =>
    async (c: Context) => {
      const s = await gate.session(c);
      if (c.req.method !== 'POST') return s ? handle(c, s, {}) : gate.toSignIn(c);
      const form = await formOf(c);
      return gate.refuseForm(c, form, s) ?? handle(c, s!, form);
    };

  /**
   * The home page: the week's schedule, the feed's address and a transfer to finish, each read
   * through its operation. One that fails leaves its part out and says why; the rest still shows.
   */
  const homePage = async (c: Context, s: SignedIn, extra: { flash?: string; error?: string; status?: number } = {}) => {
    const [schedule, business, service, businesses] = await Promise.all([
      asOwner(c, s.session, 'schedule', { days: 7 }),
      asOwner(c, s.session, 'my_business'),
      asOwner(c, s.session, 'receptionist_service'),
      ownerBusinesses(services, s.session.ownerId),
    ]);
    const phone = service.status === 200 ? (service.body.phone as { number: string | null; status: string; port: { port_id: string; number: string; status: string; reason: string | null } | null }) : null;
    const port = phone?.port ? { ...phone.port, replaces: replacedNumber(phone) } : null;
    const error = extra.error ?? (schedule.status === 200 ? undefined : `The schedule could not be read: ${String(schedule.body.error)}`);
    return page(`${s.session.businessName} dashboard`, homeTemplate, {
      ...s,
      businesses,
      home: schedule.status === 200 ? homeView(schedule.body as unknown as ScheduleBody, services.clock.now()) : null,
      feed: business.status === 200 ? business.body.calendar_feed_url : null,
      webcal: business.status === 200 ? webcalOf(String(business.body.calendar_feed_url)) : null,
      port,
      flash: extra.flash,
      error,
    }, extra.status);
  };

  app.get('/app', signedIn((c, s) => homePage(c, s)));

  /**
   * Finishing a transfer: the draft's page link is shown once (prepare_number_port), so the owner's
   * press here asks for a fresh link to the same draft, as the operation does when asked again, and
   * goes there. A business with a receptionist number of its own had to agree to its replacement
   * to get a draft at all; the page says so again before anything is sent.
   */
  app.post(
    '/app/number-transfer',
    signedIn(async (c, s, form) => {
      const service = await asOwner(c, s.session, 'receptionist_service');
      if (service.status !== 200) return homePage(c, s, { error: String(service.body.error), status: service.status });
      const phone = service.body.phone as { number: string | null; status: string; port: { port_id: string; number: string; status: string } | null };
      if (!phone.port || phone.port.port_id !== form.port_id || phone.port.status !== 'draft') {
        return homePage(c, s, { error: 'There is no transfer to finish now: the page shows where it stands.', status: 400 });
      }
      const replaces = replacedNumber(phone);
      const outcome = await asOwner(c, s.session, 'prepare_number_port', { number: phone.port.number, owner_requested: true, ...(replaces ? { replace_number: true } : {}) });
      if (outcome.status !== 200) return homePage(c, s, { error: String(outcome.body.error), status: outcome.status });
      // The page is on this site: go by its path, so the session cookie of this host goes along.
      const url = new URL(String(outcome.body.dashboard_url));
      return see(`${url.pathname}${url.search}`);
    }),
  );

  app.post(
    '/app/business',
    signedIn(async (c, s, form) => {
      try {
        await switchBusiness(services, s.session, form.business_id ?? '');
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        return homePage(c, s, { error: err.message, status: 400 });
      }
      return see('/app');
    }),
  );

  app.post(
    '/app/sign-out',
    signedIn(async (_c, s) => {
      await endSession(services, s.session.id);
      return see(SIGN_IN, { 'set-cookie': cookie(sessionCookie, '', 0) });
    }),
  );

  app.get('/app/manage-with-ai', signedIn(async (_c, s) => page('Manage with AI', manageTemplate, { ...s })));

  app.post(
    '/app/manage-with-ai',
    signedIn(async (c, s) => {
      const request = actingAs(new Request(`${config.baseUrl}/app/manage-with-ai`, { method: 'POST' }), sessionCredential(s.session));
      const result = (await deps.yoga.getResultForParams({ params: { query: CREATE_CODE }, request }, { clientAddress: address(c) })) as ExecutionResult<{
        createManageCode: { code: string; expiresAt: string };
      }>;
      const error = result.errors?.[0];
      if (error || !result.data) {
        const code = (error?.extensions.code as keyof typeof errorStatus | undefined) ?? 'internal';
        return page('Manage with AI', manageTemplate, { ...s, error: error?.message }, errorStatus[code] ?? 500);
      }
      const { code, expiresAt } = result.data.createManageCode;
      return page('Manage with AI', manageTemplate, { ...s, code, expiresAt: DateTime.fromISO(expiresAt).setZone(s.session.timeZone).toFormat('h:mm a ZZZZ') });
    }),
  );

  const keysPage = async (c: Context, s: SignedIn, extra: { flash?: string; error?: string; status?: number } = {}) => {
    const list = await asOwner(c, s.session, 'api_keys');
    if (list.status !== 200) return page('Keys and connections', messageTemplate, { title: 'Keys and connections', message: list.body.error }, list.status);
    // Times in the business's zone in words, with the year when it is not this one's.
    const when = (iso: string) => whenForPeople(iso, s.session.timeZone, services.clock.now());
    return page('Keys and connections', keysTemplate, { ...s, list: list.body, when, flash: extra.flash, error: extra.error }, extra.status);
  };

  app.get(
    '/app/keys',
    signedIn(async (c, s) => {
      const done = c.req.query('done');
      const flash = done === 'key' ? 'The key was revoked.' : done === 'connection' ? 'The app was disconnected, and its keys revoked.' : undefined;
      return keysPage(c, s, { flash });
    }),
  );

  app.post(
    '/app/keys/revoke',
    signedIn(async (c, s, form) => {
      const outcome = await asOwner(c, s.session, 'revoke_api_key', { id: form.id ?? '' });
      if (outcome.status === 200) return see(`/app/keys?done=${outcome.body.kind === 'connection' ? 'connection' : 'key'}`);
      return keysPage(c, s, { error: String(outcome.body.error), status: outcome.status });
    }),
  );

  const calendarPage = async (c: Context, s: SignedIn, flash?: string) => {
    const business = await asOwner(c, s.session, 'my_business');
    if (business.status !== 200) return page('Calendar', messageTemplate, { title: 'Calendar', message: business.body.error }, business.status);
    return page('Calendar', calendarTemplate, { ...s, url: business.body.calendar_feed_url, webcal: webcalOf(String(business.body.calendar_feed_url)), flash });
  };

  app.get('/app/calendar', signedIn((c, s) => calendarPage(c, s, c.req.query('done') === 'rotated' ? 'Replaced: the old address no longer works. Subscribe to this one.' : undefined)));

  app.post(
    '/app/calendar/rotate',
    signedIn(async (c, s) => {
      const outcome = await asOwner(c, s.session, 'rotate_calendar_feed');
      if (outcome.status === 200) return see('/app/calendar?done=rotated');
      return page('Calendar', messageTemplate, { title: 'Calendar', message: String(outcome.body.error) }, outcome.status);
    }),
  );

  return app;
}
