import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/shared/principal.ts';
import { json, useHarness } from '../support/use.ts';
import { ENGINES } from '../support/databases.ts';

describe.each(ENGINES)('a key created in the back office (%s)', (engine) => {
  const h = useHarness({ engine });

  it('authenticates whoami by header, bearer and query', async () => {
    const admin = await h.signedIn();
    const { secret, api_key } = await h.createKey(admin, { name: 'Smoke' });
    for (const via of ['header', 'bearer', 'query'] as const) {
      const response = await h.api(secret, '/api/v1/whoami', via);
      expect(response.statusCode, via).toBe(200);
      expect(json<Principal>(response).key.id).toBe(api_key.id);
    }
  });

  it('sends a visitor of / to the API keys page', async () => {
    const response = await h.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/backoffice/settings/api-keys');
  });
});
