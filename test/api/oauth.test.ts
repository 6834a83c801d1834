/**
 * The OAuth authorization server, driven by an independent client library (oauth4webapi):
 * discovery, registration, the sign-in window's forms, PKCE code exchange, refresh rotation,
 * revocation, and the refusals a leaked or forged credential must meet.
 */
import * as oauth from 'oauth4webapi';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/clock.js';
import { createManageCode } from '../../src/auth/manage-codes.js';
import { accessTokenVerifier, issueAccessToken } from '../../src/auth/oauth/access-token.js';
import { rotateSigningKey, signJwt } from '../../src/auth/oauth/signing-keys.js';
import { BASE, TEST_NOW, startApp, type TestApp } from '../helpers/harness.js';
import { formBody, formFields, unescape, type Fields } from '../helpers/oauth-forms.js';

const OWNER = { email: 'owner+sparkle-shine-cleaning-austin@demo.porchlight.test', password: 'porchlight-demo' };
const REDIRECT = 'http://127.0.0.1:8976/callback';

describe('OAuth authorization server', () => {
  let app: TestApp;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let business: { id: string; slug: string };
  let addressCounter = 0;
  const fetchApp = (url: string, init: RequestInit) => Promise.resolve(app.fetch(new Request(url, init)));
  const opts = () => ({ [oauth.customFetch]: fetchApp as typeof fetch, [oauth.allowInsecureRequests]: true });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  /** Each sign-in comes from its own address (TRUST_PROXY), so the per-address limit is not the subject here. */
  const post = (path: string, fields: Fields, from = `203.0.113.${++addressCounter}`) =>
    app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from }, body: formBody(fields) });

  const authorizeUrl = (params: Record<string, string>) => `/authorize?${new URLSearchParams(params)}`;

  async function pkce() {
    const verifier = oauth.generateRandomCodeVerifier();
    return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) };
  }

  /** Opens the sign-in window, signs in with the password and allows: the redirect's URL. */
  async function signIn(params: Record<string, string>): Promise<URL> {
    const pageRes = await app.get(authorizeUrl(params));
    expect(pageRes.status).toBe(200);
    const html = await pageRes.text();
    const consent = await post('/authorize', { ...formFields(html, 'password-form'), ...OWNER });
    expect(consent.status).toBe(200);
    const allowed = await post('/authorize', formFields(await consent.text(), 'consent-form'));
    expect(allowed.status).toBe(303);
    return new URL(allowed.headers.get('location')!);
  }

  /** A complete sign-in with this client: the authorization code and its verifier. */
  async function codeFor(redirect = REDIRECT, clientId = client.client_id) {
    const { verifier, challenge } = await pkce();
    const state = oauth.generateRandomState();
    const back = await signIn({ response_type: 'code', client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', state });
    const params = oauth.validateAuthResponse(as, { ...client, client_id: clientId }, back, state);
    return { code: params.get('code')!, verifier, params };
  }

  const token = (fields: Record<string, string>) => post('/token', fields);
  const tokensFor = async (c: { code: string; verifier: string }) => {
    const res = await token({ grant_type: 'authorization_code', code: c.code, client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: c.verifier });
    expect(res.status).toBe(200);
    return (await res.json()) as { access_token: string; refresh_token: string };
  };
  const ownerCall = (accessToken: string) => app.rest('my_business', {}, bearer(accessToken));

  beforeAll(async () => {
    app = await startApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    business = (await app.services.prisma.business.findUniqueOrThrow({ where: { slug: 'sparkle-shine-cleaning-austin' }, select: { id: true, slug: true } }));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('publishes authorization-server and protected-resource metadata', async () => {
    const res = await oauth.discoveryRequest(new URL(BASE), { algorithm: 'oauth2', ...opts() });
    as = await oauth.processDiscoveryResponse(new URL(BASE), res);
    expect(as).toMatchObject({
      issuer: BASE,
      authorization_endpoint: `${BASE}/authorize`,
      token_endpoint: `${BASE}/token`,
      registration_endpoint: `${BASE}/register`,
      revocation_endpoint: `${BASE}/revoke`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      token_endpoint_auth_methods_supported: ['none'],
      scopes_supported: ['read', 'write'],
    });
    const resource = await (await app.get('/.well-known/oauth-protected-resource')).json();
    expect(resource).toEqual(expect.objectContaining({ resource: BASE, authorization_servers: [BASE], scopes_supported: ['read', 'write'], bearer_methods_supported: ['header'] }));
    const preflight = await app.get('/token', { method: 'OPTIONS', headers: { origin: 'https://assistant.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const mcp = await (await app.get('/.well-known/oauth-protected-resource/mcp')).json();
    expect(mcp).toEqual(expect.objectContaining({ resource: `${BASE}/mcp`, authorization_servers: [BASE] }));
  });

  it('registers a public client dynamically and refuses confidential ones and unsafe redirect URIs', async () => {
    const res = await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', client_name: 'Test <assistant>' }, opts());
    expect(res.status).toBe(201);
    client = await oauth.processDynamicClientRegistrationResponse(res);
    expect(client.client_id).toBeTruthy();
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client.redirect_uris).toEqual([REDIRECT]);

    const register = (body: object) => app.get('/register', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const secret = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' });
    expect(secret.status).toBe(400);
    expect((await secret.json()).error).toBe('invalid_client_metadata');
    for (const uri of ['http://evil.example/cb', 'https://ok.example/cb#frag', 'javascript:alert(1)']) {
      const bad = await register({ redirect_uris: [uri] });
      expect(bad.status).toBe(400);
      expect((await bad.json()).error).toBe('invalid_redirect_uri');
    }
    expect((await register({})).status).toBe(400);
  });

  it('completes the flow: sign-in window, PKCE exchange, owner calls, refresh, revocation', async () => {
    const { verifier, challenge } = await pkce();
    const state = oauth.generateRandomState();
    // Both resources (RFC 8707, the parameter repeated): the token works on REST and MCP.
    const both = [['resource', BASE], ['resource', `${BASE}/mcp`]];
    const query = new URLSearchParams([...Object.entries({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state, scope: 'read write' }), ...both]);
    const pageRes = await app.get(`/authorize?${query}`);
    const html = await pageRes.text();
    expect(pageRes.headers.get('x-frame-options')).toBe('DENY');
    expect(html).toContain('Test &lt;assistant&gt;');
    expect(html).not.toContain('Test <assistant>');
    const consentRes = await post('/authorize', { ...formFields(html, 'password-form'), ...OWNER });
    expect(consentRes.status).toBe(200);
    const consentHtml = await consentRes.text();
    const consent = formFields(consentHtml, 'consent-form');
    expect(consent.business_id).toBe(business.id);
    expect(consent.resource).toEqual([BASE, `${BASE}/mcp`]);
    const allowed = await post('/authorize', consent);
    expect(allowed.status).toBe(303);
    const params = oauth.validateAuthResponse(as, client, new URL(allowed.headers.get('location')!), state);
    expect(allowed.headers.get('location')!.startsWith(`${REDIRECT}?`)).toBe(true);

    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, { ...opts(), additionalParameters: both });
    expect(res.headers.get('cache-control')).toBe('no-store');
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.scope).toBe('read write');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toMatch(/^prt_/);

    const credential = await accessTokenVerifier(app.services, tokens.access_token);
    expect(credential).toMatchObject({ kind: 'oauth', businessId: business.id });
    expect([...credential!.scopes].sort()).toEqual(['read', 'write']);
    // Owner operations accept the token on REST and MCP (my_business is the owner's read).
    expect(app.app.documents.has('my_business')).toBe(true);
    const mine = await ownerCall(tokens.access_token);
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).toContain(business.slug);
    const tool = await app.tool('my_business', {}, bearer(tokens.access_token));
    expect(tool.isError).toBe(false);
    expect((await ownerCall('')).status).toBe(401);

    // Refresh rotates: a new refresh token each time; the access token keeps working.
    const refreshRes = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, opts());
    expect(refreshRes.headers.get('cache-control')).toBe('no-store');
    const refreshed = await oauth.processRefreshTokenResponse(as, client, refreshRes);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await ownerCall(refreshed.access_token)).status).toBe(200);

    // Revoking the refresh token ends the grant: its access tokens stop working at once.
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, opts()));
    const after = await ownerCall(refreshed.access_token);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect((await ownerCall(tokens.access_token)).status).toBe(401);
    const again = await token({ grant_type: 'refresh_token', refresh_token: refreshed.refresh_token!, client_id: client.client_id });
    expect(again.status).toBe(400);
    expect((await again.json()).error).toBe('invalid_grant');
    // Unknown tokens are acknowledged without saying so (RFC 7009).
    expect((await post('/revoke', { token: 'prt_unknown', client_id: client.client_id })).status).toBe(200);
  });

  it('revokes the grant when its access token is revoked', async () => {
    const t = await tokensFor(await codeFor());
    expect((await ownerCall(t.access_token)).status).toBe(200);
    expect((await post('/revoke', { token: t.access_token, client_id: client.client_id })).status).toBe(200);
    expect((await ownerCall(t.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: client.client_id })).status).toBe(400);
  });

  it('refuses PKCE plain and missing PKCE by redirecting with an error', async () => {
    const base = { response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, state: 'xyz' };
    const cases: Record<string, string>[] = [{ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, {}];
    for (const extra of cases) {
      const res = await app.get(authorizeUrl({ ...base, ...extra }));
      expect(res.status).toBe(302);
      const loc = new URL(res.headers.get('location')!);
      expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT);
      expect(loc.searchParams.get('error')).toBe('invalid_request');
      expect(loc.searchParams.get('state')).toBe('xyz');
    }
    const scope = await app.get(authorizeUrl({ ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256', scope: 'admin' }));
    expect(new URL(scope.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
    const resource = await app.get(authorizeUrl({ ...base, code_challenge: 'a'.repeat(43), code_challenge_method: 'S256', resource: 'https://other.example' }));
    expect(new URL(resource.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');
  });

  it('never redirects to an unregistered URI: a trailing slash or an unknown client stops on a page', async () => {
    const { challenge } = await pkce();
    const req = { response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' };
    for (const params of [
      { ...req, client_id: client.client_id, redirect_uri: `${REDIRECT}/` },
      { ...req, client_id: client.client_id, redirect_uri: 'https://evil.example/cb' },
      { ...req, client_id: 'no-such-client', redirect_uri: REDIRECT },
    ]) {
      const res = await app.get(authorizeUrl(params));
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  });

  // Issue 18 item 6: anyone can name an https address for the public client, so an error there
  // was an open redirect (https://evil.example/phish?error=...). RFC 6749 4.1.2.1, RFC 9700 4.11.1.
  it('never sends an error to an address the public client merely names: a page, no Location', async () => {
    const { challenge } = await pkce();
    const evil = 'https://evil.example/phish';
    for (const params of <Record<string, string>[]>[
      { response_type: 'token', client_id: 'porchlight-public', redirect_uri: evil, code_challenge: challenge, code_challenge_method: 'S256', state: 'x' },
      { response_type: 'code', client_id: 'porchlight-public', redirect_uri: evil },
      { response_type: 'code', client_id: 'porchlight-public', redirect_uri: evil, code_challenge: challenge, code_challenge_method: 'S256', scope: 'admin' },
      { response_type: 'code', client_id: 'porchlight-public', redirect_uri: evil, code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://other.example' },
      { response_type: 'token', client_id: 'no-such-client', redirect_uri: evil },
      { response_type: 'token', client_id: client.client_id, redirect_uri: evil },
    ]) {
      const res = await app.get(authorizeUrl(params));
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('This sign-in cannot continue');
    }
    // The same errors still go back to a registered URI and to the public client's loopback address.
    for (const [clientId, redirect] of [[client.client_id, REDIRECT], ['porchlight-public', 'http://127.0.0.1:9/cb']]) {
      const res = await app.get(authorizeUrl({ response_type: 'token', client_id: clientId!, redirect_uri: redirect!, state: 'y' }));
      expect(res.status).toBe(302);
      expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('unsupported_response_type');
    }
  });

  it('cancelling with an unverified address shows a page the owner may leave by a link, never a redirect', async () => {
    const { challenge } = await pkce();
    const evil = 'https://evil.example/phish';
    const html = await (await app.get(authorizeUrl({ response_type: 'code', client_id: 'porchlight-public', redirect_uri: evil, code_challenge: challenge, code_challenge_method: 'S256', state: 'z' }))).text();
    const res = await post('/authorize', { ...formFields(html, 'password-form'), step: 'deny' });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBeNull();
    const page = await res.text();
    expect(page).toContain('Nothing was shared');
    const back = new URL(unescape(/id="back"[^>]*href="([^"]+)"/.exec(page)![1]!));
    expect(`${back.origin}${back.pathname}`).toBe(evil);
    expect(back.searchParams.get('error')).toBe('access_denied');
  });

  it('lets the public client use any https or loopback redirect URI, but no other', async () => {
    const { challenge } = await pkce();
    const req = { response_type: 'code', client_id: 'porchlight-public', code_challenge: challenge, code_challenge_method: 'S256' };
    for (const uri of ['https://assistant.example/oauth/callback', 'http://localhost:5173/cb', 'http://127.0.0.1:9/cb']) {
      expect((await app.get(authorizeUrl({ ...req, redirect_uri: uri }))).status).toBe(200);
    }
    expect((await app.get(authorizeUrl({ ...req, redirect_uri: 'http://assistant.example/cb' }))).status).toBe(400);
    // The full flow works for it too.
    const c = await codeFor('https://assistant.example/oauth/callback', 'porchlight-public');
    const res = await token({ grant_type: 'authorization_code', code: c.code, client_id: 'porchlight-public', redirect_uri: 'https://assistant.example/oauth/callback', code_verifier: c.verifier });
    expect(res.status).toBe(200);
  });

  it('refuses a changed hidden field (the form token binds the request)', async () => {
    const { challenge } = await pkce();
    const html = await (await app.get(authorizeUrl({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope: 'read' }))).text();
    const fields = formFields(html, 'password-form');
    expect(fields.scope).toBe('read');
    const forged = await post('/authorize', { ...fields, scope: 'read write', ...OWNER });
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('expired or was changed');
    const noToken = await post('/authorize', { ...fields, form_token: '', ...OWNER });
    expect(noToken.status).toBe(400);
  });

  it('answers a wrong password on the page, and rate-limits repeated sign-ins with 429 and Retry-After', async () => {
    const { challenge } = await pkce();
    const html = await (await app.get(authorizeUrl({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' }))).text();
    const fields = formFields(html, 'password-form');
    const wrong = await post('/authorize', { ...fields, email: OWNER.email, password: 'not-the-password' }, '198.51.100.7');
    expect(wrong.status).toBe(400);
    const text = await wrong.text();
    expect(text).toContain('do not match');
    expect(text).not.toContain('not-the-password');
    let last: Response | undefined;
    for (let i = 0; i < 12 && last?.status !== 429; i++) {
      last = await post('/authorize', { ...fields, email: 'nobody@example.com', password: 'guess' }, '198.51.100.7');
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('signs in with a Manage with AI code: the code names the business and works once', async () => {
    const { code: manageCode } = await createManageCode(app.services, business.id);
    const { verifier, challenge } = await pkce();
    const html = await (await app.get(authorizeUrl({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's1' }))).text();
    const fields = formFields(html, 'code-form');
    const res = await post('/authorize', { ...fields, code: manageCode });
    expect(res.status).toBe(303);
    const params = oauth.validateAuthResponse(as, client, new URL(res.headers.get('location')!), 's1');
    const t = await tokensFor({ code: params.get('code')!, verifier });
    expect((await accessTokenVerifier(app.services, t.access_token))?.businessId).toBe(business.id);
    expect((await ownerCall(t.access_token)).status).toBe(200);
    const reused = await post('/authorize', { ...fields, code: manageCode });
    expect(reused.status).toBe(400);
    expect(await reused.text()).not.toContain(manageCode);
  });

  it('lets an owner of several businesses pick one, and only one of theirs', async () => {
    const owner = await app.services.prisma.owner.findUniqueOrThrow({ where: { email: OWNER.email } });
    const [second, stranger] = await app.services.prisma.business.findMany({ where: { id: { not: business.id } }, orderBy: { slug: 'asc' }, take: 2, select: { id: true, ownerId: true } });
    await app.services.prisma.business.update({ where: { id: second!.id }, data: { ownerId: owner.id } });
    try {
      const { verifier, challenge } = await pkce();
      const html = await (await app.get(authorizeUrl({ response_type: 'code', client_id: client.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' }))).text();
      const consentHtml = await (await post('/authorize', { ...formFields(html, 'password-form'), ...OWNER })).text();
      expect(consentHtml).toContain('id="businesses"');
      expect(consentHtml.match(/type="radio"/g)).toHaveLength(2);
      const fields = formFields(consentHtml, 'consent-form');
      const notTheirs = await post('/authorize', { ...fields, business_id: stranger!.id });
      expect(notTheirs.status).toBe(400);
      const chose = await post('/authorize', { ...fields, business_id: second!.id });
      expect(chose.status).toBe(303);
      const code = new URL(chose.headers.get('location')!).searchParams.get('code')!;
      const t = await tokensFor({ code, verifier });
      expect((await accessTokenVerifier(app.services, t.access_token))?.businessId).toBe(second!.id);
    } finally {
      await app.services.prisma.business.update({ where: { id: second!.id }, data: { ownerId: second!.ownerId } });
    }
  });

  it('refuses a code exchange without the verifier, with a wrong verifier, or with another redirect URI', async () => {
    const c = await codeFor();
    const base = { grant_type: 'authorization_code', code: c.code, client_id: client.client_id, redirect_uri: REDIRECT };
    const missing = await token(base);
    expect(missing.status).toBe(400);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    expect((await missing.json()).error).toBe('invalid_request');
    const wrong = await token({ ...base, code_verifier: oauth.generateRandomCodeVerifier() });
    expect(wrong.status).toBe(400);
    const wrongBody = await wrong.json();
    expect(wrongBody.error).toBe('invalid_grant');
    expect(JSON.stringify(wrongBody)).not.toContain(c.code);
    const slash = await token({ ...base, redirect_uri: `${REDIRECT}/`, code_verifier: c.verifier });
    expect((await slash.json()).error).toBe('invalid_grant');
    // The failed attempts did not spend it; the right request still succeeds.
    expect((await token({ ...base, code_verifier: c.verifier })).status).toBe(200);
  });

  it('refuses a reused code and revokes the tokens it already gave', async () => {
    const c = await codeFor();
    const t = await tokensFor(c);
    expect((await ownerCall(t.access_token)).status).toBe(200);
    const reuse = await token({ grant_type: 'authorization_code', code: c.code, client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: c.verifier });
    expect(reuse.status).toBe(400);
    expect((await reuse.json()).error).toBe('invalid_grant');
    expect((await ownerCall(t.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: client.client_id })).status).toBe(400);
  });

  it('revokes the whole grant when a used refresh token is presented again', async () => {
    const t = await tokensFor(await codeFor());
    const first = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: client.client_id });
    expect(first.status).toBe(200);
    const rotated = (await first.json()) as { access_token: string; refresh_token: string };
    const replay = await token({ grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: client.client_id });
    expect(replay.status).toBe(400);
    expect((await replay.json()).error).toBe('invalid_grant');
    expect((await ownerCall(rotated.access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: rotated.refresh_token, client_id: client.client_id })).status).toBe(400);
  });

  it('answers token-endpoint misuse with RFC 6749 errors', async () => {
    const unsupported = await token({ grant_type: 'password', username: 'x', password: 'y' });
    expect(unsupported.status).toBe(400);
    expect((await unsupported.json()).error).toBe('unsupported_grant_type');
    const unknownClient = await token({ grant_type: 'refresh_token', refresh_token: 'prt_x', client_id: 'nope' });
    expect(unknownClient.status).toBe(401);
    expect((await unknownClient.json()).error).toBe('invalid_client');
    const badCode = await token({ grant_type: 'authorization_code', code: 'pac_nope', client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: oauth.generateRandomCodeVerifier() });
    expect((await badCode.json()).error).toBe('invalid_grant');
  });

  describe('access tokens', () => {
    let grant: { id: string; clientId: string; businessId: string; ownerId: string | null };
    beforeAll(async () => {
      const t = await tokensFor(await codeFor());
      const credential = await accessTokenVerifier(app.services, t.access_token);
      grant = await app.services.prisma.oAuthGrant.findUniqueOrThrow({ where: { id: credential!.id }, select: { id: true, clientId: true, businessId: true, ownerId: true } });
    });

    it('refuses an expired token (signed 16 minutes ago)', async () => {
      const past = { ...app.services, clock: new Clock(Date.parse(TEST_NOW) - 16 * 60 * 1000) };
      const old = await issueAccessToken(past, grant, ['read', 'write'], BASE);
      expect(await accessTokenVerifier(past, old)).not.toBeNull();
      expect(await accessTokenVerifier(app.services, old)).toBeNull();
      expect((await ownerCall(old)).status).toBe(401);
    });

    it('refuses a tampered token, one for another audience, and strings that are not our tokens', async () => {
      const good = await issueAccessToken(app.services, grant, ['read'], BASE);
      expect(await accessTokenVerifier(app.services, good)).not.toBeNull();
      const [h, p, s] = good.split('.');
      const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
      const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, scope: 'read write' })).toString('base64url')}.${s}`;
      expect(await accessTokenVerifier(app.services, tampered)).toBeNull();
      expect((await ownerCall(tampered)).status).toBe(401);
      const other = await signJwt(app.services, { ...claims }, { typ: 'at+jwt', audience: 'https://other.example', subject: grant.businessId, ttlSeconds: 900 });
      expect(await accessTokenVerifier(app.services, other)).toBeNull();
      // A token kind of ours that is not an access token (the sign-in form's) is refused too.
      const form = await signJwt(app.services, { ...claims }, { typ: 'porchlight-authorize+jwt', audience: BASE, subject: grant.businessId, ttlSeconds: 900 });
      expect(await accessTokenVerifier(app.services, form)).toBeNull();
      for (const s of ['sk_live_abc', 'sk_pub_porchlight_demo', 'prt_abc', 'not.a.jwt']) expect(await accessTokenVerifier(app.services, s)).toBeNull();
    });

    it('rotates signing keys: the new key signs, retired keys still verify', async () => {
      const before = await issueAccessToken(app.services, grant, ['read'], BASE);
      const kid = await rotateSigningKey(app.services);
      const after = await issueAccessToken(app.services, grant, ['read'], BASE);
      const kidOf = (t: string) => JSON.parse(Buffer.from(t.split('.')[0]!, 'base64url').toString()).kid;
      expect(kidOf(after)).toBe(kid);
      expect(kidOf(before)).not.toBe(kid);
      expect(await accessTokenVerifier(app.services, before)).not.toBeNull();
      expect(await accessTokenVerifier(app.services, after)).not.toBeNull();
      const retired = await app.services.prisma.signingKey.findUniqueOrThrow({ where: { kid: kidOf(before) } });
      expect(retired.retiredAt).not.toBeNull();
    });

    it('verifies tokens signed by a key another process stored in the database', async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
      const kid = 'k_other_process';
      await app.services.prisma.signingKey.create({
        data: { kid, alg: 'ES256', publicJwk: { ...(await exportJWK(publicKey)), kid }, privateJwk: { ...(await exportJWK(privateKey)), kid }, createdAt: app.services.clock.date() },
      });
      const now = Math.floor(app.services.clock.now() / 1000);
      const foreign = await new SignJWT({ scope: 'read', client_id: grant.clientId, business_id: grant.businessId, gid: grant.id })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
        .setIssuer(BASE).setAudience(BASE).setSubject(grant.businessId).setIssuedAt(now).setExpirationTime(now + 600)
        .sign(privateKey);
      expect(await accessTokenVerifier(app.services, foreign)).toMatchObject({ id: grant.id, businessId: grant.businessId });
    });
  });
});
