import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { types } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { openDatabase } from '../db/database.ts';
import type { Db } from '../db/handle.ts';
import { isDataRejected } from '../db/unavailable.ts';
import { runInBackground } from '../shared/background-priority.ts';
import { monotonicClock } from '../shared/clock.ts';
import { keepLog } from './request-log-partitions.ts';
import { RequestLogRepository } from './request-log-repository.ts';
import { RequestLogWriter } from './request-log-writer.ts';
import { STORE_PAUSED, type FromWriter, type ToWriter, type WriterWorkerData } from './worker-drain.ts';

/**
 * The request log's writer thread (started by worker-drain.ts): its store, the writer with its
 * batches, retries and markers, fed by the request thread's chunks. Each chunk is written as soon
 * as it arrives; a failed batch is retried every interval. The request thread bounds what is held
 * here. On PostgreSQL the store is a pool of its own; on the embedded engine it is a PGlite of its
 * own (docs/request-log.md, The embedded log), whose reads and housekeeping run here too.
 */
runInBackground();
const port = parentPort!;
const data = workerData as WriterWorkerData;
const post = (message: FromWriter) => port.postMessage(message);

type Store = {
  repository: RequestLogRepository;
  db: Db;
  /** The embedded store's client, for the reads the request thread sends as SQL. */
  embedded?: PGlite;
  refreshStatistics(): Promise<unknown>;
  close(): Promise<void>;
};

async function openStore(): Promise<Store> {
  if ('databaseUrl' in data.store) {
    const pool = new pg.Pool({
      connectionString: data.store.databaseUrl,
      max: data.parallel,
      connectionTimeoutMillis: 5_000,
    });
    // An idle client that loses its server must not end the thread; the next statement reports it.
    pool.on('error', () => {});
    const db = drizzle(pool) as unknown as Db;
    // `pg` sends a Buffer as a binary parameter: the columns go as binary arrays.
    const repository = new RequestLogRepository(db, 'binary');
    return { repository, db, refreshStatistics: () => Promise.resolve(), close: () => pool.end() };
  }
  let embedded: PGlite | undefined;
  const database = await openDatabase({
    dataDir: data.store.pglite,
    // The server's own data directory holds this one: its lock already keeps other processes out.
    lockDataDir: false,
    observeEmbedded: (client) => (embedded = client),
  });
  const db = database.db;
  return {
    repository: new RequestLogRepository(db, 'text'),
    db,
    ...(embedded ? { embedded } : {}),
    refreshStatistics: () => database.refreshStatistics(),
    close: () => database.close(),
  };
}

// Opened once. A store that fails to open is tried again after a pause that doubles, from one
// interval to a minute: opening PGlite costs 80 ms of CPU or more, which a retry by every flush
// and every read would pay again and again. Within the pause, what needs the store fails at once.
let opening: Promise<Store> | undefined;
let refused: { error: Error; until: number; pauseMs: number } | undefined;
const store = (): Promise<Store> => {
  if (opening === undefined && refused !== undefined && monotonicClock() < refused.until) {
    return Promise.reject(refused.error);
  }
  return (opening ??= openStore().then(
    (opened) => {
      refused = undefined;
      return opened;
    },
    (error: unknown) => {
      opening = undefined;
      const pauseMs = Math.min(refused ? refused.pauseMs * 2 : data.intervalMs, 60_000);
      const paused = new Error(`${STORE_PAUSED} ${Math.ceil(pauseMs / 1000)} s: ${messageOf(error)}`);
      refused = { error: paused, until: monotonicClock() + pauseMs, pauseMs };
      throw error;
    },
  ));
};

const writer = new RequestLogWriter({
  store: { insert: async (batch) => (await store()).repository.insert(batch) },
  capacity: Number.MAX_SAFE_INTEGER,
  intervalMs: data.intervalMs,
  batchSize: data.batchSize,
  parallel: data.parallel,
  report: {
    // The driver's own message: Drizzle's wraps the statement and every value of the batch.
    failed: (error: unknown) => post({ type: 'failed', message: messageOf(error) }),
    succeeded: () => post({ type: 'succeeded' }),
  },
  isPermanent: isDataRejected,
});

const state = (id?: number): FromWriter => ({
  type: 'state',
  written: writer.written,
  dropped: writer.dropped,
  held: writer.pending,
  ...(id === undefined ? {} : { id }),
});
const flushed = (id?: number) => writer.flush().then(() => post(state(id)));

// Retries while the store is away; an idle timer does not keep the thread alive.
const retry = setInterval(() => void flushed(), data.intervalMs);
retry.unref();
// The embedded store opens at once: its partitions and first reads should not wait for a chunk.
if ('pglite' in data.store) void store().catch((error: unknown) => post({ type: 'failed', message: messageOf(error) }));

port.on('message', (message: ToWriter) => {
  switch (message.type) {
    case 'chunk':
      writer.take(message.chunk);
      void flushed();
      return;
    case 'flush':
      void flushed(message.id);
      return;
    case 'stop':
      clearInterval(retry);
      void writer
        .flush()
        // Questions under way are answered before the store closes under them.
        .finally(() => Promise.allSettled(answering))
        // A close that fails leaves nothing to write: the flush before it said what was kept.
        .finally(() => opening?.then((opened) => opened.close()).catch(() => {}))
        .then(() => post(state(message.id)));
      return;
    default:
      answer(message.id, () => asked(message));
  }
});

/** Like the driver's own `db.execute`: rows as objects, instants as PostgreSQL writes them. */
const RAW = {
  rowMode: 'object',
  parsers: {
    [types.TIMESTAMP]: (value: string) => value,
    [types.TIMESTAMPTZ]: (value: string) => value,
    [types.INTERVAL]: (value: string) => value,
    [types.DATE]: (value: string) => value,
  },
} as const;

async function asked(message: Exclude<ToWriter, { type: 'chunk' | 'flush' | 'stop' }>): Promise<unknown> {
  const opened = await store();
  switch (message.type) {
    case 'sql': {
      if (!opened.embedded) throw new Error('reads go to the server, not to this thread');
      const { rows, affectedRows } = await opened.embedded.query(message.text, message.params, RAW);
      return { rows, affectedRows };
    }
    case 'maintain': {
      const clock = { nowMs: () => message.nowMs, now: () => new Date(message.nowMs) };
      const dropped = await keepLog(opened.db, clock, message.days, opened.repository);
      await opened.refreshStatistics();
      return dropped;
    }
    case 'import':
      await opened.repository.insert(message.batch);
      return null;
  }
}

const answering = new Set<Promise<void>>();

function answer(id: number, work: () => Promise<unknown>): void {
  const answered = work().then(
    (value) => post({ type: 'answer', id, value }),
    (error: unknown) => post({ type: 'answer', id, error: messageOf(error) }),
  );
  answering.add(answered);
  void answered.finally(() => answering.delete(answered));
}

function messageOf(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
