import type { AuditService } from '../audit/audit-service.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { requirePermission, requireRecentSignIn, requireSystem, type Actor, type UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import { NotFoundError, SecondFactorRequiredError } from '../shared/errors.ts';
import type { GrantRow, OAuthGrantRepository } from './grant-repository.ts';
import type { OAuthGrantView } from './grant-schemas.ts';

/** Who ended a grant besides a person: the provider, for a replayed refresh token or code, or the app itself. */
export type ProviderRevocation = 'refresh_token_replay' | 'authorization_code_replay' | 'client';

export type GrantServiceOptions = {
  grants: OAuthGrantRepository;
  uow: UnitOfWork;
  audit: AuditService;
  clock: Clock;
};

/**
 * Connected apps (docs/oauth.md): the grants people approved, listed and revoked from the back
 * office. A revocation deletes the grant with its codes and tokens and tells every instance (the
 * change feed's `grant` change) before it answers, as a key's does (§7 of the contract).
 */
export class OAuthGrantService {
  private readonly options: GrantServiceOptions;
  constructor(options: GrantServiceOptions) {
    this.options = options;
  }

  /** The person's own grants, or with `all` every grant of their tenant (`api_keys:manage`). */
  async list(actor: UserActor, scope: 'mine' | 'all'): Promise<OAuthGrantView[]> {
    if (scope === 'all') requirePermission(actor, 'api_keys:manage');
    else if (actor.signIn.enrolmentOnly) throw new SecondFactorRequiredError();
    const { grants, clock } = this.options;
    const rows = await grants.list(actor.tenantId, clock.now(), scope === 'mine' ? actor.id : undefined);
    return rows.map(toView);
  }

  /** One's own grant, or (`api_keys:manage`) any of the tenant's; another tenant's is not found. */
  async revoke(actor: UserActor, grantId: string): Promise<void> {
    if (actor.signIn.enrolmentOnly) throw new SecondFactorRequiredError();
    const { grants, uow, audit, clock } = this.options;
    const grant = await grants.find(actor.tenantId, grantId, clock.now());
    if (!grant) throw new NotFoundError('grant');
    if (grant.userId !== actor.id) requirePermission(actor, 'api_keys:manage');
    requireRecentSignIn(actor, clock);
    await uow.inTransaction(async (tx, changed) => {
      await grants.destroy(tx, grant.id);
      await audit.record(tx, actor.tenantId, actor, 'oauth.grant_revoked', target(grant), {
        ...detail(grant),
        by: 'person',
      });
      changed({ type: 'grant', id: grant.id });
    });
  }

  /**
   * The provider already deleted the grant (a replayed refresh token or code, or the app revoking
   * its own token) and announced it with the deletion (record-adapter.ts): audit it, in the
   * tenant of the person it acted as, before the provider answers.
   */
  async recordProviderRevocation(
    actor: Actor,
    grantId: string,
    facts: { accountId?: string; clientId?: string; appName?: string },
    by: ProviderRevocation,
  ): Promise<void> {
    requireSystem(actor, 'record a revocation the authorization server made');
    const { grants, uow, audit } = this.options;
    const person = facts.accountId ? await grants.tenantOf(facts.accountId) : undefined;
    // A person deleted meanwhile has no tenant left whose trail would show it.
    if (!person) return;
    await uow.inTransaction((tx) =>
      audit.record(
        tx,
        person.tenantId,
        actor,
        'oauth.grant_revoked',
        { type: 'oauth_client', id: facts.clientId ?? null, name: facts.appName ?? null },
        { grant_id: grantId, user: { id: facts.accountId, email: person.email }, by },
      ),
    );
  }
}

function resourceOf(row: GrantRow): string {
  return Object.keys(row.resources ?? {})[0] ?? '';
}

function target(row: GrantRow) {
  return { type: 'oauth_client' as const, id: row.clientId, name: row.appName ?? row.clientId };
}

function detail(row: GrantRow) {
  return { grant_id: row.id, resource: resourceOf(row), user: { id: row.userId, email: row.email } };
}

function toView(row: GrantRow): OAuthGrantView {
  return {
    id: row.id,
    client_id: row.clientId,
    app_name: row.appName ?? row.clientId,
    resource: resourceOf(row),
    user: { id: row.userId, email: row.email },
    approved_at: new Date(Number(row.approvedAt) * 1000).toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
