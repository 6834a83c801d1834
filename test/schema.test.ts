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
    expect(onDisk.trim(), 'schema.graphql is out of date: run `npm run generate`').toBe(printedSchema().trim());
  });

  it('prisma/migrations produce exactly prisma/schema.prisma', async () => {
    const scratch = await scratchFactory();
    try {
      const diff = await diffMigrationsToSchema(scratch.factory);
      const meaningful = diff
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && l !== '-- This is an empty migration.');
      expect(meaningful, `migrations and schema.prisma disagree; create a migration:\n${diff}`).toEqual([]);
    } finally {
      await scratch.close();
    }
  }, 60_000);

  it('the init migration keeps the hand-written no-overlap exclusion constraint', () => {
    const init = readdirSync(migrationsDir).filter((d) => d.endsWith('_init'));
    expect(init).toHaveLength(1);
    const sql = readFileSync(join(migrationsDir, init[0]!, 'migration.sql'), 'utf8').replace(/\s+/g, ' ');
    expect(sql).toContain('CREATE EXTENSION IF NOT EXISTS btree_gist;');
    expect(sql).toMatch(/ALTER TABLE "BookingVisit" ADD CONSTRAINT "BookingVisit_no_overlap" EXCLUDE USING gist \("businessId" WITH =, tstzrange\("start", "end", '\[\)'\) WITH &&\) WHERE \("active"\);/);
  });
});
