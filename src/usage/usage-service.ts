import { requirePermission, type UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError } from '../shared/errors.ts';
import { isUuid } from '../shared/ids.ts';
import type { UsageRepository } from './usage-repository.ts';
import type { TenantUsage, Usage, UsageWindow } from './usage-schemas.ts';
import { DAY_MS, HOUR_MS, hourOf, seriesOf, spanOf } from './usage-series.ts';

/** Usage is kept this long; older hourly buckets are pruned by the sweep. */
export const USAGE_RETENTION_DAYS = 90;
const TOP_KEYS = 10;

export type UsageServiceOptions = {
  usage: UsageRepository;
  clock: Clock;
};

/**
 * Reads usage for the back office's charts (docs/api.md). Counts come from the database, where every
 * instance's write-behind adds up; they lag by at most USAGE_FLUSH_MS.
 */
export class UsageService {
  private lastPruneMs = Number.NEGATIVE_INFINITY;
  private readonly options: UsageServiceOptions;
  constructor(options: UsageServiceOptions) {
    this.options = options;
  }

  async forKey(actor: UserActor, keyId: string, window: UsageWindow): Promise<Usage> {
    requirePermission(actor, 'api_keys:manage');
    // A malformed id, a deleted key and another tenant's key are all "not found": existence is not revealed.
    if (!isUuid(keyId) || !(await this.options.usage.keyExists(actor.tenantId, keyId)))
      throw new NotFoundError('API key');
    const span = spanOf(window, this.options.clock.nowMs());
    const rows = await this.options.usage.keyHours(keyId, new Date(span.startMs), new Date(span.endMs));
    return { window, bucket: span.bucket, ...seriesOf(span, rows) };
  }

  /** The whole tenant, deleted keys included, and its busiest existing keys. */
  async forTenant(actor: UserActor, window: UsageWindow): Promise<TenantUsage> {
    requirePermission(actor, 'api_keys:manage');
    const span = spanOf(window, this.options.clock.nowMs());
    const [from, to] = [new Date(span.startMs), new Date(span.endMs)];
    const [rows, topKeys] = await Promise.all([
      this.options.usage.tenantHours(actor.tenantId, from, to),
      this.options.usage.topKeys(actor.tenantId, from, to, TOP_KEYS),
    ]);
    return { window, bucket: span.bucket, ...seriesOf(span, rows), top_keys: topKeys };
  }

  /**
   * Deletes buckets older than the retention. Called by the sweep every few seconds, it works at
   * most once an hour per instance: buckets are hourly, so nothing new is old enough sooner.
   */
  async prune(): Promise<void> {
    const nowMs = this.options.clock.nowMs();
    if (nowMs - this.lastPruneMs < HOUR_MS) return;
    await this.options.usage.pruneBefore(new Date(hourOf(nowMs) - USAGE_RETENTION_DAYS * DAY_MS));
    this.lastPruneMs = nowMs;
  }
}
