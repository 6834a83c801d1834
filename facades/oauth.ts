/**
 * The OAuth 2.0 authorization server over HTTP: metadata (RFC 8414, RFC 9728), the sign-in
 * window at /authorize, and /token, /register (RFC 7591) and /revoke (RFC 7009). The protocol
 * logic lives in src/auth/oauth; this file parses requests and renders answers.
 */
import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { serialize } from 'hono/utils/cookie';
import type { Services } from '../src/context.js';
import { AppError } from '../src/errors.js';
import {
  DEVICE_TTL_SECONDS,
  approveWithConsent,
  approveWithManageCode,
  checkClient,
  checkFormToken,
  checkRequest,
  consentToken,
  formToken,
  requestFields,
  signInWithPassword,
  type Params,
} from '../src/auth/oauth/authorize.js';
import type { AuthorizationRequest } from '../src/auth/oauth/grants.js';
import { findClient, isMetadataClientId, redirectVerified, registerClient } from '../src/auth/oauth/clients.js';
import { SCOPES } from '../src/auth/oauth/scopes.js';
import { OAuthError } from '../src/auth/oauth/errors.js';
import { exchangeCode, refreshGrant, revokeToken } from '../src/auth/oauth/grants.js';
import { controlCharacterAt } from '../src/registry/validate.js';
import { clientAddress } from './client-address.js';
import { apiCors, signInPolicy } from './guards.js';
import { eta, layout } from './html.js';

const hiddenFields = `<% it.fields.forEach(function (f) { %><input type="hidden" name="<%= f[0] %>" value="<%= f[1] %>">
<% }) %>`;

const intro = `<p><strong id="client-name"><%= it.clientName %></strong><% if (it.clientHost) { %> (an app described at <code id="client-host"><%= it.clientHost %></code>; it names itself)<% } %> wants to <%= it.access %> your business's bookings, messages and schedule on Porchlight.
You will return to <code id="redirect-host"><%= it.redirectHost %></code>.</p>
<% if (it.error) { %><p class="note" id="error" role="alert"><strong><%= it.error %></strong></p><% } %>`;

const denyForm = `<form method="post" action="/authorize">${hiddenFields}<input type="hidden" name="step" value="deny">
<button type="submit" class="danger" id="deny">Cancel</button></form>`;

const signInTemplate = `<h1>Sign in to connect your business</h1>${intro}
<h2>Sign in with your e-mail</h2>
<form method="post" action="/authorize" id="password-form">${hiddenFields}<input type="hidden" name="step" value="password">
<p><label for="email">E-mail</label><br><input type="email" id="email" name="email" autocomplete="username" maxlength="200" required value="<%= it.email %>"></p>
<p><label for="password">Password</label><br><input type="password" id="password" name="password" autocomplete="current-password" maxlength="200" required></p>
<button type="submit" id="sign-in">Sign in</button></form>
<h2>Or use a Manage with AI code</h2>
<p class="note" id="code-help">A code works once, for 10 minutes. To get one: sign in to your dashboard at <a href="/app/manage-with-ai" target="_blank" rel="noopener">/app</a> with the same e-mail and password and choose Manage with AI; or, if you run the Porchlight server yourself, run <code>npm run manage-code -- &lt;your business id&gt;</code> there. Assistants cannot create codes. Type the code here only, never in a chat.</p>
<form method="post" action="/authorize" id="code-form">${hiddenFields}<input type="hidden" name="step" value="code">
<p><label for="code">Code</label><br><input id="code" name="code" autocomplete="one-time-code" maxlength="20" required></p>
<button type="submit" id="use-code">Continue with code</button></form>
<p>${denyForm}</p>`;

const consentTemplate = `<h1>Allow access to your business</h1>${intro}
<form method="post" action="/authorize" id="consent-form">${hiddenFields}<input type="hidden" name="step" value="consent">
<input type="hidden" name="consent_token" value="<%= it.consentToken %>">
<% if (it.businesses.length === 1) { %><input type="hidden" name="business_id" value="<%= it.businesses[0].id %>">
<p>Business: <strong id="business-name"><%= it.businesses[0].name %></strong></p>
<% } else { %><fieldset id="businesses"><legend>Which business should it act for?</legend>
<% it.businesses.forEach(function (b, i) { %><p><label><input type="radio" name="business_id" value="<%= b.id %>"<% if (i === 0) { %> checked<% } %>> <%= b.name %></label></p>
<% }) %></fieldset><% } %>
<button type="submit" id="allow">Allow</button></form>
<p>${denyForm}</p>`;

