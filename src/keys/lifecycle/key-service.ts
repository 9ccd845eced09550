import type { AuditService } from '../../audit/audit-service.ts';
import type { Db } from '../../db/handle.ts';
import type { ChangeRecorder, EventEmitter, UnitOfWork } from '../../db/unit-of-work.ts';
import { requirePermission, requireRecentSignIn, SYSTEM_ACTOR, type UserActor } from '../../shared/actor.ts';
import type { Clock } from '../../shared/clock.ts';
import type { RandomBytes } from '../../shared/digest.ts';
import { ConflictError, InvalidRequestError, NotFoundError } from '../../shared/errors.ts';
import { expiryDateOf, expiryInstantOf } from '../expiry.ts';
import type { KeyPolicyService } from '../policy/key-policy-service.ts';
import type { KeyRepository } from '../key-repository.ts';
import type { KeyRowWithCreator } from '../key-rows.ts';
import type { ApiKeyView, CreatedKey, CreateKeyInput, KeyList, UpdateKeyInput } from '../key-schemas.ts';
import { withCreatorEmails } from '../events/key-event-repository.ts';
import { keyEvent } from '../events/key-events.ts';
import { allowedIpsOf, applyAllowedIps } from './allowed-ips.ts';
import { applyEnabled } from './enable-step.ts';
import { validName } from './valid-name.ts';
import {
  applyQuota,
  applyRateLimit,
  listWithQuotaUsed,
  resetQuota,
  withQuotaUsed,
  type QuotaCounts,
} from './limit-steps.ts';
import { keyTarget, listedKeyView, toApiKeyView } from '../key-view.ts';
import { digestSecret, generateSecret, hintOf } from '../format/secret.ts';

export type KeyServiceOptions = {
  uow: UnitOfWork;
  keys: KeyRepository;
  audit: AuditService;
  clock: Clock;
  maxKeysPerTenant: number;
  /** The tenant's key policy, judged inside the transaction that makes the key. */
  policy: Pick<KeyPolicyService, 'enforce' | 'enforceAllowedIps'>;
  /** What each key's quota counter accepted in its period, for the views; reset. */
  quotas: QuotaCounts;
  random?: RandomBytes;
};

/**
 * Key lifecycle (docs/keys.md): create, list, enable, disable, delete. Every method checks
 * `api_keys:manage` itself, so no adapter (route, MCP tool, CLI verb) can skip it; every change
 * is audited and published through the unit of work.
 */
/** What a step of `update` works with, inside its transaction. */
type Apply = { tx: Db; changed: ChangeRecorder; emit: EventEmitter; actor: UserActor; now: Date };

export class KeyService {
  private readonly uow: UnitOfWork;
  private readonly keys: KeyRepository;
  private readonly audit: AuditService;
  private readonly clock: Clock;
  private readonly options: KeyServiceOptions;
  constructor(options: KeyServiceOptions) {
    this.options = options;
    this.uow = options.uow;
    this.keys = options.keys;
    this.audit = options.audit;
    this.clock = options.clock;
  }

  async list(actor: UserActor): Promise<KeyList> {
    requirePermission(actor, 'api_keys:manage');
    const { rows, authority } = await this.keys.listForTenant(actor.tenantId);
    const nowMs = this.clock.nowMs();
    const metered = await listWithQuotaUsed(this.options.quotas, undefined, rows, nowMs);
    return { data: metered.map((row) => listedKeyView(row, nowMs)), authority };
  }

  /** Returns the secret: the only time it exists in clear outside the caller's hands. */
  async create(actor: UserActor, input: CreateKeyInput): Promise<CreatedKey> {
    requirePermission(actor, 'api_keys:manage');
    requireRecentSignIn(actor, this.clock);
    const name = validName(input.name);
    const now = this.clock.now();
    const expiresAt = input.expires_at ? expiryInstantOf(input.expires_at, now) : null;
    const allowedIps = allowedIpsOf(input.allowed_ips) ?? null;
    const secret = generateSecret(this.options.random);
    const row = await this.uow.inTransaction(async (tx, _changed, emit) => {
      await this.keys.lockTenant(tx, actor.tenantId);
      if ((await this.keys.countForTenant(tx, actor.tenantId)) >= this.options.maxKeysPerTenant) {
        throw new ConflictError(
          'api_key_limit_reached',
          `This tenant already holds ${this.options.maxKeysPerTenant} keys, the most allowed. Delete unused keys first.`,
        );
      }
      await this.options.policy.enforce(tx, actor.tenantId, {
        expiresAt: expiresAt ? expiryDateOf(expiresAt) : null,
        allowedIps,
      });
      const inserted = await this.keys.insert(tx, {
        tenantId: actor.tenantId,
        name,
        hint: hintOf(secret),
        secretDigest: digestSecret(secret),
        createdBy: actor.id,
        expiresAt,
        createdAt: now,
        rateLimitRequests: input.rate_limit?.requests ?? null,
        rateLimitWindow: input.rate_limit?.window ?? null,
        allowedIps,
        quotaRequests: input.quota?.requests ?? null,
        quotaPeriod: input.quota?.period ?? null,
      });
      await this.audit.record(tx, actor.tenantId, actor, 'api_key.created', keyTarget(inserted), {
        hint: inserted.hint,
        expires_at: expiresAt ? expiryDateOf(expiresAt) : null,
        rate_limit: input.rate_limit ?? null,
        allowed_ips: allowedIps,
        quota: input.quota ?? null,
      });
      emit(keyEvent('api_key.created', { ...inserted, creatorEmail: actor.email }, now.getTime(), actor));
      return inserted;
    });
    return { api_key: toApiKeyView({ ...row, creatorEmail: actor.email }, now.getTime()), secret };
  }

