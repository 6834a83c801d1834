import type { Config } from '../config.js';
import { twilioProvider } from './twilio.js';
import type { SentText, SmsProvider } from './contract.js';

/** The sandbox's platform number: Twilio's test number that is always a valid sender. */
export const SANDBOX_PLATFORM_NUMBER = '+15005550006';
const SANDBOX_KEPT = 200;

/**
 * Development delivery: nothing leaves the machine. The text stays in the outbox table (channel
 * sms), where /dev/outbox shows it with the number it left from, and the provider keeps the last
 * texts it was handed (`sent`) as Twilio would have sent them. Inbound webhooks are signed with
 * SMS_WEBHOOK_SECRET the way Twilio signs them.
 */
export function sandboxSms(webhookSecret: string | undefined): SmsProvider {
  const sent: SentText[] = [];
  return {
    name: 'sandbox',
    webhookKey: webhookSecret,
    platformNumber: SANDBOX_PLATFORM_NUMBER,
    sent,
    async send(message) {
      sent.push({ from: message.from ?? SANDBOX_PLATFORM_NUMBER, to: message.to, text: message.text });
      if (sent.length > SANDBOX_KEPT) sent.splice(0, sent.length - SANDBOX_KEPT);
    },
  };
}

/** Twilio when its three settings are present, otherwise the sandbox. */
export function smsProvider(config: Pick<Config, 'twilio' | 'smsWebhookSecret'>): SmsProvider {
  return config.twilio ? twilioProvider(config.twilio) : sandboxSms(config.smsWebhookSecret);
}
