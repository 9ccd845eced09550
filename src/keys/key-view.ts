import { expiryDateOf, isExpired } from './expiry.ts';
import type { KeyListRow, StoredKeyView } from './key-rows.ts';
import type { ApiKeyView, DisabledReason } from './key-schemas.ts';
import {
  quotaPeriodOf,
  type KeyQuota,
  type Quota,
  type QuotaPeriod,
  type RateLimit,
  type RateLimitWindow,
} from '../shared/limit-terms.ts';

const isoOfDate = (instant: Date | null) => instant?.toISOString() ?? null;

/** A stored key as the back office sees it; `status` is derived against the clock now. */
export function toApiKeyView(row: StoredKeyView, nowMs: number): ApiKeyView {
  const instants = {
    createdAt: row.createdAt.toISOString(),
    expiresAt: isoOfDate(row.expiresAt),
    lastUsedAt: isoOfDate(row.lastUsedAt),
    retiresAt: isoOfDate(row.retiresAt),
    lastRefusedAt: isoOfDate(row.lastRefusedAt),
  };
  return listedKeyView({ ...row, ...instants }, nowMs);
}

/** The same view of a listed key, whose instants are already ISO 8601 strings. */
export function listedKeyView(row: KeyListRow, nowMs: number): ApiKeyView {
  const expired = row.expiresAt !== null && isExpired(Date.parse(row.expiresAt), nowMs);
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    created_at: row.createdAt,
    created_by: row.createdBy && row.creatorEmail ? { id: row.createdBy, email: row.creatorEmail } : null,
    expires_at: row.expiresAt === null ? null : expiryDateOf(row.expiresAt),
    expires_at_time: row.expiresAt,
    enabled: row.enabled,
    status: expired ? 'expired' : row.enabled ? 'enabled' : 'disabled',
    disabled_reason: row.disabledReason as DisabledReason | null,
    last_used_at: row.lastUsedAt,
    retires_at: row.retiresAt,
    rate_limit: rateLimitOf(row),
    allowed_ips: row.allowedIps,
    last_refused_ip: row.lastRefusedIp,
    last_refused_at: row.lastRefusedAt,
    quota: quotaViewOf(row, nowMs),
  };
}

/** The API's `quota`: the stored quota, what was used of the current period, and when it ends. */
function quotaViewOf(row: KeyListRow, nowMs: number): ApiKeyView['quota'] {
  const quota = quotaOf(row);
  if (quota === null) return null;
  const { end } = quotaPeriodOf(quota.period, nowMs);
  return {
    ...quota,
    used: Math.min(row.quotaUsed ?? 0, quota.requests),
    resets_at: end === Infinity ? null : new Date(end).toISOString(),
  };
}

type StoredQuota = { quotaRequests: number | null; quotaPeriod: QuotaPeriod | null };

/** The stored pair of columns as the API's `quota`: both set, or none. */
export function quotaOf(row: StoredQuota): Quota | null {
  return row.quotaRequests === null || row.quotaPeriod === null
    ? null
    : { requests: row.quotaRequests, period: row.quotaPeriod };
}

/** The key's quota as the meter spends it: over its own count, or its predecessor's after a roll. */
export function keyQuotaOf(row: StoredQuota & { id: string; quotaCounter: string | null }): KeyQuota | null {
  const quota = quotaOf(row);
  return quota && { requests: quota.requests, window: quota.period, counter: row.quotaCounter ?? row.id };
}

/** The stored pair of columns as the API's `rate_limit`: both set, or none. */
export function rateLimitOf(row: {
  rateLimitRequests: number | null;
  rateLimitWindow: RateLimitWindow | null;
}): RateLimit | null {
  return row.rateLimitRequests === null || row.rateLimitWindow === null
    ? null
    : { requests: row.rateLimitRequests, window: row.rateLimitWindow };
}

/** How the audit trail names a key: the row goes, the trail keeps id and name. */
export function keyTarget(key: { id: string; name: string }) {
  return { type: 'api_key' as const, id: key.id, name: key.name };
}
