/**
 * The Twilio carrier against the official SDK, without network: the SDK's requests go to an
 * injected httpClient that checks each against a recorded fixture (method, URL, query parameters
 * and form fields in Twilio's API shapes, the account's credentials) and answers with the
 * fixture's response.
 */
import { createServer } from 'node:http';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { CarrierRefused, CarrierUnavailable } from '../../src/phone/carrier.js';
import { uploadingHttpClient } from '../../src/phone/twilio-ports.js';
import { fake, fixture, SID, TOKEN, type Fixture } from '../helpers/twilio.js';

const label = 'Porchlight sparkle-shine-cleaning-austin';

describe('the Twilio carrier', () => {
  it('searches local numbers by area code and digits, buying nothing', async () => {
    const f = fake('available-local');
    expect(await f.carrier.searchNumbers({ areaCode: '512', contains: '0123', limit: 2 })).toEqual([
      { number: '+15125550123', locality: 'Austin', region: 'TX' },
      { number: '+15125551234', locality: 'Round Rock', region: 'TX' },
    ]);
    expect(f.sent.map((r) => r.method)).toEqual(['get']);
    expect(f.mismatches).toEqual([]);
  });

  it('buys one number (active at once), and finds it again by reading the account', async () => {
    const f = fake('incoming-create', 'incoming-list', 'incoming-list-empty');
    expect(await f.carrier.purchaseNumber({ number: '+15125550123', idempotencyKey: 'k', label })).toEqual({ number: '+15125550123', status: 'active', carrierRef: 'PN0123456789abcdef0123456789abcdef' });
    expect(await f.carrier.findNumber({ number: '+15125550123', idempotencyKey: 'k' })).toEqual({ number: '+15125550123', status: 'active', carrierRef: 'PN0123456789abcdef0123456789abcdef' });
    expect(await f.carrier.findNumber({ number: '+15125550199', idempotencyKey: 'k2' })).toBeNull();
    expect(f.left()).toBe(0);
    expect(f.mismatches).toEqual([]);
  });

  it('tells a definite refusal (4xx) from an unknown outcome (5xx, no answer), never naming the credentials', async () => {
    const f = fake('incoming-create-refused', 'incoming-create-unavailable', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const refused = await f.carrier.purchaseNumber({ number: '+15125551234', idempotencyKey: 'k', label }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CarrierRefused);
    expect((refused as Error).message).toBe('Twilio (HTTP 400, code 21422) while trying to buy a number: Phone number is not available.');
    const failed = await f.carrier.purchaseNumber({ number: '+15125550123', idempotencyKey: 'k', label }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(CarrierUnavailable);
    const lost = await f.carrier.purchaseNumber({ number: '+15125550123', idempotencyKey: 'k', label }).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(CarrierUnavailable);
    expect((lost as Error).message).toMatch(/gave no answer while trying to buy a number: socket hang up/);
    for (const e of [refused, failed, lost]) expect((e as Error).message).not.toContain(TOKEN);
  });

  it('releases a number by its sid after reading it: one already gone counts as released, a sid naming another number releases nothing', async () => {
    const sid = 'PN0123456789abcdef0123456789abcdef';
    const f = fake('incoming-fetch', 'incoming-remove', 'incoming-fetch-missing', 'incoming-fetch');
    await f.carrier.releaseNumber({ number: '+15125550123', carrierRef: sid });
    expect(f.sent.map((r) => r.method)).toEqual(['get', 'delete']);
    await f.carrier.releaseNumber({ number: '+15125550124', carrierRef: 'PN00000000000000000000000000000000' });
    const wrong = await f.carrier.releaseNumber({ number: '+15125550199', carrierRef: sid }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(CarrierRefused);
    expect((wrong as Error).message).toBe(`Twilio's ${sid} is +15125550123, not +15125550199: nothing was released.`);
    // One DELETE in all: for the number read back as the one asked for.
    expect(f.sent.map((r) => r.method)).toEqual(['get', 'delete', 'get', 'get']);
    expect(f.left()).toBe(0);
    expect(f.mismatches).toEqual([]);
  });

  it('a release the carrier did not answer is unknown, not done', async () => {
    const f = fake('incoming-fetch', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    await expect(f.carrier.releaseNumber({ number: '+15125550123', carrierRef: 'PN0123456789abcdef0123456789abcdef' })).rejects.toBeInstanceOf(CarrierUnavailable);
    expect(f.sent.map((r) => r.method)).toEqual(['get', 'delete']);
  });

  it('checks portability through the Porting API and submits nothing', async () => {
    const f = fake('portability', 'portability-not');
    expect(await f.carrier.portability('+15125550142')).toEqual({
      number: '+15125550142', portable: true, pinRequired: true, reason: "It can move; the transfer needs the account number and PIN on the current carrier's account, and the authorised person's consent.",
    });
    expect(await f.carrier.portability('+18005550100')).toEqual({ number: '+18005550100', portable: false, pinRequired: false, reason: 'The carrier says it cannot move (toll free numbers not supported).' });
    expect(f.sent.every((r) => r.method === 'get')).toBe(true);
    expect(f.mismatches).toEqual([]);
  });

  const bill = { fileName: 'bill.pdf', contentType: 'application/pdf' as const, bytes: new TextEncoder().encode('%PDF-1.4\n% bill for the test\n%%EOF\n') };
  const authorisation = {
    customerName: 'Owner Co', authorisedPerson: 'Alex Owner', authorisedEmail: 'alex@example.com', address: { street: '1100 S Congress Ave', city: 'Austin', state: 'TX', zip: '78704' }, accountNumber: 'ACCT-4455', pin: '2468', bill,
  };

  it("submits a transfer: the bill uploaded to the Documents API, then a PortIn request naming it; Twilio's request SID is the carrier ref", async () => {
    const f = fake('documents-create', 'port-in-create');
    expect(await f.carrier.submitPort({ number: '+15125550142', idempotencyKey: 'k', authorisation })).toEqual({
      carrierRef: 'KW0123456789abcdef0123456789abcdef',
      status: { status: 'submitted', reason: null, number: '+15125550142' },
    });
    expect(f.sent.map((r) => [r.method, r.uri])).toEqual([
      ['post', 'https://numbers-upload.twilio.com/v1/Documents'],
      ['post', 'https://numbers.twilio.com/v1/Porting/PortIn'],
    ]);
    // The bill's bytes go as they are.
    expect(new Uint8Array(await (f.sentForms[0]!.get('File') as Blob).arrayBuffer())).toEqual(bill.bytes);
    expect(f.left()).toBe(0);
    expect(f.mismatches).toEqual([]);
  });

  it("points the account's port-in webhook here before the first transfer, once, keeping its port-out address; another application's is left alone and said", async () => {
    const url = 'https://porchlight.example.com/webhooks/carrier/port-in';
    const warnings: string[] = [];
    const f = fake('porting-webhook-fetch-none', 'porting-webhook-create', 'documents-create', 'port-in-create', 'documents-create', 'port-in-create');
    const carrier = f.carrierWith({ portWebhookUrl: url, warn: (m) => warnings.push(m) });
    await carrier.submitPort({ number: '+15125550142', idempotencyKey: 'k', authorisation });
    await carrier.submitPort({ number: '+15125550142', idempotencyKey: 'k2', authorisation });
    expect(f.sent.map((r) => [r.method, r.uri.replace(/^https:\/\/[^/]+/, '')])).toEqual([
      ['get', '/v1/Porting/Configuration/Webhook'],
      ['post', '/v1/Porting/Configuration/Webhook'],
      ['post', '/v1/Documents'],
      ['post', '/v1/Porting/PortIn'],
      ['post', '/v1/Documents'],
      ['post', '/v1/Porting/PortIn'],
    ]);
    expect(f.mismatches).toEqual([]);
    expect(warnings).toEqual([]);

    const elsewhere = fixture('porting-webhook-fetch-none');
    (elsewhere.response.body as Record<string, unknown>).port_in_target_url = 'https://other-app.example.com/ports';
    const g = fake(elsewhere, 'documents-create', 'port-in-create');
    await g.carrierWith({ portWebhookUrl: url, warn: (m) => warnings.push(m) }).submitPort({ number: '+15125550142', idempotencyKey: 'k', authorisation });
    expect(g.sent.map((r) => r.method)).toEqual(['get', 'post', 'post']);
    expect(warnings).toEqual([`Twilio's port-in webhook points at https://other-app.example.com/ports, not ${url}: transfers are read back only by receptionist_refresh. Point it here to have them settle on their own.`]);

    // Twilio down while reading it: the transfer goes ahead, and the next one tries again.
    const h = fake(new Error('socket hang up'), 'documents-create', 'port-in-create', 'porting-webhook-fetch-none', 'porting-webhook-create', 'documents-create', 'port-in-create');
    const retrying = h.carrierWith({ portWebhookUrl: url, warn: (m) => warnings.push(m) });
    expect((await retrying.submitPort({ number: '+15125550142', idempotencyKey: 'k', authorisation })).carrierRef).toBe('KW0123456789abcdef0123456789abcdef');
    await retrying.submitPort({ number: '+15125550142', idempotencyKey: 'k2', authorisation });
    expect(h.left()).toBe(0);
    expect(warnings.at(-1)).toMatch(/^Twilio's port-in webhook could not be set \(Twilio gave no answer while trying to read the porting webhook: socket hang up\)/);
  });

  it('an upload Twilio refuses sends no PortIn request', async () => {
    const refused = { ...fixture('documents-create'), response: { statusCode: 400, body: { code: 20001, message: 'Invalid document', status: 400 } } };
    const f = fake(refused);
    const err = await f.carrier.submitPort({ number: '+15125550142', idempotencyKey: 'k', authorisation }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CarrierRefused);
    expect((err as Error).message).toBe('Twilio (HTTP 400, code 20001) while trying to upload the bill for a transfer: Invalid document');
    expect(f.sent).toHaveLength(1);
  });

  it("reads a transfer back and maps each of Twilio's statuses", async () => {
    const base = fixture('port-in-fetch');
    const answer = (request: string, phone: string, more: Record<string, unknown> = {}, phoneMore: Record<string, unknown> = {}) => {
      const body = base.response.body as { phone_numbers: Record<string, unknown>[] };
      return { ...base, response: { statusCode: 200, body: { ...body, port_in_request_status: request, ...more, phone_numbers: [{ ...body.phone_numbers[0], port_in_phone_number_status: phone, ...phoneMore }] } } };
    };
    const cases: [Fixture, string, RegExp | null][] = [
      [answer('In Review', 'In Review'), 'submitted', null],
      [answer('pending', 'Pending'), 'submitted', null],
      [fixture('port-in-fetch'), 'submitted', /Waiting for the signature/],
      [answer('In Progress', 'Submitted'), 'submitted', null],
      [answer('Action Required', 'Rejected', {}, { rejection_reason: 'Account number mismatch' }), 'rejected', /refused the transfer: Account number mismatch\.$/],
      [answer('Action Required', 'Pending'), 'submitted', /needs something corrected/],
      [fixture('port-in-fetch-completed'), 'completed', null],
      [answer('Completed', 'Canceled'), 'rejected', /canceled/],
      [answer('Expired', 'Expired'), 'rejected', /expired/],
      [answer('Canceled', 'Canceled', { order_cancellation_reason: 'Canceled by the customer' }), 'rejected', /Canceled by the customer/],
    ];
    const f = fake(...cases.map((c) => c[0]));
    for (const [, status, reason] of cases) {
      const got = await f.carrier.portStatus('KW0123456789abcdef0123456789abcdef');
      expect(got).toMatchObject({ status, number: '+15125550142' });
      if (reason) expect(got.reason).toMatch(reason);
      else expect(got.reason).toBeNull();
    }
    expect(f.mismatches).toEqual([]);
  });

  it("the SDK's own http client, with multipart added, sends the upload as a form with the file and Basic credentials", async () => {
    let seen: { type?: string; auth?: string; body: string } = { body: '' };
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { type: req.headers['content-type'], auth: req.headers.authorization, body: Buffer.concat(chunks).toString('latin1') };
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: 'RD0123456789abcdef0123456789abcdef', mime_type: 'application/pdf' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const client = twilio(SID, TOKEN, { httpClient: uploadingHttpClient() });
      const port = (server.address() as { port: number }).port;
      // The same call as to numbers-upload.twilio.com, at a local address.
      const res = await client.request({ method: 'post', uri: `http://127.0.0.1:${port}/v1/Documents`, data: (() => { const f = new FormData(); f.append('document_type', 'utility_bill'); f.append('File', new Blob([bill.bytes], { type: 'application/pdf' }), 'bill.pdf'); return f; })(), headers: { 'Content-Type': 'multipart/form-data' } });
      expect(res.statusCode).toBe(201);
      expect(seen.type).toMatch(/^multipart\/form-data; boundary=/);
      expect(seen.auth).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
      expect(seen.body).toContain('name="document_type"\r\n\r\nutility_bill');
      expect(seen.body).toContain('name="File"; filename="bill.pdf"');
      expect(seen.body).toContain('%PDF-1.4');
    } finally {
      server.close();
    }
  });
});
