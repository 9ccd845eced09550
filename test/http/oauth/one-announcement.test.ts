import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyChange } from '../../../src/revocation/change.ts';
import { CHANGE_CHANNEL } from '../../../src/revocation/change-feed.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';
import { ENGINES, type Engine } from '../../support/databases.ts';
import type { Harness, Session } from '../../support/harness.ts';
import { connectedApp } from '../../support/oauth-resource-kit.ts';
import { useHarness } from '../../support/use.ts';

const SENTINEL = 'airkey_test_sentinel';

/**
 * What the change feed carried: on PostgreSQL every NOTIFY on its channel, heard by a listener of
 * our own; on PGlite (one process) every change the unit of work delivered.
 */
function announcements(h: Harness, engine: Engine) {
  const heard: KeyChange[] = [];
  let listener: pg.Client | undefined;
  let arrived = () => {};
  beforeAll(async () => {
    if (engine === 'pglite') return h.services.changes.onChange((change) => heard.push(change));
    listener = new pg.Client({ connectionString: h.config.databaseUrl });
    await listener.connect();
    listener.on('notification', ({ channel, payload }) => {
      if (channel === SENTINEL) arrived();
      else heard.push(JSON.parse(payload!) as KeyChange);
    });
    await listener.query(`listen ${CHANGE_CHANNEL}; listen ${SENTINEL}`);
  });
  afterAll(() => listener?.end());
  /** The changes about `type` `id` announced so far (on PostgreSQL: all committed before this call). */
  return async (type: KeyChange['type'], id: string) => {
    if (listener) {
      // Notifications reach a listener in commit order: once this one is heard, all before it were.
      const done = new Promise<void>((resolve) => (arrived = resolve));
      await listener.query(`notify ${SENTINEL}`);
      await done;
    }
    return heard.filter((change) => change.type === type && 'id' in change && change.id === id).length;
  };
}

/**
 * Each way a grant ends announces `{type: 'grant'}` once, in the transaction that deletes it
 * (docs/oauth.md (Revocation)); a deleted person's tokens end by the person's own change.
 */
describe.each(ENGINES)('one announcement per ended grant on %s', (engine) => {
  const h = useHarness({ engine, now: new Date(), config: { reauthMinutes: 10 } });
  const announced = announcements(h, engine);

  async function connected(person?: Session) {
    const session = person ?? (await h.signedIn());
    const app = await connectedApp(h, session, 'api');
    const grants = await session.request('GET', '/backoffice/api/oauth-grants');
    const grantId = grants.json<{ data: Array<{ id: string }> }>().data[0]!.id;
    return { ...app, session, grantId };
  }

  it('announces a refresh token revoked by its app (RFC 7009) once', async () => {
    const { client, tokens, grantId } = await connected();
    const revoked = await client.post('/oauth/token/revocation', {
      client_id: client.clientId,
      token: tokens.refresh_token,
    });
    expect(revoked.statusCode).toBe(200);
    expect(await announced('grant', grantId)).toBe(1);
  });

  it('announces an access token revoked by its app (RFC 7009) once, ending its grant', async () => {
    const { client, tokens, grantId } = await connected();
    const revoked = await client.post('/oauth/token/revocation', {
      client_id: client.clientId,
      token: tokens.access_token,
    });
    expect(revoked.statusCode).toBe(200);
    expect(await announced('grant', grantId)).toBe(1);
    const refreshed = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('announces a grant ended for a replayed refresh token once', async () => {
    const { client, tokens, grantId } = await connected();
    const rotated = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(rotated.statusCode).toBe(200);
    const replayed = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(replayed.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await announced('grant', grantId)).toBe(1);
  });

  it('announces a grant revoked in the back office once', async () => {
    const { session, grantId } = await connected();
    const revoked = await session.request('DELETE', `/backoffice/api/oauth-grants/${grantId}`);
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect(await announced('grant', grantId)).toBe(1);
  });

  it('ends a deleted person’s tokens by one announcement of the person, none of the grant', async () => {
    const admin = await h.signedIn();
    const person = await h.user(admin.tenantId, ['system_administrator']);
    const { client, tokens, grantId } = await connected(await h.signIn(person.email));
    await h.services.accounts.users.delete(SYSTEM_ACTOR, admin.tenantId, person.id);
    expect(await announced('user', person.id)).toBe(1);
    expect(await announced('grant', grantId)).toBe(0);
    const refreshed = await client.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(refreshed.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
