import type { Db } from '../db/handle.ts';
import { InvalidRequestError } from '../shared/errors.ts';
import type { SsoSettingsStore } from '../tenants/sign-in-settings-service.ts';
import type { SsoSettings, SsoSettingsInput } from '../tenants/sso-settings-schemas.ts';
import { checkIssuer } from './issuer-rules.ts';
import type { SsoConfigRow, SsoRepository } from './sso-repository.ts';

/** Seals and opens the client secret (the same key and box as webhook secrets). */
export type SecretSealer = { seal(plaintext: string): string; open(sealed: string): string };

export type SsoSettingsStoreOptions = {
  rows: SsoRepository;
  sealer: SecretSealer;
  allowPrivate: boolean;
};

/**
 * A tenant's identity provider as the sign-in settings read and write it: the issuer checked
 * against where the server may reach, the client secret sealed and never read back.
 */
export class SsoSettingsRepositoryStore implements SsoSettingsStore {
  private readonly options: SsoSettingsStoreOptions;
  constructor(options: SsoSettingsStoreOptions) {
    this.options = options;
  }

  async view(tenantId: string, tx?: Db): Promise<SsoSettings | null> {
    const row = await this.options.rows.configOf(tenantId, tx);
    return row ? ssoView(row) : null;
  }

  async save(tx: Db, tenantId: string, input: SsoSettingsInput | null): Promise<{ secretChanged: boolean }> {
    const before = await this.options.rows.configOf(tenantId, tx);
    if (input === null) {
      if (before) await this.options.rows.deleteConfig(tx, tenantId);
      return { secretChanged: before !== undefined };
    }
    const issuer = checkIssuer(input.issuer, this.options.allowPrivate);
    if (input.client_secret === undefined && !before) {
      throw InvalidRequestError.field(
        'sso.client_secret',
        'The client secret is needed when single sign-on is set up.',
      );
    }
    // The stored secret belongs to the provider it was issued by: sent to a new issuer at the next
    // code exchange, it would give that provider the old one's credential.
    if (input.client_secret === undefined && before && before.issuer !== issuer) {
      throw InvalidRequestError.field(
        'sso.client_secret',
        'A new issuer needs its own client secret in the same request: a secret never goes to another provider.',
      );
    }
    const clientSecretSealed =
      input.client_secret === undefined ? before!.clientSecretSealed : this.options.sealer.seal(input.client_secret);
    await this.options.rows.saveConfig(tx, {
      tenantId,
      issuer,
      clientId: input.client_id,
      clientSecretSealed,
      allowedDomains: [...new Set(input.allowed_domains)].sort(),
      defaultRoles: [...new Set(input.default_roles)].sort(),
      roleClaim: input.role_claim,
      roleMap: Object.fromEntries(
        Object.entries(input.role_map).map(([value, roles]) => [value, [...new Set(roles)].sort()]),
      ),
      createUsers: input.create_users,
    });
    return { secretChanged: input.client_secret !== undefined };
  }

  /** The client secret in clear, only for the request to the provider's token endpoint. */
  openSecret(row: SsoConfigRow): string {
    return this.options.sealer.open(row.clientSecretSealed);
  }
}

export function ssoView(row: SsoConfigRow): SsoSettings {
  return {
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret_set: true,
    allowed_domains: row.allowedDomains,
    default_roles: row.defaultRoles as SsoSettings['default_roles'],
    role_claim: row.roleClaim,
    role_map: row.roleMap as SsoSettings['role_map'],
    create_users: row.createUsers,
  };
}
