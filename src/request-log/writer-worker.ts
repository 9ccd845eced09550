import { parentPort, workerData } from 'node:worker_threads';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../db/handle.ts';
import { isDataRejected } from '../db/unavailable.ts';
import { recordsOf } from './request-columns.ts';
import { RequestLogRepository } from './request-log-repository.ts';
import { RequestLogWriter } from './request-log-writer.ts';
import type { FromWriter, ToWriter, WriterWorkerData } from './worker-drain.ts';

/**
 * The request log's writer thread (started by worker-drain.ts): its own pool of connections, the
 * writer with its batches, retries and markers, fed by the request thread's chunks. Each chunk is
 * written as soon as it arrives; a failed batch is retried every interval. The request thread
 * bounds what is held here.
 */
const port = parentPort!;
const data = workerData as WriterWorkerData;
const post = (message: FromWriter) => port.postMessage(message);

const pool = new pg.Pool({ connectionString: data.databaseUrl, max: data.parallel, connectionTimeoutMillis: 5_000 });
// An idle client that loses its server must not end the thread; the next statement reports it.
pool.on('error', () => {});
const writer = new RequestLogWriter({
  // `pg` sends a Buffer as a binary parameter: the columns go as binary arrays.
  store: new RequestLogRepository(drizzle(pool) as unknown as Db, 'binary'),
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

// Retries while the database is away; an idle timer does not keep the thread alive.
const retry = setInterval(() => void flushed(), data.intervalMs);
retry.unref();

port.on('message', (message: ToWriter) => {
  if (message.type === 'chunk') {
    for (const record of recordsOf(message.chunk)) writer.record(record);
    void flushed();
  } else if (message.type === 'flush') void flushed(message.id);
  else {
    clearInterval(retry);
    void writer
      .flush()
      // The pool's end failing leaves nothing to write: the flush before it said what was kept.
      .finally(() => pool.end().catch(() => {}))
      .then(() => post(state(message.id)));
  }
});

function messageOf(error: unknown): string {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}
