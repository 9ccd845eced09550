import type { AuditService } from '../../audit/audit-service.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { SYSTEM_ACTOR } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import { TooManyRequestsError } from '../../shared/errors.ts';
import type { FailureThrottle } from '../../throttle/failure-throttle.ts';
import { hasValidChecksum } from '../format/checksum.ts';
import type { KeyRepository } from '../key-repository.ts';
import type { LeakReport, LeakReceipt } from '../key-schemas.ts';
import { withCreatorEmails } from '../events/key-event-repository.ts';
import { keyEvent } from '../events/key-events.ts';
import { keyTarget } from '../key-view.ts';
import type { LegacyKeys } from '../format/legacy-keys.ts';
import { digestSecret, hasKeyFormat } from '../format/secret.ts';

/** Who sent a report, as the transport saw them; kept in the audit trail, never trusted. */
export type Reporter = { address: string; userAgent: string | undefined };

const USER_AGENT_KEPT = 200;

export type LeakServiceOptions = {
  uow: UnitOfWork;
  keys: KeyRepository;
  audit: AuditService;
  clock: Clock;
  reports: FailureThrottle;
  legacyKeys: Pick<LegacyKeys, 'noneRemain'>;
};

/**
 * Leak reports (docs/api.md `POST /api/v1/leaked-keys`): anyone who finds a key may report it, without
 * a key of their own. Each item that is a live key of any tenant is disabled as leaked at once on
 * every instance. The answer is the same whatever the items were, so a report reveals nothing.
 *
 * Throttle: every report spends one point of a per-client budget (the `reports` throttle, 20 a
 * minute in services.ts), whatever it held; past it, 429. That bounds the lookups one client can
 * cause (100 digests a report) without turning the answer into an oracle.
 */
export class LeakService {
  private readonly uow: UnitOfWork;
  private readonly keys: KeyRepository;
  private readonly audit: AuditService;
  private readonly clock: Clock;
  private readonly reports: FailureThrottle;
  private readonly legacyKeys: Pick<LegacyKeys, 'noneRemain'>;

  constructor(options: LeakServiceOptions) {
    this.uow = options.uow;
    this.keys = options.keys;
    this.audit = options.audit;
    this.clock = options.clock;
    this.reports = options.reports;
    this.legacyKeys = options.legacyKeys;
  }

  async report(input: LeakReport, reporter: Reporter): Promise<LeakReceipt> {
    if (!(await this.reports.tryTake(reporter.address))) {
      throw new TooManyRequestsError(await this.reports.retryAfter(reporter.address));
    }
    const digests = new Set<string>();
    for (const item of input.keys) {
      const candidate = item.trim();
      // Like the key check: only something that could be a key costs a lookup.
      if (hasKeyFormat(candidate) && (!this.legacyKeys.noneRemain || hasValidChecksum(candidate)))
        digests.add(digestSecret(candidate));
    }
    if (digests.size > 0) await this.disableLeaked([...digests], reporter);
    return { received: input.keys.length };
  }

  private async disableLeaked(digests: string[], reporter: Reporter): Promise<void> {
    const now = this.clock.now();
    await this.uow.inTransaction(async (tx, changed, emit) => {
      const live = await withCreatorEmails(tx, await this.keys.findLiveByDigests(tx, digests, now));
      for (const key of live) {
        // 'leaked' also replaces a user's disable: a leaked key must never be enabled again.
        await this.keys.setEnabled(tx, key.id, false, 'leaked');
        await this.audit.record(tx, key.tenantId, SYSTEM_ACTOR, 'api_key.leaked', keyTarget(key), {
          hint: key.hint,
          reporter_address: reporter.address,
          reporter_user_agent: reporter.userAgent?.slice(0, USER_AGENT_KEPT) ?? null,
        });
        changed({ type: 'key', id: key.id });
        emit(
          keyEvent(
            'api_key.disabled',
            { ...key, enabled: false, disabledReason: 'leaked' },
            now.getTime(),
            SYSTEM_ACTOR,
            {
              reason: 'leaked',
            },
          ),
        );
      }
    });
  }
}
