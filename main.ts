import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { serve } from '@hono/node-server';
import { pino, type DestinationStream } from 'pino';
import { SettingsError, loadConfig, type Config } from './src/config.js';
import { productionRefusals, providerModes } from './src/production.js';
import { scrubSecrets } from './src/errors.js';
import { Clock } from './src/clock.js';
import { openDatabase, StartupError, type Database } from './src/db/database.js';
import { createServer as createNetServer } from 'node:net';
import { applyMigrations } from './src/db/migrations.js';
import { Outbox } from './src/mail/outbox.js';
import { Jobs } from './src/jobs/jobs.js';
import { sandboxTransport, smtpTransport } from './src/mail/transport.js';
import { smsProvider } from './src/sms/provider.js';
import { schema } from './src/schema.js';
import { operations } from './src/operations.js';
import { seedDemoData } from './src/demo/seed.js';
import { prepareApart } from './src/demo/prepare-apart.js';
import { openApiExamples } from './src/demo/examples.js';
import type { Services } from './src/context.js';
import { createRateLimits } from './src/auth/rate-limit.js';
import { loadSecretsKey } from './src/auth/secrets-key.js';
import { sealSigningKeys } from './src/auth/oauth/signing-keys.js';
import { createClientDocuments } from './src/auth/oauth/client-metadata.js';
import { createEvents } from './src/events/pubsub.js';
import { createEmit } from './src/events/emit.js';
import { Changes } from './src/events/changes.js';
import { transaction } from './src/db/transaction.js';
import { sqlQuery, sqlTransaction, type SqlQuery } from './src/db/sql.js';
import { createLinks } from './src/links.js';
import { lapseExpiredHolds } from './src/bookings/service.js';
import { remindHolds } from './src/bookings/reminders.js';
import { CHANGE_CHANNEL, SearchSnapshot } from './src/search/snapshot.js';
import { MenuCache } from './src/menus/store.js';
import { createSourceReader } from './src/receptionist/read.js';
import { ReaderPool } from './src/receptionist/reader-pool.js';
import { DEFAULT_FETCH_POLICY, createUrlFetcher, type FetchPolicy } from './src/receptionist/fetch.js';
import { createPayments } from './src/payments/payments.js';
import { createPhone } from './src/phone/phone.js';
import { PLAN_PURPOSE, onPlanEvent } from './src/billing/plan.js';
import { sweepUsageReports } from './src/billing/usage.js';
import { onAppointmentPayment, sweepAppointments } from './src/appointments/payments.js';
import { sweepRequestKeys } from './src/registry/request-keys.js';
import { createProfilePages } from './src/profile-links/pages.js';
import { defineProfileLinkJobs } from './src/profile-links/check.js';
import { DEMO_PROFILES, demoProfilePage, ensureDemoProfileLinks } from './src/demo/profiles.js';
import { createApp } from './facades/app.js';
import { attachWebSockets } from './facades/ws.js';

/**
 * How often unconfirmed bookings and unpaid appointments past their hold are lapsed (searches,
 * times and bookings already ignore them), refunds and overage reports the provider has not
 * taken are sent again, and the payment sandbox lets its checkouts expire, renews its
 * subscriptions and retries its webhooks.
 */
const LAPSE_SWEEP_MS = 60_000;
/** Expired request keys need no hurry: a new claim takes an expired key over anyway. */
const REQUEST_KEY_SWEEP_MS = 3_600_000;

export interface Porchlight {
  fetch: (request: Request) => Promise<Response> | Response;
  services: Services;
  db: Database;
  app: ReturnType<typeof createApp>;
  close(): Promise<void>;
}

/** Composition root: database, migrations, demo data, providers and the HTTP facades. */
export interface PorchlightOptions {
  /** Called once per SQL statement (tests count queries). */
  onQuery?: () => void;
  /** Where log lines go (tests capture them); stdout by default. */
  logDestination?: DestinationStream;
  /**
   * How owner-given links and OAuth client metadata documents are fetched; tests add their local
   * https server's CA and address. Production passes none: only public addresses are reached.
   */
  fetchPolicy?: Partial<FetchPolicy>;
}

