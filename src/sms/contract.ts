/** What the outbox needs of a text-message provider; Twilio and the sandbox provide it. */
export interface OutgoingText {
  to: string;
  text: string;
  /** The business number (E.164) the text leaves from; absent: the platform's number. */
  from?: string;
}

/** A text the sandbox provider was handed, as Twilio would have sent it. */
export interface SentText {
  from: string;
  to: string;
  text: string;
}

/** Where text messages leave the building (the outbox hands them over after commit). */
export interface SmsProvider {
  readonly name: 'twilio' | 'sandbox';
  send(message: OutgoingText): Promise<void>;
  /** The key inbound webhooks are signed with; undefined means inbound texts cannot be verified. */
  readonly webhookKey: string | undefined;
  /** The platform's own number: texts of a business without one of its own leave from it. */
  readonly platformNumber: string;
  /** The sandbox only: the texts it was handed, newest last (a bounded list). */
  readonly sent?: readonly SentText[];
}
