import type { Db } from '../../db/handle.ts';
import { quotaPeriodOf, usedKeyOf, type Quota, type QuotaPeriod, type RateLimit } from '../../shared/limit-terms.ts';
import { keyEvent, rateLimitChangedEvent } from '../events/key-events.ts';
import type { AllowedIpsStep } from './allowed-ips.ts';
import type { KeyListRow, KeyRowWithCreator, StoredKeyView } from '../key-rows.ts';
import { keyQuotaOf, keyTarget, quotaOf, rateLimitOf } from '../key-view.ts';

/**
 * What a key change needs of the quota counts, which the limits keep (src/limits/quota): this
 * period's use of some counters, named by `usedKeyOf`, and a period started over. The key core
 * names this port, never the limits, so the arrow between the two points one way.
 */
export type QuotaCounts = {
  usedNow(
    counters: readonly { counter: string; period: QuotaPeriod }[],
    nowMs: number,
    db?: Db,
  ): Promise<Map<string, number>>;
  reset(tx: Db, counter: string, windowStart: number): Promise<void>;
};

/** A step of a key change (as an allowlist's), with where quota counts are kept. */
export type QuotaStep = AllowedIpsStep & { quotas: QuotaCounts };

/**
 * Sets a key's rate limit inside the caller's transaction (docs/keys.md (Rate limits)): audited and
 * announced as `api_key.rate_limit_changed` with before and after, and published like a disable,
 * so every instance drops what it leased under the old limit before the response is sent.
 */
export async function applyRateLimit(
  { tx, changed, emit, actor, now, keys, audit }: AllowedIpsStep,
  key: KeyRowWithCreator,
  limit: RateLimit | null,
): Promise<KeyRowWithCreator> {
  const before = rateLimitOf(key);
  if (before?.requests === limit?.requests && before?.window === limit?.window) return key;
  const rules = { rateLimitRequests: limit?.requests ?? null, rateLimitWindow: limit?.window ?? null };
  await keys.setRules(tx, key.id, rules);
  await audit.record(tx, actor.tenantId, actor, 'api_key.rate_limit_changed', keyTarget(key), {
    hint: key.hint,
    before,
    after: limit,
  });
  changed({ type: 'key', id: key.id });
  const after = { ...key, ...rules };
  emit(rateLimitChangedEvent(after, now.getTime(), actor, before, limit));
  return after;
}

/**
 * Sets a key's quota inside the caller's transaction (docs/keys.md (Quotas)): audited and announced
 * as `api_key.quota_changed` with before and after, and published like a disable, so every
 * instance drops what it leased under the old quota before the response is sent. What was used
 * of the period stays used: the count is the counter's, not the quota's, so a quota lowered below
 * it refuses at once. The same quota again changes and records nothing.
 */
export async function applyQuota(step: QuotaStep, key: KeyRowWithCreator, quota: Quota | null) {
  const { tx, changed, emit, actor, now, keys, audit } = step;
  const before = quotaOf(key);
  if (before?.requests === quota?.requests && before?.period === quota?.period) return key;
  await keys.setRules(tx, key.id, { quotaRequests: quota?.requests ?? null, quotaPeriod: quota?.period ?? null });
  await audit.record(tx, actor.tenantId, actor, 'api_key.quota_changed', keyTarget(key), {
    hint: key.hint,
    before,
    after: quota,
  });
  changed({ type: 'key', id: key.id });
  const after = await withQuotaUsed(
    step.quotas,
    tx,
    {
      ...key,
      quotaRequests: quota?.requests ?? null,
      quotaPeriod: quota?.period ?? null,
    },
    now.getTime(),
  );
  emit(keyEvent('api_key.quota_changed', after, now.getTime(), actor, { before, after: quota }));
  return after;
}

/**
 * The current period starts over for the key's count (shared with a rolled key's successor while
 * the old key retires): audited `api_key.quota_reset`, and published for every key spending the
 * count, so no instance keeps spending what it leased before the reset.
 */
export async function resetQuota(step: QuotaStep, key: KeyRowWithCreator): Promise<KeyRowWithCreator> {
  const { tx, changed, actor, now, keys, quotas, audit } = step;
  const quota = keyQuotaOf(key);
  if (quota === null) return key;
  await quotas.reset(tx, quota.counter, quotaPeriodOf(quota.window, now.getTime()).start);
  for (const id of await keys.idsByQuotaCounter(tx, quota.counter)) changed({ type: 'key', id });
  await audit.record(tx, actor.tenantId, actor, 'api_key.quota_reset', keyTarget(key), {
    hint: key.hint,
    quota: quotaOf(key),
  });
  return { ...key, quotaUsed: 0 };
}

/** Keys with what their counters accepted in the current period, read in one query. */
export async function withQuotaUsed<K extends StoredKeyView | KeyListRow>(
  quotas: QuotaCounts,
  db: Db,
  key: K,
  nowMs: number,
): Promise<K & { quotaUsed?: number }> {
  const [withUsed] = await listWithQuotaUsed(quotas, db, [key], nowMs);
  return withUsed!;
}

/** The same for a list; `db` is the caller's transaction, or the repository's own connection. */
export async function listWithQuotaUsed<K extends StoredKeyView | KeyListRow>(
  quotas: QuotaCounts,
  db: Db | undefined,
  keys: readonly K[],
  nowMs: number,
): Promise<K[]> {
  const metered = keys.flatMap((key) => {
    const quota = keyQuotaOf(key);
    return quota ? [{ counter: quota.counter, period: quota.window }] : [];
  });
  if (metered.length === 0) return [...keys];
  const used = await quotas.usedNow(metered, nowMs, db);
  return keys.map((key) => {
    const quota = keyQuotaOf(key);
    return quota ? { ...key, quotaUsed: used.get(usedKeyOf(quota.counter, quota.window, nowMs)) ?? 0 } : key;
  });
}
