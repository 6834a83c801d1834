import { Hono } from 'hono';
import { routePath } from 'hono/route';
import type { GraphQLSchema } from 'graphql';
import type { Services } from '../src/context.js';
import type { Operation } from '../src/registry/contract.js';
import { inputTypeName } from '../src/registry/graphql.js';
import { toSnake } from '../src/registry/case.js';
import { GRAPHIQL_ASSETS, createGraphQL, graphiqlAsset, graphqlHttp, graphqlRefusal } from './graphql.js';
import { persistedDocument } from './documents.js';
import { runOperation } from './execute.js';
import { restRoutes } from './rest.js';
import { mcpEndpoint, mcpTools } from './mcp.js';
import { openApiDocument, responseExamples } from './openapi.js';
import { pageRoutes } from './pages.js';
import { bookingPageRoutes } from './booking-pages.js';
import { pageForms } from './page-forms.js';
import { keyRoutes } from './keys.js';
import { oauthRoutes } from './oauth.js';
import { clientAddress } from './client-address.js';
import { refusalHttp } from './challenge.js';
import { AppError, logInternalError } from '../src/errors.js';
import { providerModes, sandboxPageServed } from '../src/production.js';
import { smsWebhookRoutes } from './sms-webhook.js';
import { voiceWebhookRoutes } from './voice-webhook.js';
import { sandboxCallRoutes } from './sandbox-calls.js';
import { paymentPageRoutes, paymentWebhookRoutes } from './payments.js';
import { frontDeskRoutes } from './front-desk.js';
import { ROUTES } from '../src/links.js';
import { carrierWebhookRoutes, PORT_WEBHOOK_PATH } from './carrier-webhook.js';
import { dashboardGate, dashboardRoutes } from './dashboard.js';
import { FORM_BODY_BYTES, PAYMENT_WEBHOOK_BYTES, PORT_FORM_BYTES, apiCors, hostGuard, limitBody, mcpOriginGuard, pageHeaders } from './guards.js';

export interface AppOptions {
  schema: GraphQLSchema;
  services: Services;
  operations: Operation[];
  /** Values for the registry's DEMO_* example placeholders (ids from the demo data). */
  examples: () => Promise<Record<string, unknown>>;
  /** True when the database answers and migrations are applied. */
  healthy: () => Promise<boolean>;
}

export const API_VERSION = '1.0.0';

