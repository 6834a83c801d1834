import { availableParallelism } from 'node:os';
import ipaddr from 'ipaddr.js';

/** An address range as ipaddr.js parses a CIDR. */
export type AddressRange = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Everything the process reads from its environment, read once. */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl?: string;
  /** Connections each instance opens to DATABASE_URL (DATABASE_POOL_SIZE, 1 to 100, default 4). */
  databasePoolSize: number;
  dataDir: string;
  /** The embedded database's buffer pool, in PostgreSQL's units (e.g. 16MB). */
  pgliteSharedBuffers: string;
  redisUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** NOW: the clock's reading at start-up (ISO); absent means the real time. */
  now?: string;
  publicSharedKey: string;
  manageCodeLength: number;
  connectRoute: boolean;
  development: boolean;
  /** DEV_OUTBOX=1 (never in production): the outbox at /dev/outbox, for loopback callers only. */
  devOutbox: boolean;
  /** Host names (with a port, or any port without one) served besides BASE_URL's and loopback. */
  allowedHosts: string[];
  /** Largest REST, MCP and GraphQL request body and WebSocket message, in bytes. */
  maxBodyBytes: number;
  /** Demo data into an empty database: by default in development, only with SEED_DEMO=true in production. */
  seedDemo: boolean;
  /** BASE_URL as given (null: not set, and baseUrl is the local default). */
  baseUrlSetting: string | null;
  /**
   * SANDBOX_PROVIDERS: the providers that run as their sandbox even where their settings are given;
   * in production, the only way to run one as a sandbox (src/providers.ts).
   */
  sandboxProviders: ProviderName[];
  logLevel: string;
  /** The load balancers' addresses: only their X-Forwarded-For is believed. */
  trustProxy: AddressRange[];
  /** API calls allowed per credential or client address per minute. */
  requestsPerMinute: number;
  /**
   * Twilio credentials (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM); text messages stay in
   * the outbox without them. TWILIO_API_URL picks a regional edge (default https://api.twilio.com).
   */
  twilio?: { accountSid: string; authToken: string; from: string; apiUrl?: string };
  /** How long a booking waits for the customer's confirmation before its time is released. */
  pendingHoldMinutes: number;
  /** Unconfirmed bookings one customer (e-mail or phone) and one key or client address may hold at once. */
  pendingLimits: { perContact: number; perRequester: number };
  /**
   * Visits and appointments at menu businesses, which book at once: how many live ones (open
   * requests, unpaid holds, bookings still ahead) one key, connection or client address may have
   * in all and at one business, and one customer (e-mail or phone) at one business; and how much
   * of a business's day unpaid holds may take at once, in percent of its appointment hours.
   */
  calendarLimits: { perRequester: number; perRequesterAtBusiness: number; perContactAtBusiness: number; unpaidDayPercent: number };
  /** Signs inbound text-message webhooks in sandbox mode (Twilio's own scheme, this secret as the key). */
  smsWebhookSecret?: string;
  /** How long fetching one owner-given link may take, redirects included (add_receptionist_source). */
  sourceFetchTimeoutMs: number;
  /**
   * Reading sources in worker threads (receptionist/reader-pool.ts): how long one page, PDF or
   * photo may take to read (SOURCE_READ_TIMEOUT_MS, at most 20 s), the heap each worker may use
   * (SOURCE_READ_MEMORY_MB, default 256), how many read at once (SOURCE_READ_THREADS, default one
   * fewer than the cores, at least 1) and how many may wait (SOURCE_READ_QUEUE, default 8).
   */
  sourceReading: { deadlineMs: number; memoryMb: number; threads: number; queue: number };
  /** SECRETS_KEY: 32 random bytes, base64url; encrypts the OAuth signing key at rest (see src/auth/secrets-key.ts). */
  secretsKey?: string;
  /**
   * Stripe (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: the signing secrets of the webhook endpoints
   * pointing at /webhooks/payments, comma-separated); without them the local payment sandbox.
   */
  stripe?: { secretKey: string; webhookSecrets: string[]; receptionist?: { overagePrice: string; meterEventName: string } };
  /**
   * The AI receptionist's plan: its monthly price (RECEPTIONIST_PLAN_DOLLARS, default 49), the
   * minutes answered it includes (RECEPTIONIST_INCLUDED_MINUTES, default 300) and the price of each
   * minute past them (RECEPTIONIST_OVERAGE_CENTS, default 20).
   */
  receptionistPlan: { monthlyCents: number; includedMinutes: number; overageCentsPerMinute: number };
  /** Buy and port phone numbers through Twilio (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN); absent → the carrier sandbox. */
  carrier?: { accountSid: string; authToken: string };
  /**
   * VOICE_AGENT_URL: the AI agent that answers calls to receptionist numbers, a wss:// address
   * Twilio's ConversationRelay connects each call to (ws:// too in development). Unset: calls are
   * forwarded to the owner's phone (src/phone/voice.ts); with Twilio live, production refuses to start.
   */
  voiceAgentUrl?: string;
}

