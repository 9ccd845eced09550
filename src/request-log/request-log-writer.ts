import { randomUUID } from 'node:crypto';
import type { RunReport } from '../shared/failure-streak.ts';
import { WriteBehindBuffer } from '../shared/write-behind.ts';
import { RequestColumns, type RequestChunk, type RequestRows } from './request-columns.ts';
import type { RequestFields } from './request-record.ts';

/** Records written together. The id stays with them through every retry: it is how a retry is known. */
export type RequestBatch = { id: string; rows: RequestRows };

/** Rows a statement inserts at most: the batch the server's drains write. */
export const BATCH_SIZE = 1_000;

/** Where a batch goes: one statement for the whole batch, which writes nothing for a batch already written. */
export interface RequestLogStore {
  insert(batch: RequestBatch): Promise<void>;
}

export type RequestLogWriterOptions = {
  store: RequestLogStore;
  /** REQUEST_LOG_BUFFER: records held at most, the batch being written included. */
  capacity: number;
  /** USAGE_FLUSH_MS: the longest a record waits while the database keeps up. */
  intervalMs: number;
  /** Records per statement; a full batch is written without waiting for the interval. */
  batchSize?: number;
  /** Statements at once: more than one only where the database has connections to spare (PostgreSQL). */
  parallel?: number;
  /** Every flush that wrote or failed: a failure is kept for the next flush and must be seen. */
  report: RunReport;
  /** A failure no retry can mend (the database refused the values): that batch is dropped and counted. */
  isPermanent?: (error: unknown) => boolean;
};

/**
 * The request log's write-behind (docs/request-log.md). A request only appends its record to
 * columns (no I/O, no promise), or a chunk of them arrives whole from the request thread; batches
 * go out on a timer, or as soon as a batch is full. Past `capacity` the newest records are dropped
 * and counted, so an outage costs log entries, never a request's time or answer. A failed batch is
 * kept whole, with its id and ahead of newer records, for the next try, so a batch that was written
 * but whose answer was lost writes nothing twice.
 */
export class RequestLogWriter extends WriteBehindBuffer {
  /** Records dropped because the buffer was full or the database refused their batch (airkey_request_log_dropped_total). */
  dropped = 0;
  /** Records written to the database by this instance. */
  written = 0;
  /** Rows waiting, a batch's worth at most each, oldest first. */
  private queue: RequestRows[] = [];
  private queued = 0;
  /** Records given one at a time, until a batch's worth. */
  private open: RequestColumns | undefined;
  /** Batches that failed, oldest first, each as it was first sent; they count against the capacity. */
  private retries: RequestBatch[] = [];
  private retriedRecords = 0;
  /** Records taken by the flush under way: they count against the capacity until written. */
  private inFlight = 0;
  private writing = false;
  /** After a failed flush, only the timer tries again: a full batch must not retry at request rate. */
  private healthy = true;
  private readonly store: RequestLogStore;
  private readonly capacity: number;
  private readonly batchSize: number;
  private readonly parallel: number;
  private readonly report: RunReport;
  private readonly isPermanent: (error: unknown) => boolean;

  constructor(options: RequestLogWriterOptions) {
    super(options.intervalMs);
    this.store = options.store;
    this.capacity = options.capacity;
    this.batchSize = options.batchSize ?? BATCH_SIZE;
    this.parallel = options.parallel ?? 1;
    this.report = options.report;
    this.isPermanent = options.isPermanent ?? (() => false);
  }

  /** Records held and not yet written. */
  get pending(): number {
    return this.queued + (this.open?.size ?? 0) + this.inFlight + this.retriedRecords;
  }

  /** Hot path (after the response): an append, or a count when full. */
  record(entry: RequestFields): void {
    if (this.pending >= this.capacity) {
      this.dropped += 1;
      return;
    }
    (this.open ??= new RequestColumns(this.batchSize)).append(entry);
    if (this.open.full) this.close();
    this.flushWhenFull();
  }

  /** A chunk whole, in batches of equal size; past the capacity its newest rows are dropped and counted. */
  take(chunk: RequestChunk): void {
    const kept = Math.max(0, Math.min(chunk.size, this.capacity - this.pending));
    this.dropped += chunk.size - kept;
    if (kept === 0) return;
    const size = Math.ceil(kept / Math.ceil(kept / this.batchSize));
    for (let start = 0; start < kept; start += size) this.enqueue({ chunk, start, end: Math.min(kept, start + size) });
    this.flushWhenFull();
  }

  private enqueue(rows: RequestRows): void {
    this.queue.push(rows);
    this.queued += rows.end - rows.start;
  }

  /** The records given one at a time join the queue. */
  private close(): void {
    if (this.open === undefined || this.open.size === 0) return;
    const chunk = this.open.take();
    this.open = undefined;
    this.enqueue({ chunk, start: 0, end: chunk.size });
  }

  /** A whole round of batches waiting: written now rather than at the next tick. */
  private flushWhenFull(): void {
    if (this.queued >= this.batchSize * this.parallel && this.healthy && !this.writing) void this.flush();
  }

  /**
   * Up to `parallel` batches at a time, failed ones first, until nothing is held or a write fails;
   * never two flushes at once (the loop). A failed batch is kept whole for the next flush; a batch
   * written beside it stays written.
   */
  protected async writePending(): Promise<void> {
    this.writing = true;
    try {
      // Records given one at a time while a batch was written join the next round.
      for (this.close(); this.retries.length > 0 || this.queue.length > 0; this.close()) {
        const batches = this.retries.splice(0, this.parallel);
        this.retriedRecords -= sizeOf(batches);
        while (batches.length < this.parallel && this.queue.length > 0) {
          const rows = this.queue.shift()!;
          this.queued -= rows.end - rows.start;
          batches.push({ id: randomUUID(), rows });
        }
        const taken = sizeOf(batches);
        this.inFlight = taken;
        const results = await Promise.allSettled(batches.map((batch) => this.store.insert(batch)));
        this.inFlight = 0;
        const failures = batches.flatMap((batch, i) => {
          const result = results[i]!;
          return result.status === 'rejected' ? [{ batch, reason: result.reason as unknown }] : [];
        });
        const failed = failures.map((failure) => failure.batch);
        this.written += taken - sizeOf(failed);
        if (failures.length > 0) {
          this.report.failed(failures[0]!.reason);
          // A batch the database refused for its values would fail again and hold up every batch behind it.
          const refused = failures
            .filter((failure) => this.isPermanent(failure.reason))
            .map((failure) => failure.batch);
          this.dropped += sizeOf(refused);
          const retried = failed.filter((batch) => !refused.includes(batch));
          if (retried.length > 0) {
            this.retries = retried.concat(this.retries);
            this.retriedRecords += sizeOf(retried);
            this.healthy = false;
            return;
          }
          continue;
        }
        this.healthy = true;
        this.report.succeeded();
        // PGlite answers without ever leaving the event loop: without this turn, a backlog of
        // batches would hold every request behind it until the last one is written.
        if (this.pending > 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      this.writing = false;
    }
  }
}

function sizeOf(batches: readonly RequestBatch[]): number {
  return batches.reduce((n, batch) => n + batch.rows.end - batch.rows.start, 0);
}
