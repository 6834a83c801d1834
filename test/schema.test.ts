import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printedSchema } from '../src/schema.js';
import { scratchFactory } from '../src/db/scratch.js';
import { diffMigrationsToSchema, migrationsDir } from '../src/db/migrations.js';

const root = join(import.meta.dirname, '..');

describe('generated and hand-kept schema files', () => {
  it('schema.graphql matches the schema the code builds', () => {
    const onDisk = readFileSync(join(root, 'schema.graphql'), 'utf8');
    expect(onDisk.trim(), 'schema.graphql is out of date: run `npm run schema:print`').toBe(printedSchema().trim());
  });

  it('prisma/migrations produce exactly prisma/schema.prisma', async () => {
    // A panic inside Prisma's Wasm schema engine never settles the diff's promise; catch its
    // message so the test fails at once and says why, instead of timing out.
    const g = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: unknown };
    const previous = g.PRISMA_WASM_PANIC_REGISTRY;
    const panicked = new Promise<string>((resolve) => {
      g.PRISMA_WASM_PANIC_REGISTRY = { set_message: (message: string) => resolve(message) };
    });
    const scratch = await scratchFactory();
    try {
      const outcome = await Promise.race([
        diffMigrationsToSchema(scratch.factory).then((diff) => ({ diff, panic: undefined })),
        panicked.then((panic) => ({ diff: undefined, panic })),
      ]);
      expect(outcome.panic, 'the schema engine panicked while diffing migrations against schema.prisma').toBeUndefined();
      const diff = outcome.diff!;
      const meaningful = diff
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && l !== '-- This is an empty migration.');
      expect(meaningful, `migrations and schema.prisma disagree; run npm run db:diff -- <name>:\n${diff}`).toEqual([]);
    } finally {
      g.PRISMA_WASM_PANIC_REGISTRY = previous;
      await scratch.close();
    }
    // The Wasm engine builds a shadow database from every migration: about 26 s on two busy cores
    // already, so a cap of 30 s failed on load, not on a disagreement (a panic fails at once above).
  }, 60_000);

  it('the init migration keeps the hand-written no-overlap exclusion constraint', () => {
    const init = readdirSync(migrationsDir).filter((d) => d.endsWith('_init'));
    expect(init).toHaveLength(1);
    const sql = readFileSync(join(migrationsDir, init[0]!, 'migration.sql'), 'utf8').replace(/\s+/g, ' ');
    expect(sql).toContain('CREATE EXTENSION IF NOT EXISTS btree_gist;');
    expect(sql).toMatch(/ALTER TABLE "BookingVisit" ADD CONSTRAINT "BookingVisit_no_overlap" EXCLUDE USING gist \("businessId" WITH =, tstzrange\("start", "end", '\[\)'\) WITH &&\) WHERE \("active"\);/);
  });
});
