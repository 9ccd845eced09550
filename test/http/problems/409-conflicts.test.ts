import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { expectProblem } from '../../support/problems.ts';

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({ now: START, config: { maxKeysPerTenant: 2 }, rewindClock: true });

  describe('409 conflicts', () => {
    it('refuses toggling an expired key with api_key_expired', async () => {
      const admin = await h.signedIn();
      const { api_key } = await h.createKey(admin, { expires_at: '2026-11-23' });
      h.clock.set('2026-11-23T00:00:00Z');
      const later = await h.signIn(admin.email);
      expectProblem(
        await later.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: false }),
        409,
        'api_key_expired',
      );
      expectProblem(
        await later.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: true }),
        409,
        'api_key_expired',
      );
    });

    it('refuses enabling a key of a deleted creator with creator_deleted', async () => {
      const admin = await h.signedIn();
      const creator = await h.user(admin.tenantId, ['system_administrator']);
      const creatorSession = await h.signIn(creator.email);
      const { api_key } = await h.createKey(creatorSession);
      expect((await admin.request('DELETE', `/backoffice/api/users/${creator.id}`)).statusCode).toBe(204);
      expectProblem(
        await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: true }),
        409,
        'creator_deleted',
      );
    });

    it('refuses the key beyond MAX_KEYS_PER_TENANT with api_key_limit_reached', async () => {
      const admin = await h.signedIn();
      for (let i = 0; i < h.config.maxKeysPerTenant; i++) await h.createKey(admin, { name: `k${i}` });
      expectProblem(
        await admin.request('POST', '/backoffice/api/api-keys', { name: 'one more' }),
        409,
        'api_key_limit_reached',
      );
    });
  });
});
