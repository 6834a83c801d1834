/** Run by test/global-setup.ts in a process of its own: migrates and seeds the run's template database. */
import { loadConfig } from '../../src/config.js';
import { createPorchlight } from '../../main.js';
import { TEST_NOW } from './template.js';

const [dataDir, url] = process.argv.slice(2);
const app = await createPorchlight({ ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn' }), databaseUrl: url || undefined, dataDir, now: TEST_NOW });
await app.close();
