import { Worker } from 'node:worker_threads';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { batchRecord, type BatchRecord } from './span-records.ts';

export type ToWorker = { type: 'export'; id: number; batch: BatchRecord } | { type: 'flush' | 'shutdown'; id: number };
export type DiagLevel = 'warn' | 'info' | 'debug' | 'verbose';
export type FromWorker =
  | { type: 'ready' }
  | { type: 'diag'; level: DiagLevel; message: string }
  | { type: 'failure'; message: string | undefined }
  | { type: 'exported' | 'flushed'; id: number };

type Done = Parameters<SpanExporter['export']>[1];

// @opentelemetry/core's ExportResultCode, without loading core for two numbers.
const SUCCESS = 0;
const FAILED = 1;
// Beside this module: the TypeScript source in a checkout, the compiled file in the package.
const WORKER = new URL(`./export-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

export type WorkerExporterOptions = {
  env: NodeJS.ProcessEnv;
  /** The OpenTelemetry diagnostics level the worker reports at. */
  level: number;
  /** A diagnostic of the worker's SDK (an unusable OTEL_* variable, an export that failed). */
  onDiag(level: DiagLevel, message: string): void;
  /** Export started failing (logged once by the caller; spans are dropped meanwhile). */
  onFailure(message: string | undefined): void;
};

/**
 * The batch processor's exporter, on the request thread: it hands each batch to a worker thread
 * as plain data and the worker scrubs, encodes (OTLP protobuf) and sends it. Encoding a batch of
 * 512 spans was most of what tracing cost a request; a structured clone of the same spans is a
 * fraction of it. The batch processor still waits for each export to finish before the next, so
 * its queue (and the spans it drops when full) behaves as with an exporter on this thread.
 */
export class WorkerExporter implements SpanExporter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, () => void>();
  private nextId = 0;
  private gone = false;

  private constructor(worker: Worker) {
    this.worker = worker;
  }

  /** Resolves once the worker has its exporter, its configuration diagnostics already reported. */
  static start(options: WorkerExporterOptions): Promise<WorkerExporter> {
    const worker = new Worker(WORKER, { env: options.env, workerData: { level: options.level } });
    const exporter = new WorkerExporter(worker);
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') {
          // An idle exporter does not keep the process alive; shutdown() flushes what is pending.
          worker.unref();
          resolve(exporter);
        } else if (message.type === 'diag') options.onDiag(message.level, message.message);
        else if (message.type === 'failure') options.onFailure(message.message);
        else exporter.settle(message.id);
      });
      worker.on('error', (error: Error) => {
        options.onFailure(error.message);
        reject(error);
      });
      worker.on('exit', () => exporter.end());
    });
  }

  export(spans: Parameters<SpanExporter['export']>[0], done: Done): void {
    if (this.gone) return done({ code: FAILED });
    const id = this.nextId++;
    this.owe(id, () => done({ code: SUCCESS }));
    this.post({ type: 'export', id, batch: batchRecord(spans) });
  }

  forceFlush(): Promise<void> {
    return this.call('flush');
  }

  async shutdown(): Promise<void> {
    await this.call('shutdown');
    await this.worker.terminate();
  }

  private call(type: 'flush' | 'shutdown'): Promise<void> {
    if (this.gone) return Promise.resolve();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.owe(id, resolve);
      this.post({ type, id });
    });
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  /**
   * The worker is unreferenced while idle; an answer still owed keeps the process alive, or a
   * shutdown with nothing else to do would end the process before the worker replied.
   */
  private owe(id: number, waiter: () => void): void {
    if (this.waiting.size === 0) this.worker.ref();
    this.waiting.set(id, waiter);
  }

  private settle(id: number): void {
    const waiter = this.waiting.get(id);
    if (waiter === undefined) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
    waiter();
  }

  /** A worker that ended answers nothing more: whoever waits is released, later batches dropped. */
  private end(): void {
    this.gone = true;
    for (const waiter of this.waiting.values()) waiter();
    this.waiting.clear();
  }
}
