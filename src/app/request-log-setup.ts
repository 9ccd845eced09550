import { join } from 'node:path';
import type { Config } from '../config.ts';
import { keepLog } from '../request-log/request-log-partitions.ts';
import { RequestLogRepository } from '../request-log/request-log-repository.ts';
import { RequestLogService } from '../request-log/request-log-service.ts';
import { moveEntriesToStore } from '../request-log/move-entries.ts';
import { RequestLogSink, type RequestLogDrain } from '../request-log/request-log-sink.ts';
import { BATCH_SIZE } from '../request-log/request-log-writer.ts';
import { WorkerDrain } from '../request-log/worker-drain.ts';
import type { Clock } from '../shared/clock.ts';
import type { BackgroundJob } from './background-jobs.ts';
import type { Database, Db } from '../db/handle.ts';
import { threadDb } from '../db/thread-db.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { CursorCodec } from '../shared/cursor.ts';
import type { FailureStreak } from '../shared/failure-streak.ts';
import type { RequestLogServices } from './service-types.ts';

/** Partitions change by the day: checking once an hour keeps three days ahead with room to spare. */
const MAINTAIN_EVERY_MS = 3_600_000;

/**
 * The request log (docs/request-log.md): the reader, the writer every API and MCP request appends
 * to (none when REQUEST_LOG_DAYS is 0), its job (partitions made before the first write, the
 * buffer written on stop) and its housekeeping task (partitions ahead, old days dropped).
 */
export type RequestLogDeps = {
  config: Config;
  clock: Clock;
  database: Database;
  cursors: CursorCodec;
  metrics: Metrics;
  streakOf: (task: string) => FailureStreak;
  reportError: (error: unknown) => void;
};

export function buildRequestLog(deps: RequestLogDeps) {
  const { config, clock } = deps;
  const on = config.requestLogDays > 0;
  const { drain, store } = on ? drainOf(deps) : { drain: undefined, store: undefined };
  const repository = new RequestLogRepository(store?.db ?? deps.database.db);
  const writer = drain
    ? new RequestLogSink({ drain, capacity: config.requestLogBuffer, intervalMs: config.usageFlushMs })
    : null;
  if (writer) deps.metrics.watchRequestLog(writer);
  let maintainedAtMs = Number.NEGATIVE_INFINITY;
  /** Days made ahead and dropped past retention, at most hourly; returns the partitions it dropped. */
  const maintain = async (): Promise<string[]> => {
    if (!on || clock.nowMs() - maintainedAtMs < MAINTAIN_EVERY_MS) return [];
    let dropped: string[];
    if (store) {
      const question = { type: 'maintain', nowMs: clock.nowMs(), days: config.requestLogDays } as const;
      dropped = (await store.thread.ask(question)) as string[];
    } else dropped = await keepLog(deps.database.db, clock, config.requestLogDays, repository);
    maintainedAtMs = clock.nowMs();
    return dropped;
  };
  const services: RequestLogServices = {
    reader: new RequestLogService({ repository, cursors: deps.cursors }),
    writer,
    entries: store?.db ?? deps.database.db,
    maintain,
  };
  const job: BackgroundJob = {
    name: 'request log',
    async start() {
      // A database that cannot answer yet only delays the partitions: the housekeeping tries again.
      const days = maintain().catch((error: unknown) => deps.reportError(error));
      // The embedded store's thread answers in the order it is asked: this first, before any write or
      // read, without holding the server's start for the store's opening (about a second).
      if (!store) await days;
      writer?.start();
      // Entries an earlier version wrote to the main database, moved once, behind the requests.
      if (store)
        void moveEntriesToStore(deps.database.db, store.thread).catch((error: unknown) => deps.reportError(error));
    },
    stop: () => writer?.stop(),
  };
  return { services, job, maintain };
}

/**
 * The writer runs in a worker thread on both engines. PostgreSQL: its own two connections, two
 * batches at a time. PGlite: a data directory holds one PGlite, so the log has a PGlite of its own
 * in `DATA_DIR/request-log`, opened by that thread, which also answers the log's reads
 * (docs/request-log.md, The embedded log).
 */
function drainOf(deps: RequestLogDeps): { drain: RequestLogDrain; store?: { thread: WorkerDrain; db: Db } } {
  const { config } = deps;
  const report = deps.streakOf('request_log');
  const intervalMs = config.usageFlushMs;
  if (deps.database.kind === 'postgres' && config.databaseUrl) {
    const store = { databaseUrl: config.databaseUrl };
    return { drain: new WorkerDrain({ store, intervalMs, batchSize: BATCH_SIZE, parallel: 2 }, report) };
  }
  const dir = config.dataDir === ':memory:' ? ':memory:' : join(config.dataDir, 'request-log');
  const thread = new WorkerDrain({ store: { pglite: dir }, intervalMs, batchSize: BATCH_SIZE, parallel: 1 }, report);
  return { drain: thread, store: { thread, db: threadDb((statement) => thread.ask(statement)) } };
}
