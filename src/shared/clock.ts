/** Time is injected so expiry and throttling are testable without waiting. */
export interface Clock {
  now(): Date;
  /** `now()` as epoch milliseconds, without a Date: the request path reads it several times a request. */
  nowMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), nowMs: () => Date.now() };

/** Milliseconds on a clock that never jumps (`performance.now()`): for intervals, never for dates. */
export type MonotonicClock = () => number;

export const monotonicClock: MonotonicClock = () => performance.now();
