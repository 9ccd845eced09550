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
    this.flushing = run.catch(() => {});
    return run;
  }
}