  /** Idempotent: asking for the state a key is already in changes nothing and records nothing. */
  async setEnabled(actor: UserActor, id: string, enabled: boolean): Promise<ApiKeyView> {
    return this.update(actor, id, { enabled });
  }

  /**
   * `PATCH`: enabled state, rate limit, allowlist, any of them, in one transaction; idempotent. A
   * changed limit or list is published like a disable, so every instance drops what it held for
   * the key from this response on (docs/keys.md (Rate limits), (IP allowlists)).
   */
  async update(actor: UserActor, id: string, input: UpdateKeyInput): Promise<ApiKeyView> {
    requirePermission(actor, 'api_keys:manage');
    if (Object.values(input).every((value) => value === undefined)) {
      throw InvalidRequestError.field('body', 'Give at least one of enabled, rate_limit, allowed_ips and quota.');
    }
    const allowedIps = allowedIpsOf(input.allowed_ips);
    const now = this.clock.now();
    const row = await this.uow.inTransaction(async (tx, changed, emit) => {
      let key = await this.requireKey(tx, actor.tenantId, id);
      const apply = { tx, changed, emit, actor, now };
      if (input.enabled !== undefined)
        key = await applyEnabled(
          { ...apply, keys: this.keys, audit: this.audit, clock: this.clock },
          key,
          input.enabled,
        );
      if (input.rate_limit !== undefined) key = await applyRateLimit(this.quotaStep(apply), key, input.rate_limit);
      if (allowedIps !== undefined) {
        // Only the allowlist rule: the key's expiry was judged when it was made.
        await this.options.policy.enforceAllowedIps(tx, actor.tenantId, allowedIps);
        key = await applyAllowedIps({ ...apply, keys: this.keys, audit: this.audit }, key, allowedIps);
      }
      if (input.quota !== undefined) key = await applyQuota(this.quotaStep(apply), key, input.quota);
      return withQuotaUsed(this.options.quotas, tx, key, now.getTime());
    });
    return toApiKeyView(row, now.getTime());
  }

  /** `POST …/quota/reset`: the key's current period starts over, on every instance from the response. */
  async resetQuota(actor: UserActor, id: string): Promise<ApiKeyView> {
    requirePermission(actor, 'api_keys:manage');
    const now = this.clock.now();
    const row = await this.uow.inTransaction(async (tx, changed, emit) => {
      const key = await this.requireKey(tx, actor.tenantId, id);
      if (key.quotaRequests === null) {
        throw InvalidRequestError.field('quota', 'This key has no quota to reset; set one with PATCH first.');
      }
      return resetQuota(this.quotaStep({ tx, changed, emit, actor, now }), key);
    });
    return toApiKeyView(row, now.getTime());
  }

  private quotaStep(apply: Apply) {
    return { ...apply, keys: this.keys, quotas: this.options.quotas, audit: this.audit };
  }

  async delete(actor: UserActor, id: string): Promise<void> {
    requirePermission(actor, 'api_keys:manage');
    requireRecentSignIn(actor, this.clock);
    await this.uow.inTransaction(async (tx, changed, emit) => {
      const key = await this.requireKey(tx, actor.tenantId, id);
      await this.keys.delete(tx, key.id);
      emit(keyEvent('api_key.deleted', key, this.clock.nowMs(), actor, { reason: 'deleted' }));
      // The row is gone; the trail keeps what identifies it.
      await this.audit.record(tx, actor.tenantId, actor, 'api_key.deleted', keyTarget(key), { hint: key.hint });
      changed({ type: 'key', id: key.id });
    });
  }

  /** Writes one api_key.expired audit and webhook event per key that has expired since the last sweep. */
  async recordExpiries(): Promise<number> {
    return this.uow.inTransaction(async (tx, _changed, emit) => {
      const now = this.clock.now();
      const expired = await withCreatorEmails(tx, await this.keys.claimNewlyExpired(tx, now));
      for (const key of expired) {
        emit(keyEvent('api_key.expired', key, now.getTime(), SYSTEM_ACTOR));
        await this.audit.record(tx, key.tenantId, { type: 'system' }, 'api_key.expired', keyTarget(key), {
          hint: key.hint,
          expired_at: key.expiresAt?.toISOString() ?? null,
        });
      }
      return expired.length;
    });
  }

  // Another tenant's key is "not found", never "forbidden": existence is not revealed.
  private async requireKey(tx: Db, tenantId: string, id: string): Promise<KeyRowWithCreator> {
    const key = await this.keys.findForTenant(tx, tenantId, id);
    if (!key) throw new NotFoundError('API key');
    return key;
  }
}
