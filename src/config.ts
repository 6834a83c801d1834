/** Everything the process reads from its environment, read once. */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  smtpUrl?: string;
  mailFrom: string;
  /** NOW: the clock's reading at start-up (ISO); absent means the real time. */
  now?: string;
  publicSharedKey: string;
  manageCodeLength: number;
  connectRoute: boolean;
  development: boolean;
  seedDemo: boolean;
  logLevel: string;
  /** Behind a load balancer: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  /** API calls allowed per credential or client address per minute. */
  requestsPerMinute: number;
  /**
   * Twilio credentials (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM); text messages stay in
   * the outbox without them. TWILIO_API_URL picks a regional edge (default https://api.twilio.com).
   */
  twilio?: { accountSid: string; authToken: string; from: string; apiUrl?: string };
  /** Signs inbound text-message webhooks in sandbox mode (Twilio's own scheme, this secret as the key). */
  smsWebhookSecret?: string;
  /** SECRETS_KEY: 32 random bytes, base64url; encrypts the OAuth signing key at rest (see src/auth/secrets-key.ts). */
  secretsKey?: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? '127.0.0.1';
  return {
    port,
    host,
    baseUrl: (env.BASE_URL ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`).replace(/\/$/, ''),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? './data',
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Porchlight <bookings@porchlight.test>',
    now: env.NOW || undefined,
    publicSharedKey: env.PUBLIC_SHARED_KEY ?? 'sk_pub_porchlight_demo',
    manageCodeLength: env.MANAGE_CODE_LENGTH === '6' ? 6 : 8,
    connectRoute: env.CONNECT_ROUTE !== 'off' && env.CONNECT_ROUTE !== 'false',
    development: env.NODE_ENV !== 'production',
    seedDemo: env.SEED_DEMO !== 'false',
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    requestsPerMinute: Math.max(1, Number(env.RATE_LIMIT_PER_MINUTE ?? 300) || 300),
    twilio:
      env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM
        ? { accountSid: env.TWILIO_ACCOUNT_SID, authToken: env.TWILIO_AUTH_TOKEN, from: env.TWILIO_FROM, apiUrl: env.TWILIO_API_URL || undefined }
        : undefined,
    smsWebhookSecret: env.SMS_WEBHOOK_SECRET || undefined,
    secretsKey: env.SECRETS_KEY || undefined,
  };
}
