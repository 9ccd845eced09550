import type { RunReport } from '../shared/failure-streak.ts';
import { WriteBehindBuffer, writeOrKeep } from '../shared/write-behind.ts';
import { byField, USAGE_OUTCOMES, type OutcomeCounts } from './usage-outcomes.ts';
import { HOUR_MS, hourOf } from './usage-series.ts';

/** One key's requests in one UTC hour, as counted by this instance since its last flush. */
export type HourTally = { keyId: string; tenantId: string; hourMs: number } & OutcomeCounts;

const NO_COUNTS: Readonly<OutcomeCounts> = byField(() => 0);

/** Where a flush adds its counts (UsageRepository.add): one statement that adds, never sets. */
export interface UsageSink {
  add(batch: readonly HourTally[]): Promise<void>;
}

/**
 * Request counts per key and hour, write-behind. The request path only increments numbers in a
 * map (no I/O, no promise, no allocation after a key's first request of the hour); a timer adds
 * the batch to the database. Because every flush adds rather than sets, the counts of all
 * instances sum exactly. A failed flush keeps its counts for the next one; a crash loses at most
 * the counts since the last flush.
 */
export class UsageCounter extends WriteBehindBuffer {
  /** hour → key id → tally. Hours change rarely, so a lookup is two map gets and no string building. */
  private pending = new Map<number, Map<string, HourTally>>();

  private readonly sink: UsageSink;
  /** Every flush that added or failed: a failure is kept for the next flush and must be seen. */
  private readonly report: RunReport;
  constructor(sink: UsageSink, intervalMs: number, report: RunReport) {
    super(intervalMs);
    this.sink = sink;
    this.report = report;
  }

  /** Hot path: a request the key check accepted. */
  ok(keyId: string, tenantId: string, atMs: number): void {
    this.tally(keyId, tenantId, hourOf(atMs)).ok += 1;
  }

  /** Hot path: a request the key check refused for a known key (disabled, expired, retired). */
  rejected(keyId: string, tenantId: string, atMs: number): void {
    this.tally(keyId, tenantId, hourOf(atMs)).rejected += 1;
  }

  /** Hot path: a valid key used from outside its allowlist; refused before anything counted it `ok`. */
  ipRefused(keyId: string, tenantId: string, atMs: number): void {
    this.tally(keyId, tenantId, hourOf(atMs)).ipRefused += 1;
  }

  /**
   * A request the key check accepted (so counted `ok`) that the service then refused for lack of
   * permission: it moves from ok to rejected. It was counted in this hour, or in the previous one
   * when it straddled the hour. If that count was flushed meanwhile, the -1 in the new tally
   * cancels it in the database, so the sum stays exact.
   */
  denied(keyId: string, tenantId: string, atMs: number): void {
    this.countedOk(keyId, tenantId, atMs).rejected += 1;
  }

  /** Hot path: a request the key check accepted (so counted `ok`) that went over the key's rate limit; moved as `denied`. */
  rateLimited(keyId: string, tenantId: string, atMs: number): void {
    this.countedOk(keyId, tenantId, atMs).rateLimited += 1;
  }

  /** Hot path: a request within the key's rate limit refused over its quota; moved from ok like `rateLimited`. */
  quotaExceeded(keyId: string, tenantId: string, atMs: number): void {
    this.countedOk(keyId, tenantId, atMs).quotaExceeded += 1;
  }

  /** Takes back one `ok` of this hour's or the previous hour's tally and returns that tally. */
  private countedOk(keyId: string, tenantId: string, atMs: number): HourTally {
    const hourMs = hourOf(atMs);
    const now = this.pending.get(hourMs)?.get(keyId);
    const before = this.pending.get(hourMs - HOUR_MS)?.get(keyId);
    const counted = now && now.ok > 0 ? now : before && before.ok > 0 ? before : this.tally(keyId, tenantId, hourMs);
    counted.ok -= 1;
    return counted;
  }

  protected async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const taken = this.pending;
    this.pending = new Map();
    const batch = [...taken.values()]
      .flatMap((byKey) => [...byKey.values()])
      .filter((t) => USAGE_OUTCOMES.some((outcome) => t[outcome.field] !== 0));
    if (batch.length === 0) return;
    await writeOrKeep(
      batch,
      (added) => this.sink.add(added),
      (failed) => this.keep(failed),
      this.report,
    );
  }

  /** Nothing of a failed batch was added (one statement): its counts go next to what arrived meanwhile. */
  private keep(failed: readonly HourTally[]): void {
    for (const t of failed) {
      const kept = this.tally(t.keyId, t.tenantId, t.hourMs);
      for (const { field } of USAGE_OUTCOMES) kept[field] += t[field];
    }
  }

  private tally(keyId: string, tenantId: string, hourMs: number): HourTally {
    let byKey = this.pending.get(hourMs);
    if (!byKey) this.pending.set(hourMs, (byKey = new Map<string, HourTally>()));
    let tally = byKey.get(keyId);
    // Every tally has the same fields in the same order: the increments above stay monomorphic.
    if (!tally) byKey.set(keyId, (tally = { keyId, tenantId, hourMs, ...NO_COUNTS }));
    return tally;
  }
}
