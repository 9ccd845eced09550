import { Worker } from 'node:worker_threads';
import type { RunReport } from '../shared/failure-streak.ts';
import { transferablesOf, type RequestChunk } from './request-columns.ts';
import type { DrainState, RequestLogDrain } from './request-log-sink.ts';
import type { RequestBatch } from './request-log-writer.ts';

/** What the writer worker is told: its store and batches (workerData), then chunks and calls. */
export type WriterWorkerData = {
  /** A PostgreSQL server, or the embedded engine's directory for a PGlite of the log's own. */
  store: { databaseUrl: string } | { pglite: string };
  intervalMs: number;
  batchSize: number;
  parallel: number;
};
/** Asked of the embedded store's thread, each answered once (`answer`) or failed by its exit. */
export type AskWriter =
  | { type: 'sql'; id: number; text: string; params: unknown[] }
  | { type: 'maintain'; id: number; nowMs: number; days: number }
  | { type: 'import'; id: number; batch: RequestBatch };
export type ToWriter = { type: 'chunk'; chunk: RequestChunk } | { type: 'flush' | 'stop'; id: number } | AskWriter;
export type FromWriter =
  | { type: 'state'; written: number; dropped: number; held: number; id?: number }
  | { type: 'answer'; id: number; value?: unknown; error?: string }
  | { type: 'failed'; message: string }
  | { type: 'succeeded' };

/** How a failure while the store is paused after a failed open begins (the next try is not yet). */
export const STORE_PAUSED = 'the request log store did not open; it is tried again within';

type Waiter = (answer: FromWriter | undefined) => void;
type Question = AskWriter extends infer A ? (A extends AskWriter ? Omit<A, 'id'> : never) : never;

// Beside this module: the TypeScript source in a checkout, the compiled file in the package.
const WORKER = new URL(`./writer-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

/**
 * The request log's writer in a worker thread (src/request-log/writer-worker.ts): the chunk's
 * arrays move there without a copy, and the statements, the retries and the exactly-once markers
 * run there. A worker that dies takes what it held with it: those records are counted as dropped
 * (some may have been written), the questions it owed fail, and the next chunk or question starts
 * a new one. On the embedded engine the log's store lives there too, and `ask` reaches it.
 */
export class WorkerDrain implements RequestLogDrain {
  private worker: Worker | undefined;
  private sent = 0;
  private reported = { written: 0, dropped: 0 };
  /** What earlier workers wrote and dropped, and held when they died. */
  private before = { written: 0, dropped: 0 };
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 0;
  private stopped = false;
  private readonly data: WriterWorkerData;
  private readonly report: RunReport;

  constructor(data: WriterWorkerData, report: RunReport) {
    this.data = data;
    this.report = report;
  }

  get state(): DrainState {
    const { written, dropped } = this.reported;
    return {
      written: this.before.written + written,
      dropped: this.before.dropped + dropped,
      pending: this.sent - written - dropped,
    };
  }

  /** The worker running now, if any (tests end it to see that requests do not notice). */
  get thread(): Worker | undefined {
    return this.worker;
  }

  take(chunk: RequestChunk): void {
    if (this.stopped) {
      this.before.dropped += chunk.size;
      return;
    }
    const worker = (this.worker ??= this.spawn());
    this.sent += chunk.size;
    worker.postMessage({ type: 'chunk', chunk } satisfies ToWriter, transferablesOf(chunk));
  }

  start(): void {
    this.worker ??= this.spawn();
  }

  flush(): Promise<void> {
    return this.call('flush');
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.call('stop');
    this.stopped = true;
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER, { workerData: this.data, name: 'request-log' });
    // An idle worker does not keep the process alive; stop() writes what it holds.
    worker.unref();
    worker.on('message', (message: FromWriter) => {
      if (message.type === 'failed') this.report.failed(new Error(message.message));
      else if (message.type === 'succeeded') this.report.succeeded();
      else if (message.type === 'answer') this.settle(message.id, message);
      else {
        this.reported = { written: message.written, dropped: message.dropped };
        if (message.id !== undefined) this.settle(message.id, message);
      }
    });
    worker.on('error', (error: Error) => this.report.failed(error));
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      // Whatever it held is lost with it; counted, never retried twice.
      this.before.written += this.reported.written;
      this.before.dropped += this.sent - this.reported.written;
      this.sent = 0;
      this.reported = { written: 0, dropped: 0 };
      this.worker = undefined;
      for (const id of [...this.waiting.keys()]) this.settle(id, undefined);
    });
    return worker;
  }

  /** A question for the store's thread (the embedded engine's reads and housekeeping). */
  ask(question: Question): Promise<unknown> {
    if (this.stopped) return Promise.reject(new Error('the request log has stopped'));
    const worker = (this.worker ??= this.spawn());
    return new Promise((resolve, reject) =>
      this.await(worker, { ...question, id: this.nextId++ }, (answer) => {
        if (answer?.type !== 'answer') reject(new Error('the request log store stopped before it answered'));
        else if (answer.error !== undefined) reject(new Error(answer.error));
        else resolve(answer.value);
      }),
    );
  }

  private call(type: 'flush' | 'stop'): Promise<void> {
    const worker = this.worker;
    if (worker === undefined || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.await(worker, { type, id: this.nextId++ }, () => resolve()));
  }

  private await(worker: Worker, message: ToWriter & { id: number }, waiter: Waiter): void {
    // An answer still owed keeps the process alive, or a stop could end it before the reply.
    if (this.waiting.size === 0) worker.ref();
    this.waiting.set(message.id, waiter);
    worker.postMessage(message);
  }

  private settle(id: number, answer: FromWriter | undefined): void {
    const waiter = this.waiting.get(id);
    if (waiter === undefined) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker?.unref();
    waiter(answer);
  }
}
