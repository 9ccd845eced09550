import { describe, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { expectProblem } from '../../support/problems.ts';

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({ now: START });

  describe('404 not_found', () => {
    it('answers unknown routes, key ids and flights', async () => {
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin);
      expectProblem(
        await admin.request('PATCH', `/backoffice/api/api-keys/${crypto.randomUUID()}`, { enabled: false }),
        404,
        'not_found',
      );
      expectProblem(await admin.request('DELETE', '/backoffice/api/api-keys/not-a-uuid'), 404, 'not_found');
      expectProblem(await h.api(secret, `/api/v1/flights/${crypto.randomUUID()}`), 404, 'not_found');
      expectProblem(await h.app.inject({ method: 'GET', url: '/no/such/route' }), 404, 'not_found');
    });
  });
});
