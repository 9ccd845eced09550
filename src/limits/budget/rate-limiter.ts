import {
  fixedWindowOf,
  sumHoldings,
  type Allowance,
  type Holding,
  type RateDecision,
  type RateLimiterOptions,
} from './allowance.ts';
import { type Period } from '../../shared/limit-terms.ts';
import type { BudgetStore, Lease } from './lease.ts';

export type { Allowance, Holding, RateDecision, RateLimiterOptions } from './allowance.ts';

/** How long a request without budget waits for the store before it is refused. */
const LEASE_WAIT_MS = 1_000;
/** After the store failed, keys without budget are refused this long before it is asked again. */
const RETRY_AFTER_FAILURE_MS = 1_000;
const SWEEP_EVERY_MS = 60_000;

/** What this instance holds of one key's budget in one window. */
type Budget = {
  window: string;
  counter: string;
  windowStart: number;
  windowEnd: number;
  windowMs: number;
  limit: number;
  /** Leased and not yet spent. */
  held: number;
  /** The store's `used` after our latest lease: every instance's leases up to then. */
  storeUsed: number;
  /** The store has nothing left for this window: refuse without asking again. */
  exhausted: boolean;
  /** Lease the next slice once `held` falls to this, so it arrives before the current one runs out. */
  refillAt: number;
  pending: Promise<void> | undefined;
  refused: boolean;
};

/**
 * Per-key budgets, exact across instances without a round trip per request. Each instance leases
 * slices of a window's budget from the shared store (one atomic step there) and spends them here,
 * synchronously. The store counts what was leased, not what was spent, so the sum over instances
 * never passes the limit, whatever the load or the number of instances; a crash loses its unspent
 * slice, never adds one. Without the store an instance spends only what it holds, then refuses.
 */
export class RateLimiter {
  private readonly store: BudgetStore;
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  private readonly periodOf: (window: string, now: number) => Period;
  private readonly maxSliceOf: (requests: number) => number;
  private readonly onLeased: RateLimiterOptions['onLeased'];
  private readonly leaseAfterLast: boolean;
  private readonly budgets = new Map<string, Budget>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Until then the store is presumed unreachable: keys without budget are refused at once. */
  private storeDownUntil = 0;
  private nextSweep = 0;

  constructor(options: RateLimiterOptions) {
    this.store = options.store;
    this.now = options.now;
    this.onError = options.onError ?? (() => {});
    this.periodOf = options.periodOf ?? fixedWindowOf;
    this.maxSliceOf = options.maxSliceOf ?? (() => Infinity);
    this.onLeased = options.onLeased;
    this.leaseAfterLast = options.leaseAfterLast ?? true;
  }

  /** Synchronous (no promise) whenever this instance holds budget for the key's current window. */
  take(keyId: string, limit: Allowance): RateDecision | Promise<RateDecision> {
    const now = this.now();
    const budget = this.budgetFor(keyId, limit, now);
    if (budget.held > 0) return this.accept(keyId, budget, now);
    if (budget.exhausted || now < this.storeDownUntil) return this.refuse(budget, now);
    const leasing = budget.pending ?? this.lease(keyId, budget, now);
    // The store answered at once (the in-process store): decide at once.
    if (!leasing) return budget.held > 0 ? this.accept(keyId, budget, now) : this.refuse(budget, now);
    // Another request may have spent the slice meanwhile: ask again (the budget is then exhausted,
    // the store presumed down, or a new lease is made against a smaller remainder, so this ends).
    return leasing.then(() => this.take(keyId, limit));
  }

  /** The key changed (limit lowered/removed, key revoked): drop what this instance holds for it. */
  forget(keyId: string): void {
    this.budgets.delete(keyId);
  }

  forgetAll(): void {
    this.budgets.clear();
  }

  /** What this instance holds, leased and unspent, per shared count and window (keys sharing a count add up). */
  holdings(): Holding[] {
    return sumHoldings(this.budgets.values());
  }

