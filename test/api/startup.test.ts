// Starting, stopping and failing like a well-behaved server on the embedded database: a socket
// left by a killed server is cleared, a second server on the same data folder is refused with the
// first one's pid, a tool shares the running server, a taken port and a damaged folder are each
// one sentence.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, StartupError, type Database } from '../../src/db/database.js';
import { onPostgres } from '../helpers/harness.js';

const run = promisify(execFile);
const dirs: string[] = [];
const opened: Database[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'porchlight-start-'));
  dirs.push(dir);
  return dir;
};

afterEach(async () => {
  for (const db of opened.splice(0).reverse()) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(onPostgres)('starting on the embedded database', () => {
  it('clears a socket file nothing answers on, as a killed server leaves it', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, '.s.PGSQL.5432'), '');
    const db = await openDatabase({ dataDir: dir });
    opened.push(db);
    expect(await db.pool.query('SELECT 1 AS one')).toMatchObject({ rows: [{ one: 1 }] });
  }, 60_000);

  it('refuses a second server on the same folder, naming the first one, and lets a tool share it', async () => {
    const dir = freshDir();
    opened.push(await openDatabase({ dataDir: dir }));
    const second = openDatabase({ dataDir: dir });
    await expect(second).rejects.toBeInstanceOf(StartupError);
    await expect(second).rejects.toThrow(`Another Porchlight (pid ${process.pid}) already serves the data folder`);
    const tool = await openDatabase({ dataDir: dir, shareRunning: true });
    opened.push(tool);
    expect(await tool.pool.query('SELECT 2 AS two')).toMatchObject({ rows: [{ two: 2 }] });
  }, 60_000);

  it('names a damaged database folder and what to do, without PGlite source', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'pglite'));
    writeFileSync(join(dir, 'pglite', 'PG_VERSION'), 'not a version\n');
    const error = await openDatabase({ dataDir: dir }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(error).toBeInstanceOf(StartupError);
    const message = (error as Error).message;
    expect(message).toContain(join(dir, 'pglite'));
    expect(message).toContain('DATA_DIR');
    expect(message.length).toBeLessThan(600);
  }, 60_000);

  it('says a taken port in one line before opening the database', async () => {
    const taken: Server = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as { port: number }).port;
    const dir = freshDir();
    try {
      const result = await run(join('node_modules', '.bin', 'tsx'), ['main.ts'], {
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DATABASE_URL: '' },
      }).then(
        () => ({ code: 0, stderr: '' }),
        (err: { code: number; stderr: string }) => err,
      );
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`Port ${port} on 127.0.0.1 is already in use. Stop what listens there, or start on another port: PORT=${port + 1} npm start`);
    } finally {
      taken.close();
    }
  }, 60_000);
});
