import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { DateTime } from 'luxon';
import { serve } from '@hono/node-server';
import { pino, type DestinationStream } from 'pino';
import { loadConfig, type Config } from './config.js';
import { scrubSecrets } from './errors.js';
import { Clock } from './clock.js';
import { openDatabase, type Database } from './db/database.js';
import { applyMigrations } from './db/migrations.js';
import { Outbox } from './mail/outbox.js';
import { sandboxTransport, smtpTransport } from './mail/transport.js';
import { smsProvider } from './sms/provider.js';
import { schema } from './schema.js';
import { operations } from './operations.js';
import { seedDemoData } from './demo/seed.js';
import { demoIds } from './demo/generate.js';
import type { Services } from './context.js';
import { Redis } from 'ioredis';
import { createRateLimits } from './auth/rate-limit.js';
import { loadSecretsKey } from './auth/secrets-key.js';
import { sealSigningKeys } from './auth/oauth/signing-keys.js';
import { createEvents } from './events/pubsub.js';
import { createEmit } from './events/emit.js';
import { transaction } from './db/transaction.js';
import { sqlQuery, sqlTransaction, type SqlQuery } from './db/sql.js';
import { createLinks } from './links.js';
import { lapseExpiredHolds } from './bookings/service.js';
import { isoWithOffset, MINUTE } from './availability/time.js';
import { CHANGE_CHANNEL, SearchSnapshot } from './search/snapshot.js';
import { MenuCache } from './menus/store.js';
import { createSourceReader } from './receptionist/read.js';
import { ReaderPool } from './receptionist/reader-pool.js';
import { DEFAULT_FETCH_POLICY, createUrlFetcher, type FetchPolicy } from './receptionist/fetch.js';
import { createPayments } from './payments/payments.js';
import { createPhone } from './phone/phone.js';
import { PLAN_PURPOSE, onPlanEvent } from './billing/plan.js';
import { sweepUsageReports } from './billing/usage.js';
import { onAppointmentPayment, sweepAppointments } from './appointments/payments.js';
import { demoAppointmentBusiness } from './demo/appointments.js';
import { createApp } from '../facades/app.js';
import { attachWebSockets } from '../facades/ws.js';

/**
 * How often unconfirmed bookings and unpaid appointments past their hold are lapsed (searches,
 * times and bookings already ignore them), refunds and overage reports the provider has not
 * taken are sent again, and the payment sandbox lets its checkouts expire, renews its
 * subscriptions and retries its webhooks.
 */
const LAPSE_SWEEP_MS = 60_000;

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
  /** How owner-given links are fetched; tests add their local https server's CA and address. */
  fetchPolicy?: Partial<FetchPolicy>;
}