export async function createPorchlight(config: Config = loadConfig(), options: PorchlightOptions = {}): Promise<Porchlight> {
  const logger = pino(
    {
      level: config.logLevel,
      // Secrets travel in these; they never reach a log line.
      redact: ['req.headers.authorization', 'req.headers["idempotency-key"]', '*.manage_token', '*.manageToken', '*.reply_token', '*.replyToken', '*.request_key', '*.requestKey', '*.key', '*.code', '*.password'],
    },
    options.logDestination,
  );
  const clock = new Clock(config.now);
  // Before anything else: a production start without SECRETS_KEY stops here, with the reason.
  const secretsKey = loadSecretsKey(config, logger);
  // Said at every start, so a staging deployment's sandboxes are never a surprise.
  logger.info({ providers: providerModes(config), sandboxProviders: config.sandboxProviders }, 'providers');
  if (await prepareApart({ ...config, now: clock.now() })) logger.info({ dataDir: config.dataDir }, 'new data folder prepared');
  const db = await openDatabase({ url: config.databaseUrl, poolSize: config.databasePoolSize, dataDir: config.dataDir, pgliteSharedBuffers: config.pgliteSharedBuffers, onQuery: options.onQuery });
  const applied = await applyMigrations(db.migrationFactory, db.pool);
  if (applied.length) logger.info({ applied }, 'migrations applied');
  try {
    await sealSigningKeys({ prisma: db.prisma, secretsKey });
  } catch (err) {
    await db.close();
    throw err;
  }
  if (config.seedDemo) {
    const seeded = await seedDemoData(db.prisma, { now: clock.now() });
    if (seeded.seeded) logger.info({ businesses: seeded.businesses }, 'demo data seeded');
    // The demo's links are its own profile pages at this BASE_URL: checked by the first sweep below.
    await ensureDemoProfileLinks(db.prisma, config.baseUrl);
  }
  // Providers' error messages may quote what they were sent (a link with a token): scrubbed.
  const logFailure = (what: string) => (err: unknown) => logger.warn({ err: scrubSecrets(err instanceof Error ? err.message : String(err)) }, what);
  const outbox = new Outbox(
    db.prisma,
    config.smtpUrl ? smtpTransport(config.smtpUrl, config.mailFrom) : sandboxTransport,
    smsProvider(config),
    clock,
    logFailure('mail delivery failed'),
  );
  outbox.start();
  // One Redis connection for shared counters (and, later, events) when several instances run.
  // Loaded only then: a single instance never needs the client.
  const redis = config.redisUrl ? new (await import('ioredis')).Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : undefined;
  // Plain statements outside transactions (hot reads), counted like Prisma's for the query tests.
  const query: SqlQuery = (statement, queryOptions) => {
    options.onQuery?.();
    return sqlQuery(db.pool, db.prepared, statement, queryOptions);
  };
  const snapshot = new SearchSnapshot(query, () => clock.now(), logFailure('refreshing the search snapshot failed'));
  const menuCache = new MenuCache(db.prisma, () => clock.now());
  // The one subscriber to this process's committed changes: the business's menu copy is read again.
  const changes = new Changes();
  changes.subscribe((businessId) => menuCache.drop(businessId));
  // Changes this process makes through the snapshot concern the business's menu copy too.
  snapshot.onBusinessChanged = (id) => menuCache.drop(id);
  // Other instances' commits, one business at a time ("schedule:<id>", "catalog:<id>",
  // "menu:<id>", "knowledge:<id>" for the receptionist's published page, or "reset").
  const stopListening = await db.listen(
    [CHANGE_CHANNEL],
    (_channel, payload) => {
      const [scope, businessId] = payload.split(':', 2);
      if (!businessId) {
        snapshot.reset();
        menuCache.reset();
      } else if (scope === 'catalog' || scope === 'schedule') snapshot.changed(scope, businessId);
      else menuCache.drop(businessId);
    },
    () => {
      snapshot.reset();
      menuCache.reset();
    },
  );
  const redisSubscriber = redis?.duplicate();
  // ioredis reconnects by itself; say so in the log rather than on stderr.
  for (const client of [redis, redisSubscriber]) client?.on('error', (err: Error) => logger.warn({ err: err.message }, 'Redis connection error'));
  const events = createEvents(redis && redisSubscriber ? { publish: redis, subscribe: redisSubscriber } : undefined, logFailure('event delivery through Redis failed'));
  const links = createLinks(config.baseUrl);
  const payments = createPayments(
    config,
    { prisma: db.prisma, clock, links, secretsKey, onError: logFailure('delivering a payment sandbox webhook failed') },
    // What each domain does with the checkout, payment, refund and subscription events it started.
    { appointment: onAppointmentPayment, [PLAN_PURPOSE]: onPlanEvent },
  );
  // Durable jobs: one-off work a change enqueues in its transaction, and the recurring sweeps below.
  const jobs = new Jobs(db.prisma, clock, logFailure);
  const services: Services = {
    prisma: db.prisma,
    clock,
    config,
    outbox,
    logger,
    rateLimits: createRateLimits(config.requestsPerMinute, redis),
    events,
    emit: createEmit(events, () => clock.date()),
    transaction: (write, options) => transaction(db.prisma, write, logFailure('after-commit work failed'), options),
    sql: (write) => sqlTransaction(db.pool, db.prepared, db.kind === 'postgresql', write, logFailure('after-commit work failed')),
    query,
    links,
    search: snapshot,
    menus: menuCache,
    changes,
    reader: createSourceReader(createUrlFetcher({ ...DEFAULT_FETCH_POLICY, timeoutMs: config.sourceFetchTimeoutMs, ...options.fetchPolicy }), new ReaderPool(config.sourceReading)),
    // The same SSRF-safe fetcher, stricter: 5 seconds, and never a redirect (the draft forbids following one).
    clientDocuments: createClientDocuments(
      createUrlFetcher({ ...DEFAULT_FETCH_POLICY, timeoutMs: 5000, ...options.fetchPolicy, maxRedirects: 0, userAgent: 'Porchlight OAuth server' }),
      clock,
    ),
    secretsKey,
    payments,
    phone: createPhone(config, { prisma: db.prisma, clock, secretsKey, warn: (message) => logger.warn(message) }),
    jobs,
    // Owners' pages through the same SSRF-safe fetcher; the demo's own profile pages in process.
    profilePages: createProfilePages(
      createUrlFetcher({ ...DEFAULT_FETCH_POLICY, timeoutMs: 10_000, ...options.fetchPolicy, userAgent: 'Porchlight link checker' }),
      config.baseUrl,
      config.seedDemo ? { prefix: DEMO_PROFILES, page: (path) => demoProfilePage(db.prisma, links, path) } : undefined,
    ),
  };
  // Unconfirmed bookings and unpaid appointments lapse by the clock: recurring jobs, each run by one instance per turn.
  jobs.every('lapse-holds', 'lapsing unconfirmed bookings failed', LAPSE_SWEEP_MS, () => lapseExpiredHolds(services));
  jobs.every('remind-holds', 'reminding customers of unconfirmed bookings failed', LAPSE_SWEEP_MS, () => remindHolds(services));
  jobs.every('sweep-appointments', 'lapsing unpaid appointments or retrying refunds failed', LAPSE_SWEEP_MS, () => sweepAppointments(services));
  jobs.every('usage-reports', 'reporting receptionist overage to the payment provider failed', LAPSE_SWEEP_MS, () => sweepUsageReports(services));
  jobs.every('request-keys', 'deleting expired request keys failed', REQUEST_KEY_SWEEP_MS, () => sweepRequestKeys(services));
  defineProfileLinkJobs(jobs, services);
  if (payments.sandbox) jobs.every('payment-sandbox', 'the payment sandbox could not expire checkouts or deliver webhooks', LAPSE_SWEEP_MS, () => payments.sandbox!.tick());
  // Holds that ran out while no instance was running lapse before the first request.
  await jobs.schedule();
  await jobs.runRecurringNow();
  jobs.start(LAPSE_SWEEP_MS);

  const app = createApp({
    schema,
    services,
    operations,
    healthy: async () => {
      try {
        await db.prisma.$queryRaw`SELECT 1 FROM "_prisma_migrations" LIMIT 1`;
        return true;
      } catch {
        return false;
      }
    },
    examples: () => openApiExamples({ run: (op, input) => app.run(op, input, new Request(config.baseUrl), 'openapi-examples'), services, operations }),
  });
  // The sandbox's webhooks go through this app's own route and signature check, like Stripe's.
  payments.sandbox?.connect(async (request) => app.fetch(request));
  services.phone.voiceSandbox?.connect(async (request) => app.fetch(request));
  return {
    fetch: app.fetch,
    services,
    db,
    app,
    async close() {
      await jobs.stop();
      await payments.sandbox?.stop();
      outbox.stop();
      await outbox.flush().catch(() => {});
      await stopListening();
      await services.reader.close();
      await services.clientDocuments.close();
      await services.profilePages.close();
      redis?.disconnect();
      redisSubscriber?.disconnect();
      await db.close();
    },
  };
}

