import type { AuditService } from '../audit/audit-service.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { CreatorKeys } from '../keys/lifecycle/creator-keys.ts';
import { requireSystem, type Actor, type KeyAuthority } from '../shared/actor.ts';
import { ConflictError, InvalidRequestError, NotFoundError } from '../shared/errors.ts';
import { nameProblem } from '../shared/text-rules.ts';
import type { TenantRepository, TenantRow } from './tenant-repository.ts';

export type TenantView = { id: string; slug: string; name: string; authority: KeyAuthority; created_at: string };

const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export type TenantServiceOptions = {
  uow: UnitOfWork;
  tenants: TenantRepository;
  /** Disables keys left without a creator, in the authority change's unit of work. */
  keys: Pick<CreatorKeys, 'disableOrphaned'>;
  audit: AuditService;
};

export class TenantService {
  private readonly options: TenantServiceOptions;
  constructor(options: TenantServiceOptions) {
    this.options = options;
  }

  async create(
    actor: Actor,
    input: { name: string; slug?: string | undefined; authority?: KeyAuthority | undefined },
  ): Promise<TenantView> {
    requireSystem(actor, 'create a tenant');
    const problem = nameProblem(input.name);
    if (problem) throw InvalidRequestError.field('name', problem);
    const name = input.name.trim();
    const slug = input.slug ?? slugify(name);
    if (!SLUG_PATTERN.test(slug)) {
      throw InvalidRequestError.field('slug', 'The slug must be 1–40 lower-case letters, digits or inner hyphens.');
    }
    if (await this.options.tenants.findBySlug(slug))
      throw new ConflictError('slug_taken', `A tenant with slug "${slug}" exists.`);
    const row = await this.options.uow.inTransaction((tx) =>
      this.options.tenants.insert(tx, { name, slug, keyAuthority: input.authority ?? 'creator' }),
    );
    return toTenantView(row);
  }

  async requireBySlug(slug: string): Promise<TenantRow> {
    const tenant = await this.options.tenants.findBySlug(slug);
    if (!tenant) throw new NotFoundError(`tenant "${slug}"`);
    return tenant;
  }

  /**
   * Switches what the tenant's keys act as. Back to `creator`, keys whose creator is gone are
   * disabled (creator_deleted), as they would have been had the creator gone under `creator`.
   */
  async setAuthority(actor: Actor, slug: string, authority: KeyAuthority): Promise<TenantView> {
    requireSystem(actor, "change a tenant's key authority");
    const tenant = await this.requireBySlug(slug);
    if (tenant.keyAuthority === authority) return toTenantView(tenant);
    await this.options.uow.inTransaction(async (tx, changed, emit) => {
      await this.options.tenants.setAuthority(tx, tenant.id, authority);
      const disabled =
        authority === 'creator' ? await this.options.keys.disableOrphaned(tx, emit, actor, tenant.id) : [];
      await this.options.audit.record(
        tx,
        tenant.id,
        actor,
        'tenant.authority_changed',
        { type: 'tenant', id: tenant.id, name: tenant.name },
        {
          from: tenant.keyAuthority,
          to: authority,
          disabled_keys: disabled,
        },
      );
      changed({ type: 'tenant', id: tenant.id });
    });
    return toTenantView({ ...tenant, keyAuthority: authority });
  }
}

export function toTenantView(row: TenantRow): TenantView {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    authority: row.keyAuthority,
    created_at: row.createdAt.toISOString(),
  };
}

function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
}
