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
 * token or a grant (RFC 7009, a replayed refresh token, the grant revoked) goes through the unit of
 * work with a `{type: 'grant'}` change: the provider answers only once every instance has dropped
 * the grant's tokens from its cache (docs/oauth.md (Revocation), the guarantee keys have).
 */
export function recordAdapter(
  records: OAuthRecordRepository,
  clock: Clock,
  uow: UnitOfWork,
): new (kind: string) => ProviderAdapter {
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
      if (this.kind === 'Grant') return this.revokeByGrantId(id);
      if (this.kind !== 'AccessToken') return records.destroy(this.kind, id);
      await uow.inTransaction(async (tx, changed) => {
        const grantId = await records.within(tx).destroyOf(this.kind, id);
        if (grantId !== null) changed({ type: 'grant', id: grantId });
      });
    }

    // Every model's revokeByGrantId deletes the whole grant; the change goes with each, since the
    // provider calls them together and answers after all of them.
    async revokeByGrantId(grantId: string): Promise<void> {
      await uow.inTransaction(async (tx, changed) => {
        await records.within(tx).destroyGrant(grantId);
        changed({ type: 'grant', id: grantId });
      });
    }

    private expired(expiresAt: Date | null): boolean {
      return expiresAt !== null && expiresAt.getTime() <= clock.nowMs();
    }
  };
}
