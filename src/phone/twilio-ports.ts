/**
 * Number transfers through Twilio's Porting API (Public Beta, US local and mobile numbers), over
 * the official SDK:
 * 1. the owner's bill is uploaded to the Documents API (POST numbers-upload.twilio.com/v1/Documents,
 *    multipart, document_type utility_bill), which answers a document SID;
 * 2. a PortIn request is created (client.numbers.v1.portingPortIns.create) with that document,
 *    the number and its PIN, and the losing carrier's account details; Twilio then e-mails the
 *    letter of authorisation to the authorised person, who signs it electronically;
 * 3. its status is read back (portingPortIns(sid).fetch()) by receptionist_refresh and whenever
 *    Twilio's porting webhook names the request (facades/carrier-webhook.ts).
 *
 * The SDK sends a PortIn body exactly as given (JSON), so its keys are the API's own snake_case
 * names. The SDK has no Documents resource: the upload goes through client.request, the SDK's
 * generic call (same credentials, same http client, so tests answer it from fixtures too). The
 * SDK's own http client sends only form-encoded and JSON bodies; uploadingHttpClient adds
 * multipart for the upload and leaves every other request to it.
 */
import type Twilio from 'twilio';
import { lazyRequire } from '../core/lazy-require.js';

const twilio = lazyRequire<typeof Twilio>('twilio');
import type { PortAuthorisation, PortDocument, PortStatus } from './carrier.js';

type Client = ReturnType<typeof Twilio>;
type HttpClient = NonNullable<Parameters<typeof Twilio>[2]>['httpClient'];

export const DOCUMENTS_URL = 'https://numbers-upload.twilio.com/v1/Documents';