/**
 * V8 lets the heap grow to several times what is live before a full collection when collections
 * are cheap, as ours are; on a server that is resident memory held for garbage. 1.5× keeps the
 * catalog ×100 benchmark near 380 MB instead of 640 MB at the same latency (README, benchmarks).
 */
const HEAP_GROWING_PERCENT = 50;

/** The oldest Node the service runs on (package.json engines). */
const NODE_MIN = [20, 19] as const;

/** Whether the port can be listened on: asked before the database opens, so a taken port is one sentence, at once. */
const portFree = (port: number, host: string) =>
  new Promise<boolean>((done) => {
    const probe = createNetServer();
    probe.once('error', () => done(false));
    probe.listen(port, host, () => probe.close(() => done(true)));
  });

async function main() {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  if (major < NODE_MIN[0] || (major === NODE_MIN[0] && minor < NODE_MIN[1])) {
    return refuse(`Porchlight needs Node ${NODE_MIN.join('.')} or later; this is Node ${process.versions.node}.`);
  }
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof SettingsError) return refuse(err.message);
    throw err;
  }
  // Production never falls back to a sandbox or a local address unasked: every refusal, one line each, before the database opens.
  const refusals = productionRefusals(config);
  if (refusals.length) return refuse(refusals.join('\n'));
  if (!(await portFree(config.port, config.host))) {
    return refuse(`Port ${config.port} on ${config.host} is already in use. Stop what listens there, or start on another port: PORT=${config.port + 1} npm start`);
  }
  let porchlight: Porchlight;
  try {
    porchlight = await createPorchlight(config);
  } catch (err) {
    if (err instanceof StartupError || err instanceof SettingsError) return refuse(err.message);
    throw err;
  }
  const server = serve({ fetch: porchlight.fetch, port: config.port, hostname: config.host }, (info) => {
    porchlight.services.logger.info(`Porchlight listening on ${config.baseUrl} (port ${info.port}, ${porchlight.db.kind} database)`);
  });
  // GraphQL subscriptions (graphql-ws) share the port and the /graphql path.
  const sockets = attachWebSockets(server, porchlight);
  const stop = () => {
    void sockets.close();
    server.close();
    void porchlight.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A start that cannot go on: one sentence (a line per reason) on stderr, exit code 1. */
function refuse(message: string) {
  process.stderr.write(`${message}\n`);
  process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
