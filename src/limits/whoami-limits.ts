import type { KeyLimitsView } from '../keys/key-schemas.ts';
import type { LimitsSeen } from './limit-steps.ts';

/**
 * whoami's `limits` as JSON (`keyLimitsSchema`'s shape; a test parses it with that schema), built
 * by hand on every request of a limited key: whoami's body is otherwise serialised once per key
 * (src/http/routes/public-api.ts). Numbers, enum words and instants need no escaping, and an
 * instant's text is kept while its window lasts, so a request builds one short string.
 */
export function limitsJson(seen: LimitsSeen): string {
  const { rateLimit, rate, quota, quotaDecision } = seen;
  const rateJson =
    rateLimit && rate
      ? `{"requests":${rateLimit.requests},"window":"${rateLimit.window}","remaining":${rate.remaining},"resets_at":${instant(rate.resetsAtMs)}}`
      : 'null';
  const quotaJson =
    quota && quotaDecision
      ? `{"requests":${quota.requests},"period":"${quota.window}","remaining":${quotaDecision.remaining},"resets_at":${instant(quotaDecision.resetsAtMs)}}`
      : 'null';
  return `{"rate_limit":${rateJson},"quota":${quotaJson}}`;
}

const instants = new Map<number, string>();

/** A window's end as a JSON string (null for a period that never ends), built once per window. */
function instant(ms: number): string {
  if (ms === Infinity) return 'null';
  let json = instants.get(ms);
  if (json === undefined) {
    // Windows end in order: the few kept are the current ones.
    if (instants.size >= 256) instants.clear();
    instants.set(ms, (json = `"${new Date(ms).toISOString()}"`));
  }
  return json;
}

/** The same `limits` as an object, for the MCP whoami tool: nothing left to report for a key without limits. */
export function limitsView(seen: LimitsSeen | undefined): KeyLimitsView {
  const { rateLimit, rate, quota, quotaDecision } = seen ?? {};
  return {
    rate_limit:
      rateLimit && rate
        ? {
            requests: rateLimit.requests,
            window: rateLimit.window,
            remaining: rate.remaining,
            resets_at: new Date(rate.resetsAtMs).toISOString(),
          }
        : null,
    quota:
      quota && quotaDecision
        ? {
            requests: quota.requests,
            period: quota.window,
            remaining: quotaDecision.remaining,
            resets_at: quotaDecision.resetsAtMs === Infinity ? null : new Date(quotaDecision.resetsAtMs).toISOString(),
          }
        : null,
  };
}
