/**
 * The Twilio carrier, over the official SDK: local numbers searched with AvailablePhoneNumbers
 * and bought as IncomingPhoneNumbers (US local numbers are active as soon as they are bought),
 * portability read from the Porting API, and a number given back by removing its
 * IncomingPhoneNumber (read first, so a sid that names another number releases nothing). Twilio
 * takes no idempotency key for a purchase, so a lost answer is settled by reading the account's
 * numbers (findNumber); Twilio also answers a repeated purchase of a number the account already
 * holds without buying it again, so Porchlight's own records decide who holds a number.
 *
 * A transfer goes through Twilio's Porting API (twilio-ports.ts): the owner's bill uploaded to
 * the Documents API, then a PortIn request, whose status is read back.
 */
import type Twilio from 'twilio';
import { lazyRequire } from '../core/lazy-require.js';

const twilio = lazyRequire<typeof Twilio>('twilio');
import { CarrierRefused, CarrierUnavailable, type Carrier } from './carrier.js';
import { createPortIn, fetchPortIn, portInStatus, uploadBill, uploadingHttpClient } from './twilio-ports.js';

export interface TwilioCarrierSettings {
  accountSid: string;
  authToken: string;
  /** Tests answer the SDK's requests from recorded fixtures instead of the network. */
  httpClient?: NonNullable<Parameters<typeof Twilio>[2]>['httpClient'];
  /** This server's porting webhook: the account's port-in notifications are pointed there. */
  portWebhookUrl?: string;
  /** Says what the operator should know that does not stop the request (the log). */
  warn?: (message: string) => void;
}

/**
 * Twilio's error as the carrier's: a 4xx is a definite refusal (its code and message name the
 * problem, never the credentials); anything else (5xx, a timeout, no answer) leaves the outcome unknown.
 */
export async function twilioCall<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    const e = err as { status?: number; code?: number; message?: string };
    const detail = `Twilio ${e.status ? `(HTTP ${e.status}${e.code ? `, code ${e.code}` : ''})` : 'gave no answer'} while trying to ${what}: ${e.message ?? 'no answer'}`;
    if (e.status && e.status >= 400 && e.status < 500) throw new CarrierRefused(detail);
    throw new CarrierUnavailable(detail);
  }
}

export function twilioCarrier(settings: TwilioCarrierSettings): Carrier {
  const client = twilio()(settings.accountSid, settings.authToken, { httpClient: settings.httpClient ?? uploadingHttpClient(), timeout: 15_000 });
  let portWebhook: Promise<void> | null = null;
  /**
   * Before the first transfer a process submits: the account's port-in webhook points at this
   * server, unless it already points elsewhere (another application on the account: left alone,
   * and said). Never stops the transfer: receptionist_refresh reads its status all the same.
   */
  const pointPortWebhook = () =>
    (portWebhook ??= (async () => {
      const url = settings.portWebhookUrl;
      if (!url) return;
      const current = await twilioCall('read the porting webhook', () =>
        client.numbers.v1.webhook.fetch().catch((err: { status?: number }) => (err.status === 404 ? null : Promise.reject(err))),
      );
      if (current?.portInTargetUrl === url) return;
      if (current?.portInTargetUrl) {
        settings.warn?.(`Twilio's port-in webhook points at ${current.portInTargetUrl}, not ${url}: transfers are read back only by receptionist_refresh. Point it here to have them settle on their own.`);
        return;
      }
      await twilioCall('set the porting webhook', () =>
        client.numbers.v1.portingWebhookConfigurations.create({
          port_in_target_url: url,
          ...(current?.portOutTargetUrl ? { port_out_target_url: current.portOutTargetUrl } : {}),
          notifications_of: [],
        }),
      );
    })().catch((err: unknown) => {
      portWebhook = null;
      settings.warn?.(`Twilio's port-in webhook could not be set (${(err as Error).message}); transfers are read back by receptionist_refresh meanwhile.`);
    }));
  return {
    name: 'twilio',

    async searchNumbers(input) {
      const found = await twilioCall('search numbers', () =>
        client.availablePhoneNumbers('US').local.list({ areaCode: Number(input.areaCode), voiceEnabled: true, ...(input.contains ? { contains: input.contains } : {}), limit: input.limit }),
      );
      return found.map((n) => ({ number: n.phoneNumber, locality: n.locality ?? '', region: n.region ?? '' }));
    },

    async purchaseNumber(input) {
      const bought = await twilioCall('buy a number', () => client.incomingPhoneNumbers.create({ phoneNumber: input.number, friendlyName: input.label.slice(0, 64) }));
      return { number: bought.phoneNumber, status: 'active', carrierRef: bought.sid };
    },

    async findNumber(input) {
      const held = await twilioCall('look up a number', () => client.incomingPhoneNumbers.list({ phoneNumber: input.number, limit: 1 }));
      const match = held.find((n) => n.phoneNumber === input.number);
      return match ? { number: match.phoneNumber, status: 'active', carrierRef: match.sid } : null;
    },

    async releaseNumber(input) {
      const held = await twilioCall('read a number before releasing it', () =>
        client
          .incomingPhoneNumbers(input.carrierRef)
          .fetch()
          // Not in the account (HTTP 404, code 20404): already given back.
          .catch((err: { status?: number }) => (err.status === 404 ? null : Promise.reject(err))),
      );
      if (!held) return;
      if (held.phoneNumber !== input.number) throw new CarrierRefused(`Twilio's ${input.carrierRef} is ${held.phoneNumber}, not ${input.number}: nothing was released.`);
      await twilioCall('release a number', () => client.incomingPhoneNumbers(input.carrierRef).remove());
    },

    async portability(number) {
      const answer = await twilioCall('check portability', () => client.numbers.v1.portingPortabilities(number).fetch());
      return {
        number,
        portable: answer.portable === true,
        reason: answer.portable
          ? `It can move${answer.pinAndAccountNumberRequired ? "; the transfer needs the account number and PIN on the current carrier's account" : ''}, and the authorised person's consent.`
          : `The carrier says it cannot move${answer.notPortableReason ? ` (${answer.notPortableReason.toLowerCase().replace(/_/g, ' ')})` : ''}.`,
        pinRequired: answer.pinAndAccountNumberRequired === true,
      };
    },

    async submitPort(input) {
      await pointPortWebhook();
      const documentSid = await twilioCall('upload the bill for a transfer', () => uploadBill(client, input.authorisation.bill, `Bill for ${input.number}`));
      const request = await twilioCall('submit a transfer', () => createPortIn(client, settings.accountSid, { number: input.number, authorisation: input.authorisation, documentSid }));
      return { carrierRef: request.portInRequestSid, status: portInStatus(request, input.number) };
    },

    async portStatus(carrierRef) {
      // Porchlight's requests move one number each: the answer names it.
      return portInStatus(await twilioCall('read a transfer', () => fetchPortIn(client, carrierRef)));
    },
  };
}