const cancelledTemplate = `<h1>Sign-in cancelled</h1><p id="outcome">Nothing was shared with <%= it.clientName %>. You can close this window.</p>
<p><a id="back" rel="noreferrer" href="<%= it.back %>">Return to <%= it.redirectHost %></a></p>`;

const errorTemplate = `<h1>This sign-in cannot continue</h1><p id="error"><%= it.message %></p>
<p class="note">Nothing was shared. Start the connection again from your app.</p>`;

// Framing, Referer and content policy: guards.ts's pageHeaders, for every page.
const pageHeaders = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };

const page = (title: string, template: string, data: object, status = 200, extra: Record<string, string> = {}) =>
  new Response(layout(title, eta.renderString(template, data)), { status, headers: { ...pageHeaders, ...extra } });

const errorPage = (message: string, status = 400) => page('Sign-in stopped', errorTemplate, { message }, status);

/**
 * The device cookie (OWASP's defence against account lockout): it names the account this browser
 * signed in to, so its attempts skip the account's backoff. Sent back to the sign-in window only.
 */
const DEVICE_COOKIE = 'porchlight_device';

/** The (validated) redirect URI with the outcome and our issuer (RFC 9207). */
function clientUrl(services: Services, req: { redirectUri: string; state?: string }, outcome: Record<string, string>): string {
  const url = new URL(req.redirectUri);
  for (const [k, v] of Object.entries(outcome)) url.searchParams.set(k, v);
  if (req.state !== undefined) url.searchParams.set('state', req.state);
  url.searchParams.set('iss', services.config.baseUrl);
  return url.toString();
}

/** Sends the user back to the client with the outcome. */
const backToClient = (services: Services, req: { redirectUri: string; state?: string }, outcome: Record<string, string>, status: 302 | 303) =>
  new Response(null, { status, headers: { location: clientUrl(services, req, outcome), 'cache-control': 'no-store' } });

/**
 * Parameters of a query or form: each one once (RFC 6749 section 3.1), except resource, which
 * RFC 8707 repeats for several resources; `resources` lists its values.
 */
interface OAuthParams {
  params: Params;
  resources: string[];
}

function oneEach(all: Record<string, string[]>): OAuthParams {
  const params: Params = {};
  for (const [name, values] of Object.entries(all)) {
    if (name !== 'resource' && values.length > 1) throw new OAuthError('invalid_request', `${name} was sent ${values.length} times; send each parameter once.`);
    params[name] = values[0];
  }
  return { params, resources: all.resource ?? [] };
}

/** Form bodies as plain strings (file parts are not parameters). */
async function formParams(c: Context): Promise<Record<string, string[]>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return {};
  const body = await c.req.parseBody({ all: true });
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => [name, (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string')] as const).filter(([, values]) => values.length > 0),
  );
}

/**
 * OAuth parameters, like every operation's input, are plain text: one holding a control character
 * (PostgreSQL refuses NUL) is a malformed request, refused before any lookup.
 */
function plainText(params: object, error: 'invalid_request' | 'invalid_client_metadata' = 'invalid_request'): void {
  const at = controlCharacterAt(params);
  if (at) throw new OAuthError(error, `${at} must not contain control characters.`);
}

/** The same for query and form parameters, each named once whichever value holds it. */
function plainParams(all: Record<string, string[]>): void {
  const at = controlCharacterAt(Object.fromEntries(Object.entries(all).map(([name, values]) => [name, values.join(' ')])));
  if (at) throw new OAuthError('invalid_request', `${at} must not contain control characters.`);
}

