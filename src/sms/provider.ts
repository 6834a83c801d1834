import type { Config } from '../config.js';
import { twilioProvider } from './twilio.js';
import type { SmsProvider } from './contract.js';

/**
 * Development delivery: the text stays in the outbox table (channel sms), where /dev/outbox
 * shows it. Inbound webhooks are signed with SMS_WEBHOOK_SECRET the way Twilio signs them.
 */
export function sandboxSms(webhookSecret: string | undefined): SmsProvider {
  return { name: 'sandbox', webhookKey: webhookSecret, async send() {} };
}

/** Twilio when its three settings are present, otherwise the sandbox. */
export function smsProvider(config: Pick<Config, 'twilio' | 'smsWebhookSecret'>): SmsProvider {
  return config.twilio ? twilioProvider(config.twilio) : sandboxSms(config.smsWebhookSecret);
}
