import type { UnitOfWork } from '../db/unit-of-work.ts';
import type { Clock } from '../shared/clock.ts';
import type { OAuthRecordRepository } from './record-repository.ts';

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; jti?: string; consumed?: number };

/**
 * The models whose id is a credential (a bearer token, a code): their payload is stored without
 * its `jti`, so the table holds only the id's digest and the record is usable only by whoever
 * presents the id. Other models (grants, sessions, interactions, clients) keep their payload whole.
 */
const SECRET_IDS = new Set([
  'AccessToken',
  'RefreshToken',
  'AuthorizationCode',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PushedAuthorizationRequest',
]);

/** A registered (RFC 7591) client is removed after this many days without a token issued to it. */
export const CLIENT_UNUSED_DAYS = 30;

/** The interface oidc-provider calls on its `adapter` (one instance per model name). */
export interface ProviderAdapter {
  upsert(id: string, payload: Payload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Payload | undefined>;
  findByUserCode(userCode: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/**
 * oidc-provider's storage over the one `oauth_records` table, on either engine. Ending an access
 * token or a grant (RFC 7009, a replayed refresh token or code) ends the whole grant in one unit of
 * work that announces `{type: 'grant'}` once, with the deletion: the provider answers only once
 * every instance has dropped the grant's tokens from its cache (docs/oauth.md (Revocation), the
 * guarantee keys have).
 */
export function recordAdapter(
  records: OAuthRecordRepository,
  clock: Clock,
  uow: UnitOfWork,
): new (kind: string) => ProviderAdapter {
  // The provider ends a grant by asking every model at once (AccessToken, RefreshToken,
  // AuthorizationCode, Grant); they share one unit of work here. Only a deletion that removed
  // something announces, so a grant already ended (by another request, or another instance) is not
  // announced again.
  const ending = new Map<string, Promise<void>>();
  const endGrant = (grantId: string): Promise<void> => {
    let pending = ending.get(grantId);
    if (!pending) {
      pending = uow
        .inTransaction(async (tx, changed) => {
          if ((await records.within(tx).destroyGrant(grantId)) > 0) changed({ type: 'grant', id: grantId });
        })
        .finally(() => ending.delete(grantId));
      ending.set(grantId, pending);
    }
    return pending;
  };

  return class RecordAdapter implements ProviderAdapter {
    private readonly kind: string;
    constructor(kind: string) {
      this.kind = kind;
    }

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const stored: Payload = { ...payload };
      if (SECRET_IDS.has(this.kind)) delete stored.jti;
      await records.save(this.kind, id, {
        payload: stored,
        grantId: payload.grantId ?? (this.kind === 'Grant' ? id : null),
        uid: payload.uid ?? null,
        expiresAt: expiresIn
          ? new Date(clock.nowMs() + expiresIn * 1000)
          : // A registered client has no expiry of its own: it lasts while it is used (touchClient).
            // Its registration token is never used (no RFC 7592 management) and goes no later.
            this.kind === 'Client' || this.kind === 'RegistrationAccessToken'
            ? new Date(clock.nowMs() + CLIENT_UNUSED_DAYS * 86_400_000)
            : null,
      });
    }

    async find(id: string): Promise<Payload | undefined> {
      const record = await records.find(this.kind, id);
      if (!record || this.expired(record.expiresAt)) return undefined;
      const payload: Payload = { ...record.payload };
      if (SECRET_IDS.has(this.kind)) payload.jti = id;
      if (record.consumedAt) payload.consumed = Math.floor(record.consumedAt.getTime() / 1000);
      return payload;
    }

    // No device flow: nothing is ever found by a user code.
    findByUserCode(): Promise<undefined> {
      return Promise.resolve(undefined);
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const record = await records.findByUid(this.kind, uid);
      if (!record || this.expired(record.expiresAt)) return undefined;
      return record.payload;
    }

    async consume(id: string): Promise<void> {
      await records.consume(this.kind, id, clock.now());
    }

    async destroy(id: string): Promise<void> {
      if (this.kind === 'Grant') return endGrant(id);
      // A refresh token or code is never cached by the resource side: deleting it is enough (the
      // provider ends its grant next when it must). An access token may be cached on any instance:
      // RFC 7009 of one ends its grant (docs/oauth.md).
      const grantId = this.kind === 'AccessToken' ? await records.grantOf(this.kind, id) : null;
      if (grantId !== null) return endGrant(grantId);
      await records.destroy(this.kind, id);
    }

    revokeByGrantId(grantId: string): Promise<void> {
      return endGrant(grantId);
    }

    private expired(expiresAt: Date | null): boolean {
      return expiresAt !== null && expiresAt.getTime() <= clock.nowMs();
    }
  };
}
