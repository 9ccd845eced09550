/** One instance asking the shared store for a slice of a key's budget in one window. */
export type LeaseRequest = {
  keyId: string;
  /** Epoch milliseconds of the window's start (a multiple of `windowMs`). */
  windowStart: number;
  windowMs: number;
  /** The key's requests per window. */
  limit: number;
  /** No lease takes more than this (a quota keeps what a crash can strand under 1%). */
  maxSlice: number;
  /** This instance's clock, for expiry of the store's records. */
  now: number;
};

/** What the store granted, and how much of the window all instances together have leased since. */
export type Lease = { granted: number; used: number };

/**
 * The shared count of leased budget per key and window. `lease` must be one atomic step: read
 * `used`, grant `sliceOf(limit - used)`, add it — so the grants of all instances never sum past
 * the limit. A synchronous answer lets the limiter stay synchronous (the in-process store).
 */
export interface BudgetStore {
  lease(request: LeaseRequest): Lease | Promise<Lease>;
}

/** How much of the window's budget one lease takes: an eighth of what is left (at least one). */
export const SLICE_DIVISOR = 8;

/**
 * Slices shrink with what is left, so an instance whose demand stops strands at most an eighth of
 * the remainder, and the last requests of a window are leased one by one. Every store computes
 * the same rule atomically (in SQL, in Lua); this is the reference.
 */
export function sliceOf(remaining: number, maxSlice = Infinity): number {
  if (remaining <= 0) return 0;
  return Math.min(remaining, maxSlice, Math.max(1, Math.ceil(remaining / SLICE_DIVISOR)));
}
