import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { databaseUrl, onServer } from './postgres-admin.ts';

export type Engine = 'pglite' | 'postgres';
export const ENGINES: Engine[] = ['pglite', 'postgres'];

/**
 * A new database on the test PostgreSQL server; each test file gets its own. Migrated already (a
 * copy of the template the global setup migrated once: tens of ms, where migrating takes a second)
 * unless `migrated` is false, for the tests of a first start and of the migrations themselves.
 */
export async function freshPostgresUrl({ migrated = true } = {}): Promise<string> {
  const base = inject('postgresUrl');
  const name = `airkey_t_${randomBytes(6).toString('hex')}`;
  await onServer(base, `create database ${name}${migrated ? ` template ${inject('postgresTemplate')}` : ''}`);
  return databaseUrl(base, name);
}

/** A new empty PGlite data directory. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'airkey-pglite-'));
}

/**
 * A new PGlite data directory holding both embedded stores already migrated: a copy of the global
 * setup's template (tens of ms, where creating and migrating the two takes seconds).
 */
export function migratedDataDir(): string {
  const dataDir = freshDataDir();
  cpSync(inject('pgliteTemplate'), dataDir, { recursive: true });
  return dataDir;
}

/**
 * Environment-style settings for one engine: DATABASE_URL for PostgreSQL, DATA_DIR for PGlite.
 * Migrated already unless `migrated` is false.
 */
export async function storageFor(
  engine: Engine,
  { migrated = true } = {},
): Promise<{ databaseUrl?: string; dataDir: string }> {
  if (engine === 'postgres') return { databaseUrl: await freshPostgresUrl({ migrated }), dataDir: freshDataDir() };
  return { dataDir: migrated ? migratedDataDir() : freshDataDir() };
}
