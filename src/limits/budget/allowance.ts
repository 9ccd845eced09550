import type { BudgetStore, Lease } from './lease.ts';
import { WINDOW_SECONDS, type Period } from '../../shared/limit-terms.ts';

/** What a limiter meters per key: at most `requests` per `window` (a rate-limit window or a quota period). */
export type Allowance = {
  requests: number;
  window: string;
  /** Whose shared count the key spends (a rolled key's successor shares its predecessor's); default: the key's. */
  counter?: string;
};

export type RateDecision = {
  /** false: over the limit (429), or the store could not be asked (`unavailable`). */
  ok: boolean;
  /** Refused only because the shared store could not be reached, not because the budget is spent. */
  unavailable: boolean;
  /** Requests per window. */
  limit: number;
  /** Infinity for a window without end (a `total` quota). */
  windowSeconds: number;
  /** Requests left in this window after this one (0 when refused); this instance's best knowledge. */
  remaining: number;
  /** Whole seconds until the window ends (>= 1; Infinity when it never does). */
  resetSeconds: number;
  /** Epoch milliseconds of the window's start. */
  startsAtMs: number;
  /** Epoch milliseconds of the window's end (Infinity when it never ends). */
  resetsAtMs: number;
  /** true on the first refusal of this key in this window on this instance. */
  firstRefusalInWindow: boolean;
};

/** Budget an instance leased and has not spent, of one shared count in one window. */
export type Holding = { counter: string; windowStart: number; held: number };

/** Holdings added up per shared count and window (a rolled key and its successor share one). */
export function sumHoldings(budgets: Iterable<Holding>): Holding[] {
  const byCount = new Map<string, Holding>();
  for (const { counter, windowStart, held } of budgets) {
    if (held <= 0) continue;
    const known = byCount.get(`${counter}|${windowStart}`);
    if (known) known.held += held;
    else byCount.set(`${counter}|${windowStart}`, { counter, windowStart, held });
  }
  return [...byCount.values()];
}

export type RateLimiterOptions = {
  store: BudgetStore;
  now: () => number;
  onError?: (error: unknown) => void;
  /** The window holding `now`; default: fixed windows of WINDOW_SECONDS aligned to the epoch. */
  periodOf?: (window: string, now: number) => Period;
  /** The largest slice one lease may take; default: no cap beyond the store's eighth. */
  maxSliceOf?: (requests: number) => number;
  /**
   * Lease the next slice as soon as the last unit is spent (default), or only while something is
   * still held: a quota leasing one unit at a time then strands nothing when a change drops what an
   * instance holds, at the price of a wait for the store on the next request.
   */
  leaseAfterLast?: boolean;
  /** Told of every lease the store granted: a quota announces its thresholds from here. */
  onLeased?: (keyId: string, allowance: Allowance, lease: Lease, windowStart: number) => void;
};

/** Fixed windows of WINDOW_SECONDS, aligned to the UTC epoch (docs/keys.md (Rate limits)). */
export function fixedWindowOf(window: string, now: number): Period {
  const windowMs = WINDOW_SECONDS[window as keyof typeof WINDOW_SECONDS] * 1000;
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, end: start + windowMs };
}
