import { describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR, userActor, type UserActor } from '../../../src/shared/actor.ts';
import { ReauthenticationRequiredError } from '../../../src/shared/errors.ts';
import { rowsOf } from '../../support/rows.ts';
import { actorIn, signedInAs, tenantWithUser } from '../../support/actors.ts';
import { useHarness } from '../../support/use.ts';

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
    const key = (await s.keys.lifecycle.create(fresh, { name: 'k' })).api_key;
    const disabled = (await s.keys.lifecycle.create(fresh, { name: 'd' })).api_key;
    await s.keys.lifecycle.setEnabled(fresh, disabled.id, false);
    const webhook = (await s.webhooks.endpoints.create(fresh, { url: 'https://hooks.example.com/x' })).webhook;
    const colleague = await actorIn(h, tenantId, ['crew']);
    const calls: Record<string, () => Promise<unknown>> = {
      'keys.create': () => s.keys.lifecycle.create(stale, { name: 'another' }),
      'keys.update enabling': () => s.keys.lifecycle.update(stale, disabled.id, { enabled: true }),
      'keys.delete': () => s.keys.lifecycle.delete(stale, key.id),
      'keyRolls.roll': () => s.keys.rolls.roll(stale, key.id, 'none'),
      'keyPolicies.update': () => s.keys.policies.update(stale, tenantId, { require_expiry: true }),
      'webhooks.create': () => s.webhooks.endpoints.create(stale, { url: 'https://other.example.com/x' }),
      'webhooks.update url': () =>
        s.webhooks.endpoints.update(stale, webhook.id, { url: 'https://moved.example.com/x' }),
      'webhooks.rotateSecret': () => s.webhooks.endpoints.rotateSecret(stale, webhook.id),
      'users.create': () =>
        s.accounts.users.create(stale, tenantId, {
          email: 'n@example.test',
          name: 'N',
          roles: ['crew'],
          password: undefined,
        }),
      'users.update': () => s.accounts.users.update(stale, tenantId, colleague.id, { name: 'Renamed' }),
      'users.delete': () => s.accounts.users.delete(stale, tenantId, colleague.id),
      'users.changeOwnPassword': () =>
        s.accounts.users.changeOwnPassword(stale, '10.0.0.1', 'a-long-test-password', 'a new long password'),
      'secondFactors.beginTotp': () => s.signIn.secondFactors.beginTotp(stale),
      'secondFactors.confirmTotp': () => s.signIn.secondFactors.confirmTotp(stale, '123456'),
      'secondFactors.removeTotp': () => s.signIn.secondFactors.removeTotp(stale),
      'secondFactors.passkeyOptions': () => s.signIn.secondFactors.passkeyOptions(stale, ORIGIN_RP),
      'secondFactors.removePasskey': () => s.signIn.secondFactors.removePasskey(stale, key.id),
      'secondFactors.regenerateRecoveryCodes': () => s.signIn.secondFactors.regenerateRecoveryCodes(stale),
      'secondFactors.resetForUser': () => s.signIn.secondFactors.resetForUser(stale, tenantId, colleague.id),
      'signInSettings.update': () => s.signIn.settings.update(stale, tenantId, { second_factor_required: 'everyone' }),
      'sessions.endForTenant': () => s.signIn.sessions.endForTenant(stale, tenantId),
    };
    const outcomes: Record<string, string> = {};
    for (const [name, call] of Object.entries(calls)) {
      outcomes[name] = await call().then(
        () => 'done',
        (error: unknown) => (error instanceof ReauthenticationRequiredError ? 'refused' : String(error)),
      );
    }
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(calls).map((name) => [name, 'refused'])));
    expect((await s.keys.lifecycle.list(fresh)).data.map((k) => k.id)).toContain(key.id);
  });

  it('lets the system actor (the CLI) act without a session', async () => {
    const { tenantId } = await staleAndFresh();
    const colleague = await actorIn(h, tenantId, ['crew']);
    await expect(
      h.services.accounts.users.update(SYSTEM_ACTOR, tenantId, colleague.id, { name: 'By the CLI' }),
    ).resolves.toMatchObject({
      name: 'By the CLI',
    });
  });
});
