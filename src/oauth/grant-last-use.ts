import type { RunReport } from '../shared/failure-streak.ts';
import { WriteBehindBuffer, writeOrKeep } from '../shared/write-behind.ts';

/** Where a flush writes a batch of last uses (OAuthRecordRepository.recordGrantUse): one statement. */
export interface GrantUseSink {
  recordGrantUse(batch: ReadonlyMap<string, number>): Promise<void>;
}

/**
 * Write-behind of a grant's `last_used_at` from the requests its access tokens make, as a key's
 * last use is kept (src/keys/check/usage-recorder.ts): the token check only puts a timestamp in a
 * map, so a grant is written at most once per flush however many requests it made. A crash loses
 * at most one interval of timestamps. The grant's lifetime is not moved here: it runs from the last
 * token issued (docs/oauth.md (Tokens)), which a token used within its 15 minutes never outlives.
 */
export class GrantLastUse extends WriteBehindBuffer {
  private pending = new Map<string, number>();

  private readonly sink: GrantUseSink;
  /** Every flush that wrote or failed: a failure is kept for the next flush and must be seen. */
  private readonly report: RunReport;
  constructor(sink: GrantUseSink, intervalMs: number, report: RunReport) {
    super(intervalMs);
    this.sink = sink;
    this.report = report;
  }

  /** Hot path: O(1), synchronous, no allocation beyond the map entry. */
  touch(grantId: string, atMs: number): void {
    this.pending.set(grantId, atMs);
  }

  protected async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const taken = this.pending;
    this.pending = new Map();
    await writeOrKeep(
      taken,
      (batch) => this.sink.recordGrantUse(batch),
      (failed) => this.keep(failed),
      this.report,
    );
  }

  /** Keeps the newer of the failed and the fresh values for the next try (a write twice is harmless). */
  private keep(failed: ReadonlyMap<string, number>): void {
    for (const [id, at] of failed) if ((this.pending.get(id) ?? 0) < at) this.pending.set(id, at);
  }
}
