import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser } from 'playwright-core';
import { startApp, type TestApp } from './harness.js';

/** Debian's chromium (never a downloaded browser); browser tests skip themselves without it. */
export const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => Boolean(p) && existsSync(p!),
);

export interface BrowserRig {
  app: TestApp;
  /** Where the browser reaches the app (a real port on 127.0.0.1). */
  origin: string;
  browser: Browser;
  close(): Promise<void>;
}

/** A test app served on a real port, and headless Chromium to drive it. */
export async function startBrowserRig(): Promise<BrowserRig> {
  const app = await startApp();
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    // Without the background-networking flags Chromium keeps dialling out of this closed network.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    app,
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    browser,
    async close() {
      await browser.close().catch(() => {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}