/** The customer-facing providers: each a real adapter or its local sandbox. */
export const PROVIDERS = ['mail', 'texts', 'payments', 'phone'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** A setting that stops the start: its message is one line naming the setting (main.ts prints it, no stack). */
export class SettingsError extends Error {}

/** PGLITE_SHARED_BUFFERS, checked here: PGlite's own refusal of a bad value is kilobytes of its source. */
function sharedBuffers(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return '16MB';
  const m = /^\s*(\d{1,6})\s*(kB|MB|GB)\s*$/i.exec(value);
  const kb = m ? Number(m[1]) * { kb: 1, mb: 1024, gb: 1024 * 1024 }[m[2]!.toLowerCase() as 'kb' | 'mb' | 'gb'] : NaN;
  if (!(kb >= 128 && kb <= 4 * 1024 * 1024)) throw new SettingsError('PGLITE_SHARED_BUFFERS is the embedded database\'s buffer pool, between 128kB and 4GB, e.g. 16MB or 256MB.');
  return `${m![1]}${m![2]!.toUpperCase() === 'KB' ? 'kB' : m![2]!.toUpperCase()}`;
}

/** A positive whole number from the environment, or the default. */
const positive = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : fallback;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? '127.0.0.1';
  const production = env.NODE_ENV === 'production';
  const sandboxed = sandboxProviders(env.SANDBOX_PROVIDERS);
  // A provider named in SANDBOX_PROVIDERS is the sandbox whatever else is set: its settings are set aside here.
  const live = (name: ProviderName) => !sandboxed.includes(name);
  const baseUrlSetting = env.BASE_URL?.trim() || null;
  return {
    port,
    host,
    baseUrl: (baseUrlSetting ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/$/, ''),
    baseUrlSetting,
    sandboxProviders: sandboxed,
    databaseUrl: env.DATABASE_URL || undefined,
    databasePoolSize: poolSize(env.DATABASE_POOL_SIZE),
    dataDir: env.DATA_DIR ?? './data',
    pgliteSharedBuffers: sharedBuffers(env.PGLITE_SHARED_BUFFERS),
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: (live('mail') && env.SMTP_URL) || undefined,
    mailFrom: env.MAIL_FROM ?? 'Porchlight <bookings@porchlight.test>',
    now: env.NOW || undefined,
    publicSharedKey: env.PUBLIC_SHARED_KEY ?? 'sk_pub_porchlight_demo',
    manageCodeLength: env.MANAGE_CODE_LENGTH === '6' ? 6 : 8,
    connectRoute: env.CONNECT_ROUTE !== 'off' && env.CONNECT_ROUTE !== 'false',
    development: env.NODE_ENV !== 'production',
    devOutbox: env.NODE_ENV !== 'production' && (env.DEV_OUTBOX === '1' || env.DEV_OUTBOX === 'true'),
    allowedHosts: (env.ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    maxBodyBytes: positiveInteger(env.MAX_BODY_BYTES) ?? 1024 * 1024,
    seedDemo: production ? env.SEED_DEMO === 'true' : env.SEED_DEMO !== 'false',
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    trustProxy: proxyRanges(env.TRUST_PROXY),
    requestsPerMinute: Math.max(1, Number(env.RATE_LIMIT_PER_MINUTE ?? 300) || 300),
    twilio:
      live('texts') && env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM
        ? { accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN, from: env.TWILIO_FROM, apiUrl: env.TWILIO_API_URL || undefined }
        : undefined,
    smsWebhookSecret: env.SMS_WEBHOOK_SECRET || undefined,
    pendingHoldMinutes: positive(env.PENDING_HOLD_MINUTES, 120),
    pendingLimits: { perContact: positive(env.PENDING_PER_CONTACT, 3), perRequester: positive(env.PENDING_PER_REQUESTER, 10) },
    calendarLimits: {
      perRequester: positive(env.CALENDAR_PER_REQUESTER, 10),
      perRequesterAtBusiness: positive(env.CALENDAR_PER_REQUESTER_AT_BUSINESS, 4),
      perContactAtBusiness: positive(env.CALENDAR_PER_CONTACT, 4),
      unpaidDayPercent: Math.min(positive(env.UNPAID_HOLDS_DAY_PERCENT, 50), 100),
    },
    secretsKey: env.SECRETS_KEY || undefined,
    sourceFetchTimeoutMs: Math.min(positive(env.SOURCE_FETCH_TIMEOUT_SECONDS, 15), 60) * 1000,
    sourceReading: {
      deadlineMs: Math.min(positive(env.SOURCE_READ_TIMEOUT_MS, 20_000), 20_000),
      memoryMb: positive(env.SOURCE_READ_MEMORY_MB, 256),
      threads: positive(env.SOURCE_READ_THREADS, Math.max(1, availableParallelism() - 1)),
      queue: positive(env.SOURCE_READ_QUEUE, 8),
    },
    stripe: live('payments') ? stripeSettings(env) : undefined,
    receptionistPlan: {
      monthlyCents: dollars(env.RECEPTIONIST_PLAN_DOLLARS, 49, 'RECEPTIONIST_PLAN_DOLLARS') * 100,
      includedMinutes: whole(env.RECEPTIONIST_INCLUDED_MINUTES, 300, 'RECEPTIONIST_INCLUDED_MINUTES'),
      overageCentsPerMinute: whole(env.RECEPTIONIST_OVERAGE_CENTS, 20, 'RECEPTIONIST_OVERAGE_CENTS'),
    },
    voiceAgentUrl: voiceAgentUrl(env.VOICE_AGENT_URL, production),
    carrier: live('phone') && env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN ? { accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN } : undefined,
  };
}

/** VOICE_AGENT_URL: a wss:// address (ws:// in development, for an agent on this machine), or unset. */
function voiceAgentUrl(value: string | undefined, production: boolean): string | undefined {
  const raw = value?.trim();
  if (!raw) return undefined;
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    url = null;
  }
  const schemes = production ? ['wss:'] : ['wss:', 'ws:'];
  if (!url || !schemes.includes(url.protocol) || !url.hostname || url.username || url.password) {
    throw new SettingsError(`VOICE_AGENT_URL is the AI agent's WebSocket address that calls are connected to, e.g. wss://agent.example.com/calls${production ? '' : ' (ws:// too in development)'}, with no user or password in it.`);
  }
  return url.href;
}

