/**
 * Production never pretends. Each customer-facing provider runs as its real adapter or as its
 * local sandbox (mail in an outbox, texts in an outbox, the payment sandbox's hosted pages, the
 * carrier sandbox); in development a missing setting quietly means the sandbox, which the demo
 * relies on. In production a sandbox reaches nobody, so a start that would fall back to one is
 * refused unless SANDBOX_PROVIDERS names it (a staging deployment), and the rest of a production
 * start is checked the same way: every problem is one line naming the setting to give.
 */
import { PROVIDERS, type Config, type ProviderName } from './config.js';
import { secretsKeyProblem } from './auth/secrets-key.js';

export type ProviderMode = 'live' | 'sandbox';

/** Which providers are real and which are sandboxes (GET /healthz shows it). */
export function providerModes(config: Pick<Config, 'smtpUrl' | 'twilio' | 'stripe' | 'carrier'>): Record<ProviderName, ProviderMode> {
  const mode = (live: unknown): ProviderMode => (live ? 'live' : 'sandbox');
  return { mail: mode(config.smtpUrl), texts: mode(config.twilio), payments: mode(config.stripe), phone: mode(config.carrier) };
}

/** What each provider needs to be real, as the refusal says it. */
const NEEDS: Record<ProviderName, string> = {
  mail: 'SMTP_URL is not set: mail (booking confirmations, manage links, keys) would stay in an outbox nobody reads. Set SMTP_URL (e.g. smtps://user:pass@mail.example.com) and MAIL_FROM',
  texts: 'TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are not all set: texts to customers would stay in an outbox nobody reads. Set all three',
  payments: 'STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set: payments would go to the local payment sandbox, which moves no money. Set both',
  phone: "TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are not set: the receptionist's phone numbers would come from the carrier sandbox, which rings nowhere. Set both",
};

/**
 * The reasons a production start must not go on, one line each (empty in development, and when
 * all is well). Read before the database is opened.
 */
export function productionRefusals(config: Config): string[] {
  if (config.development) return [];
  const refusals: string[] = [];
  const modes = providerModes(config);
  for (const name of PROVIDERS) {
    if (modes[name] === 'sandbox' && !config.sandboxProviders.includes(name)) {
      refusals.push(`${NEEDS[name]}, or add ${name} to SANDBOX_PROVIDERS for a staging deployment (e.g. SANDBOX_PROVIDERS=${name}).`);
    }
  }
  // A live carrier rings real phones: without an agent to hand calls to, the receptionist would answer none.
  if (modes.phone === 'live' && !config.voiceAgentUrl) {
    refusals.push('VOICE_AGENT_URL is not set: calls to receptionist numbers through Twilio would reach no AI agent (they would only be forwarded to owners). Set VOICE_AGENT_URL to the agent\'s wss:// address, e.g. VOICE_AGENT_URL=wss://agent.example.com/calls.');
  }
  if (!config.baseUrlSetting) {
    refusals.push(`BASE_URL is not set: links in mail and texts would point at ${config.baseUrl}. Set BASE_URL to the public https address, e.g. BASE_URL=https://book.example.com.`);
  } else if (!isHttps(config.baseUrlSetting)) {
    refusals.push(`BASE_URL must be an https address in production (customers open its links and sign in there), e.g. BASE_URL=https://book.example.com; it is ${JSON.stringify(config.baseUrlSetting.slice(0, 200))}.`);
  }
  const keyProblem = secretsKeyProblem(config.secretsKey);
  if (keyProblem) refusals.push(keyProblem);
  return refusals;
}

function isHttps(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && Boolean(url.hostname);
  } catch {
    return false;
  }
}

/** The sandbox pages (under /sandbox/) and the provider whose sandbox serves each. */
export const SANDBOX_PAGES: Record<string, ProviderName> = {
  checkout: 'payments',
  portal: 'payments',
  onboarding: 'payments',
  carrier: 'phone',
  phone: 'phone',
  calls: 'phone',
  mail: 'mail',
  outbox: 'mail',
  texts: 'texts',
  sms: 'texts',
};

/**
 * Whether a /sandbox/<page>/... path may be served: only while its provider is the sandbox (in
 * production: opted in with SANDBOX_PROVIDERS). A page not listed above is served in development only.
 */
export function sandboxPageServed(config: Config, path: string): boolean {
  const page = /^\/sandbox\/([^/]+)/.exec(path)?.[1];
  const provider = page === undefined ? undefined : SANDBOX_PAGES[page];
  if (!provider) return config.development;
  return providerModes(config)[provider] === 'sandbox';
}
