/**
 * `npm run lint:openapi`: builds the OpenAPI document exactly as GET /openapi.json serves it (an
 * in-process app on a throwaway embedded database with the demo data, no server listening),
 * writes it to a file and checks it with three independent validators:
 *
 * - Spectral, ruleset `spectral:oas` (.spectral.yaml),
 * - Redocly CLI, ruleset `recommended` (redocly.yaml),
 * - @seriousme/openapi-schema-validator (the OpenAPI 3.1 JSON Schema).
 *
 * Any error or warning from any of them fails the run (exit 1). `tsx scripts/check-openapi.ts
 * [file]` keeps the document in `file`; otherwise it goes to a temporary folder.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { loadConfig } from '../src/config.js';
import { createPorchlight } from '../main.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Outcome {
  validator: string;
  errors: number;
  warnings: number;
  report: string;
}

/** The document GET /openapi.json answers, from an app on a fresh database seeded with the demo data. */
export async function buildDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-openapi-'));
  const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'warn', SEED_DEMO: 'true' }), databaseUrl: undefined, dataDir };
  const app = await createPorchlight(config);
  try {
    const res = await app.fetch(new Request(`${config.baseUrl}/openapi.json`));
    if (res.status !== 200) throw new Error(`/openapi.json answered ${res.status}: ${await res.text()}`);
    return await res.json();
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs a command that may exit non-zero on findings; its output is the report. */
async function output(file: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd: root, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
    return stdout + stderr;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    if (typeof e.stdout !== 'string') throw err;
    return (e.stdout ?? '') + (e.stderr ?? '');
  }
}

async function spectral(path: string): Promise<Outcome> {
  const report = await output(bin('spectral'), ['lint', '--ruleset', join(root, '.spectral.yaml'), '--format', 'json', '--quiet', '--fail-severity', 'hint', path]);
  // JSON results, one per finding; severity 0 is an error, 1 a warning.
  const start = report.indexOf('[');
  const findings = JSON.parse(start >= 0 ? report.slice(start) : '[]') as { code: string; message: string; path: string[]; severity: number }[];
  return {
    validator: 'Spectral (spectral:oas)',
    errors: findings.filter((f) => f.severity === 0).length,
    warnings: findings.filter((f) => f.severity === 1).length,
    report: findings.map((f) => `${['error', 'warning', 'info', 'hint'][f.severity]} ${f.code} at ${f.path.join('.')}: ${f.message}`).join('\n'),
  };
}

async function redocly(path: string): Promise<Outcome> {
  // No telemetry and no update check: the run needs nothing but the registry install.
  const env = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const report = await output(bin('redocly'), ['lint', path, '--config', join(root, 'redocly.yaml'), '--format', 'json'], env);
  const start = report.indexOf('{');
  const parsed = JSON.parse(report.slice(start, report.lastIndexOf('}') + 1)) as {
    totals: { errors: number; warnings: number };
    problems: { ruleId: string; message: string; severity: string; location: { pointer: string }[] }[];
  };
  return {
    validator: 'Redocly (recommended)',
    errors: parsed.totals.errors,
    warnings: parsed.totals.warnings,
    report: parsed.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? ''}: ${p.message}`).join('\n'),
  };
}

async function schemaValidator(document: unknown): Promise<Outcome> {
  const validator = new Validator();
  const res = await validator.validate(document as Parameters<Validator["validate"]>[0]);
  const errors = res.valid ? [] : Array.isArray(res.errors) ? res.errors : [res.errors];
  return {
    validator: '@seriousme/openapi-schema-validator',
    errors: errors.length,
    warnings: 0,
    report: errors.map((e) => JSON.stringify(e)).join('\n'),
  };
}

/** Checks the document at `path` with all three validators. */
export async function checkDocument(path: string, document: unknown): Promise<Outcome[]> {
  return Promise.all([spectral(path), redocly(path), schemaValidator(document)]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const document = await buildDocument();
  const dir = process.argv[2] ? undefined : mkdtempSync(join(tmpdir(), 'porchlight-openapi-doc-'));
  const path = process.argv[2] ? resolve(process.argv[2]) : join(dir!, 'openapi.json');
  writeFileSync(path, JSON.stringify(document, null, 2) + '\n');
  const outcomes = await checkDocument(path, document);
  let failed = false;
  for (const o of outcomes) {
    console.log(`${o.validator}: ${o.errors} errors, ${o.warnings} warnings`);
    if (o.errors || o.warnings) {
      failed = true;
      console.log(o.report.replace(/^/gm, '  '));
    }
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  process.exit(failed ? 1 : 0);
}
