import type { Db } from '../../db/handle.ts';
import type { EventEmitter } from '../../db/unit-of-work.ts';
import type { Actor } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import { keyEvent } from '../events/key-events.ts';
import type { KeyRepository } from '../key-repository.ts';
import type { KeyRow } from '../key-rows.ts';

/** The deleted user whose keys lose their creator. */
type Creator = { id: string; email: string };

/**
 * Keys that lose their creator under creator authority are disabled (`creator_deleted`): a key acts
 * with its creator's roles, and a creator who is gone has none. Users and tenants ask this service
 * inside their own unit of work, so the account's deletion (or the authority's change), the keys
 * disabled with it and their `api_key.disabled` events commit together; only the keys feature
 * writes keys. Each method returns the ids of the keys it disabled.
 */
export function creatorKeys(keys: KeyRepository, clock: Clock) {
  const announce = (emit: EventEmitter, actor: Actor, disabled: readonly KeyRow[], creatorEmail: string | null) => {
    const nowMs = clock.nowMs();
    for (const key of disabled) {
      emit(keyEvent('api_key.disabled', { ...key, creatorEmail }, nowMs, actor, { reason: 'creator_deleted' }));
    }
    return disabled.map((key) => key.id);
  };
  return {
    /** Disables the keys `creator` made (before the account is deleted). */
    async disableCreatedBy(tx: Db, emit: EventEmitter, actor: Actor, creator: Creator): Promise<string[]> {
      return announce(emit, actor, await keys.disableByCreator(tx, creator.id, 'creator_deleted'), creator.email);
    },
    /** Disables a tenant's enabled keys whose creator no longer exists. */
    async disableOrphaned(tx: Db, emit: EventEmitter, actor: Actor, tenantId: string): Promise<string[]> {
      return announce(emit, actor, await keys.disableOrphaned(tx, tenantId, 'creator_deleted'), null);
    },
  };
}

export type CreatorKeys = ReturnType<typeof creatorKeys>;