export async function createPorchlight(config: Config = loadConfig(), options: PorchlightOptions = {}): Promise<Porchlight> {
  const logger = pino(
    {
      level: config.logLevel,
      // Secrets travel in these; they never reach a log line.
      redact: ['req.headers.authorization', '*.manage_token', '*.manageToken', '*.reply_token', '*.replyToken', '*.request_key', '*.requestKey', '*.key', '*.code', '*.password'],
    },
    options.logDestination,
  );
  const clock = new Clock(config.now);
  // Before anything else: a production start without SECRETS_KEY stops here, with the reason.
  const secretsKey = loadSecretsKey(config, logger);
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, onQuery: options.onQuery });
  const applied = await applyMigrations(db.migrationFactory);
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
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: true }) : undefined;
  // Plain statements outside transactions (hot reads), counted like Prisma's for the query tests.
  const query: SqlQuery = (statement) => {
    options.onQuery?.();
    return sqlQuery(db.pool, db.prepared, statement);
  };
  const snapshot = new SearchSnapshot(query, () => clock.now(), logFailure('refreshing the search snapshot failed'));
  const menuCache = new MenuCache(db.prisma, () => clock.now());
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
    sql: (write) => sqlTransaction(db.pool, db.prepared, write, logFailure('after-commit work failed')),
    query,
    links,
    search: snapshot,
    menus: menuCache,
    reader: createSourceReader(createUrlFetcher({ ...DEFAULT_FETCH_POLICY, timeoutMs: config.sourceFetchTimeoutMs, ...options.fetchPolicy }), new ReaderPool(config.sourceReading)),
    secretsKey,
    payments,
    phone: createPhone(config, { prisma: db.prisma, clock }),
  };
  // Unconfirmed bookings and unpaid appointments lapse by the clock; every instance sweeps, each lapses once.
  const lapse = () =>
    Promise.all([
      lapseExpiredHolds(services).catch(logFailure('lapsing unconfirmed bookings failed')),
      sweepAppointments(services).catch(logFailure('lapsing unpaid appointments or retrying refunds failed')),
      sweepUsageReports(services).catch(logFailure('reporting receptionist overage to the payment provider failed')),
      payments.sandbox?.tick().catch(logFailure('the payment sandbox could not expire checkouts or deliver webhooks')),
    ]);
  // Holds that ran out while no instance was running lapse before the first request.
  await lapse();
  const sweeper = setInterval(() => void lapse(), LAPSE_SWEEP_MS);
  sweeper.unref();

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
    examples: async () => {
      const body = { pro_id: demoIds.cleanerAustin, bedrooms: 2, bathrooms: 1.5, days: 7 };
      const times = await app.run(operations.find((o) => o.name === 'available_times')!, body, new Request(config.baseUrl), 'openapi-examples');
      const start = (times.body.starts as string[] | undefined)?.[0] ?? '2026-12-01T09:00:00-06:00';
      const duration = typeof times.body.duration_minutes === 'number' ? times.body.duration_minutes : 180;
      const { DateTime } = await import('luxon');
      const cleaner = await db.prisma.business.findUnique({ where: { slug: demoIds.cleanerAustin }, select: { name: true } });
      return {
        DEMO_CLEANER: demoIds.cleanerAustin,
        DEMO_CLEANER_NAME: cleaner?.name ?? 'Sparkle & Shine Cleaning',
        DEMO_ZIP: demoIds.austinZip,
        DEMO_START: start,
        DEMO_END: DateTime.fromISO(start, { setZone: true }).plus({ minutes: duration }).toISO({ suppressMilliseconds: true }) ?? start,
        DEMO_DURATION: duration,
        DEMO_NOW: new Date(clock.now()).toISOString(),
        DEMO_HOLD_UNTIL: isoWithOffset(clock.now() + config.pendingHoldMinutes * MINUTE, 'America/Chicago'),
        DEMO_BOOKING: 'booking_id returned by book_cleaning',
        DEMO_MANAGE_TOKEN: 'manage_token returned by book_cleaning',
        DEMO_MANAGE_URL: decodeURIComponent(services.links.manage('<manage_token>')),
        DEMO_PRICE: times.body.price,
        // A salon with staff scheduling on; the selection is one of its cuts with an add-on and a scent.
        DEMO_MENU_BUSINESS: demoIds.beautySanFrancisco,
        DEMO_SELECTIONS: [{ service_id: 'womens-cut', add_on_ids: ['deep-conditioning'], scent_id: 'lavender' }],
        // A Tuesday at least two days ahead (the salon opens Tuesdays in every demo seed).
        DEMO_VISIT_DATE: nextTuesday(clock.now(), 'America/Los_Angeles'),
        DEMO_APPOINTMENT_BUSINESS: demoAppointmentBusiness,
      };
    },
  });
  // The sandbox's webhooks go through this app's own route and signature check, like Stripe's.
  payments.sandbox?.connect(async (request) => app.fetch(request));
  return {
    fetch: app.fetch,
    services,
    db,
    app,
    async close() {
      clearInterval(sweeper);
      await payments.sandbox?.stop();
      outbox.stop();
      await outbox.flush().catch(() => {});
      await stopListening();
      await services.reader.close();
      redis?.disconnect();
      redisSubscriber?.disconnect();
      await db.close();
    },
  };
}

/** The business-local date of the first Tuesday at least two days after `now`. */
function nextTuesday(now: number, zone: string): string {
  const from = DateTime.fromMillis(now, { zone }).plus({ days: 2 });
  return from.plus({ days: (2 - from.weekday + 7) % 7 }).toISODate()!;
}

/**
 * V8 lets the heap grow to several times what is live before a full collection when collections
 * are cheap, as ours are; on a server that is resident memory held for garbage. 1.5× keeps the
 * catalog ×100 benchmark near 380 MB instead of 640 MB at the same latency (README, benchmarks).
 */
const HEAP_GROWING_PERCENT = 50;

async function main() {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const config = loadConfig();
  const porchlight = await createPorchlight(config);
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

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
