import type { Db } from '../db/database.ts';
import type { ChangeFeed } from '../bus/change-feed.ts';
import type { AuditService } from '../audit/audit-service.ts';
import type { TenantRepository } from '../tenants/tenant-repository.ts';
import type { UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { ConflictError, InvalidRequestError, NotFoundError } from '../shared/errors.ts';
import { expiryDateOf, expiryInstantOf, isExpired } from './expiry.ts';
import type { KeyRepository, KeyRowWithCreator } from './key-repository.ts';
import type { KeyAuthority } from './principal.ts';
import { digestSecret, generateSecret, hintOf, type RandomBytes } from './secret.ts';

export type ApiKeyView = {
  id: string;
  name: string;
  hint: string;
  created_at: string;
  created_by: { id: string; email: string } | null;
  expires_at: string | null;
  expires_at_time: string | null;
  enabled: boolean;
  status: 'enabled' | 'disabled' | 'expired';
  disabled_reason: string | null;
  last_used_at: string | null;
};

/** The acting user of the back office, scoped to one tenant. */
export type TenantActor = UserActor;

const NAME_MAX = 100;
// C0, DEL and C1 control characters: invisible in a list, confusing in logs.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

export type KeyServiceOptions = { maxKeysPerTenant: number; random?: RandomBytes };

/** Key lifecycle (docs/keys.md): create, list, enable, disable, delete; every change audited and published. */
export class KeyService {
  constructor(
    private readonly db: Db,
    private readonly keys: KeyRepository,
    private readonly tenants: TenantRepository,
    private readonly audit: AuditService,
    private readonly changes: ChangeFeed,
    private readonly clock: Clock,
    private readonly options: KeyServiceOptions,
  ) {}

  async list(actor: TenantActor): Promise<{ data: ApiKeyView[]; authority: KeyAuthority }> {
    const [rows, tenant] = await Promise.all([this.keys.listForTenant(actor.tenantId), this.tenants.findById(actor.tenantId)]);
    const nowMs = this.clock.now().getTime();
    return { data: rows.map((row) => toApiKeyView(row, nowMs)), authority: tenant?.keyAuthority ?? 'creator' };
  }

  /** Returns the secret: the only time it exists in clear outside the caller's hands. */
  async create(actor: TenantActor, input: { name: string; expires_at?: string | null | undefined }): Promise<{ api_key: ApiKeyView; secret: string }> {
    const name = validName(input.name);
    const now = this.clock.now();
    const expiresAt = input.expires_at ? expiryInstantOf(input.expires_at, now) : null;
    const secret = generateSecret(this.options.random);
    const row = await this.changes.transaction(this.db, async (tx) => {
      await this.tenants.lock(tx, actor.tenantId);
      if ((await this.keys.countForTenant(tx, actor.tenantId)) >= this.options.maxKeysPerTenant) {
        throw new ConflictError(
          'api_key_limit_reached',
          `This tenant already holds ${this.options.maxKeysPerTenant} keys, the most allowed. Delete unused keys first.`,
        );
      }
      const inserted = await this.keys.insert(tx, {
        tenantId: actor.tenantId,
        name,
        hint: hintOf(secret),
        secretDigest: digestSecret(secret),
        createdBy: actor.id,
        expiresAt,
        createdAt: now,
      });
      await this.audit.record(tx, actor.tenantId, actor, 'api_key.created', keyTarget(inserted), {
        hint: inserted.hint,
        expires_at: expiresAt ? expiryDateOf(expiresAt) : null,
      });
      return inserted;
    });
    return { api_key: toApiKeyView({ ...row, creatorEmail: actor.email }, now.getTime()), secret };
  }

  /** Idempotent: asking for the state a key is already in changes nothing and records nothing. */
  async setEnabled(actor: TenantActor, id: string, enabled: boolean): Promise<ApiKeyView> {
    const now = this.clock.now();
    const row = await this.changes.transaction(this.db, async (tx, publish) => {
      const key = await this.requireKey(tx, actor.tenantId, id);
      if (isExpired(key.expiresAt, now.getTime())) {
        throw new ConflictError('api_key_expired', 'An expired key cannot be enabled or disabled; create a new key instead.');
      }
      if (key.enabled === enabled) return key;
      if (enabled && key.disabledReason === 'creator_deleted') {
        const tenant = await this.tenants.findById(actor.tenantId, tx);
        if (tenant?.keyAuthority !== 'system') {
          throw new ConflictError(
            'creator_deleted',
            "The key's creator was deleted; under creator authority it cannot be enabled again.",
          );
        }
      }
      const disabledReason = enabled ? null : 'disabled_by_user';
      await this.keys.setEnabled(tx, key.id, enabled, disabledReason);
      await this.audit.record(tx, actor.tenantId, actor, enabled ? 'api_key.enabled' : 'api_key.disabled', keyTarget(key), {
        hint: key.hint,
      });
      await publish({ type: 'key', id: key.id });
      return { ...key, enabled, disabledReason };
    });
    return toApiKeyView(row, now.getTime());
  }

  async delete(actor: TenantActor, id: string): Promise<void> {
    await this.changes.transaction(this.db, async (tx, publish) => {
      const key = await this.requireKey(tx, actor.tenantId, id);
      await this.keys.delete(tx, key.id);
      // The row is gone; the trail keeps what identifies it.
      await this.audit.record(tx, actor.tenantId, actor, 'api_key.deleted', keyTarget(key), { hint: key.hint });
      await publish({ type: 'key', id: key.id });
    });
  }

  /** Writes one api_key.expired event per key that has expired since the last sweep. */
  async recordExpiries(): Promise<number> {
    return this.db.transaction(async (txRaw) => {
      const tx = txRaw as unknown as Db;
      const expired = await this.keys.claimNewlyExpired(tx, this.clock.now());
      for (const key of expired) {
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

export function validName(raw: unknown): string {
  if (typeof raw !== 'string') throw InvalidRequestError.field('name', 'The name is required.');
  const name = raw.trim();
  if (name.length === 0) throw InvalidRequestError.field('name', 'The name is required.');
  if ([...name].length > NAME_MAX) throw InvalidRequestError.field('name', `The name must be at most ${NAME_MAX} characters.`);
  if (CONTROL_CHARACTERS.test(name)) throw InvalidRequestError.field('name', 'The name must not contain control characters.');
  return name;
}

function keyTarget(key: { id: string; name: string }) {
  return { type: 'api_key' as const, id: key.id, name: key.name };
}

export function toApiKeyView(row: KeyRowWithCreator, nowMs: number): ApiKeyView {
  const expired = isExpired(row.expiresAt, nowMs);
  return {
    id: row.id,
    name: row.name,
    hint: row.hint,
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy && row.creatorEmail ? { id: row.createdBy, email: row.creatorEmail } : null,
    expires_at: row.expiresAt ? expiryDateOf(row.expiresAt) : null,
    expires_at_time: row.expiresAt?.toISOString() ?? null,
    enabled: row.enabled,
    status: expired ? 'expired' : row.enabled ? 'enabled' : 'disabled',
    disabled_reason: row.disabledReason,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
