/** Monday 2026-11-23 09:00 in Austin: a working day with the week ahead open. */
export const TEST_NOW = '2026-11-23T15:00:00Z';

/** The seeded database test/global-setup.ts prepares: a PGlite folder, and on PostgreSQL a template database. */
export interface DatabaseTemplate {
  dataDir: string;
  database?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: DatabaseTemplate;
  }
}
