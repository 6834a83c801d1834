/**
 * Issue 8's holes in the sign-in window and the OAuth keys.
 */
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/harness.js';

const REDIRECT = 'http://127.0.0.1:8976/callback';

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ env: { TRUST_PROXY: '1' } });
});
afterAll(async () => {
  await app?.close();
});

async function authorizeParams(scope = 'read write') {
  const challenge = await oauth.calculatePKCECodeChallenge(oauth.generateRandomCodeVerifier());
  return new URLSearchParams({ response_type: 'code', client_id: 'porchlight-public', redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', scope });
}

describe('the consent page', () => {
  it('says what the app wants in plain words, for read and for write', async () => {
    const page = async (scope: string) => (await app.get(`/authorize?${await authorizeParams(scope)}`)).text();
    const read = await page('read');
    expect(read).toContain("wants to see your business's bookings, messages and schedule on Porchlight.");
    const write = await page('read write');
    expect(write).toContain("wants to see and manage your business's bookings, messages and schedule on Porchlight.");
    expect(read + write).not.toContain('asks to');
  });
});
