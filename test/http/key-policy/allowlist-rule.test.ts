import { describe, expect, it } from 'vitest';
import type { Session } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { useHarness } from '../../support/use.ts';

const create = (s: Session, body: Record<string, unknown>) =>
  s.request('POST', '/backoffice/api/api-keys', { name: 'allowlist rule', ...body });
const setPolicy = async (s: Session, policy: Record<string, unknown>) =>
  expect((await s.request('PATCH', '/backoffice/api/key-policy', policy)).statusCode).toBe(200);

/** docs/keys.md (Key policy): `require_allowed_ips` with allowlists in place: create, roll and PATCH. */
describe('the key policy requiring allowed_ips', () => {
  const h = useHarness();

  it('creates a key that has allowed_ips, and refuses one that has none', async () => {
    const admin = await h.signedIn();
    await setPolicy(admin, { require_allowed_ips: true });
    expect((await create(admin, { allowed_ips: ['203.0.113.0/24'] })).statusCode).toBe(201);
    const refused = expectProblem(await create(admin, { allowed_ips: null }), 400, 'key_policy_violation');
    expect(refused.errors?.map((error) => error.path)).toEqual(['allowed_ips']);
  });

  it('rolls a key whose allowlist the successor inherits, and refuses one without', async () => {
    const admin = await h.signedIn();
    const listed = await h.createKey(admin, { name: 'listed', allowed_ips: ['198.51.100.7'] });
    const open = await h.createKey(admin, { name: 'open' });
    await setPolicy(admin, { require_allowed_ips: true });
    const rolled = await admin.request('POST', `/backoffice/api/api-keys/${listed.api_key.id}/roll`, {
      overlap: 'none',
    });
    expect(rolled.statusCode).toBe(201);
    expect(rolled.json<{ api_key: { allowed_ips: string[] } }>().api_key.allowed_ips).toEqual(['198.51.100.7']);
    const refused = await admin.request('POST', `/backoffice/api/api-keys/${open.api_key.id}/roll`, {
      overlap: 'none',
    });
    expectProblem(refused, 400, 'key_policy_violation');
  });

  it('refuses a PATCH that removes the allowlist, and lets one that narrows it through', async () => {
    const admin = await h.signedIn();
    const key = await h.createKey(admin, { name: 'narrowed', allowed_ips: ['198.51.100.0/24'] });
    await setPolicy(admin, { require_allowed_ips: true, require_expiry: true });
    const path = `/backoffice/api/api-keys/${key.api_key.id}`;
    // The key never expires, yet a change of its list is judged by the allowlist rule alone.
    const narrowed = await admin.request('PATCH', path, { allowed_ips: ['198.51.100.7'] });
    expect(narrowed.statusCode).toBe(200);
    const removed = expectProblem(
      await admin.request('PATCH', path, { allowed_ips: null }),
      400,
      'key_policy_violation',
    );
    expect(removed.errors?.map((error) => error.path)).toEqual(['allowed_ips']);
    const after = await admin.request('GET', '/backoffice/api/api-keys');
    const view = after
      .json<{ data: Array<{ id: string; allowed_ips: string[] | null }> }>()
      .data.find((listedKey) => listedKey.id === key.api_key.id);
    expect(view?.allowed_ips).toEqual(['198.51.100.7']);
  });
});
