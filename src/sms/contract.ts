/** What the outbox needs of a text-message provider; Twilio and the sandbox provide it. */
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
