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
export async function startBrowserRig(opts?: Parameters<typeof startApp>[0]): Promise<BrowserRig> {
  const app = await startApp(opts);
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    s.once('listening', () => resolve(s));
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      // Without the background-networking flags Chromium keeps dialling out of this closed network.
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // The app's own links and redirects carry BASE_URL (http://porchlight.test): it resolves to this server.
      `--host-resolver-rules=MAP porchlight.test:80 127.0.0.1:${port}`,
    ],
  });
  return {
    app,
    origin: `http://127.0.0.1:${port}`,
    browser,
    async close() {
      await browser.close().catch(() => {});
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}
