import type { Db } from '../db/handle.ts';
import type { EventEmitter } from '../db/unit-of-work.ts';
import type { Actor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { keyEvent } from './key-events.ts';
import type { KeyRepository } from './key-repository.ts';
import type { KeyRow } from './key-rows.ts';

/** The deleted user whose keys lose their creator. */
type Creator = { id: string; email: string };

/**
 * Keys that lose their creator under creator authority are disabled (`creator_deleted`): a key acts
 * with its creator's roles, and a creator who is gone has none. Users and tenants ask this service
 * inside their own unit of work, so the account's deletion (or the authority's change), the keys
 * disabled with it and their `api_key.disabled` events commit together; only the keys feature
 * writes keys.
 */
export class CreatorKeys {
  private readonly keys: KeyRepository;
  private readonly clock: Clock;

  constructor(keys: KeyRepository, clock: Clock) {
    this.keys = keys;
    this.clock = clock;
  }

  /** Disables the keys `creator` made (before the account is deleted); returns their ids. */
  async disableCreatedBy(tx: Db, emit: EventEmitter, actor: Actor, creator: Creator): Promise<string[]> {
    const disabled = await this.keys.disableByCreator(tx, creator.id, 'creator_deleted');
    this.announce(emit, actor, disabled, creator.email);
    return disabled.map((key) => key.id);
  }

  /** Disables a tenant's enabled keys whose creator no longer exists; returns their ids. */
  async disableOrphaned(tx: Db, emit: EventEmitter, actor: Actor, tenantId: string): Promise<string[]> {
    const disabled = await this.keys.disableOrphaned(tx, tenantId, 'creator_deleted');
    this.announce(emit, actor, disabled, null);
    return disabled.map((key) => key.id);
  }

  private announce(emit: EventEmitter, actor: Actor, keys: readonly KeyRow[], creatorEmail: string | null): void {
    const nowMs = this.clock.now().getTime();
    for (const key of keys) {
      emit(keyEvent('api_key.disabled', { ...key, creatorEmail }, nowMs, actor, { reason: 'creator_deleted' }));
    }
  }
}
