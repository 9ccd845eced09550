import { describe, expect, it } from 'vitest';
import { expectProblem } from '../../support/problems.ts';
import { useFixture, useHarness } from '../../support/use.ts';
import { listening, person, ssoSignIn, startProvider, tenantWithSso } from '../../support/sso-kit.ts';

/** A client secret is the credential of one provider: it never goes to another issuer. */
describe('changing the issuer of single sign-on', () => {
  const h = useHarness({ config: { ssoAllowPrivate: true }, now: new Date() });
  const env = useFixture(
    async () => {
      const { origin, callback } = await listening(h);
      const [first, second] = await Promise.all([startProvider(callback), startProvider(callback)]);
      return { origin, first, second };
    },
    async ({ first, second }) => {
      await Promise.all([first.close(), second.close()]);
    },
  );

  it('refuses a new issuer without a new client secret in the same request (400), keeping the old provider', async () => {
    const tenant = await tenantWithSso(h, env.first);
    const moved = await tenant.admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      sso: { issuer: env.second.issuer, client_id: env.second.clientId, allowed_domains: ['example.test'] },
    });
    const problem = expectProblem(moved, 400, 'invalid_request');
    expect(problem.errors?.[0]?.path).toBe('sso.client_secret');
    expect(problem.errors?.[0]?.message).toMatch(/new issuer needs its own client secret/);
    expect(moved.body).not.toContain(env.first.clientSecret);
    const read = await tenant.admin.request('GET', '/backoffice/api/sign-in-settings');
    expect(read.json()).toMatchObject({ sso: { issuer: env.first.issuer, client_id: env.first.clientId } });
    // Still the first provider that signs people in.
    person(env.first, 'sub-ines');
    const run = await ssoSignIn(env.origin, tenant.start, 'sub-ines');
    expect(run.location).toBe('/backoffice/settings/api-keys');
  });

  it('accepts a new issuer with its own client secret, and signs in there', async () => {
    const tenant = await tenantWithSso(h, env.first);
    const moved = await tenant.admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      sso: {
        issuer: env.second.issuer,
        client_id: env.second.clientId,
        client_secret: env.second.clientSecret,
        allowed_domains: ['example.test'],
        create_users: true,
      },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    person(env.second, 'sub-olga');
    const run = await ssoSignIn(env.origin, tenant.start, 'sub-olga');
    expect(run.location).toBe('/backoffice/settings/api-keys');
  });

  it('keeps the stored secret when the issuer stays the same', async () => {
    const tenant = await tenantWithSso(h, env.first);
    const renamed = await tenant.admin.request('PATCH', '/backoffice/api/sign-in-settings', {
      sso: { issuer: env.first.issuer, client_id: env.first.clientId, allowed_domains: ['example.test'] },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});