  /** Waits for leases under way; the store's connection belongs to the caller. */
  async close(): Promise<void> {
    this.budgets.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private budgetFor(keyId: string, limit: Allowance, now: number): Budget {
    const known = this.budgets.get(keyId);
    // The hot path: a map get and four comparisons, no division.
    if (
      known !== undefined &&
      now < known.windowEnd &&
      now >= known.windowStart &&
      known.limit === limit.requests &&
      known.window === limit.window
    )
      return known;
    const { start: windowStart, end: windowEnd } = this.periodOf(limit.window, now);
    this.sweep(now);
    // A new window or a changed limit starts from nothing: budget leased under another limit is
    // dropped, and the store's `used` still counts it, so a lowered limit stays exact.
    const budget: Budget = {
      window: limit.window,
      counter: limit.counter ?? keyId,
      windowStart,
      windowEnd,
      windowMs: windowEnd - windowStart,
      limit: limit.requests,
      held: 0,
      storeUsed: 0,
      exhausted: false,
      refillAt: 0,
      pending: undefined,
      refused: false,
    };
    this.budgets.set(keyId, budget);
    return budget;
  }

  private accept(keyId: string, budget: Budget, now: number): RateDecision {
    budget.held -= 1;
    const refill = budget.held <= budget.refillAt && (budget.held > 0 || this.leaseAfterLast);
    if (refill && !budget.exhausted && !budget.pending && now >= this.storeDownUntil)
      // Not awaited: this request is served from the held slice; failures end in `failed`.
      void this.lease(keyId, budget, now);
    const remaining = Math.max(0, Math.min(budget.limit, budget.limit - budget.storeUsed + budget.held));
    return decision(budget, now, true, remaining, false);
  }

  private refuse(budget: Budget, now: number): RateDecision {
    // Not spent: the store could not be asked. Such a refusal is no "first" of the window either.
    if (!budget.exhausted) return { ...decision(budget, now, false, 0, false), unavailable: true };
    const first = !budget.refused;
    budget.refused = true;
    return decision(budget, now, false, 0, first);
  }

  /**
   * Asks the store for the next slice; undefined when it has already answered (synchronously).
   * The returned promise settles when the slice arrives, or when waiting for it was given up: a
   * late slice still lands in the budget (the store counted it, so spending it stays exact).
   */
  private lease(keyId: string, budget: Budget, now: number): Promise<void> | undefined {
    let answer: Lease | PromiseLike<Lease>;
    try {
      answer = this.store.lease({
        keyId: budget.counter,
        windowStart: budget.windowStart,
        windowMs: budget.windowMs,
        limit: budget.limit,
        maxSlice: this.maxSliceOf(budget.limit),
        now,
      });
    } catch (error) {
      this.failed(error);
      return undefined;
    }
    if (!isPromiseLike(answer)) {
      this.apply(keyId, budget, answer);
      return undefined;
    }
    const applied = Promise.resolve(answer).then(
      (lease) => this.apply(keyId, budget, lease),
      (error: unknown) => this.failed(error),
    );
    this.inFlight.add(applied);
    void applied.finally(() => this.inFlight.delete(applied));
    let timer: NodeJS.Timeout | undefined;
    const givenUp = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.failed(new Error(`The rate-limit store did not answer within ${LEASE_WAIT_MS} ms`));
        resolve();
      }, LEASE_WAIT_MS);
      timer.unref();
    });
    const pending = Promise.race([applied, givenUp]).finally(() => {
      clearTimeout(timer);
      budget.pending = undefined;
    });
    budget.pending = pending;
    return pending;
  }

  private apply(keyId: string, budget: Budget, lease: Lease): void {
    budget.held += lease.granted;
    budget.storeUsed = Math.max(budget.storeUsed, lease.used);
    if (lease.granted === 0 || lease.used >= budget.limit) {
      budget.exhausted = true;
      if (lease.granted === 0) budget.storeUsed = budget.limit;
    }
    budget.refillAt = Math.floor(lease.granted / 2);
    this.onLeased?.(
      keyId,
      { requests: budget.limit, window: budget.window, counter: budget.counter },
      lease,
      budget.windowStart,
    );
  }

  private failed(error: unknown): void {
    this.storeDownUntil = this.now() + RETRY_AFTER_FAILURE_MS;
    this.onError(error);
  }

  /** Budgets of ended windows go, so the map holds only keys seen lately. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [keyId, budget] of this.budgets)
      if (budget.windowEnd <= now && !budget.pending) this.budgets.delete(keyId);
  }
}

function decision(budget: Budget, now: number, ok: boolean, remaining: number, first: boolean): RateDecision {
  return {
    ok,
    unavailable: false,
    limit: budget.limit,
    windowSeconds: budget.windowMs / 1000,
    remaining,
    resetSeconds: Math.max(1, Math.ceil((budget.windowEnd - now) / 1000)),
    startsAtMs: budget.windowStart,
    resetsAtMs: budget.windowEnd,
    firstRefusalInWindow: first,
  };
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}