/** A Twilio error answer, shaped as the SDK's RestException (status, code, message). */
class TwilioAnswer extends Error {
  constructor(
    readonly status: number,
    readonly code: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** Uploads the bill; answers its document SID. */
export async function uploadBill(client: Client, bill: PortDocument, label: string): Promise<string> {
  const form = new FormData();
  form.append('document_type', 'utility_bill');
  form.append('friendly_name', label.slice(0, 64));
  form.append('File', new Blob([new Uint8Array(bill.bytes)], { type: bill.contentType }), bill.fileName);
  const res = await client.request({ method: 'post', uri: DOCUMENTS_URL, data: form, headers: { 'Content-Type': 'multipart/form-data' } });
  const body = (typeof res.body === 'string' ? safeJson(res.body) : res.body) as { sid?: string; mime_type?: string | null; code?: number; message?: string } | null;
  if (res.statusCode < 200 || res.statusCode >= 300) throw new TwilioAnswer(res.statusCode, body?.code, body?.message ?? `HTTP ${res.statusCode}`);
  if (!body?.sid) throw new TwilioAnswer(502, undefined, 'the Documents API answered without a document SID');
  // An empty mime_type means the document arrived without content (Twilio's documentation).
  if (!body.mime_type) throw new TwilioAnswer(400, undefined, 'the bill arrived empty; send it again as a PDF, PNG or JPEG');
  return body.sid;
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** Creates the PortIn request for one number; answers Twilio's request. */
export function createPortIn(client: Client, accountSid: string, input: { number: string; authorisation: PortAuthorisation; documentSid: string }) {
  const a = input.authorisation;
  const body = {
    account_sid: accountSid,
    documents: [input.documentSid],
    phone_numbers: [{ phone_number: input.number, pin: a.pin }],
    losing_carrier_information: {
      customer_name: a.customerName,
      customer_type: 'Business',
      account_number: a.accountNumber,
      account_telephone_number: input.number,
      authorized_representative: a.authorisedPerson,
      authorized_representative_email: a.authorisedEmail,
      address: { street: a.address.street, city: a.address.city, state: a.address.state, zip: a.address.zip, country: 'US' },
    },
  };
  return client.numbers.v1.portingPortIns.create(body as unknown as Parameters<Client['numbers']['v1']['portingPortIns']['create']>[0]);
}

export const fetchPortIn = (client: Client, sid: string) => client.numbers.v1.portingPortIns(sid).fetch();

type PortInAnswer = Awaited<ReturnType<typeof fetchPortIn>>;

/** "In Review", "waiting_for_signature", "Action-Required" … as one spelling. */
const word = (status: string | null | undefined) => (status ?? '').trim().toLowerCase().replace(/[\s-]+/g, '_');

/**
 * Twilio's answer as Porchlight's transfer status, for `number` (by default the request's first,
 * and for Porchlight's requests only, number):
 * - completed: the number's own status is completed (a completed request may also hold canceled numbers);
 * - rejected: the request or the number canceled, expired or rejected, with Twilio's reason;
 * - submitted otherwise (in review, waiting for signature, in progress, action required, pending),
 *   with what it waits for when the owner can do something about it.
 */
export function portInStatus(answer: Pick<PortInAnswer, 'portInRequestStatus' | 'orderCancellationReason' | 'phoneNumbers'>, number?: string): PortStatus {
  const phones = answer.phoneNumbers ?? [];
  const phone = phones.find((p) => p.phoneNumber === number) ?? phones[0];
  const named = phone?.phoneNumber ?? '';
  const request = word(answer.portInRequestStatus);
  const own = word(phone?.portInPhoneNumberStatus);
  const why = phone?.rejectionReason || answer.orderCancellationReason || null;
  if (own === 'completed') return { status: 'completed', reason: null, number: named };
  if (['canceled', 'cancelled', 'expired', 'rejected'].includes(own) || ['canceled', 'cancelled', 'expired', 'completed'].includes(request)) {
    const gone = request === 'expired' || own === 'expired';
    return {
      status: 'rejected',
      reason: why
        ? `The carrier refused the transfer: ${why}.`.replace(/\.\.$/, '.')
        : gone
          ? 'The transfer request expired before it finished (for example, the letter of authorisation was not signed in time). Prepare the transfer again to retry.'
          : 'The transfer was canceled with the carrier.',
      number: named,
    };
  }
  if (request === 'waiting_for_signature' || own === 'waiting_for_signature') {
    return { status: 'submitted', reason: 'Waiting for the signature: the carrier e-mailed the letter of authorisation to the authorised person; it moves on once they sign it.', number: named };
  }
  if (request === 'action_required') {
    return { status: 'submitted', reason: `The carrier needs something corrected${why ? `: ${why}` : ''}. Contact Porchlight support with the transfer id.`, number: named };
  }
  return { status: 'submitted', reason: null, number: named };
}

/**
 * The SDK's http client, which also sends a multipart body (FormData, the Documents upload)
 * with fetch: the same Basic credentials, its timeout, no redirects.
 */
export function uploadingHttpClient(): HttpClient {
  const base = new (twilio().RequestClient)({ timeout: 15_000 });
  const request = base.request.bind(base);
  base.request = async (opts) => {
    if (!(opts.data instanceof FormData)) return request(opts);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (k.toLowerCase() !== 'content-type' && typeof v === 'string') headers[k] = v;
    if (opts.username && opts.password) headers.Authorization = `Basic ${Buffer.from(`${opts.username}:${opts.password}`).toString('base64')}`;
    else if (opts.authStrategy) headers.Authorization = await opts.authStrategy.getAuthString();
    const res = await fetch(opts.uri, { method: opts.method.toUpperCase(), headers, body: opts.data, redirect: 'manual', signal: AbortSignal.timeout(opts.timeout ?? 15_000) });
    return { statusCode: res.status, body: (await res.text()) as never, headers: Object.fromEntries(res.headers) };
  };
  return base;
}

/**
 * Twilio's signature of a porting webhook (X-Twilio-Signature, keyed with the auth token), as the
 * SDK checks it: a JSON body is signed through its bodySHA256 query parameter, a form body by its
 * parameters.
 */
export function validPortWebhook(authToken: string, signature: string | undefined, url: string, body: { json: string } | { form: Record<string, string> }): boolean {
  if (!signature) return false;
  if ('json' in body) return new URL(url).searchParams.has('bodySHA256') && twilio().validateRequestWithBody(authToken, signature, url, body.json);
  return twilio().validateRequest(authToken, signature, url, body.form);
}
