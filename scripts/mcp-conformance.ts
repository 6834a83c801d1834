/**
 * Runs the MCP conformance suite (@modelcontextprotocol/conformance, latest from npm) against the
 * built server's /mcp, and prints passed, failed and skipped figures.
 *
 *   npm run conformance
 *
 * The suite needs Node 22 (it imports fs.globSync), so Node 22 is installed from the npm registry
 * (the `node` package) beside the suite, into a cache folder (CONFORMANCE_CACHE, by default
 * ~/.cache/porchlight-mcp-conformance). The server is this repository's build (npm run build),
 * started on a free loopback port with the embedded database and the demo data. It runs as in
 * development (a production start wants an https BASE_URL and real or opted-in providers); /mcp
 * answers the same either way.
 *
 * A scenario is an expected skip when it needs what the server does not declare: a capability
 * (logging, completions, resources, prompts) or one of the suite's fixture tools (test_image_content
 * and the like, which only its reference server lists). A scenario that checked nothing (only
 * warnings, e.g. about sessions, which a stateless server has none of) is skipped too, with its
 * warnings printed. Exit status 1 when a scenario failed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.env.CONFORMANCE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'porchlight-mcp-conformance');

/** What each of the suite's server scenarios needs beyond tools/list and tools/call. */
const NEEDS: Record<string, { capability?: string; tool?: string }> = {
  'logging-set-level': { capability: 'logging' },
  'completion-complete': { capability: 'completions' },
  'tools-call-simple-text': { tool: 'test_simple_text' },
  'tools-call-image': { tool: 'test_image_content' },
  'tools-call-audio': { tool: 'test_audio_content' },
  'tools-call-embedded-resource': { tool: 'test_embedded_resource' },
  'tools-call-mixed-content': { tool: 'test_multiple_content_types' },
  'tools-call-with-logging': { capability: 'logging', tool: 'test_tool_with_logging' },
  'tools-call-error': { tool: 'test_error_handling' },
  'tools-call-with-progress': { tool: 'test_tool_with_progress' },
  'tools-call-sampling': { tool: 'test_sampling' },
  'tools-call-elicitation': { tool: 'test_elicitation' },
  'elicitation-sep1034-defaults': { tool: 'test_elicitation_sep1034_defaults' },
  'elicitation-sep1330-enums': { tool: 'test_elicitation_sep1330_enums' },
  'json-schema-2020-12': { tool: 'json_schema_2020_12_tool' },
  'server-sse-polling': { tool: 'test_reconnection' },
};
const needsOf = (scenario: string) => NEEDS[scenario] ?? (/^resources-/.test(scenario) ? { capability: 'resources' } : /^prompts-/.test(scenario) ? { capability: 'prompts' } : {});

function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(command, args, { cwd: opts.cwd ?? root, env: opts.env ?? process.env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status ?? r.signal}`);
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

async function waitHealthy(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode} before answering`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not answer /healthz within 180 s');
}

/** The capabilities and tool names a 2025-11-25 client is told about. */
async function declared(url: string): Promise<{ capabilities: Record<string, unknown>; tools: Set<string> }> {
  const rpc = async (method: string, params: Record<string, unknown>) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return ((await res.json()) as { result: any }).result;
  };
  const init = await rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'porchlight-conformance', version: '1' } });
  const list = await rpc('tools/list', {});
  return { capabilities: init.capabilities, tools: new Set((list.tools as { name: string }[]).map((t) => t.name)) };
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

async function main() {
  console.log(`Installing Node 22 and the conformance suite (latest) into ${cache}`);
  mkdirSync(cache, { recursive: true });
  run('npm', ['install', '--prefix', cache, '--no-audit', '--no-fund', '--loglevel=error', 'node@22', '@modelcontextprotocol/conformance@latest'], { cwd: cache });
  const node22 = join(cache, 'node_modules', 'node', 'bin', 'node');
  const suite = join(cache, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  if (!existsSync(node22) || !existsSync(suite)) throw new Error(`the install left no ${existsSync(node22) ? suite : node22}`);
  const suiteVersion = JSON.parse(readFileSync(join(cache, 'node_modules', '@modelcontextprotocol', 'conformance', 'package.json'), 'utf8')).version;
  const nodeVersion = spawnSync(node22, ['--version'], { encoding: 'utf8' }).stdout.trim();

  console.log('Building the server');
  run('npx', ['prisma', 'generate'], { env: { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' } });
  run('npm', ['run', '-s', 'build']);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'porchlight-conformance-'));
  const outDir = join(dataDir, 'results');
  const { DATABASE_URL: _, REDIS_URL: __, ...env } = process.env;
  const server = spawn(process.execPath, ['dist/main.js'], {
    cwd: root,
    env: { ...env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', BASE_URL: base, DATA_DIR: join(dataDir, 'data'), LOG_LEVEL: 'warn', SEED_DEMO: 'true' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    console.log(`Starting the server on ${base} (embedded database, demo data)`);
    await waitHealthy(base, server);
    const { capabilities, tools } = await declared(`${base}/mcp`);

    console.log(`Running @modelcontextprotocol/conformance ${suiteVersion} server scenarios on Node ${nodeVersion}`);
    const suiteRun = spawnSync(node22, [suite, 'server', '--url', `${base}/mcp`, '-o', outDir], { cwd: dataDir, encoding: 'utf8' });
    if (!existsSync(outDir)) throw new Error(`the suite wrote no results (exit ${suiteRun.status}):\n${suiteRun.stdout}\n${suiteRun.stderr}`);

    const figures = { passed: 0, failed: 0, skipped: 0 };
    const checks = { passed: 0, failed: 0, warnings: 0 };
    for (const dir of readdirSync(outDir).sort()) {
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)?.[1] ?? dir;
      const file = join(outDir, dir, 'checks.json');
      const results: Check[] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
      const need = needsOf(scenario);
      const missing = [
        need.capability && !(need.capability in capabilities) ? `the ${need.capability} capability, not declared` : undefined,
        need.tool && !tools.has(need.tool) ? `the suite's fixture tool ${need.tool}, not listed` : undefined,
      ].filter(Boolean);
      if (missing.length) {
        figures.skipped++;
        console.log(`- ${scenario}: skipped (expected: needs ${missing.join(' and ')})`);
        continue;
      }
      const count = (status: Check['status']) => results.filter((c) => c.status === status);
      const [ok, bad, warned] = [count('SUCCESS'), count('FAILURE'), count('WARNING')];
      checks.passed += ok.length;
      checks.failed += bad.length;
      checks.warnings += warned.length;
      const notes = [...bad, ...warned].map((c) => `\n    ${c.status} ${c.id}: ${c.errorMessage ?? c.description ?? ''}`).join('');
      if (bad.length) {
        figures.failed++;
        console.log(`✗ ${scenario}: ${bad.length} of ${ok.length + bad.length} checks failed${notes}`);
      } else if (ok.length) {
        figures.passed++;
        console.log(`✓ ${scenario}: ${ok.length} check${ok.length === 1 ? '' : 's'} passed${notes}`);
      } else {
        figures.skipped++;
        console.log(`- ${scenario}: skipped (it checked nothing here)${notes}`);
      }
    }
    console.log(`\nchecks: ${checks.passed} passed, ${checks.failed} failed, ${checks.warnings} warnings`);
    console.log(`${figures.passed} passed, ${figures.failed} failed, ${figures.skipped} skipped`);
    process.exitCode = figures.failed ? 1 : 0;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r(undefined) : server.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
