import type { Accepted } from '../keys/check/decide.ts';
import type { LimitFields, LimitsSeen } from '../limits/index.ts';
import type { QuotaPeriod } from '../shared/limit-terms.ts';

/**
 * A request let through: who it acts as, and for a limited key the RateLimit header fields and
 * what whoami reports. A key without limits is admitted as the key check's own `Accepted`, nothing
 * more allocated; a limited one as a copy with the two members set.
 */
export type Admitted = Accepted & { fields?: LimitFields; limitsSeen?: LimitsSeen };

/** Refused at a limit step: the key it was (for the request's log and span) and the header fields. */
type LimitRefused =
  | { status: 'rate_limited'; key: Accepted; fields: LimitFields; retryAfterSeconds: number }
  | {
      status: 'quota_exceeded';
      key: Accepted;
      period: QuotaPeriod;
      fields: LimitFields;
      /** None for a `total` quota, which never resets. */
      retryAfterSeconds: number | undefined;
    }
  /** The quota's count could not be asked and nothing is held: 503, never "exceeded". */
  | { status: 'quota_unavailable'; key: Accepted; fields: LimitFields };

/**
 * The one outcome list of the admission, in the order of its steps (src/admission/admit.ts):
 * credential, state, address, rate, quota. Each transport maps it to its answer once
 * (src/http/admission-answer.ts); the problem code of each is in the comment.
 */
export type Admission =
  | Admitted
  /** api_key_missing (401): no credential in the request. */
  | { status: 'missing_credential' }
  /** api_key_ambiguous (400): two different credentials. */
  | { status: 'ambiguous_credential' }
  /** api_key_invalid (401): unknown, malformed, deleted or retired. */
  | { status: 'invalid' }
  /** api_key_disabled (401): disabled, or acting for a creator who is gone. */
  | { status: 'disabled' }
  /** api_key_expired (401). */
  | { status: 'expired' }
  /** invalid_token (401): an access token unknown, expired, revoked or for the other resource (docs/oauth.md). */
  | { status: 'invalid_token' }
  /** too_many_requests (429): a client that keeps presenting bad credentials. */
  | { status: 'throttled'; retryAfterSeconds: number }
  /** api_key_ip_not_allowed (403): a valid key from outside its allowlist; `client` as seen. */
  | { status: 'address_refused'; client: string }
  /** unavailable (503): the credential could not be checked (its store unreachable). */
  | { status: 'unavailable'; cause: unknown }
  | LimitRefused;

/** What the credential step answers (credential, state, address): the admission's first statuses. */
export type CredentialOutcome = Exclude<Admission, LimitRefused | { status: 'unavailable' }>;
