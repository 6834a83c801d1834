/**
 * Client ID Metadata Documents and resource-bound tokens, driven by oauth4webapi: a client whose
 * client_id is the https URL of its metadata document, served by a local https server with a
 * certificate made for this run. The test app's fetch policy (never production's) trusts that
 * certificate and lets 127.0.0.2 through; every other loopback or private address stays refused.
 */
import type { ServerResponse } from 'node:http';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientDocuments } from '../../src/auth/oauth/client-metadata.js';
import { createUrlFetcher, DEFAULT_FETCH_POLICY } from '../../src/receptionist/fetch.js';
import { FILES_HOST, startFilesServer, testFetchPolicy, type FilesServer } from '../helpers/files.js';
import { BASE, bearer, startApp, type TestApp } from '../helpers/harness.js';
import { formBody, formFields, type Fields } from '../helpers/oauth-forms.js';

const OWNER = { email: 'owner+sparkle-shine-cleaning-austin@demo.porchlight.test', password: 'porchlight-demo' };
const REDIRECT = 'http://127.0.0.1:8976/callback';
const MCP = `${BASE}/mcp`;
const NAME = 'Claude <b>Desktop</b> & "Friends"';

describe('OAuth with client ID metadata documents', () => {
  let app: TestApp;
  let files: FilesServer;
  let as: oauth.AuthorizationServer;
  let client: oauth.Client;
  let addressCounter = 0;
  const docUrl = (path: string) => `${files.named}/oauth/${path}`;
  const json = (res: ServerResponse, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
  /** A metadata document as the client at `path` would publish it. */
  const doc = (path: string, extra: Record<string, unknown> = {}) => ({
    client_id: docUrl(path),
    client_name: NAME,
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  const hitsOf = (path: string) => files.hits.filter((h) => h === `/oauth/${path}`).length;

  const fetchApp = (url: string, init: RequestInit) => Promise.resolve(app.fetch(new Request(url, init)));
  const opts = () => ({ [oauth.customFetch]: fetchApp as typeof fetch, [oauth.allowInsecureRequests]: true });
  const post = (path: string, fields: Fields) =>
    app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `203.0.113.${++addressCounter}` }, body: formBody(fields) });

  async function authorizeQuery(clientId: string, extra: Array<[string, string]> = []) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const query = new URLSearchParams([
      ['response_type', 'code'],
      ['client_id', clientId],
      ['redirect_uri', REDIRECT],
      ['code_challenge', await oauth.calculatePKCECodeChallenge(verifier)],
      ['code_challenge_method', 'S256'],
      ['state', state],
      ...extra,
    ]);
    return { verifier, state, path: `/authorize?${query}` };
  }

  /** Sign-in window to redirect, as the owner would: the code's callback URL and its verifier. */
  async function approve(resources: string[], c: oauth.Client = client) {
    const req = await authorizeQuery(c.client_id, resources.map((r): [string, string] => ['resource', r]));
    const page = await app.get(req.path);
    expect(page.status).toBe(200);
    const consent = await post('/authorize', { ...formFields(await page.text(), 'password-form'), ...OWNER });
    expect(consent.status).toBe(200);
    const allowed = await post('/authorize', formFields(await consent.text(), 'consent-form'));
    expect(allowed.status).toBe(303);
    return { callback: new URL(allowed.headers.get('location')!), ...req };
  }

  /** The whole code flow with PKCE through oauth4webapi: the token response. */
  async function tokensFor(resources: string[], tokenResources = resources) {
    const { callback, verifier, state } = await approve(resources);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const additionalParameters = new URLSearchParams(tokenResources.map((r) => ['resource', r]));
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, { ...opts(), additionalParameters });
    return oauth.processAuthorizationCodeResponse(as, client, res);
  }

  /** An MCP tools/call as raw HTTP, for its status and challenge. */
  const mcpCall = (token: string) =>
    app.get('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bearer(token) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'my_business', arguments: {} } }),
    });

  /** The page a refused authorization request shows: never a redirect. */
  async function refusedPage(clientId: string): Promise<string> {
    const res = await app.get((await authorizeQuery(clientId)).path);
    expect(res.status, clientId).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-type')).toContain('text/html');
    return res.text();
  }

  beforeAll(async () => {
    files = await startFilesServer({
      '/oauth/client.json': (_req, res) => json(res, doc('client.json'), { 'cache-control': 'public, max-age=300' }),
      '/oauth/fresh.json': (_req, res) => json(res, doc('fresh.json'), { 'cache-control': 'no-store' }),
      '/oauth/wrong-id.json': (_req, res) => json(res, doc('wrong-id.json', { client_id: docUrl('client.json') })),
      '/oauth/other-redirect.json': (_req, res) => json(res, doc('other-redirect.json', { redirect_uris: ['https://elsewhere.example/cb'] })),
      '/oauth/huge.json': (_req, res) => json(res, doc('huge.json', { logo_note: 'x'.repeat(6 * 1024) })),
      // The same without Content-Length (chunked): the cap stops the read itself.
      '/oauth/huge-stream.json': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(JSON.stringify(doc('huge-stream.json')).slice(0, -1));
        res.end(`, "logo_note": "${'x'.repeat(6 * 1024)}"}`);
      },
      '/oauth/moved.json': (_req, res) => res.writeHead(302, { location: '/oauth/client.json' }).end(),
      '/oauth/secret.json': (_req, res) => json(res, doc('secret.json', { token_endpoint_auth_method: 'client_secret_basic' })),
      '/oauth/html.json': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
    });
    // A generous deadline: the machine running the tests may be busy, and deadlines are not the subject here.
    app = await startApp({ env: { TRUST_PROXY: '127.0.0.1' }, fetchPolicy: { ...testFetchPolicy(files), timeoutMs: 15_000 } });
    client = { client_id: docUrl('client.json'), token_endpoint_auth_method: 'none' };
    as = await oauth.processDiscoveryResponse(new URL(BASE), await oauth.discoveryRequest(new URL(BASE), { algorithm: 'oauth2', ...opts() }));
  });
  afterAll(async () => {
    await app?.close();
    await files?.close();
  });

  it('advertises metadata documents and keeps dynamic registration for older clients', () => {
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(as.registration_endpoint).toBe(`${BASE}/register`);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
  });

  it('runs the code flow with PKCE for a metadata-document client to a token that calls an MCP tool', async () => {
    const { verifier, state, path } = await authorizeQuery(client.client_id, [['resource', MCP]]);
    const page = await app.get(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    // The client's own name, escaped, beside the host that serves its document.
    expect(html).toContain('Claude &lt;b&gt;Desktop&lt;/b&gt; &amp; &quot;Friends&quot;');
    expect(html).not.toContain('<b>Desktop</b>');
    expect(/id="client-host">([^<]*)</.exec(html)?.[1]).toBe(new URL(client.client_id).host);
    const consent = await post('/authorize', { ...formFields(html, 'password-form'), ...OWNER });
    const consentHtml = await consent.text();
    expect(consentHtml).toContain('id="client-host"');
    const allowed = await post('/authorize', formFields(consentHtml, 'consent-form'));
    expect(allowed.status).toBe(303);

    const params = oauth.validateAuthResponse(as, client, new URL(allowed.headers.get('location')!), state);
    const res = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, verifier, { ...opts(), additionalParameters: { resource: MCP } });
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, res);
    expect(tokens.refresh_token).toMatch(/^prt_/);
    const tool = await app.tool('my_business', {}, bearer(tokens.access_token));
    expect(tool.isError).toBe(false);
    expect(JSON.stringify(tool.body)).toContain('sparkle-shine-cleaning-austin');

    // The client is remembered as its document described it; the document was read once (max-age=300).
    const row = await app.services.prisma.oAuthClient.findUniqueOrThrow({ where: { id: client.client_id } });
    expect(row).toMatchObject({ name: NAME, redirectUris: [REDIRECT] });
    expect(hitsOf('client.json')).toBe(1);

    // Refresh keeps the binding, and revocation knows the client.
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, opts()));
    expect((await app.tool('my_business', {}, bearer(refreshed.access_token))).isError).toBe(false);
    expect((await app.rest('my_business', {}, bearer(refreshed.access_token))).status).toBe(401);
    await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, opts()));
    expect((await mcpCall(refreshed.access_token)).status).toBe(401);
  });

  it('reads a document again when its caching headers say so (no-store)', async () => {
    for (let i = 0; i < 2; i++) expect((await app.get((await authorizeQuery(docUrl('fresh.json'))).path)).status).toBe(200);
    expect(hitsOf('fresh.json')).toBe(2);
  });

  it('refuses a document whose client_id is not its URL, or that does not list the redirect_uri', async () => {
    expect(await refusedPage(docUrl('wrong-id.json'))).toContain('is not exactly the URL it is served at');
    // A refused document is remembered a while: asking again does not make its host serve it again.
    expect(await refusedPage(docUrl('wrong-id.json'))).toContain('is not exactly the URL it is served at');
    expect(hitsOf('wrong-id.json')).toBe(1);
    expect(await refusedPage(docUrl('other-redirect.json'))).toContain('(redirect_uri) is not one it registered');
  });

  it('refuses a document that is too large, redirects, is not JSON, or claims a client secret', async () => {
    expect(await refusedPage(docUrl('huge.json'))).toContain('larger than 5 KB');
    expect(await refusedPage(docUrl('huge-stream.json'))).toContain('larger than 5 KB');
    expect(await refusedPage(docUrl('moved.json'))).toContain('redirects are not followed');
    expect(hitsOf('client.json')).toBe(1);
    expect(await refusedPage(docUrl('html.json'))).toContain('not application/json');
    expect(await refusedPage(docUrl('secret.json'))).toContain('must be &quot;none&quot;');
  });

  it('refuses client_id URLs on private or loopback addresses, and ones that cannot be documents', async () => {
    // 127.0.0.1 is loopback: only the test server's own address (127.0.0.2) is allowed to this app.
    expect(await refusedPage(`https://127.0.0.1:${files.port}/oauth/client.json`)).toContain('loopback');
    expect(await refusedPage('https://10.1.2.3/oauth/client.json')).toContain('private network');
    expect(await refusedPage(`https://internal.test:${files.port}/oauth/client.json`)).toContain('private network');
    // A name with one allowed address and one private one: every address counts.
    expect(await refusedPage(`https://mixed.test:${files.port}/oauth/client.json`)).toContain('private network');
    expect(await refusedPage('https://[::1]/oauth/client.json')).toContain('loopback');
    expect(await refusedPage(`${files.named}/`)).toContain('must have a path');
    expect(await refusedPage(`${files.named}/oauth/../oauth/client.json`)).toContain('segments');
    // Production's policy trusts the certificate here, yet still refuses the loopback server.
    const production = createClientDocuments(createUrlFetcher({ ...DEFAULT_FETCH_POLICY, ca: [files.ca], maxRedirects: 0 }), app.services.clock);
    try {
      await expect(production.resolve(`https://${FILES_HOST}:${files.port}/oauth/client.json`)).rejects.toThrow(/loopback/);
    } finally {
      await production.close();
    }
  });

  it('refuses a token on the resource it was not issued for, with 401 and the challenge', async () => {
    const mcpOnly = await tokensFor([MCP]);
    const rest = await app.rest('my_business', {}, bearer(mcpOnly.access_token));
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${BASE}/.well-known/oauth-protected-resource"`);
    expect(rest.body.error).toContain(`send resource=${BASE}`);
    expect((await app.graphql('{ __typename }', {}, bearer(mcpOnly.access_token))).status).toBe(401);

    const restOnly = await tokensFor([BASE]);
    expect((await app.rest('my_business', {}, bearer(restOnly.access_token))).status).toBe(200);
    const mcp = await mcpCall(restOnly.access_token);
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`);

    // Issued for both (the parameter repeated): accepted on both.
    const both = await tokensFor([BASE, MCP]);
    expect((await app.rest('my_business', {}, bearer(both.access_token))).status).toBe(200);
    expect((await app.tool('my_business', {}, bearer(both.access_token))).isError).toBe(false);

    // Without resource, as clients before MCP 2025-06-18 ask: every resource, as before.
    const unbound = await tokensFor([]);
    expect((await app.rest('my_business', {}, bearer(unbound.access_token))).status).toBe(200);
    expect((await mcpCall(unbound.access_token)).status).toBe(200);
  });

  it('answers invalid_target for an unknown resource, or one the authorization did not name', async () => {
    const page = await app.get((await authorizeQuery(client.client_id, [['resource', 'https://other.example/api']])).path);
    expect(page.status).toBe(302);
    const back = new URL(page.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('iss')).toBe(BASE);

    const { callback, verifier, state } = await approve([MCP]);
    const params = oauth.validateAuthResponse(as, client, callback, state);
    const token = (resource: string) =>
      post('/token', { grant_type: 'authorization_code', code: params.get('code')!, client_id: client.client_id, redirect_uri: REDIRECT, code_verifier: verifier, resource });
    for (const resource of [BASE, 'https://other.example/api']) {
      const res = await token(resource);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('invalid_target');
    }
    // The refusals did not spend the code.
    expect((await token(MCP)).status).toBe(200);
  });

  it('lets the client catch a mix-up: the response names this server as its issuer (RFC 9207)', async () => {
    const { callback, state } = await approve([MCP]);
    expect(callback.searchParams.get('iss')).toBe(BASE);
    // A client that thinks it sent the owner to another server refuses the answer.
    const attacker: oauth.AuthorizationServer = { issuer: 'https://attacker.example', authorization_response_iss_parameter_supported: true };
    expect(() => oauth.validateAuthResponse(attacker, client, callback, state)).toThrow(/unexpected "iss"/);
    // A response stripped of its iss is refused too, by a client that knows this server sends one.
    const stripped = new URL(callback);
    stripped.searchParams.delete('iss');
    expect(() => oauth.validateAuthResponse(as, client, stripped, state)).toThrow(/"iss" \(issuer\) missing/);
    expect(oauth.validateAuthResponse(as, client, callback, state).get('code')).toBeTruthy();
  });
});
