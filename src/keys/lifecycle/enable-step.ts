import type { AuditService } from '../../audit/audit-service.ts';
import type { Db } from '../../db/handle.ts';
import type { ChangeRecorder, EventEmitter } from '../../db/unit-of-work.ts';
import { requireRecentSignIn, type UserActor } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import { ConflictError } from '../../shared/errors.ts';
import { keyEvent } from '../events/key-events.ts';
import { isExpired } from '../expiry.ts';
import type { KeyRepository } from '../key-repository.ts';
import type { KeyRowWithCreator } from '../key-rows.ts';
import { keyTarget } from '../key-view.ts';

/** A step of a key change that enables or disables it, inside the caller's transaction. */
export type EnableStep = {
  tx: Db;
  changed: ChangeRecorder;
  emit: EventEmitter;
  actor: UserActor;
  now: Date;
  keys: KeyRepository;
  audit: AuditService;
  clock: Clock;
};

/**
 * Enables or disables a key: audited, announced as `api_key.enabled` or `api_key.disabled`, and
 * published so every instance drops its cached facts. Expired, leaked and (under creator
 * authority) orphaned keys stay as they are.
 */
export async function applyEnabled(
  { tx, changed, emit, actor, now, keys, audit, clock }: EnableStep,
  key: KeyRowWithCreator,
  enabled: boolean,
): Promise<KeyRowWithCreator> {
  if (isExpired(key.expiresAt, now.getTime())) {
    throw new ConflictError(
      'api_key_expired',
      'An expired key cannot be enabled or disabled; create a new key instead.',
    );
  }
  if (key.enabled === enabled) return key;
  // Enabling hands a key its power back: a sensitive action (disabling never is).
  if (enabled) requireRecentSignIn(actor, clock);
  if (enabled && key.disabledReason === 'leaked') {
    throw new ConflictError(
      'api_key_leaked',
      'This key was reported leaked and cannot be enabled again; roll it or create a new key.',
    );
  }
  if (enabled && key.disabledReason === 'creator_deleted' && (await keys.lockTenant(tx, actor.tenantId)) !== 'system') {
    throw new ConflictError(
      'creator_deleted',
      "The key's creator was deleted; under creator authority it cannot be enabled again.",
    );
  }
  const disabledReason = enabled ? null : 'disabled_by_user';
  // Enabling restarts the unused-key clock: the key is idle from now, not from its last use.
  await keys.setEnabled(tx, key.id, enabled, disabledReason, enabled ? now : undefined);
  const action = enabled ? 'api_key.enabled' : 'api_key.disabled';
  await audit.record(tx, actor.tenantId, actor, action, keyTarget(key), { hint: key.hint });
  changed({ type: 'key', id: key.id });
  const after = { ...key, enabled, disabledReason };
  emit(
    enabled
      ? keyEvent('api_key.enabled', after, now.getTime(), actor)
      : keyEvent('api_key.disabled', after, now.getTime(), actor, { reason: disabledReason }),
  );
  return after;
}
