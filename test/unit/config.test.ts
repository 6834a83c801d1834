// Settings read once, in config.ts: a bad value is one sentence naming the setting, before the
// database is opened.
import { describe, expect, it } from 'vitest';
import { loadConfig, SettingsError } from '../../src/config.js';

describe('PGLITE_SHARED_BUFFERS', () => {
  it('defaults to 16MB and reads PostgreSQL units', () => {
    expect(loadConfig({}).pgliteSharedBuffers).toBe('16MB');
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: '256mb' }).pgliteSharedBuffers).toBe('256MB');
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: ' 512kB ' }).pgliteSharedBuffers).toBe('512kB');
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: '1GB' }).pgliteSharedBuffers).toBe('1GB');
  });

  it.each(['lots', '16', '64kB', '5GB', '16MB; DROP TABLE x', '-1MB'])('refuses %j with a sentence naming the setting', (value) => {
    expect(() => loadConfig({ PGLITE_SHARED_BUFFERS: value })).toThrow(SettingsError);
    expect(() => loadConfig({ PGLITE_SHARED_BUFFERS: value })).toThrow(/^PGLITE_SHARED_BUFFERS .*between 128kB and 4GB/);
  });
});

describe('DATABASE_POOL_SIZE', () => {
  it('defaults to 4 connections per instance and reads a whole number', () => {
    expect(loadConfig({}).databasePoolSize).toBe(4);
    expect(loadConfig({ DATABASE_POOL_SIZE: ' 12 ' }).databasePoolSize).toBe(12);
  });

  it.each(['0', '101', 'many', '4.5', '-2'])('refuses %j with a sentence naming the setting', (value) => {
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(SettingsError);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: value })).toThrow(/^DATABASE_POOL_SIZE /);
  });
});
