import type { AuditService } from '../audit/audit-service.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/handle.ts';
import type { UnitOfWork } from '../db/unit-of-work.ts';
import { sharedSecret } from '../db/shared-secrets.ts';
import { ConsentService } from '../oauth/consent-service.ts';
import { OAuthGrantRepository } from '../oauth/grant-repository.ts';
import { GrantLastUse } from '../oauth/grant-last-use.ts';
import { OAuthGrantService } from '../oauth/grant-service.ts';
import { InteractionBinding } from '../oauth/interaction-binding.ts';
import { OAuthServer } from '../oauth/oauth-server.ts';
import { OAuthTenantRepository } from '../oauth/tenant-repository.ts';
import { oauthUrls } from '../oauth/oauth-urls.ts';
import { createProvider } from '../oauth/provider.ts';
import { CLIENT_UNUSED_DAYS } from '../oauth/record-adapter.ts';
import { OAuthRecordRepository } from '../oauth/record-repository.ts';
import { SYSTEM_ACTOR } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { RunReport } from '../shared/failure-streak.ts';
import type { Resolver } from '../webhooks/safe-agent.ts';
import type { FailureThrottle } from '../throttle/failure-throttle.ts';
import type { Logger } from 'pino';
import type { RequestCounter } from '../keys/check/usage-recorder.ts';
import { AccessTokenCheck } from '../oauth/token-check.ts';
import type { TokenFacts } from '../oauth/token-facts.ts';
import { AccessTokenRepository } from '../oauth/token-repository.ts';
import { KeyCache } from '../revocation/key-cache.ts';
import type { Database } from '../db/handle.ts';
import type { ChangeFeed } from '../revocation/change-feed.ts';

const DAY_MS = 86_400_000;

/** Builds the OAuth authorization server over the database (docs/oauth.md). */
export async function buildOAuth(
  config: Config,
  clock: Clock,
  db: Db,
  audit: AuditService,
  base: {
    throttles: { oauthRegistrations: FailureThrottle };
    log: Pick<Logger, 'info'>;
    uow: UnitOfWork;
    lastUseReport: RunReport;
  },
  resolver?: Resolver,
): Promise<OAuthServer> {
  const urls = oauthUrls(config.publicUrl);
  const records = new OAuthRecordRepository(db);
  const tenants = new OAuthTenantRepository(db);
  const cookieKey = await sharedSecret(db, 'oauth_cookie_key');
  const binding = new InteractionBinding(cookieKey);
  const grants = new OAuthGrantService({ grants: new OAuthGrantRepository(db), uow: base.uow, audit, clock });
  const provider = createProvider({
    urls,
    records,
    clock,
    uow: base.uow,
    cookieKey,
    signingSeed: Buffer.from(await sharedSecret(db, 'oauth_signing_seed'), 'base64url'),
    accountExists: (userId) => tenants.userExists(userId),
    grantDays: config.oauthGrantDays,
    documents: { allowPrivate: config.oauthAllowPrivate, resolver },
    registrations: base.throttles.oauthRegistrations,
    hooks: {
      binding,
      onRegistered(client, address) {
        // No tenant's yet: the operators' log line now (no secret in it), and the tenant's trail at
        // the first approval by one of its people (ConsentService.approve).
        base.log.info(
          { client_id: client.clientId, client_name: client.clientName, address },
          'oauth.client_registered',
        );
      },
      async onTokenIssued(grantId, clientId) {
        const now = clock.now();
        await records.touchGrant(grantId, now, new Date(now.getTime() + config.oauthGrantDays * DAY_MS));
        await records.touchClient(clientId, now, new Date(now.getTime() + CLIENT_UNUSED_DAYS * DAY_MS));
      },
      onGrantRevoked: (grantId, facts, by) => grants.recordProviderRevocation(SYSTEM_ACTOR, grantId, facts, by),
    },
  });
  const consent = new ConsentService({ provider, records, binding, urls, tenants, audit, db, clock });
  const lastUse = new GrantLastUse(records, config.usageFlushMs, base.lastUseReport);
  return new OAuthServer({ provider, urls, consent, grants, lastUse, records, clock });
}

/**
 * The resource side (docs/oauth.md): access tokens checked on /mcp and /api/v1 from a cache the
 * change feed keeps exact (grants, people, tenants), under the same lease as the key cache.
 */
export function buildAccessTokens(
  config: Config,
  clock: Clock,
  base: { database: Database; changes: ChangeFeed; throttles: { keyFailures: FailureThrottle } },
  oauth: OAuthServer,
  usage: RequestCounter,
): AccessTokenCheck {
  const cache = new KeyCache<TokenFacts>({ maxEntries: config.keyCacheMaxEntries, maxAgeMs: config.keyCacheMaxAgeMs });
  base.changes.onChange((change) => cache.invalidate(change));
  base.changes.onState((listening) => listening && cache.resubscribed());
  base.changes.onLease((validUntil) => cache.serveUntil(validUntil));
  return new AccessTokenCheck({
    repository: new AccessTokenRepository(base.database.db),
    appName: async (clientId) => {
      // A client document that cannot be fetched now still names the app by its URL.
      const client = await oauth.provider.Client.find(clientId).catch(() => undefined);
      return client?.clientName ?? clientId;
    },
    cache,
    throttle: base.throttles.keyFailures,
    usage,
    lastUse: oauth.lastUse,
    clock,
  });
}