/** One fetch handler for everything: REST, MCP, GraphQL, OpenAPI and the web pages. */
export function createApp(opts: AppOptions) {
  const { schema, services, operations } = opts;
  const target = (op: Operation) => ({
    name: op.name,
    method: op.method,
    field: op.field,
    hasInput: Object.keys(op.input.shape).length > 0,
    inputType: inputTypeName(op),
  });
  // GraphQL clients call the documents by id; REST and MCP run the same ones with snake_case aliases.
  const documents = new Map(operations.map((op) => [op.name, persistedDocument(schema, target(op))]));
  const snakeDocuments = new Map(operations.map((op) => [op.name, persistedDocument(schema, target(op), toSnake)]));
  const yoga = createGraphQL(schema, services, documents, operations);
  const run = (op: Operation, raw: unknown, request: Request, address: string) => runOperation(yoga, services, snakeDocuments, op, raw, request, address);
  const trustProxy = services.config.trustProxy;
  // REST and MCP look operations up by name.
  const byName = new Map(operations.map((op) => [op.name, op]));
  const handleMcp = mcpEndpoint(mcpTools(schema, operations), API_VERSION, services);
  // Text messages leave through Twilio when configured; otherwise they stay in the outbox.

  const app = new Hono();
  app.onError((err, c) => {
    logInternalError(services.logger, err);
    return c.json({ error: 'Something went wrong on our side. Please try again.', code: 'internal' }, 500);
  });
  // Access log by route pattern (/manage/:token), never the concrete path or query, which can
  // carry tokens; and no headers, which carry keys.
  app.use('*', async (c, next) => {
    const started = performance.now();
    await next();
    const operation = /^\/api\/v1\/([a-z_]{1,60})$/.exec(c.req.path)?.[1];
    services.logger.info(
      { method: c.req.method, route: routePath(c, -1) || 'unmatched', operation, status: c.res.status, ms: Math.round(performance.now() - started) },
      'request',
    );
  });
  // Before anything answers: a Host this deployment does not serve (DNS rebinding) gets nothing.
  app.use('*', hostGuard(services.config));
  app.use('/mcp', mcpOriginGuard(services.config));
  // (oauthRoutes applies the same policy to /.well-known/* and its endpoints.)
  for (const path of ['/api/v1/*', '/mcp', '/graphql', '/openapi.json']) app.use(path, apiCors);
  const apiBody = limitBody(services.config.maxBodyBytes);
  for (const path of ['/api/v1/*', '/mcp']) app.use(path, apiBody);
  // GraphQL clients read errors from `errors`: /graphql's own refusals come in that shape.
  app.use('/graphql', limitBody(services.config.maxBodyBytes, (refusal, status) => graphqlRefusal(status, refusal.error, refusal.code)));
  // ('/key/*' matches /key too.)
  const formBody = limitBody(FORM_BODY_BYTES);
  for (const path of ['/authorize', '/token', '/register', '/revoke', '/key/*', '/webhooks/sms', PORT_WEBHOOK_PATH, '/confirm/*', '/manage/*', '/b/*', '/conversation/*', '/sandbox/*', '/dashboard/*']) app.use(path, formBody);
  // The carrier's voice webhooks: small signed forms.
  for (const path of ['/webhooks/voice', '/webhooks/voice/*']) app.use(path, formBody);
  // The number transfer form carries the owner's bill (up to 10 MB, the carrier's limit).
  const portForm = limitBody(PORT_FORM_BYTES);
  const PORT_PAGE_PREFIX = ROUTES.portSetup.replace(':token', '');
  app.use('/app/*', (c, next) => (c.req.path.startsWith(PORT_PAGE_PREFIX) ? portForm(c, next) : formBody(c, next)));
  // A provider's event about an account with many requirements can outgrow a form.
  app.use('/webhooks/payments', limitBody(PAYMENT_WEBHOOK_BYTES));
  for (const path of ['/', '/manage/*', '/confirm/*', '/key/*', '/authorize', '/dev/*', '/b/*', '/conversation/*', '/sandbox/*', '/payments/*', '/dashboard/*']) app.use(path, pageHeaders);
  // The dashboard's pages; /app/api/* answers assistants in JSON.
  app.use('/app/*', (c, next) => (c.req.path.startsWith('/app/api/') ? next() : pageHeaders(c, next)));
  // Each provider live or sandbox: a staging deployment says so, a production one shows all live.
  const providers = providerModes(services.config);
  app.get('/healthz', async (c) => ((await opts.healthy()) ? c.json({ ok: true, providers }) : c.json({ ok: false, providers }, 503)));
  // A sandbox's pages exist only while its provider is the sandbox (in production: named in SANDBOX_PROVIDERS).
  app.use('/sandbox/*', async (c, next) => (sandboxPageServed(services.config, c.req.path) ? next() : c.notFound()));

  // Built once per process. Public reads are run anonymously (own rate-limit bucket) so their
  // 200 examples are real; writes are never run (see responseExamples). A failure is not cached.
  let openapi: Promise<unknown> | undefined;
  app.get('/openapi.json', async (c) => {
    const baseUrl = services.config.baseUrl;
    openapi ??= opts
      .examples()
      .then(async (ex) => {
        const responses = await responseExamples(operations, ex, (op, input) => run(op, input, new Request(baseUrl), 'openapi-examples'));
        return openApiDocument(schema, operations, baseUrl, ex, responses);
      })
      .catch((err: unknown) => {
        openapi = undefined;
        throw err;
      });
    return c.json(await openapi);
  });

  app.route('/', restRoutes(byName, run, services));
  app.post('/mcp', (c) => {
    const address = clientAddress(c, trustProxy);
    return handleMcp(c.req.raw, address, (op, raw, request) => run(op, raw, request, address));
  });
  app.on(['GET', 'DELETE'], '/mcp', (c) =>
    c.json({ error: 'This MCP endpoint is stateless: POST JSON-RPC requests to it.', code: 'method_not_allowed' }, 405, { Allow: 'POST' }),
  );
  const handleGraphQL = graphqlHttp(yoga, services.config.development, documents);
  app.all('/graphql', (c) => handleGraphQL(c.req.raw, clientAddress(c, trustProxy)));
  if (services.config.development) {
    app.get(`${GRAPHIQL_ASSETS}:file`, async (c) => (await graphiqlAsset(c.req.param('file'))) ?? c.notFound());
  }
  // The routes outside the GraphQL pipeline (whose context counts calls) get the same budget per
  // client address; sign-in, code entry, connect and key requests also have their own stricter ones.
  // Payment webhooks do not: the provider sends them in bursts from a few addresses, and each is
  // refused on its signature before any work.
  for (const path of ['/authorize', '/token', '/register', '/revoke', '/key', '/key/*', '/app/*', '/webhooks/sms', '/confirm/*', '/manage/*', '/sandbox/*', '/dashboard/*']) {
    app.use(path, async (c, next) => {
      try {
        await services.rateLimits.request.consume(`address:${clientAddress(c, trustProxy)}`);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const http = refusalHttp(services.config.baseUrl, '', err);
        return c.json({ error: err.message, code: err.code, ...err.extra }, http.status as 429, http.headers);
      }
      await next();
    });
  }
  // The public pages' forms (CSRF token, per-visitor budget) and booking from the business page.
  const forms = pageForms(services);
  const booking = bookingPageRoutes(services, { yoga, byName, run, forms });
  app.route('/', booking.app);
  app.route('/', pageRoutes(yoga, services, { bookSection: booking.bookSection, forms }));
  app.route('/', keyRoutes(services));
  app.route('/', oauthRoutes(services));
  app.route('/', smsWebhookRoutes(services));
  app.route('/', voiceWebhookRoutes(services));
  app.route('/', paymentWebhookRoutes(services));
  app.route('/', paymentPageRoutes(services));
  const gate = dashboardGate(services);
  app.route('/', dashboardRoutes(services, { yoga, byName, run }, gate));
  app.route('/', frontDeskRoutes(services, gate));
  app.route('/', sandboxCallRoutes(services, gate.fromThisSite));
  app.route('/', carrierWebhookRoutes(services));
  app.notFound((c) => c.json({ error: `Nothing is served at ${new URL(c.req.url).pathname}. The API is described at /openapi.json.`, code: 'not_found' }, 404));

  return { fetch: app.fetch, yoga, documents, run };
}
