/**
 * Budgets that many callers could share are charged to each caller's own address instead: the
 * operations a public page runs (its business, a contact form's message), as /graphql's are, and
 * calls made with the shared public key. One caller using up the budget leaves others alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, startApp, type TestApp } from '../helpers/harness.js';

let app: TestApp;
beforeAll(async () => {
  // Requests handed to fetch() come from no socket: the listed proxy's X-Forwarded-For names the visitor.
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '3', TRUST_PROXY: '127.0.0.1' } });
});
afterAll(async () => app?.close());

const view = (address: string, path = `/b/${demoIds.cleanerAustin}`) => app.get(path, { headers: { 'x-forwarded-for': address } });

describe('public pages', () => {
  it("charge each visitor's address, not one budget shared by every visitor", async () => {
    for (let i = 0; i < 3; i++) expect((await view('203.0.113.7')).status).toBe(200);
    expect((await view('203.0.113.7')).status).not.toBe(200);
    expect((await view('198.51.100.9')).status).toBe(200);
    expect((await view('198.51.100.9', `/b/${demoIds.cleanerAustin}/contact`)).status).toBe(200);
  });
});

describe('the shared public key', () => {
  it("is nobody's: each caller using it spends their own address's budget", async () => {
    const search = (address: string) =>
      app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 1, bathrooms: 1 }, { ...bearer('sk_pub_porchlight_demo'), 'x-forwarded-for': address });
    for (let i = 0; i < 3; i++) expect((await search('203.0.113.20')).status).toBe(200);
    expect((await search('203.0.113.20')).status).toBe(429);
    // Every assistant of the world that uses the shared key was locked out with it.
    expect((await search('198.51.100.20')).status).toBe(200);
  });
});
