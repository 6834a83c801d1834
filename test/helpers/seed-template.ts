/** Run by test/global-setup.ts in a process of its own: migrates and seeds the run's template database. */
import { loadConfig } from '../../src/config.js';
import { createPorchlight } from '../../main.js';
import { TEST_NOW } from './template.js';

const [dataDir, url] = process.argv.slice(2);
// The test apps' BASE_URL (harness.ts BASE): the demo's profile links, checked here, stay theirs.
const app = await createPorchlight({ ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }), databaseUrl: url || undefined, dataDir, now: TEST_NOW, baseUrl: 'http://porchlight.test' });
await app.close();
