import type { UnitOfWork } from '../db/unit-of-work.ts';
import { lowMarkOf } from './quota/quota.ts';
import { type KeyQuota } from '../shared/limit-terms.ts';
import type { QuotaNotice, QuotaRepository } from './quota/quota-repository.ts';
import { SYSTEM_ACTOR } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { findKeyForEvent } from '../keys/events/key-event-repository.ts';
import { keyEvent } from '../keys/events/key-events.ts';
import { toApiKeyView } from '../keys/key-view.ts';

/**
 * `api_key.quota_low` (80% used) and `api_key.quota_exhausted` (the first refusal), each once per
 * key count and period across instances: the period's row in `quota_periods` decides which
 * instance announces it (an update that flips the flag only once). Runs off the request path.
 * `data.quota` is the key's quota with the use that made the event: the 80% mark, or all of it.
 */
export class QuotaNotices {
  private readonly uow: UnitOfWork;
  private readonly quotas: QuotaRepository;
  private readonly clock: Clock;
  constructor(uow: UnitOfWork, quotas: QuotaRepository, clock: Clock) {
    this.uow = uow;
    this.quotas = quotas;
    this.clock = clock;
  }

  async notice(keyId: string, quota: KeyQuota, windowStart: number, notice: QuotaNotice): Promise<boolean> {
    const nowMs = this.clock.nowMs();
    return this.uow.inTransaction(async (tx, _changed, emit) => {
      if (!(await this.quotas.claim(tx, quota.counter, windowStart, notice))) return false;
      const key = await findKeyForEvent(tx, keyId);
      if (!key) return false;
      const quotaUsed = notice === 'low' ? lowMarkOf(quota.requests) : quota.requests;
      const type = notice === 'low' ? 'api_key.quota_low' : 'api_key.quota_exhausted';
      const event = keyEvent(type, { ...key, quotaUsed }, nowMs, SYSTEM_ACTOR);
      emit({ ...event, data: { ...event.data, quota: toApiKeyView({ ...key, quotaUsed }, nowMs).quota } });
      return true;
    });
  }
}
