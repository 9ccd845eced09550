import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import type { Database } from './handle.ts';

export type OpenOptions = {
  databaseUrl?: string | undefined;
  dataDir: string;
  poolSize?: number;
  /** Given the embedded engine's client before any query runs (tracing wraps its queries). */
  observeEmbedded?: ((client: PGlite, database: string) => void) | undefined;
  /** False for an embedded store inside a data directory this process already holds. */
  lockDataDir?: boolean;
};

/** PostgreSQL when a URL is configured, the embedded PGlite in `dataDir` otherwise: the same SQL either way. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  }
  if (options.dataDir !== ':memory:') mkdirSync(options.dataDir, { recursive: true });
  const { openPglite } = await import('./pglite.ts');
  return openPglite(options.dataDir, options.observeEmbedded, options.lockDataDir ?? true);
}
