import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

export type Engine = 'pglite' | 'postgres';
export const ENGINES: Engine[] = ['pglite', 'postgres'];

/** A new, empty database on the test PostgreSQL server; each test file gets its own. */
export async function freshPostgresUrl(): Promise<string> {
  const base = inject('postgresUrl');
  const name = `airkey_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A new empty PGlite data directory. */
export function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'airkey-pglite-'));
}

/** Environment-style settings for one engine: DATABASE_URL for PostgreSQL, DATA_DIR for PGlite. */
export async function storageFor(engine: Engine): Promise<{ databaseUrl?: string; dataDir: string }> {
  return engine === 'postgres'
    ? { databaseUrl: await freshPostgresUrl(), dataDir: freshDataDir() }
    : { dataDir: freshDataDir() };
}
