/**
 * Twilio's API without network: an httpClient for the official SDK that checks each request
 * against a recorded fixture (method, URL, query parameters, form, JSON or multipart fields, the
 * account's credentials) and answers with the fixture's response.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { twilioCarrier } from '../../src/phone/twilio.js';
import { twilioVoice } from '../../src/phone/twilio-voice.js';

export interface Fixture {
  request: { method: string; uri: string; params?: Record<string, unknown>; data?: Record<string, unknown> };
  response: { statusCode: number; body: unknown };
}

export const SID = 'AC00000000000000000000000000porch';
export const TOKEN = 'twilio_test_auth_token_porchlight';
const dir = join(import.meta.dirname, '../fixtures/twilio');
export const fixture = (name: string): Fixture => JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));

interface SentRequest {
  method: string;
  uri: string;
  username?: string;
  password?: string;
  authStrategy?: unknown;
  params?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

/** A multipart body (the Documents upload) as its fields, each file as its name, type and size. */
const fields = (data: unknown) =>
  data instanceof FormData ? Object.fromEntries([...data.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : { name: v.name, type: v.type, size: v.size }])) : data;

/** An httpClient for the SDK answering from fixtures in order (by name, or given); an Error fails a request as a network error would. */
export function fake(...names: (string | Error | Fixture)[]) {
  const queue = names.map((n) => (typeof n === 'string' ? fixture(n) : n));
  const sent: SentRequest[] = [];
  const sentForms: FormData[] = [];
  const mismatches: unknown[] = [];
  const httpClient = {
    async request(opts: SentRequest) {
      sent.push(opts);
      const next = queue.shift();
      if (!next) throw new Error(`unexpected request ${opts.method} ${opts.uri}`);
      if (next instanceof Error) throw next;
      if (opts.data instanceof FormData) sentForms.push(opts.data);
      try {
        expect(opts.method).toBe(next.request.method);
        expect(opts.uri).toBe(next.request.uri);
        expect(opts.params ?? {}).toEqual(next.request.params ?? {});
        expect(fields(opts.data) ?? {}).toEqual(next.request.data ?? {});
        // Basic auth with the account's SID and token, or the SDK's strategy holding them.
        if (opts.authStrategy) expect(JSON.stringify(opts.authStrategy)).toContain(SID);
        else expect([opts.username, opts.password]).toEqual([SID, TOKEN]);
      } catch (err) {
        mismatches.push(err);
        throw err;
      }
      return { statusCode: next.response.statusCode, body: JSON.stringify(next.response.body), headers: {} };
    },
  };
  const settings = { accountSid: SID, authToken: TOKEN, httpClient: httpClient as never };
  return {
    carrier: twilioCarrier(settings),
    /** A carrier over the same fixtures with more settings (the porting webhook's address). */
    carrierWith: (more: Omit<Parameters<typeof twilioCarrier>[0], keyof typeof settings>) => twilioCarrier({ ...settings, ...more }),
    voice: twilioVoice(settings),
    sent,
    sentForms,
    mismatches,
    left: () => queue.length,
  };
}

