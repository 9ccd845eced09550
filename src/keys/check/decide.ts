import { isExpired } from '../expiry.ts';
import type { Principal } from '../../shared/principal.ts';
import type { KeyFacts } from '../key-facts.ts';
import type { KeyQuota, RateLimit } from '../../shared/limit-terms.ts';

export type KeyFailure = 'api_key_invalid' | 'api_key_disabled' | 'api_key_expired';

/**
 * An accepted key; `rateLimit` and `quota` are undefined for a key without one. It is also the
 * admission's `admitted` outcome for a key without limits (src/admission/outcome.ts): admitting
 * it allocates nothing more than this.
 */
export type Accepted = {
  ok: true;
  status: 'admitted';
  /** An API key, or an OAuth access token (src/oauth/token-check.ts), admitted the same way. */
  credential: 'key' | 'oauth';
  principal: Principal;
  keyId: string;
  rateLimit: RateLimit | undefined;
  quota: KeyQuota | undefined;
};
export type Verdict = Accepted | { ok: false; reason: KeyFailure };

/**
 * The pure decision for one request: no I/O, no clock of its own. `facts` is null for a digest
 * that matches no key (unknown or deleted); a retired key is refused the same way.
 */
export function decide(facts: KeyFacts | null, nowMs: number): Verdict {
  if (facts === null) return { ok: false, reason: 'api_key_invalid' };
  // A rolled key is gone from its retires_at on, like a deleted one, whether or not the sweep ran.
  if (facts.retiresAtMs !== null && nowMs >= facts.retiresAtMs) return { ok: false, reason: 'api_key_invalid' };
  // An expired key is expired whatever `enabled` says (docs/keys.md).
  if (isExpired(facts.expiresAtMs, nowMs)) return { ok: false, reason: 'api_key_expired' };
  if (!facts.enabled) return { ok: false, reason: 'api_key_disabled' };
  // Under creator authority a key whose creator is gone acts as nobody.
  if (facts.authority === 'creator' && facts.creatorId === null) return { ok: false, reason: 'api_key_disabled' };
  return {
    ok: true,
    status: 'admitted',
    credential: 'key',
    principal: facts.principal,
    keyId: facts.keyId,
    rateLimit: facts.rateLimit ?? undefined,
    quota: facts.quota ?? undefined,
  };
}
