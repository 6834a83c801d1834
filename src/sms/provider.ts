import type { Config } from '../config.js';
import { twilioProvider } from './twilio.js';

export interface OutgoingText {
  to: string;
  text: string;
}

/** Where text messages leave the building (the outbox hands them over after commit). */
export interface SmsProvider {
  readonly name: 'twilio' | 'sandbox';
  send(message: OutgoingText): Promise<void>;
  /** The key inbound webhooks are signed with; undefined means inbound texts cannot be verified. */
  readonly webhookKey: string | undefined;
}

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
