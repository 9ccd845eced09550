import type { RunReport } from './failure-streak.ts';

/**
 * The loop shared by the write-behind buffers (last use of keys, request counts): a flush every
 * interval, never two at once, one more on stop. What a flush takes, writes and keeps on failure
 * is the buffer's own business (`flushOnce`, which reports its own errors).
 */
export class WriteBehindLoop {
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  private readonly intervalMs: number;
  private readonly flushOnce: () => Promise<void>;
  constructor(intervalMs: number, flushOnce: () => Promise<void>) {
    this.intervalMs = intervalMs;
    this.flushOnce = flushOnce;
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    // Never the reason a process stays up: stop() writes what is left.
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Runs after the flush in progress, if any; a flush that throws does not stop the next ones. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.flushOnce());
    // The caller of this flush hears its failure through `run`; the next flush must start either way.
    this.flushing = run.catch(() => {});
    return run;
  }
}

/**
 * A write-behind buffer on the loop: the request path puts values in memory, `writePending` takes
 * and writes them. The start, stop and flush its owner calls, once for every buffer.
 */
export abstract class WriteBehindBuffer {
  private readonly loop: WriteBehindLoop;
  constructor(intervalMs: number) {
    this.loop = new WriteBehindLoop(intervalMs, () => this.writePending());
  }

  /** One flush: what it takes, writes and keeps on failure; it reports its own errors. */
  protected abstract writePending(): Promise<void>;

  start(): void {
    this.loop.start();
  }

  /** Stops the timer and writes what is held (a clean stop loses nothing while the database answers). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Serialised: two flushes never run at once, so a batch is written exactly once or kept. */
  flush(): Promise<void> {
    return this.loop.flush();
  }
}

/**
 * The flush of a buffer that swapped its pending values out: writes what it took and reports the
 * run; on failure hands the batch to `keep`, which merges it with what arrived meanwhile for the
 * next flush.
 */
export async function writeOrKeep<T>(
  taken: T,
  write: (taken: T) => Promise<void>,
  keep: (failed: T) => void,
  report: RunReport,
): Promise<void> {
  try {
    await write(taken);
    report.succeeded();
  } catch (error) {
    keep(taken);
    report.failed(error);
  }
}
