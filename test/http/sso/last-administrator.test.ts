import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../../../src/db/schema.ts';
import { SYSTEM_ACTOR } from '../../../src/shared/actor.ts';
import { useFixture, useHarness } from '../../support/use.ts';
import { asBrowser, listening, person, ssoSignIn, startProvider, tenantWithSso } from '../../support/sso-kit.ts';

const RULES = {
  role_claim: 'groups',
  role_map: { admins: ['system_administrator'], crew: ['crew'] },
  create_users: true,
};

/** A role map at the provider must not leave the tenant without anyone who can manage it. */
describe('the last System Administrator and the role map', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      return { origin, provider: await startProvider(callback) };
    },
    ({ provider }) => provider.close(),
  );

  /** A tenant whose only System Administrator is the SSO person `sub` (its set-up admin stepped down). */
  async function soleAdministrator(sub: string) {
    const tenant = await tenantWithSso(h, env.provider, RULES);
    person(env.provider, sub, { groups: ['admins'] });
    const first = await ssoSignIn(env.origin, tenant.start, sub);
    expect((await asBrowser(env.origin, first.browser)).user.roles).toEqual(['system_administrator']);
    // The set-up administrator steps down (as the CLI would), leaving the SSO person the only one.
    await h.services.accounts.users.update(SYSTEM_ACTOR, tenant.tenantId, tenant.admin.userId, { roles: ['crew'] });
    return tenant;
  }

  it('keeps the roles of the last System Administrator, audits the refusal, and signs them in', async () => {
    const tenant = await soleAdministrator('sub-ana');
    person(env.provider, 'sub-ana', { groups: ['crew'] });
    const run = await ssoSignIn(env.origin, tenant.start, 'sub-ana');
    expect(run.location).toBe('/backoffice/settings/api-keys');
    expect((await asBrowser(env.origin, run.browser)).user.roles).toEqual(['system_administrator']);
    const [refused] = await h.services.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenant.tenantId), eq(auditEvents.action, 'user.roles_change_refused')))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(refused?.detail).toMatchObject({
      from: ['system_administrator'],
      to: ['crew'],
      reason: 'last_system_administrator',
      via: 'sso',
    });
  });

  it('changes the roles when another System Administrator remains', async () => {
    const tenant = await tenantWithSso(h, env.provider, RULES);
    person(env.provider, 'sub-ben', { groups: ['admins'] });
    await ssoSignIn(env.origin, tenant.start, 'sub-ben');
    // The tenant's set-up administrator is still one: sub-ben may step down.
    person(env.provider, 'sub-ben', { groups: ['crew'] });
    const run = await ssoSignIn(env.origin, tenant.start, 'sub-ben');
    expect((await asBrowser(env.origin, run.browser)).user.roles).toEqual(['crew']);
  });
});
