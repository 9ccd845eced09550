import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { OAuthClient } from '../../support/oauth-kit.ts';

/** Open registration (RFC 7591) is throttled per client address (docs/oauth.md). */
describe('client registration', () => {
  const h = useHarness({ now: new Date() });

  it('refuses the 21st registration from one address within an hour with 429', async () => {
    for (let i = 0; i < 20; i++) expect((await new OAuthClient(h).register()).statusCode).toBe(201);
    const refused = await new OAuthClient(h).register();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'too_many_requests' });
    expect(refused.headers['retry-after']).toBe('3600');
  });
});
