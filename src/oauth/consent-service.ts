import type Provider from 'oidc-provider';
import type { ClientLike, InteractionLike } from 'oidc-provider';
import type { AuditService } from '../audit/audit-service.ts';
import type { Db } from '../db/handle.ts';
import type { Clock } from '../shared/clock.ts';
import { SYSTEM_ACTOR, type UserActor } from '../shared/actor.ts';
import { NotFoundError } from '../shared/errors.ts';
import { consentWarnings, mayApprove, resourceName } from './consent-rules.ts';
import type { ConsentView } from './consent-schemas.ts';
import type { OAuthUrls } from './oauth-urls.ts';
import { RESOURCE_SCOPE } from './provider.ts';
import type { OAuthRecordRepository } from './record-repository.ts';
import type { OAuthTenantRepository } from './tenant-repository.ts';
import type { InteractionBinding } from './interaction-binding.ts';

export type ConsentOptions = {
  provider: Provider;
  records: OAuthRecordRepository;
  binding: InteractionBinding;
  urls: OAuthUrls;
  tenants: OAuthTenantRepository;
  audit: AuditService;
  db: Db;
  clock: Clock;
};

/**
 * The back office's half of an authorization: the person signed in to the back office approves or
 * denies the app's request; the provider then answers the app (a code, or `access_denied`). The
 * person approving is always the acting back-office user, never whoever the provider last saw.
 */
export class ConsentService {
  private readonly options: ConsentOptions;
  constructor(options: ConsentOptions) {
    this.options = options;
  }

  /** `binding`: the cookie the provider set in the browser that started this request. */
  async details(actor: UserActor, uid: string, binding: string | undefined): Promise<ConsentView> {
    const { interaction, client, tenant } = await this.load(actor, uid, binding);
    const redirectUri = String(interaction.params.redirect_uri);
    const resource = this.resourceOf(interaction);
    return {
      app: { client_id: client.clientId, name: client.clientName ?? client.clientId, by_document: byDocument(client) },
      redirect_uri: redirectUri,
      redirect_host: URL.canParse(redirectUri) ? new URL(redirectUri).host : '',
      warnings: consentWarnings(client.clientId, redirectUri, byDocument(client)),
      organisation: { id: tenant.id, slug: tenant.slug, name: tenant.name },
      resource,
      resource_name: resourceName(resource, this.options.urls),
      may_approve: mayApprove(actor, tenant.oauthApps),
    };
  }

  /** Approves for the acting person; one who may not (the tenant's `oauth_apps`) denies instead. */
  async approve(actor: UserActor, uid: string, binding: string | undefined): Promise<{ redirect_to: string }> {
    const { interaction, client, tenant } = await this.load(actor, uid, binding);
    if (!mayApprove(actor, tenant.oauthApps)) {
      return this.finish(actor, interaction, client, 'oauth.app_denied', { reason: 'not_allowed' });
    }
    const grant = new this.options.provider.Grant({ accountId: actor.id, clientId: client.clientId });
    grant.addResourceScope(this.resourceOf(interaction), RESOURCE_SCOPE);
    grant.addOIDCScope('offline_access');
    const grantId = await grant.save();
    await this.options.records.nameGrant(grantId, client.clientName ?? client.clientId);
    await this.recordRegistration(actor, client);
    interaction.result = { login: { accountId: actor.id }, consent: { grantId } };
    return this.finish(actor, interaction, client, 'oauth.app_approved', { grant_id: grantId });
  }

  async deny(actor: UserActor, uid: string, binding: string | undefined): Promise<{ redirect_to: string }> {
    const { interaction, client } = await this.load(actor, uid, binding);
    return this.finish(actor, interaction, client, 'oauth.app_denied', { reason: 'denied' });
  }

  private async finish(
    actor: UserActor,
    interaction: InteractionLike,
    client: { clientId: string; clientName?: string },
    action: 'oauth.app_approved' | 'oauth.app_denied',
    detail: Record<string, unknown>,
  ): Promise<{ redirect_to: string }> {
    if (action === 'oauth.app_denied') {
      interaction.result = { error: 'access_denied', error_description: 'The request was not approved.' };
    }
    await interaction.save(Math.max(interaction.exp - Math.floor(this.options.clock.nowMs() / 1000), 1));
    await this.options.audit.record(
      this.options.db,
      actor.tenantId,
      actor,
      action,
      { type: 'oauth_client', id: client.clientId, name: client.clientName ?? null },
      { ...detail, resource: this.resourceOf(interaction) },
    );
    return { redirect_to: interaction.returnTo };
  }

  /**
   * The app's registration (RFC 7591) or document belongs to no tenant when it happens; it enters a
   * tenant's trail when a person of that tenant first approves the app, with when it registered.
   */
  private recordRegistration(actor: UserActor, client: ClientLike): Promise<void> {
    const issuedAt = client.clientIdIssuedAt;
    return this.options.audit.recordFirst(
      this.options.db,
      actor.tenantId,
      SYSTEM_ACTOR,
      'oauth.client_registered',
      { type: 'oauth_client', id: client.clientId, name: client.clientName ?? null },
      {
        registered_at: issuedAt === undefined ? null : new Date(issuedAt * 1000).toISOString(),
        by_document: byDocument(client),
      },
    );
  }

  private async load(actor: UserActor, uid: string, binding: string | undefined) {
    const { provider, tenants } = this.options;
    // Another browser's request is as unknown as a missing one (see InteractionBinding).
    if (!this.options.binding.holds(uid, binding)) throw new NotFoundError('authorization request');
    const interaction = await provider.Interaction.find(uid);
    // Answered once: a result already set is not changed by a second click or another tab.
    if (!interaction || interaction.result) throw new NotFoundError('authorization request');
    const client = await provider.Client.find(String(interaction.params.client_id));
    const tenant = await tenants.find(actor.tenantId);
    if (!client || !tenant) throw new NotFoundError('authorization request');
    return { interaction, client, tenant };
  }

  private resourceOf(interaction: InteractionLike): string {
    const { resource } = interaction.params;
    return (Array.isArray(resource) ? resource[0] : resource) ?? this.options.urls.mcp;
  }
}

function byDocument(client: { clientIdMetadataDocument?: boolean }): boolean {
  return client.clientIdMetadataDocument === true;
}
