import type { Db } from '../../db/handle.ts';
import type { Lease } from '../budget/lease.ts';
import { PostgresBudgetStore } from '../budget/postgres-budget-store.ts';
import { RateLimiter, type Allowance, type RateDecision } from '../budget/rate-limiter.ts';
import type { RunReport } from '../../shared/failure-streak.ts';
import { WriteBehindLoop } from '../../shared/write-behind.ts';
import { largestQuotaSlice, lowMarkOf } from './quota.ts';
import { quotaPeriodOf, type KeyQuota } from '../../shared/limit-terms.ts';
import { QUOTA_TABLE, QuotaRepository, type SpentTally } from './quota-repository.ts';

export type QuotaMeterOptions = {
  db: Db;
  repository: QuotaRepository;
  /** Names this instance's holdings (quota_holdings), so a view can tell a live one from a dead one. */
  instanceId: string;
  now: () => number;
  flushMs: number;
  /** The write-behind of what was accepted (the key's `quota.used`). */
  spentReport: RunReport;
  /** The leases' store failed: requests spend what is held, then get 503. */
  onStoreError: (error: unknown) => void;
  /** A lease took the count past 80%: exactly one instance is told, per period and counter. */
  onLow: (keyId: string, quota: KeyQuota, windowStart: number) => void;
};

/**
 * Quotas (docs/keys.md (Quotas)) with the rate limits' leased budgets: instances lease slices of
 * a period's count from the database in one atomic statement and spend them in memory, so the
 * sum never passes the quota and no request writes. Unlike a rate limit's, the count lives in the
 * database in both modes (a month outlives a restart), and slices are at most 1/200 of the quota
 * so a crash strands under 1%. What was accepted and what is held unspent are written behind, for
 * the key's view: what a dead instance held is used, as the quota counts it.
 */
export class QuotaMeter {
  private readonly limiter: RateLimiter;
  private readonly repository: QuotaRepository;
  private readonly onLow: QuotaMeterOptions['onLow'];
  /** counter → period start → accepted since the last flush. */
  private pending = new Map<string, Map<number, number>>();
  private readonly loop: WriteBehindLoop;
  private readonly report: RunReport;
  private readonly instanceId: string;
  /** Holdings were written at least once, so an empty set must be written too. */
  private holdingsWritten = false;

  constructor(options: QuotaMeterOptions) {
    this.repository = options.repository;
    this.onLow = options.onLow;
    this.report = options.spentReport;
    this.instanceId = options.instanceId;
    this.limiter = new RateLimiter({
      store: new PostgresBudgetStore(options.db, options.onStoreError, QUOTA_TABLE),
      now: options.now,
      onError: options.onStoreError,
      periodOf: quotaPeriodOf,
      maxSliceOf: largestQuotaSlice,
      leaseAfterLast: false,
      onLeased: (keyId, allowance, lease, windowStart) => this.leased(keyId, allowance, lease, windowStart),
    });
    this.loop = new WriteBehindLoop(options.flushMs, () => this.flushSpent());
  }

  start(): void {
    this.loop.start();
  }

  /** Synchronous while this instance holds budget for the key's period. */
  take(keyId: string, quota: KeyQuota): RateDecision | Promise<RateDecision> {
    const decision = this.limiter.take(keyId, quota);
    if (decision instanceof Promise) return decision.then((settled) => this.spent(quota, settled));
    return this.spent(quota, decision);
  }

  /** The key changed (quota lowered, reset, key revoked): what this instance holds for it goes. */
  forget(keyId: string): void {
    this.limiter.forget(keyId);
  }

  forgetAll(): void {
    this.limiter.forgetAll();
  }

  /** Writes what is left to write, after leases under way. */
  async close(): Promise<void> {
    await this.limiter.close();
    await this.loop.stop();
  }

  flush(): Promise<void> {
    return this.loop.flush();
  }

  private spent(quota: KeyQuota, decision: RateDecision): RateDecision {
    if (decision.ok) this.add(quota.counter, decision.startsAtMs, 1);
    return decision;
  }

  private leased(keyId: string, allowance: Allowance, lease: Lease, windowStart: number): void {
    const mark = lowMarkOf(allowance.requests);
    if (lease.granted > 0 && lease.used - lease.granted < mark && lease.used >= mark)
      this.onLow(keyId, allowance as KeyQuota, windowStart);
  }

  /** What was accepted, then what this instance still holds: together they make the key's `used`. */
  private async flushSpent(): Promise<void> {
    const holdings = this.limiter.holdings();
    if (this.pending.size === 0 && holdings.length === 0 && !this.holdingsWritten) return;
    const taken = this.pending;
    this.pending = new Map();
    const batch: SpentTally[] = [];
    for (const [counter, periods] of taken)
      for (const [windowStart, spent] of periods) batch.push({ counter, windowStart, spent });
    try {
      await this.repository.addSpent(batch);
      await this.repository.writeHoldings(this.instanceId, holdings);
      this.holdingsWritten = holdings.length > 0;
      this.report.succeeded();
    } catch (error) {
      // Kept for the next flush: a count is never dropped because the database blinked.
      for (const tally of batch) this.add(tally.counter, tally.windowStart, tally.spent);
      this.report.failed(error);
    }
  }

  private add(counter: string, windowStart: number, spent: number): void {
    let periods = this.pending.get(counter);
    if (periods === undefined) this.pending.set(counter, (periods = new Map<number, number>()));
    periods.set(windowStart, (periods.get(windowStart) ?? 0) + spent);
  }
}
