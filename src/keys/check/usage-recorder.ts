import type { RunReport } from '../../shared/failure-streak.ts';
import { WriteBehindBuffer, writeOrKeep } from '../../shared/write-behind.ts';
import type { KeyRepository } from '../key-repository.ts';

/**
 * Where the key check's outcomes are counted per key and hour (src/usage's UsageCounter, wired by
 * the composition root). Both calls are in-memory increments: no I/O, no promise.
 */
export type RequestCounter = {
  ok(keyId: string, tenantId: string, atMs: number): void;
  rejected(keyId: string, tenantId: string, atMs: number): void;
  ipRefused(keyId: string, tenantId: string, atMs: number): void;
};

/** The last address a key was refused from, and when (epoch milliseconds). */
export type Refusal = { address: string; atMs: number };

/**
 * Write-behind of `last_used_at` and of the last address refused by a key's allowlist. The key
 * check only puts a timestamp (or an address) in a map (no I/O); a timer writes the coalesced batch. A crash loses at most one interval of usage timestamps, nothing else.
 * Request counts go to the RequestCounter, which has its own write-behind.
 */
export class UsageRecorder extends WriteBehindBuffer {
  private pending = new Map<string, number>();
  private refusals = new Map<string, Refusal>();

  private readonly keys: KeyRepository;
  private readonly counter: RequestCounter;
  /** Every flush that wrote or failed: a failure is kept for the next flush and must be seen. */
  private readonly report: RunReport;
  constructor(keys: KeyRepository, counter: RequestCounter, intervalMs: number, report: RunReport) {
    super(intervalMs);
    this.keys = keys;
    this.counter = counter;
    this.report = report;
  }

  /** Hot path: O(1), synchronous, no allocation beyond the map entry. */
  touch(keyId: string, atMs: number): void {
    this.pending.set(keyId, atMs);
  }

  /** Hot path: a request the key check accepted is its last use and counts as `ok`. */
  accepted(keyId: string, tenantId: string, atMs: number): void {
    this.touch(keyId, atMs);
    this.counter.ok(keyId, tenantId, atMs);
  }

  /** Hot path: a known key refused (disabled, expired, retired) counts as `rejected`; it is no use. */
  refused(keyId: string, tenantId: string, atMs: number): void {
    this.counter.rejected(keyId, tenantId, atMs);
  }

  /** Hot path: a valid key used from outside its allowlist counts as `ip_refused`; it is no use either. */
  addressRefused(keyId: string, tenantId: string, atMs: number, address: string): void {
    this.counter.ipRefused(keyId, tenantId, atMs);
    if (address !== '') this.refusals.set(keyId, { address, atMs });
  }

  protected async writePending(): Promise<void> {
    if (this.pending.size === 0 && this.refusals.size === 0) return;
    const taken = { uses: this.pending, refusals: this.refusals };
    this.pending = new Map();
    this.refusals = new Map();
    await writeOrKeep(
      taken,
      (batch) => this.write(batch),
      (failed) => this.keep(failed),
      this.report,
    );
  }

  private async write({ uses, refusals }: Taken): Promise<void> {
    await this.keys.recordUsage(uses);
    await this.keys.recordRefusals(refusals);
  }

  /** Keeps the newer of the failed and the fresh values for the next try (a write twice is harmless). */
  private keep({ uses, refusals }: Taken): void {
    for (const [id, at] of uses) if ((this.pending.get(id) ?? 0) < at) this.pending.set(id, at);
    for (const [id, refusal] of refusals)
      if ((this.refusals.get(id)?.atMs ?? 0) < refusal.atMs) this.refusals.set(id, refusal);
  }
}

/** What one flush took: last use per key id, last refusal per key id. */
type Taken = { uses: Map<string, number>; refusals: Map<string, Refusal> };
