import type { AuditService } from '../../audit/audit-service.ts';
import type { UnitOfWork } from '../../db/unit-of-work.ts';
import { requirePermission, requireRecentSignIn, SYSTEM_ACTOR, type UserActor } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import type { RandomBytes } from '../../shared/digest.ts';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../shared/errors.ts';
import { expiryDateOf, expiryInstantOf, isExpired } from '../expiry.ts';
import type { KeyPolicyService } from '../policy/key-policy-service.ts';
import type { KeyRepository } from '../key-repository.ts';
import type { RolledKey, RollOverlap } from '../key-schemas.ts';
import { withCreatorEmails } from '../events/key-event-repository.ts';
import { keyEvent } from '../events/key-events.ts';
import { keyTarget, toApiKeyView } from '../key-view.ts';
import { withQuotaUsed, type QuotaCounts } from './limit-steps.ts';
import { digestSecret, generateSecret, hintOf } from '../format/secret.ts';

const HOUR_MS = 3_600_000;
const OVERLAP_MS: Record<RollOverlap, number> = { none: 0, '1h': HOUR_MS, '24h': 24 * HOUR_MS, '7d': 7 * 24 * HOUR_MS };

export type RollServiceOptions = {
  uow: UnitOfWork;
  keys: KeyRepository;
  audit: AuditService;
  clock: Clock;
  /** The tenant's key policy: the successor is a new key and must comply. */
  policy: Pick<KeyPolicyService, 'enforce'>;
  /** The successor spends its predecessor's quota count: its view shows what was used. */
  quotas: QuotaCounts;
  random?: RandomBytes;
};

/**
 * Rolling a key (docs/keys.md): a new secret replaces the old one, which keeps working (if it did)
 * until `retires_at` and is then refused by the key check (decide.ts) and deleted by the sweep.
 *
 * A roll does not count against MAX_KEYS_PER_TENANT: it replaces a key, and refusing it at the
 * limit would block exactly the advice given for a leaked key. During an overlap the tenant may
 * therefore hold one key more than the limit (creating keys stays refused until it is back below).
 */
export class RollService {
  private readonly options: RollServiceOptions;
  constructor(options: RollServiceOptions) {
    this.options = options;
  }

