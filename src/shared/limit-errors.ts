import { QUOTA_EXCEEDED_DETAILS } from './error-catalog.ts';
import { AirkeyError } from './errors.ts';

// The refusals of a key's own limits (src/limits): each built once and shared, its wait in the header fields.

/** A valid key that used up its quota for the period (docs/keys.md (Quotas)); one frozen instance per period serves every refusal. */
export class QuotaExceededError extends AirkeyError {
  constructor(period: 'day' | 'month' | 'total') {
    super('quota_exceeded', QUOTA_EXCEEDED_DETAILS[period]);
  }
}

/**
 * A valid key went over its own rate limit (docs/keys.md (Rate limits)); the client waits for the
 * next window, which Retry-After and the RateLimit field name, so the body is the same for every
 * refusal.
 */
export class RateLimitedError extends AirkeyError {
  constructor() {
    super(
      'rate_limited',
      'This key has used its rate limit for the current window. Retry-After says when the next window starts.',
    );
  }
}
