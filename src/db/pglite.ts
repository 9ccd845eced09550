import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, type Database, type Db } from './handle.ts';
import { schema } from './tables.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { refreshPlannerStatistics } from './planner-statistics.ts';

/**
 * The embedded engine: a real Postgres compiled to WASM, in this process, on `dataDir`. Only one
 * process may open a data directory; the CLI reaches a running server's copy through the
 * admin socket instead (src/admin).
 */
export async function openPglite(
  dataDir: string,
  observe?: (client: PGlite, database: string) => void,
  /** False for a store inside a data directory this process holds already (the request log's). */
  lock = true,
): Promise<Database> {
  const inMemory = dataDir === ':memory:';
  const releaseLock =
    inMemory || !lock ? () => {} : await acquireDataDirLock(dataDir, process.argv.slice(1, 3).join(' '));
  let client: PGlite;
  try {
    client = await PGlite.create(inMemory ? undefined : dataDir);
  } catch (error) {
    releaseLock();
    throw error;
  }
  observe?.(client, 'postgres');
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  await refreshPlannerStatistics(client);
  return {
    kind: 'pglite',
    db,
    async ping() {
      await db.execute(sql`select 1`);
    },
    refreshStatistics: () => refreshPlannerStatistics(client),
    // Every writer is this process, which invalidates its cache itself: nothing to hear.
    listen(_channels, handlers) {
      handlers.onState(true);
      return Promise.resolve(() => Promise.resolve());
    },
    async close() {
      await client.close();
      releaseLock();
    },
  };
}