/** SANDBOX_PROVIDERS: a comma-separated subset of PROVIDERS; any other name stops the start. */
function sandboxProviders(value: string | undefined): ProviderName[] {
  const names = (value ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  for (const name of names) {
    if (!(PROVIDERS as readonly string[]).includes(name)) {
      throw new SettingsError(`SANDBOX_PROVIDERS lists providers to run as sandboxes, any of ${PROVIDERS.join(',')}; "${name}" is none of them.`);
    }
  }
  return [...new Set(names as ProviderName[])];
}

/** A whole number (0 allowed) from the environment, or the default; anything else stops the start. */
function whole(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d{1,7}$/.test(value.trim())) throw new SettingsError(`${name} must be a whole number, e.g. ${fallback}.`);
  return Number(value.trim());
}

/**
 * DATABASE_POOL_SIZE. One Node process keeps few statements in flight; on a small machine shared
 * with PostgreSQL, more backends only take CPU from the server (docs/benchmark.md: 10 → 4 lifted
 * bookings by a third and cut call_brief's p99 by a third). A database far away wants more.
 */
function poolSize(value: string | undefined): number {
  const n = whole(value, 4, 'DATABASE_POOL_SIZE');
  if (n < 1 || n > 100) throw new SettingsError('DATABASE_POOL_SIZE is how many connections each instance opens to DATABASE_URL, 1 to 100, e.g. 4.');
  return n;
}

/** The plan's monthly price: whole dollars, 1 to 10000 (it must fit under the highest spending limit). */
function dollars(value: string | undefined, fallback: number, name: string): number {
  const n = whole(value, fallback, name);
  if (n < 1 || n > 10_000) throw new SettingsError(`${name} must be between 1 and 10000 dollars.`);
  return n;
}

/** Both Stripe settings or neither: a key without a webhook secret would take payments it never hears about. */
function stripeSettings(env: NodeJS.ProcessEnv): Config['stripe'] {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const webhookSecrets = (env.STRIPE_WEBHOOK_SECRET ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!secretKey && webhookSecrets.length === 0) return undefined;
  if (!secretKey || webhookSecrets.length === 0) {
    throw new SettingsError('Set both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take payments through Stripe, or neither to use the local payment sandbox.');
  }
  // The receptionist plan's overage is billed through a metered Price fed by a Billing Meter: both or neither.
  const overagePrice = env.STRIPE_RECEPTIONIST_OVERAGE_PRICE?.trim();
  const meterEventName = env.STRIPE_RECEPTIONIST_METER?.trim();
  if (Boolean(overagePrice) !== Boolean(meterEventName)) {
    throw new SettingsError('Set both STRIPE_RECEPTIONIST_OVERAGE_PRICE and STRIPE_RECEPTIONIST_METER to sell the receptionist plan through Stripe, or neither.');
  }
  return { secretKey, webhookSecrets, ...(overagePrice && meterEventName ? { receptionist: { overagePrice, meterEventName } } : {}) };
}

const positiveInteger = (value: string | undefined) => (value && /^\d+$/.test(value) && Number(value) > 0 ? Number(value) : undefined);

/** TRUST_PROXY: comma-separated addresses or CIDRs; an unreadable entry stops the start. */
function proxyRanges(value: string | undefined): AddressRange[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry): AddressRange => {
      const [address = '', bits] = entry.split('/');
      // Four-part IPv4 only: the old TRUST_PROXY=1 (trust every peer) must not turn into 0.0.0.1.
      const valid = ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address);
      if (valid && bits === undefined) {
        const parsed = ipaddr.parse(address);
        return [parsed, parsed.kind() === 'ipv4' ? 32 : 128];
      }
      if (valid && ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
      throw new SettingsError(`TRUST_PROXY lists the load balancers' addresses or CIDRs, e.g. 10.0.0.0/8,127.0.0.1; "${entry}" is neither.`);
    });
}
