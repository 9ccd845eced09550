import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditEvents } from '../../../src/db/schema.ts';
import { ssoIdentities } from '../../../src/db/sso-tables.ts';
import { expectProblem } from '../../support/problems.ts';
import { useFixture, useHarness } from '../../support/use.ts';
import {
  asBrowser,
  expectRefused,
  listening,
  person,
  ssoSignIn,
  startProvider,
  tenantWithSso,
  useProvider,
} from '../../support/sso-kit.ts';

/** `DELETE /backoffice/api/users/{id}/sso-identity`: the next SSO sign-in finds the user by e-mail again. */
describe('unlinking a user’s single sign-on identity', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      const [main, other] = await Promise.all([startProvider(callback), startProvider(callback)]);
      return { origin, main, other };
    },
    async ({ main, other }) => {
      await Promise.all([main.close(), other.close()]);
    },
  );

  async function linkedUser(sub: string) {
    const tenant = await tenantWithSso(h, env.main);
    person(env.main, sub);
    const run = await ssoSignIn(env.origin, tenant.start, sub);
    const session = (await (await run.browser.get(`${env.origin}/backoffice/api/session`)).json()) as {
      user: { id: string };
    };
    return { ...tenant, userId: session.user.id };
  }

  it('unlinks (204, audited), so the person’s account moves to the tenant’s new provider', async () => {
    const { admin, tenantId, start, userId } = await linkedUser('sub-ida');
    const unlinked = await admin.request('DELETE', `/backoffice/api/users/${userId}/sso-identity`);
    expect(unlinked.statusCode, unlinked.body).toBe(204);
    const [entry] = await h.services.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, 'user.sso_identity_unlinked')));
    expect(entry).toMatchObject({ targetId: userId, detail: { issuers: [env.main.issuer] } });
    // Another sub at a new provider with the same e-mail is linked to the same account now.
    await useProvider(admin, env.other, { create_users: false });
    person(env.other, 'new-sub', { email: 'sub-ida@example.test' });
    const run = await ssoSignIn(env.origin, start, 'new-sub');
    expect(run.location).toBe('/backoffice/settings/api-keys');
    expect((await asBrowser(env.origin, run.browser)).user.email).toBe('sub-ida@example.test');
    // Again: nothing left to unlink is still 204.
    expect((await admin.request('DELETE', `/backoffice/api/users/${userId}/sso-identity`)).statusCode).toBe(204);
  });

  it('without unlinking, the same e-mail at a new provider is refused as a conflict', async () => {
    const { admin, start } = await linkedUser('sub-jo');
    await useProvider(admin, env.other, { create_users: false });
    person(env.other, 'another-sub', { email: 'sub-jo@example.test' });
    expectRefused(await ssoSignIn(env.origin, start, 'another-sub'), 'sso_identity_conflict');
  });

  it('needs users:manage: a Crew member gets 403 and the identity stays', async () => {
    const { tenantId, start, userId } = await linkedUser('sub-kai');
    const crew = await h.signIn((await h.user(tenantId, ['crew'])).email);
    expectProblem(
      await crew.request('DELETE', `/backoffice/api/users/${userId}/sso-identity`),
      403,
      'permission_denied',
    );
    // Still linked: the same sub signs in as the same user.
    const again = await ssoSignIn(env.origin, start, 'sub-kai');
    expect((await asBrowser(env.origin, again.browser)).user.email).toBe('sub-kai@example.test');
  });

  it('answers 404 for another tenant’s user, and leaves that identity linked', async () => {
    const { userId } = await linkedUser('sub-lou');
    const stranger = await h.signedIn(['system_administrator']);
    expectProblem(await stranger.request('DELETE', `/backoffice/api/users/${userId}/sso-identity`), 404, 'not_found');
    const kept = await h.services.database.db.select().from(ssoIdentities).where(eq(ssoIdentities.userId, userId));
    expect(kept).toHaveLength(1);
  });
});