  /**
   * A leaked or disabled key may be rolled; an expired one may not (its successor would be too).
   * The successor keeps the old `expires_at` unless `expiresAt` gives an earlier one: what a key
   * policy made since the old key was created may require.
   */
  async roll(
    actor: UserActor,
    id: string,
    overlap: RollOverlap,
    { expiresAt: newExpiry }: { expiresAt?: string | undefined } = {},
  ): Promise<RolledKey> {
    requirePermission(actor, 'api_keys:manage');
    requireRecentSignIn(actor, this.options.clock);
    const now = this.options.clock.now();
    const given = newExpiry === undefined ? undefined : expiryInstantOf(newExpiry, now);
    const secret = generateSecret(this.options.random);
    return this.options.uow.inTransaction(async (tx, changed, emit) => {
      // Serialises with creates and other rolls of the tenant's keys.
      await this.options.keys.lockTenant(tx, actor.tenantId);
      const old = await this.options.keys.findForTenant(tx, actor.tenantId, id);
      // A retired key is gone for every purpose but the sweep: not found, like a deleted one.
      if (!old || (old.retiresAt !== null && old.retiresAt <= now)) throw new NotFoundError('API key');
      if (isExpired(old.expiresAt, now.getTime())) {
        throw new ConflictError('api_key_expired', 'An expired key cannot be rolled; create a new key instead.');
      }
      const expiresAt = successorExpiry(old.expiresAt, given);
      // The successor keeps the old key's allowlist, so a policy that requires one judges that.
      await this.options.policy.enforce(
        tx,
        actor.tenantId,
        { expiresAt: expiresAt ? expiryDateOf(expiresAt) : null, allowedIps: old.allowedIps },
        given ? undefined : 'Roll it with a new expires_at that the policy allows.',
      );
      const created = await this.options.keys.insert(tx, {
        tenantId: actor.tenantId,
        name: old.name,
        hint: hintOf(secret),
        secretDigest: digestSecret(secret),
        createdBy: actor.id,
        expiresAt,
        createdAt: now,
        // The successor is limited like its predecessor (its own budget: a new key id).
        rateLimitRequests: old.rateLimitRequests,
        rateLimitWindow: old.rateLimitWindow,
        // ...and used from the same addresses: a roll is no way around an allowlist.
        allowedIps: old.allowedIps,
        // ...and carries its quota and what was used of it: both keys spend one count.
        quotaRequests: old.quotaRequests,
        quotaPeriod: old.quotaPeriod,
        quotaCounter: old.quotaCounter ?? old.id,
      });
      // Rolling a retiring key again never extends its retirement.
      const requested = new Date(now.getTime() + OVERLAP_MS[overlap]);
      const retiresAt = old.retiresAt !== null && old.retiresAt < requested ? old.retiresAt : requested;
      await this.options.audit.record(tx, actor.tenantId, actor, 'api_key.created', keyTarget(created), {
        hint: created.hint,
        expires_at: created.expiresAt ? expiryDateOf(created.expiresAt) : null,
        allowed_ips: created.allowedIps,
        rolled_from: old.id,
      });
      await this.options.audit.record(tx, actor.tenantId, actor, 'api_key.rolled', keyTarget(old), {
        hint: old.hint,
        new_key_id: created.id,
        new_hint: created.hint,
        overlap,
        retires_at: retiresAt.toISOString(),
      });
      if (overlap === 'none') {
        // Refused at once: deleted in the same transaction, by the user who rolled it.
        await this.options.keys.delete(tx, old.id);
        await this.options.audit.record(tx, actor.tenantId, actor, 'api_key.deleted', keyTarget(old), {
          hint: old.hint,
          rolled: true,
        });
      } else {
        await this.options.keys.setRetiresAt(tx, old.id, retiresAt);
      }
      // Cached facts of the old key lack its retires_at (or its row): every instance drops them.
      changed({ type: 'key', id: old.id });
      const nowMs = now.getTime();
      const successor = await withQuotaUsed(this.options.quotas, tx, { ...created, creatorEmail: actor.email }, nowMs);
      const { quotaUsed } = successor;
      emit(keyEvent('api_key.created', successor, nowMs, actor, { rolled_from: old.id }));
      emit(
        keyEvent('api_key.rolled', { ...old, retiresAt, quotaUsed }, nowMs, actor, {
          new_api_key: toApiKeyView(successor, nowMs),
          overlap,
        }),
      );
      if (overlap === 'none')
        emit(keyEvent('api_key.deleted', { ...old, retiresAt, quotaUsed }, nowMs, actor, { reason: 'retired' }));
      return {
        api_key: toApiKeyView(successor, nowMs),
        secret,
        previous: overlap === 'none' ? null : toApiKeyView({ ...old, retiresAt, quotaUsed }, nowMs),
      };
    });
  }

  /** The sweep: deletes every key whose retires_at has come (they are already refused), audited as the system. */
  async deleteRetired(): Promise<number> {
    return this.options.uow.inTransaction(async (tx, changed, emit) => {
      const now = this.options.clock.now();
      const retired = await withCreatorEmails(tx, await this.options.keys.deleteRetired(tx, now));
      for (const key of retired) {
        emit(keyEvent('api_key.deleted', key, now.getTime(), SYSTEM_ACTOR, { reason: 'retired' }));
        await this.options.audit.record(tx, key.tenantId, SYSTEM_ACTOR, 'api_key.deleted', keyTarget(key), {
          hint: key.hint,
          retired_at: key.retiresAt?.toISOString() ?? null,
        });
        changed({ type: 'key', id: key.id });
      }
      return retired.length;
    });
  }
}

/** An expiry is never extended (docs/keys.md): a roll may only bring it closer. */
function successorExpiry(old: Date | null, given: Date | undefined): Date | null {
  if (given === undefined) return old;
  if (old !== null && given > old) {
    throw InvalidRequestError.field(
      'expires_at',
      `A roll never extends a key's life: give a date no later than ${expiryDateOf(old)}, the key's own expiry.`,
    );
  }
  return given;
}
