import type Provider from 'oidc-provider';
import type { Clock } from '../shared/clock.ts';
import type { ConsentService } from './consent-service.ts';
import type { GrantLastUse } from './grant-last-use.ts';
import type { OAuthGrantService } from './grant-service.ts';
import type { OAuthUrls } from './oauth-urls.ts';
import type { OAuthRecordRepository } from './record-repository.ts';

/** The authorization server as the rest of airkey sees it: the provider, its URLs, its housekeeping. */
export class OAuthServer {
  readonly provider: Provider;
  readonly urls: OAuthUrls;
  /** The back office's half of an authorization: approve or deny. */
  readonly consent: ConsentService;
  /** Connected apps: list and revoke grants. */
  readonly grants: OAuthGrantService;
  /** Grants' last use by their access tokens, written behind (a background job flushes it). */
  readonly lastUse: GrantLastUse;
  private readonly records: OAuthRecordRepository;
  private readonly clock: Clock;

  constructor(options: {
    provider: Provider;
    urls: OAuthUrls;
    consent: ConsentService;
    grants: OAuthGrantService;
    lastUse: GrantLastUse;
    records: OAuthRecordRepository;
    clock: Clock;
  }) {
    this.consent = options.consent;
    this.grants = options.grants;
    this.lastUse = options.lastUse;
    this.provider = options.provider;
    this.urls = options.urls;
    this.records = options.records;
    this.clock = options.clock;
  }

  /** The sweep: codes, tokens, grants, sessions and interactions past their expiry. */
  deleteExpired(): Promise<number> {
    return this.records.deleteExpired(this.clock.now());
  }
}
