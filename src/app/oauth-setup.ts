import type { AuditService } from '../audit/audit-service.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/handle.ts';
import { sharedSecret } from '../db/shared-secrets.ts';
import { ConsentService } from '../oauth/consent-service.ts';
import { OAuthServer } from '../oauth/oauth-server.ts';
import { OAuthTenantRepository } from '../oauth/tenant-repository.ts';
import { oauthUrls } from '../oauth/oauth-urls.ts';
import { createProvider } from '../oauth/provider.ts';
import { OAuthRecordRepository } from '../oauth/record-repository.ts';
import type { Clock } from '../shared/clock.ts';
import type { Resolver } from '../webhooks/safe-agent.ts';
import type { FailureThrottle } from '../throttle/failure-throttle.ts';
import type { Logger } from 'pino';

/** Builds the OAuth authorization server over the database (docs/oauth.md). */
export async function buildOAuth(
  config: Config,
  clock: Clock,
  db: Db,
  audit: AuditService,
  base: { throttles: { oauthRegistrations: FailureThrottle }; log: Pick<Logger, 'info'> },
  resolver?: Resolver,
): Promise<OAuthServer> {
  const urls = oauthUrls(config.publicUrl);
  const records = new OAuthRecordRepository(db);
  const tenants = new OAuthTenantRepository(db);
  const provider = createProvider({
    urls,
    records,
    clock,
    cookieKey: await sharedSecret(db, 'oauth_cookie_key'),
    signingSeed: Buffer.from(await sharedSecret(db, 'oauth_signing_seed'), 'base64url'),
    accountExists: (userId) => tenants.userExists(userId),
    grantDays: config.oauthGrantDays,
    documents: { allowPrivate: config.oauthAllowPrivate, resolver },
    registrations: base.throttles.oauthRegistrations,
    onRegistered: (client, address) =>
      base.log.info({ client_id: client.clientId, client_name: client.clientName, address }, 'oauth.client_registered'),
  });
  const consent = new ConsentService({ provider, urls, tenants, audit, db, clock });
  return new OAuthServer({ provider, urls, consent, records, clock });
}
