import { describe, expect, it } from 'vitest';
import type { RolledKey } from '../../../src/keys/key-schemas.ts';
import type { Session } from '../../support/harness.ts';
import { expectProblem } from '../../support/problems.ts';
import { json, useHarness } from '../../support/use.ts';

// The harness's clock: today is 2026-11-22 (UTC); 30 days on is 2026-12-22.
const create = (s: Session, body: Record<string, unknown>) =>
  s.request('POST', '/backoffice/api/api-keys', { name: 'policy test', ...body });
const roll = (s: Session, id: string, body: Record<string, unknown>) =>
  s.request('POST', `/backoffice/api/api-keys/${id}/roll`, { overlap: 'none', ...body });
const setPolicy = async (s: Session, policy: Record<string, unknown>) =>
  expect((await s.request('PATCH', '/backoffice/api/key-policy', policy)).statusCode).toBe(200);

/** docs/keys.md (Key policy): each rule, on and off, for a create and a roll over HTTP. */
describe('the key policy, enforced on create and roll', () => {
  const h = useHarness();

  it('require_expiry: off, a key without expiry is created; on, 400 key_policy_violation naming expires_at', async () => {
    const admin = await h.signedIn();
    expect((await create(admin, {})).statusCode).toBe(201);
    await setPolicy(admin, { require_expiry: true });
    const body = expectProblem(await create(admin, {}), 400, 'key_policy_violation');
    expect(body.errors).toEqual([{ path: 'expires_at', message: expect.stringContaining('expiry') as string }]);
    expect(body.detail).toContain('expires_at (require_expiry)');
    expect((await create(admin, { expires_at: '2030-01-01' })).statusCode).toBe(201);
    await setPolicy(admin, { require_expiry: false });
    expect((await create(admin, { expires_at: null })).statusCode).toBe(201);
  });

  it('max_lifetime_days: off, any expiry; on, refuses a later date or none and accepts the last allowed day', async () => {
    const admin = await h.signedIn();
    expect((await create(admin, { expires_at: '2036-01-01' })).statusCode).toBe(201);
    await setPolicy(admin, { max_lifetime_days: 30 });
    const late = expectProblem(await create(admin, { expires_at: '2026-12-23' }), 400, 'key_policy_violation');
    expect(late.errors?.[0]?.path).toBe('expires_at');
    expect(late.errors?.[0]?.message).toContain('2026-12-22');
    expect(late.detail).toContain('max_lifetime_days');
    expectProblem(await create(admin, {}), 400, 'key_policy_violation');
    expect((await create(admin, { expires_at: '2026-12-22' })).statusCode).toBe(201);
  });

  it('require_allowed_ips: off, a key is created; on, every new key without allowed_ips is refused', async () => {
    const admin = await h.signedIn();
    expect((await create(admin, {})).statusCode).toBe(201);
    await setPolicy(admin, { require_allowed_ips: true });
    const body = expectProblem(await create(admin, { expires_at: '2027-01-01' }), 400, 'key_policy_violation');
    expect(body.errors?.map((e) => e.path)).toEqual(['allowed_ips']);
    expect(body.detail).toContain('require_allowed_ips');
  });

  it('still answers 400 invalid_request for a malformed expiry before judging it by the policy', async () => {
    const admin = await h.signedIn();
    await setPolicy(admin, { max_lifetime_days: 30 });
    expectProblem(await create(admin, { expires_at: '2026-02-30' }), 400, 'invalid_request');
    expectProblem(await create(admin, { expires_at: '2026-11-22' }), 400, 'invalid_request');
  });

  it('leaves existing keys alone: a key made before the policy keeps working and is listed', async () => {
    const admin = await h.signedIn();
    const old = await h.createKey(admin, { name: 'forever' });
    await setPolicy(admin, { require_expiry: true, max_lifetime_days: 30 });
    expect((await h.apiWith(old.secret, '/api/v1/whoami', { client: '10.37.0.1' })).statusCode).toBe(200);
    const listed = json<{ data: Array<{ id: string; enabled: boolean }> }>(
      await admin.request('GET', '/backoffice/api/api-keys'),
    );
    expect(listed.data).toEqual([expect.objectContaining({ id: old.api_key.id, enabled: true })]);
  });

  it('a roll keeps the old expiry when the policy allows it, and needs a new one when it does not', async () => {
    const admin = await h.signedIn();
    const allowed = await h.createKey(admin, { name: 'short', expires_at: '2026-12-01' });
    const forever = await h.createKey(admin, { name: 'forever' });
    const distant = await h.createKey(admin, { name: 'distant', expires_at: '2030-01-01' });
    expect((await roll(admin, forever.api_key.id, { overlap: '1h' })).statusCode).toBe(201);
    await setPolicy(admin, { max_lifetime_days: 30 });

    const kept = await roll(admin, allowed.api_key.id, {});
    expect(kept.statusCode, kept.body).toBe(201);
    expect(json<RolledKey>(kept).api_key.expires_at).toBe('2026-12-01');

    const refused = expectProblem(await roll(admin, distant.api_key.id, {}), 400, 'key_policy_violation');
    expect(refused.errors?.[0]?.path).toBe('expires_at');
    expect(refused.detail).toContain('new expires_at');
    const renewed = await roll(admin, distant.api_key.id, { expires_at: '2026-12-20' });
    expect(renewed.statusCode, renewed.body).toBe(201);
    expect(json<RolledKey>(renewed).api_key.expires_at).toBe('2026-12-20');
  });

  it('a roll under require_expiry needs an expiry for a key without one; off, it keeps none', async () => {
    const admin = await h.signedIn();
    const first = await h.createKey(admin, { name: 'no expiry' });
    const rolled = json<RolledKey>(await roll(admin, first.api_key.id, {}));
    expect(rolled.api_key.expires_at).toBeNull();
    await setPolicy(admin, { require_expiry: true });
    expectProblem(await roll(admin, rolled.api_key.id, {}), 400, 'key_policy_violation');
    const given = await roll(admin, rolled.api_key.id, { expires_at: '2027-06-01' });
    expect(json<RolledKey>(given).api_key.expires_at).toBe('2027-06-01');
  });

  it('a roll under require_allowed_ips is refused; a refused roll changes nothing', async () => {
    const admin = await h.signedIn();
    const key = await h.createKey(admin, { name: 'open' });
    await setPolicy(admin, { require_allowed_ips: true });
    expectProblem(await roll(admin, key.api_key.id, {}), 400, 'key_policy_violation');
    expect((await h.apiWith(key.secret, '/api/v1/whoami', { client: '10.37.0.2' })).statusCode).toBe(200);
    const listed = json<{ data: unknown[] }>(await admin.request('GET', '/backoffice/api/api-keys'));
    expect(listed.data).toHaveLength(1);
  });

  it("a roll's expires_at may shorten the key's life, never extend it, and must be a real future date", async () => {
    const admin = await h.signedIn();
    const key = await h.createKey(admin, { name: 'dated', expires_at: '2027-01-01' });
    const later = expectProblem(
      await roll(admin, key.api_key.id, { expires_at: '2027-01-02' }),
      400,
      'invalid_request',
    );
    expect(later.errors?.[0]?.path).toBe('expires_at');
    expectProblem(await roll(admin, key.api_key.id, { expires_at: 'soon' }), 400, 'invalid_request');
    expect(json<RolledKey>(await roll(admin, key.api_key.id, { expires_at: '2026-12-24' })).api_key.expires_at).toBe(
      '2026-12-24',
    );
  });
});
