import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import { MIGRATIONS_FOLDER, type Database, type Db, type FeedHandlers } from './handle.ts';
import { schema } from './tables.ts';
import { answeredWithin } from '../shared/answered-within.ts';
import { monotonicClock } from '../shared/clock.ts';

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
    // The server's autovacuum keeps them.
    refreshStatistics: () => Promise.resolve([]),
    async listen(channels, handlers) {
      const stop = await keepListening(url, channels, handlers);
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
    // A lost connection releases the lock itself; the migration's own outcome is what the caller hears.
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}

// The heartbeat also renews this instance's lease (src/revocation/lease.ts), so it runs a few times per
// lease period. A silently dead listener is noticed within HEARTBEAT_MS + HEARTBEAT_TIMEOUT_MS; a
// connection that is closed or reset at once. Meanwhile the lease, not the connection, decides
// whether the cache may be used.
const HEARTBEAT_MS = 250;
const HEARTBEAT_TIMEOUT_MS = 1_000;

/**
 * One dedicated connection LISTENs on `channels`. When it drops, `onState(false)` fires at once
 * and the connection is re-opened with backoff; `onState(true)` fires only after LISTEN succeeded
 * again, and before the first heartbeat on the new connection. The heartbeat runs on this same
 * connection, so when it is answered every notification sent before it has been delivered.
 */
async function keepListening(
  url: string,
  channels: readonly string[],
  handlers: FeedHandlers,
): Promise<() => Promise<void>> {
  let stopped = false;
  let client: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let delayMs = 50;
  const heartbeatQuery = handlers.heartbeat ?? { text: 'select 1', values: [] };
  const heartbeatMs = handlers.heartbeat?.everyMs ?? HEARTBEAT_MS;
  let beating: Promise<void> = Promise.resolve();

  const connect = async (): Promise<void> => {
    // Named so operators (and tests) can find this instance's listener in pg_stat_activity.
    const applicationName = `${handlers.name ?? 'airkey-listener'}-${process.pid}`;
    const next = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: 5_000,
      application_name: applicationName,
    });
    // Heard even on a connection given up for silent: applying a change late is never wrong.
    next.on('notification', (message) => {
      if (!stopped && channels.includes(message.channel) && message.payload !== undefined)
        handlers.onMessage(message.payload, message.channel);
    });
    let heartbeat: NodeJS.Timeout | undefined;
    const lost = () => {
      clearTimeout(heartbeat);
      if (client !== next) return;
      client = undefined;
      handlers.onState(false);
      scheduleRetry();
    };
    next.on('error', lost);
    next.on('end', lost);
    client = next;
    // A connection that dies silently (a partition, a frozen host: no FIN, no RST) reports nothing,
    // and LISTEN alone never writes; a query left unanswered proves it deaf.
    const beat = async (): Promise<void> => {
      const sentAt = monotonicClock();
      await answeredWithin(next.query(heartbeatQuery.text, heartbeatQuery.values), HEARTBEAT_TIMEOUT_MS);
      if (client === next && !stopped) handlers.onAlive?.(sentAt);
    };
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
      handlers.onState(true);
      beating = beat();
      await beating;
    } catch (error) {
      if (client === next) {
        client = undefined;
        handlers.onState(false);
      }
      // The connection failed already (thrown below); closing what is left of it cannot add anything.
      next.end().catch(() => {});
      throw error;
    }
    delayMs = 50;
    const schedule = () => {
      if (client !== next || stopped) return;
      heartbeat = setTimeout(() => {
        beating = beat().then(schedule, () => {
          lost();
          // Lost already (reported by `lost`); closing a dead connection may fail and means nothing.
          next.end().catch(() => {});
        });
      }, heartbeatMs);
      heartbeat.unref();
    };
    schedule();
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
    // A heartbeat in flight must land before the caller deregisters, or it would register again.
    await beating.catch(() => {});
    // A dead connection may never confirm the goodbye; shutdown must not wait for it.
    if (current) await answeredWithin(current.end(), HEARTBEAT_TIMEOUT_MS).catch(() => {});
  };
}
