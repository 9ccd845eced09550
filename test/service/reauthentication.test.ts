import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR, userActor, type UserActor } from '../../src/shared/actor.ts';
import { ReauthenticationRequiredError } from '../../src/shared/errors.ts';
import { rowsOf } from '../support/rows.ts';
import { actorIn, signedInAs, tenantWithUser } from '../support/actors.ts';
import { useHarness } from '../support/use.ts';

const ORIGIN_RP = { id: 'localhost', name: 'airkey', origin: 'http://localhost' };

/**
 * The services enforce the re-authentication window themselves: a second transport (the CLI, an
 * MCP tool, a future API) that hands them a stale user cannot skip it. Only the system actor,
 * which is no session, is exempt.
 */
describe('re-authentication, enforced by the services', () => {
  const h = useHarness();

  async function staleAndFresh(): Promise<{ stale: UserActor; fresh: UserActor; tenantId: string }> {
    const { tenant, actor } = await tenantWithUser(h);
    const row = (await rowsOf(h.services).users.findById(actor.id))!;
    const stale = userActor(row, { sessionId: null, reauthenticatedUntilMs: h.clock.nowMs(), enrolmentOnly: false });
    return { stale, fresh: signedInAs(row), tenantId: tenant.id };
  }

  it('refuses each sensitive method to a user whose sign-in is older than the window', async () => {
    const { stale, fresh, tenantId } = await staleAndFresh();
    const s = h.services;
    const key = (await s.keys.create(fresh, { name: 'k' })).api_key;
    const disabled = (await s.keys.create(fresh, { name: 'd' })).api_key;
    await s.keys.setEnabled(fresh, disabled.id, false);
    const webhook = (await s.webhooks.create(fresh, { url: 'https://hooks.example.com/x' })).webhook;
    const colleague = await actorIn(h, tenantId, ['crew']);
    const calls: Record<string, () => Promise<unknown>> = {
      'keys.create': () => s.keys.create(stale, { name: 'another' }),
      'keys.update enabling': () => s.keys.update(stale, disabled.id, { enabled: true }),
      'keys.delete': () => s.keys.delete(stale, key.id),
      'keyRolls.roll': () => s.keyRolls.roll(stale, key.id, 'none'),
      'keyPolicies.update': () => s.keyPolicies.update(stale, tenantId, { require_expiry: true }),
      'webhooks.create': () => s.webhooks.create(stale, { url: 'https://other.example.com/x' }),
      'webhooks.update url': () => s.webhooks.update(stale, webhook.id, { url: 'https://moved.example.com/x' }),
      'webhooks.rotateSecret': () => s.webhooks.rotateSecret(stale, webhook.id),
      'users.create': () =>
        s.users.create(stale, tenantId, { email: 'n@example.test', name: 'N', roles: ['crew'], password: undefined }),
      'users.update': () => s.users.update(stale, tenantId, colleague.id, { name: 'Renamed' }),
      'users.delete': () => s.users.delete(stale, tenantId, colleague.id),
      'users.changeOwnPassword': () =>
        s.users.changeOwnPassword(stale, '10.0.0.1', 'a-long-test-password', 'a new long password'),
      'secondFactors.beginTotp': () => s.secondFactors.beginTotp(stale),
      'secondFactors.confirmTotp': () => s.secondFactors.confirmTotp(stale, '123456'),
      'secondFactors.removeTotp': () => s.secondFactors.removeTotp(stale),
      'secondFactors.passkeyOptions': () => s.secondFactors.passkeyOptions(stale, ORIGIN_RP),
      'secondFactors.removePasskey': () => s.secondFactors.removePasskey(stale, key.id),
      'secondFactors.regenerateRecoveryCodes': () => s.secondFactors.regenerateRecoveryCodes(stale),
      'secondFactors.resetForUser': () => s.secondFactors.resetForUser(stale, tenantId, colleague.id),
      'signInSettings.update': () => s.signInSettings.update(stale, tenantId, { second_factor_required: 'everyone' }),
      'sessions.endForTenant': () => s.sessions.endForTenant(stale, tenantId),
    };
    const outcomes: Record<string, string> = {};
    for (const [name, call] of Object.entries(calls)) {
      outcomes[name] = await call().then(
        () => 'done',
        (error: unknown) => (error instanceof ReauthenticationRequiredError ? 'refused' : String(error)),
      );
    }
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(calls).map((name) => [name, 'refused'])));
    expect((await s.keys.list(fresh)).data.map((k) => k.id)).toContain(key.id);
  });

  it('lets the system actor (the CLI) act without a session', async () => {
    const { tenantId } = await staleAndFresh();
    const colleague = await actorIn(h, tenantId, ['crew']);
    await expect(
      h.services.users.update(SYSTEM_ACTOR, tenantId, colleague.id, { name: 'By the CLI' }),
    ).resolves.toMatchObject({
      name: 'By the CLI',
    });
  });
});
