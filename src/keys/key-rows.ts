import { isoOfUtcTimestamp } from '../db/utc-instant.ts';
import type { apiKeys } from '../db/schema.ts';

/** The shapes a stored key is read in, and how the list query's rows become one. */
export type KeyRow = typeof apiKeys.$inferSelect;
export type KeyRowWithCreator = KeyRow & { creatorEmail: string | null; quotaUsed?: number };
/** A key as the back office lists it: the stored row without its digest and bookkeeping. */
export type StoredKeyView = Pick<
  KeyRowWithCreator,
  | 'id'
  | 'name'
  | 'hint'
  | 'createdAt'
  | 'createdBy'
  | 'creatorEmail'
  | 'enabled'
  | 'disabledReason'
  | 'expiresAt'
  | 'lastUsedAt'
  | 'retiresAt'
  | 'rateLimitRequests'
  | 'rateLimitWindow'
  | 'allowedIps'
  | 'lastRefusedIp'
  | 'lastRefusedAt'
  | 'quotaRequests'
  | 'quotaPeriod'
  | 'quotaCounter'
> & {
  /** What the key's quota counter accepted in the current period, where it was read (else 0). */
  quotaUsed?: number;
};
/** The same, with its instants already in the API's ISO 8601 form (as the list reads them). */
export type KeyListRow = Omit<
  StoredKeyView,
  'createdAt' | 'expiresAt' | 'lastUsedAt' | 'retiresAt' | 'lastRefusedAt'
> & {
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  retiresAt: string | null;
  lastRefusedAt: string | null;
};
type Instant = string | null;
/** One key of the list query's JSON array, in column order. */
export type ListedTuple = [
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  boolean,
  string | null,
  Instant,
  Instant,
  Instant,
  number | null,
  KeyRow['rateLimitWindow'],
  string[] | null,
  string | null,
  Instant,
  number | null,
  KeyRow['quotaPeriod'],
  string,
];

const isoOf = (instant: Instant) => (instant === null ? null : isoOfUtcTimestamp(instant));

export function listRowOf([
  id,
  name,
  hint,
  createdAt,
  createdBy,
  creatorEmail,
  enabled,
  disabledReason,
  expiresAt,
  lastUsedAt,
  retiresAt,
  rateLimitRequests,
  rateLimitWindow,
  allowedIps,
  lastRefusedIp,
  lastRefusedAt,
  quotaRequests,
  quotaPeriod,
  quotaCounter,
]: ListedTuple): KeyListRow {
  return {
    id,
    name,
    hint,
    createdBy,
    creatorEmail,
    enabled,
    disabledReason,
    createdAt: isoOfUtcTimestamp(createdAt),
    expiresAt: isoOf(expiresAt),
    lastUsedAt: isoOf(lastUsedAt),
    retiresAt: isoOf(retiresAt),
    rateLimitRequests,
    rateLimitWindow,
    allowedIps,
    lastRefusedIp,
    lastRefusedAt: isoOf(lastRefusedAt),
    quotaRequests,
    quotaPeriod,
    quotaCounter,
  };
}