const oauthJson = (body: object, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' } });

const oauthErrorJson = (err: OAuthError) => oauthJson({ error: err.error, error_description: err.description }, err.status);

export function oauthRoutes(services: Services): Hono {
  const app = new Hono();
  const base = services.config.baseUrl;
  const address = (c: Context) => clientAddress(c, services.config.trustProxy);

  // Assistants running in a browser read the metadata and call the token endpoints cross-origin.
  for (const path of ['/.well-known/*', '/token', '/register', '/revoke']) app.use(path, apiCors);

  app.get('/.well-known/oauth-authorization-server', (c) =>
    c.json({
      issuer: base,
      authorization_endpoint: `${base}/authorize`,
      token_endpoint: `${base}/token`,
      registration_endpoint: `${base}/register`,
      revocation_endpoint: `${base}/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      scopes_supported: SCOPES,
      authorization_response_iss_parameter_supported: true,
      // A client_id may be an https URL naming the client's metadata document (client-metadata.ts).
      client_id_metadata_document_supported: true,
      service_documentation: `${base}/openapi.json`,
    }),
  );
  const resourceMetadata = (resource: string) => ({
    resource,
    authorization_servers: [base],
    scopes_supported: SCOPES,
    bearer_methods_supported: ['header'],
    resource_name: 'Porchlight',
  });
  app.get('/.well-known/oauth-protected-resource', (c) => c.json(resourceMetadata(base)));
  app.get('/.well-known/oauth-protected-resource/mcp', (c) => c.json(resourceMetadata(`${base}/mcp`)));

  /**
   * Validates a request in the order RFC 6749 4.1.2.1 asks: client and redirect URI first
   * (errors shown on a page), then the rest (errors sent back to the client).
   */
  async function authorizationRequest(all: Record<string, string[]>, status: 302 | 303): Promise<AuthorizationRequest | Response> {
    let target;
    let params: Params;
    let resources: string[];
    try {
      plainParams(all);
      ({ params, resources } = oneEach(all));
      target = await checkClient(services, params);
    } catch (err) {
      if (err instanceof OAuthError) return errorPage(err.description);
      throw err;
    }
    try {
      return checkRequest(services, target, params, resources);
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      // An address anyone could have named gets no automatic redirect, not even with an error.
      if (!redirectVerified(target.client, target.redirectUri)) return errorPage(err.description);
      return backToClient(services, { redirectUri: target.redirectUri, state: params.state }, { error: err.error, error_description: err.description }, status);
    }
  }

  const view = (req: AuthorizationRequest) => ({
    fields: requestFields(req),
    clientName: req.client.name ?? req.client.id,
    // A metadata-document client's name is its own claim: the host that serves it is shown beside it.
    clientHost: isMetadataClientId(req.client.id) ? new URL(req.client.id).host : undefined,
    access: req.scopes.includes('write') ? 'see and manage' : 'see',
    redirectHost: new URL(req.redirectUri).host,
  });

  /** A page of the sign-in window, whose forms may end in a redirect to the client. */
  const windowPage = (req: AuthorizationRequest, title: string, template: string, data: object, status?: number, headers: Record<string, string> = {}) =>
    page(title, template, data, status, { 'content-security-policy': signInPolicy(req.redirectUri), ...headers });

  const signInPage = async (req: AuthorizationRequest, opts: { error?: string; email?: string; status?: number; headers?: Record<string, string> } = {}) =>
    windowPage(
      req,
      'Sign in',
      signInTemplate,
      { ...view(req), fields: [...requestFields(req), ['form_token', await formToken(services, req)]], error: opts.error, email: opts.email ?? '' },
      opts.status,
      opts.headers,
    );

  /** Wrong credentials and rate limits are shown on the sign-in page, with Retry-After when limited. */
  const signInFailed = (req: AuthorizationRequest, err: unknown, email?: string) => {
    if (!(err instanceof AppError) || (err.code !== 'invalid_input' && err.code !== 'rate_limited')) throw err;
    const retry = err.code === 'rate_limited' ? { 'retry-after': String(err.extra.retry_after ?? 60) } : undefined;
    return signInPage(req, { error: err.message, email, status: err.code === 'rate_limited' ? 429 : 400, headers: retry });
  };

  app.get('/authorize', async (c) => {
    const req = await authorizationRequest(c.req.queries(), 302);
    return req instanceof Response ? req : signInPage(req);
  });

  app.post('/authorize', async (c) => {
    const all = await formParams(c);
    const req = await authorizationRequest(all, 303);
    if (req instanceof Response) return req;
    const params = oneEach(all).params;
    try {
      await checkFormToken(services, params.form_token, req);
    } catch (err) {
      if (err instanceof OAuthError) return errorPage(err.description);
      throw err;
    }

    switch (params.step) {
      case 'deny': {
        const denied = { error: 'access_denied', error_description: 'The owner cancelled the sign-in.' };
        if (redirectVerified(req.client, req.redirectUri)) return backToClient(services, req, denied, 303);
        // An unverified address: the owner, who saw it named on the page, chooses whether to go back.
        return windowPage(req, 'Sign-in cancelled', cancelledTemplate, { ...view(req), back: clientUrl(services, req, denied) });
      }
      case 'password': {
        const email = params.email ?? '';
        try {
          const owner = await signInWithPassword(services, { email, password: params.password ?? '', clientAddress: address(c), device: getCookie(c, DEVICE_COOKIE) });
          const device = serialize(DEVICE_COOKIE, owner.device, {
            path: '/authorize',
            httpOnly: true,
            secure: base.startsWith('https:'),
            sameSite: 'Lax',
            maxAge: DEVICE_TTL_SECONDS,
          });
          return windowPage(
            req,
            'Allow access',
            consentTemplate,
            {
              ...view(req),
              fields: [...requestFields(req), ['form_token', params.form_token]],
              consentToken: await consentToken(services, owner.ownerId, req),
              businesses: owner.businesses,
            },
            200,
            { 'set-cookie': device },
          );
        } catch (err) {
          return signInFailed(req, err, email);
        }
      }
      case 'code': {
        try {
          const code = await approveWithManageCode(services, req, params.code ?? '', address(c));
          return backToClient(services, req, { code }, 303);
        } catch (err) {
          return signInFailed(req, err);
        }
      }
      case 'consent': {
        try {
          const code = await approveWithConsent(services, req, params.consent_token, params.business_id);
          return backToClient(services, req, { code }, 303);
        } catch (err) {
          if (err instanceof OAuthError) return errorPage(err.description);
          return signInFailed(req, err);
        }
      }
      default:
        return errorPage('The sign-in form was incomplete. Start the connection again from your app.');
    }
  });

  /** Public clients name themselves; an unknown client_id is an authentication failure. */
  const knownClient = async (clientId: string | undefined) => {
    if (clientId && !(await findClient(services, clientId))) {
      throw new OAuthError(
        'invalid_client',
        isMetadataClientId(clientId)
          ? 'Unknown client_id: a client ID metadata document URL is known here once an owner has approved it at /authorize.'
          : 'Unknown client_id. Register the client at /register, name your client ID metadata document URL, or use porchlight-public.',
      );
    }
  };

  app.post('/token', async (c) => {
    const all = await formParams(c);
    try {
      plainParams(all);
      const { params: p, resources } = oneEach(all);
      if (c.req.header('authorization') || p.client_secret) throw new OAuthError('invalid_client', 'Porchlight clients are public: send client_id and PKCE, no client secret.');
      await knownClient(p.client_id);
      if (p.grant_type === 'authorization_code') {
        return oauthJson(await exchangeCode(services, { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri, codeVerifier: p.code_verifier, resources }), 200);
      }
      if (p.grant_type === 'refresh_token') {
        return oauthJson(await refreshGrant(services, { refreshToken: p.refresh_token, clientId: p.client_id, scope: p.scope, resources }), 200);
      }
      throw p.grant_type
        ? new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.')
        : new OAuthError('invalid_request', 'grant_type is required (send the parameters form-encoded).');
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorJson(err);
      throw err;
    }
  });

  app.post('/register', async (c) => {
    try {
      const body: unknown = await c.req.json().catch(() => null);
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new OAuthError('invalid_client_metadata', 'Send the client metadata as a JSON object.');
      plainText(body, 'invalid_client_metadata');
      return oauthJson(await registerClient(services, body), 201);
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorJson(err);
      throw err;
    }
  });

  app.post('/revoke', async (c) => {
    const all = await formParams(c);
    try {
      plainParams(all);
      const p = oneEach(all).params;
      await knownClient(p.client_id);
      await revokeToken(services, { token: p.token, clientId: p.client_id });
      return new Response(null, { status: 200, headers: { 'cache-control': 'no-store' } });
    } catch (err) {
      if (err instanceof OAuthError) return oauthErrorJson(err);
      throw err;
    }
  });

  return app;
}
