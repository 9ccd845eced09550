import { describe, expect, it } from 'vitest';
import type { Principal } from '../../../src/shared/principal.ts';
import { json, useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { expectProblem } from '../../support/problems.ts';

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({ now: START });

  describe('400 api_key_ambiguous', () => {
    it('refuses two different keys in one request, in any combination of places', async () => {
      const admin = await h.signedIn();
      const one = await h.createKey(admin, { name: 'one' });
      const two = await h.createKey(admin, { name: 'two' });
      const combos: Array<{ headers: Record<string, string>; query: string }> = [
        { headers: { 'x-api-key': one.secret, authorization: `Bearer ${two.secret}` }, query: '' },
        { headers: { 'x-api-key': one.secret }, query: `?api_key=${two.secret}` },
        { headers: { authorization: `Bearer ${one.secret}` }, query: `?api_key=${two.secret}` },
        { headers: {}, query: `?api_key=${one.secret}&api_key=${two.secret}` },
        { headers: { 'x-api-key': one.secret }, query: '?api_key=not-even-a-key' },
      ];
      for (const { headers, query } of combos) {
        const response = await h.app.inject({
          method: 'GET',
          url: `/api/v1/whoami${query}`,
          headers,
          remoteAddress: '10.0.0.2',
        });
        expectProblem(response, 400, 'api_key_ambiguous');
      }
    });

    it('accepts the same key sent in several places', async () => {
      const admin = await h.signedIn();
      const { secret, api_key } = await h.createKey(admin);
      const response = await h.app.inject({
        method: 'GET',
        url: `/api/v1/whoami?api_key=${secret}`,
        headers: { 'x-api-key': secret, authorization: `Bearer ${secret}` },
      });
      expect(response.statusCode).toBe(200);
      expect(json<Principal>(response).key.id).toBe(api_key.id);
    });
  });
});
