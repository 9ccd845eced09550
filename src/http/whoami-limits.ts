import type { KeyLimitsView } from '../keys/key-schemas.ts';
import type { LimitsSeen } from './key-limits.ts';

/**
 * whoami's `limits` as JSON, built by hand: whoami's body is otherwise serialised once per key
 * (src/http/routes/public-api.ts), and these are numbers, enum words and instants, which need no
 * escaping. The shape is `keyLimitsSchema`'s; a test parses it with that schema.
 */
export function limitsJson(seen: LimitsSeen): string {
  const view: KeyLimitsView = {
    rate_limit:
      seen.rateLimit && seen.rate
        ? {
            requests: seen.rateLimit.requests,
            window: seen.rateLimit.window,
            remaining: seen.rate.remaining,
            resets_at: new Date(seen.rate.resetsAtMs).toISOString(),
          }
        : null,
    quota:
      seen.quota && seen.quotaDecision
        ? {
            requests: seen.quota.requests,
            period: seen.quota.window,
            remaining: seen.quotaDecision.remaining,
            resets_at:
              seen.quotaDecision.resetsAtMs === Infinity ? null : new Date(seen.quotaDecision.resetsAtMs).toISOString(),
          }
        : null,
  };
  return JSON.stringify(view);
}
