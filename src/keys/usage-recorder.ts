import type { KeyRepository } from './key-repository.ts';

/**
 * Write-behind of `last_used_at`. The key check only puts a timestamp in a map (no I/O); a timer
 * writes the coalesced batch. A crash loses at most one interval of usage timestamps, nothing else.
 */
export class UsageRecorder {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly keys: KeyRepository,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Hot path: O(1), synchronous, no allocation beyond the map entry. */
  touch(keyId: string, atMs: number): void {
    this.pending.set(keyId, atMs);
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.keys.recordUsage(batch);
      } catch (error) {
        // Keep the newer of the failed and the fresh timestamps for the next try.
        for (const [id, at] of batch) if ((this.pending.get(id) ?? 0) < at) this.pending.set(id, at);
        this.onError(error);
      }
    });
    return this.flushing;
  }
}
