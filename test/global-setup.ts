/**
 * One migrated and seeded database for the whole run, copied for each test file's app: migrating
 * and seeding the demo data from nothing costs seconds a file, and it is the same for every app
 * that starts at TEST_NOW (test/helpers/template.ts). Apps with another clock or their own
 * SECRETS_KEY start from nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { execFileSync } from 'node:child_process';
import type { DatabaseTemplate } from './helpers/template.js';

export default async function setup(project: TestProject) {
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-template-'));
  const base = process.env.TEST_DATABASE_URL;
  const name = base ? `porchlight_template_${randomBytes(6).toString('hex')}` : undefined;
  let url: string | undefined;
  if (base && name) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    url = u.toString();
  }
  // In a process of its own: the app's sources load as `npm start` loads them, not through Vite.
  execFileSync(process.execPath, ['--import', 'tsx', 'test/helpers/seed-template.ts', dataDir, url ?? ''], { stdio: 'inherit' });
  const template: DatabaseTemplate = { dataDir, database: name };
  project.provide('databaseTemplate', template);
  return async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (base && name) {
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  };
}
