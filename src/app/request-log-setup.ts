import type { Config } from '../config.ts';
import { isDataRejected } from '../db/unavailable.ts';
import { RequestLogPartitions } from '../request-log/request-log-partitions.ts';
import { RequestLogRepository } from '../request-log/request-log-repository.ts';
import { RequestLogService } from '../request-log/request-log-service.ts';
import { RequestLogWriter } from '../request-log/request-log-writer.ts';
import { InThreadDrain } from '../request-log/in-thread-drain.ts';
import { RequestLogSink, type RequestLogDrain } from '../request-log/request-log-sink.ts';
import { WorkerDrain } from '../request-log/worker-drain.ts';
import type { Clock } from '../shared/clock.ts';
import type { BackgroundJob } from './background-jobs.ts';
import type { Database } from '../db/handle.ts';
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
  const { db } = deps.database;
  const repository = new RequestLogRepository(db);
  const on = config.requestLogDays > 0;
  const writer = on
    ? new RequestLogSink({
        drain: drainOf(deps, repository),
        capacity: config.requestLogBuffer,
        intervalMs: config.usageFlushMs,
      })
    : null;
  if (writer) deps.metrics.watchRequestLog(writer);
  const partitions = new RequestLogPartitions({ db, clock, days: config.requestLogDays });
  let maintainedAtMs = Number.NEGATIVE_INFINITY;
  const maintain = async (): Promise<void> => {
    if (!on || clock.nowMs() - maintainedAtMs < MAINTAIN_EVERY_MS) return;
    await partitions.maintain();
    await repository.forgetOldBatches();
    maintainedAtMs = clock.nowMs();
  };
  const services: RequestLogServices = {
    reader: new RequestLogService({ repository, cursors: deps.cursors }),
    writer,
  };
  const job: BackgroundJob = {
    name: 'request log',
    async start() {
      // A database that cannot answer yet only delays the partitions: the housekeeping tries again.
      await maintain().catch((error: unknown) => deps.reportError(error));
      writer?.start();
    },
    stop: () => writer?.stop(),
  };
  return { services, job, maintain };
}

/**
 * PostgreSQL: a worker thread with its own two connections writes, two batches at a time, off the
 * request thread. PGlite has one connection, on the request thread: the writer runs there, in
 * smaller batches that hold the thread for a shorter while.
 */
function drainOf(deps: RequestLogDeps, repository: RequestLogRepository): RequestLogDrain {
  const { config } = deps;
  const report = deps.streakOf('request_log');
  if (deps.database.kind === 'postgres' && config.databaseUrl) {
    return new WorkerDrain(
      { databaseUrl: config.databaseUrl, intervalMs: config.usageFlushMs, batchSize: 1_000, parallel: 2 },
      report,
    );
  }
  return new InThreadDrain(
    new RequestLogWriter({
      store: repository,
      capacity: Number.MAX_SAFE_INTEGER,
      intervalMs: config.usageFlushMs,
      parallel: 1,
      batchSize: 250,
      report,
      isPermanent: isDataRejected,
    }),
  );
}
