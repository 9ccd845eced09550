import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, type Database, type Db, type FeedHandlers } from './handle.ts';
import { schema } from './schema.ts';

// Serialises migrations when several instances start at once on one database.
const MIGRATION_LOCK_ID = 727_001;

export async function openPostgres(url: string, poolSize: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000 });
  // An idle client that loses its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema }) as unknown as Db;
  await migrateWithLock(pool);
  const listeners = new Set<() => Promise<void>>();
  return {
    kind: 'postgres',
    db,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async listen(channel, handlers) {
      const stop = await keepListening(url, channel, handlers);
      listeners.add(stop);
      return async () => {
        listeners.delete(stop);
        await stop();
      };
    },
    async close() {
      await Promise.all([...listeners].map((stop) => stop()));
      await pool.end();
    },
  };
}

async function migrateWithLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}

// Worst case for a silently dead listener: HEARTBEAT_MS + HEARTBEAT_TIMEOUT_MS until the cache is
// bypassed. A connection that is closed or reset is noticed at once.
const HEARTBEAT_MS = 2_000;
const HEARTBEAT_TIMEOUT_MS = 1_000;

/**
 * One dedicated connection LISTENs on `channel`. When it drops, `onState(false)` fires at once
 * (the caller stops trusting its cache) and the connection is re-opened with backoff;
 * `onState(true)` fires only after LISTEN succeeded again.
 */
async function keepListening(url: string, channel: string, handlers: FeedHandlers): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let delayMs = 50;

  const connect = async (): Promise<void> => {
    // Named so operators (and tests) can find this instance's listener in pg_stat_activity.
    const next = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, application_name: `airkey-listener-${process.pid}` });
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) handlers.onMessage(message.payload);
    });
    let heartbeat: NodeJS.Timeout | undefined;
    const lost = () => {
      clearInterval(heartbeat);
      if (client !== next) return;
      client = undefined;
      handlers.onState(false);
      scheduleRetry();
    };
    next.on('error', lost);
    next.on('end', lost);
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
    } catch (error) {
      if (client === next) {
        client = undefined;
        handlers.onState(false);
      }
      next.end().catch(() => {});
      throw error;
    }
    delayMs = 50;
    // A connection that dies silently (a partition, a frozen host: no FIN, no RST) reports nothing,
    // and LISTEN alone never writes; a query left unanswered proves it deaf within a few seconds.
    heartbeat = setInterval(() => {
      answeredWithin(next.query('select 1'), HEARTBEAT_TIMEOUT_MS).catch(() => {
        lost();
        next.end().catch(() => {});
      });
    }, HEARTBEAT_MS);
    heartbeat.unref();
    handlers.onState(true);
  };

  const scheduleRetry = () => {
    if (stopped || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (stopped) return;
      connect().catch(() => scheduleRetry());
    }, delayMs);
    retryTimer.unref();
    delayMs = Math.min(delayMs * 2, 2_000);
  };

  await connect();
  return async () => {
    stopped = true;
    if (retryTimer) clearTimeout(retryTimer);
    const current = client;
    client = undefined;
    // A dead connection may never confirm the goodbye; shutdown must not wait for it.
    if (current) await answeredWithin(current.end(), HEARTBEAT_TIMEOUT_MS).catch(() => {});
  };
}

function answeredWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
