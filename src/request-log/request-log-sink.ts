import { RequestColumns, type RequestChunk } from './request-columns.ts';
import type { RequestFields } from './request-record.ts';
import { BATCH_SIZE } from './request-log-writer.ts';

/** What a drain has done with the records handed to it: written and dropped so far, and still held. */
export type DrainState = { readonly written: number; readonly dropped: number; readonly pending: number };

/**
 * Where the request thread's chunks go to be written: a worker thread that owns the log's
 * connections (PostgreSQL), or the writer on this thread (the embedded engine). A drain writes a
 * chunk as soon as it has it, retries on its own, and never throws at its caller.
 */
export interface RequestLogDrain {
  readonly state: DrainState;
  take(chunk: RequestChunk): void;
  start(): void;
  /** Writes what it holds (one try); resolves when done or failed. */
  flush(): Promise<void>;
  /** Writes what it holds and lets go of its store; nothing is taken afterwards. */
  stop(): Promise<void>;
}

export type RequestLogSinkOptions = {
  drain: RequestLogDrain;
  /** REQUEST_LOG_BUFFER: records held at most, here and in the drain, the batch being written included. */
  capacity: number;
  /** USAGE_FLUSH_MS: the longest a record waits on this thread. */
  intervalMs: number;
  /** Records per chunk: a full chunk is handed over at once. */
  chunkSize?: number;
};

/**
 * A chunk big enough that one hand-over serves many requests, small enough to die young; two of the
 * writer's batches, so a full chunk is two statements (2,048 rows were three of 683).
 */
const CHUNK_SIZE = 2 * BATCH_SIZE;

/**
 * The request log as the request thread sees it (docs/request-log.md (Writing)): `record` appends
 * a record's fields to columns and, past REQUEST_LOG_BUFFER, drops the newest and counts it; the
 * columns go to the drain every interval or when full. No SQL, socket or promise per request: an
 * outage, a slow store or a crashed worker costs log entries, never a request's time or answer.
 */
export class RequestLogSink {
  private droppedHere = 0;
  private columns: RequestColumns;
  private timer: NodeJS.Timeout | undefined;
  /** Where the chunks go (tests reach the worker through it). */
  readonly drain: RequestLogDrain;
  private readonly capacity: number;
  private readonly intervalMs: number;

  constructor(options: RequestLogSinkOptions) {
    this.drain = options.drain;
    this.capacity = options.capacity;
    this.intervalMs = options.intervalMs;
    this.columns = new RequestColumns(Math.max(1, Math.min(options.chunkSize ?? CHUNK_SIZE, options.capacity)));
  }

  /** Records held and not yet written: on this thread and in the drain. */
  get pending(): number {
    return this.columns.size + this.drain.state.pending;
  }

  /** Records dropped: the buffer full, or the store refused them, or a worker died holding them (airkey_request_log_dropped_total). */
  get dropped(): number {
    return this.droppedHere + this.drain.state.dropped;
  }

  get written(): number {
    return this.drain.state.written;
  }

  /** Hot path (after the response): the fields into columns, or a count when full. */
  record(entry: RequestFields): void {
    if (this.pending >= this.capacity) {
      this.droppedHere += 1;
      return;
    }
    this.columns.append(entry);
    if (this.columns.full) this.handOver();
  }

  start(): void {
    this.timer ??= setInterval(() => this.handOver(), this.intervalMs);
    // Never the reason a process stays up: stop() writes what is left.
    this.timer.unref();
    this.drain.start();
  }

  /** Hands over what is held and waits for the drain to write it (or fail to). */
  flush(): Promise<void> {
    this.handOver();
    return this.drain.flush();
  }

  /** A clean stop: everything held is written before the store closes. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.handOver();
    await this.drain.stop();
  }

  private handOver(): void {
    if (this.columns.size > 0) this.drain.take(this.columns.take());
  }
}
