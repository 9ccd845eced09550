import { Worker } from 'node:worker_threads';
import { TraceFlags } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import { SpanBatchWriter, type SpanBatch } from './span-records.ts';

export type ToWorker = { type: 'spans'; batch: SpanBatch } | { type: 'flush' | 'shutdown'; id: number };
export type DiagLevel = 'warn' | 'info' | 'debug' | 'verbose';
export type FromWorker =
  | { type: 'ready' }
  | { type: 'diag'; level: DiagLevel; message: string }
  | { type: 'failure'; message: string | undefined }
  | { type: 'flushed'; id: number };

// Beside this module: the TypeScript source in a checkout, the compiled file in the package.
const WORKER = new URL(`./export-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

/** Ended spans handed over together: small enough to die young, large enough to pay one message for many. */
const HAND_OVER_SPANS = 64;
/** The longest an ended span waits on this thread before it is handed over. */
const HAND_OVER_MS = 20;

export type WorkerSpanProcessorOptions = {
  env: NodeJS.ProcessEnv;
  /** The OpenTelemetry diagnostics level the worker reports at. */
  level: number;
  /** A diagnostic of the worker's SDK (an unusable OTEL_* variable, an export that failed). */
  onDiag(level: DiagLevel, message: string): void;
  /** Export started failing (logged once by the caller; spans are dropped meanwhile). */
  onFailure(message: string | undefined): void;
};

/**
 * The request thread's span processor: each ended span becomes plain data and goes to a worker
 * thread within a few milliseconds, where the batch processor (its queue, its OTEL_BSP_* limits,
 * the spans it drops when full), the scrub, the OTLP protobuf encoding and the sending all run.
 * Spans held here for a 512-span batch lived long enough to be promoted, and the request thread's
 * garbage collector then paid for every one of them; written into a flat batch as they end and
 * handed over in small lots, they die young.
 */
export class WorkerSpanProcessor implements SpanProcessor {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, () => void>();
  private readonly pending = new SpanBatchWriter();
  private timer: NodeJS.Timeout | undefined;
  private nextId = 0;
  private gone = false;
  /** While a resource's detectors finish: spans wait, then go with every attribute. */
  private settling: Promise<void> | undefined;
  private readonly waitedFor = new WeakSet<ReadableSpan['resource']>();

  private constructor(worker: Worker) {
    this.worker = worker;
  }

  /** Resolves once the worker has its processor, its configuration diagnostics already reported. */
  static start(options: WorkerSpanProcessorOptions): Promise<WorkerSpanProcessor> {
    const worker = new Worker(WORKER, { env: options.env, workerData: { level: options.level }, name: 'span-export' });
    const processor = new WorkerSpanProcessor(worker);
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromWorker) => {
        if (message.type === 'ready') {
          // An idle worker does not keep the process alive; shutdown() flushes what is pending.
          worker.unref();
          resolve(processor);
        } else if (message.type === 'diag') options.onDiag(message.level, message.message);
        else if (message.type === 'failure') options.onFailure(message.message);
        else processor.settle(message.id);
      });
      worker.on('error', (error: Error) => {
        options.onFailure(error.message);
        reject(error);
      });
      worker.on('exit', () => processor.end());
    });
  }

  /** Nothing to do when a span starts: only ended spans are handed over. */
  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (this.gone || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.pending.add(span);
    if (this.pending.size >= HAND_OVER_SPANS) this.handOver();
    else this.timer ??= setTimeout(() => this.handOver(), HAND_OVER_MS).unref();
  }

  async forceFlush(): Promise<void> {
    this.handOver();
    await this.settling;
    return this.call('flush');
  }

  async shutdown(): Promise<void> {
    this.handOver();
    await this.settling;
    await this.call('shutdown');
    await this.worker.terminate();
  }

  private handOver(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0 || this.gone || this.settling) return;
    // The SDK's batch processor waits for a resource's detectors before it exports; so do we,
    // once per resource, before its attributes are read and sent (they are sent once).
    const unsettled = this.pending.unsettledResource();
    if (unsettled && !this.waitedFor.has(unsettled)) {
      this.waitedFor.add(unsettled);
      // A detector that failed leaves its attributes out, as the SDK does; the spans are sent all the same.
      this.settling = Promise.resolve(unsettled.waitForAsyncAttributes?.())
        .catch(() => {})
        .then(() => {
          this.settling = undefined;
          this.handOver();
        });
      return;
    }
    this.post({ type: 'spans', batch: this.pending.take() });
  }

  private call(type: 'flush' | 'shutdown'): Promise<void> {
    if (this.gone) return Promise.resolve();
    const id = this.nextId++;
    return new Promise((resolve) => {
      // The worker is unreferenced while idle; an answer still owed keeps the process alive, or a
      // shutdown with nothing else to do would end the process before the worker replied.
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, resolve);
      this.post({ type, id });
    });
  }

  private post(message: ToWorker): void {
    this.worker.postMessage(message);
  }

  private settle(id: number): void {
    const waiter = this.waiting.get(id);
    if (waiter === undefined) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
    waiter();
  }

  /** A worker that ended answers nothing more: whoever waits is released, later spans dropped. */
  private end(): void {
    this.gone = true;
    this.pending.take();
    for (const waiter of this.waiting.values()) waiter();
    this.waiting.clear();
  }
}
