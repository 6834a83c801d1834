/**
 * Where phone numbers come from: one small interface over the phone carrier, with two adapters —
 * Twilio (twilio.ts, the official SDK) when its credentials are set, and the local sandbox
 * (sandbox.ts) that runs every step here: numbers by area code in the live cities, a purchase that
 * may stay pending, portability answers, port requests and numbers given back.
 *
 * Nothing here changes Porchlight's own records; src/phone/numbers.ts and ports.ts do, having
 * recorded each attempt first, so an answer lost on the way is looked up, never bought twice.
 * They also check each answer (the number it names, that a transferred number is really held)
 * before they store a number as the receptionist's.
 */

/** The live cities' area codes: the local numbers the plan includes. */
/** Where Twilio's porting webhook reaches this server (facades/carrier-webhook.ts serves it). */
export const PORT_WEBHOOK_PATH = '/webhooks/carrier/port-in';

export const AREA_CODES: Record<string, { locality: string; region: string }> = {
  '512': { locality: 'Austin', region: 'TX' },
  '737': { locality: 'Austin', region: 'TX' },
  '415': { locality: 'San Francisco', region: 'CA' },
  '628': { locality: 'San Francisco', region: 'CA' },
  '408': { locality: 'San Jose', region: 'CA' },
  '669': { locality: 'San Jose', region: 'CA' },
};

export interface AvailableNumber {
  /** E.164. */
  number: string;
  locality: string;
  region: string;
}

/** A number the carrier holds for Porchlight. */
export interface CarrierNumber {
  number: string;
  /** pending: bought, not yet able to take calls (provisioning). */
  status: 'pending' | 'active';
  /** The carrier's id for it. */
  carrierRef: string;
}

export interface Portability {
  number: string;
  portable: boolean;
  /** Why not, or what the transfer will need. */
  reason: string;
  /** The current carrier's account number and PIN are needed. */
  pinRequired: boolean;
}

/** What the owner gives on the dashboard page to finish a transfer; passed to the carrier, never stored. */
export interface PortAuthorisation {
  /** The name on the current carrier's account. */
  customerName: string;
  authorisedPerson: string;
  authorisedEmail: string;
  address: { street: string; city: string; state: string; zip: string };
  accountNumber: string;
  pin: string;
  /**
   * A recent bill from the current carrier (PDF, PNG or JPEG, checked by its content), which
   * proves the account holds the number: Twilio requires one with every transfer.
   */
  bill: PortDocument;
}

export interface PortDocument {
  fileName: string;
  contentType: 'application/pdf' | 'image/png' | 'image/jpeg';
  bytes: Uint8Array;
}

export interface PortStatus {
  status: 'submitted' | 'completed' | 'rejected';
  /** Why it was refused; while submitted, what it waits for (e.g. the authorised person's signature), or null. */
  reason: string | null;
  /** The number the carrier says the transfer moves: checked against the one asked for. */
  number: string;
}

export interface Carrier {
  readonly name: 'twilio' | 'sandbox';
  /** Local numbers free to buy now; nothing is bought or held. */
  searchNumbers(input: { areaCode: string; contains?: string; limit: number }): Promise<AvailableNumber[]>;
  /**
   * Buys one number. Throws CarrierRefused when the carrier definitely did not (taken meanwhile),
   * CarrierUnavailable when the answer is unknown: then findNumber tells, and nothing is bought again.
   */
  purchaseNumber(input: { number: string; idempotencyKey: string; label: string }): Promise<CarrierNumber>;
  /**
   * The number as the carrier holds it for us, or null when it holds no such number for us. A
   * transferred number is found with the transfer's idempotency key.
   */
  findNumber(input: { number: string; idempotencyKey: string }): Promise<CarrierNumber | null>;
  /**
   * Gives a number back: it stops ringing here and is no longer paid for. One the carrier no
   * longer holds counts as given back; a carrierRef naming another number is refused (CarrierRefused).
   */
  releaseNumber(input: { number: string; carrierRef: string }): Promise<void>;
  /** Whether a number could move to the carrier; submits nothing. */
  portability(number: string): Promise<Portability>;
  /** Submits a transfer with the owner's authorisation (the details are not kept by Porchlight). */
  submitPort(input: { number: string; idempotencyKey: string; authorisation: PortAuthorisation }): Promise<{ carrierRef: string; status: PortStatus }>;
  portStatus(carrierRef: string): Promise<PortStatus>;
}

/** The carrier definitely refused (a number taken, a port not allowed): nothing happened. */
export class CarrierRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CarrierRefused';
  }
}

/** The carrier failed or did not answer: what happened is unknown until it is asked again. */
export class CarrierUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CarrierUnavailable';
  }
}
