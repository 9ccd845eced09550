import { describe, expect, it } from 'vitest';
import { useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { apiFrom, expectProblem, unknownKey } from '../../support/problems.ts';

// RFC 6750: a bare challenge when no key came, invalid_token when one came and was refused; RFC
// 9728: either names the API's resource metadata (docs/oauth.md).
const METADATA = (h: { config: { publicUrl: string } }) =>
  `resource_metadata="${h.config.publicUrl}/.well-known/oauth-protected-resource/api/v1"`;

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({ now: START });

  describe('401 api_key_missing', () => {
    it('answers a request without a key with WWW-Authenticate', async () => {
      for (const url of ['/api/v1/whoami', '/api/v1/flights', `/api/v1/flights/${crypto.randomUUID()}`]) {
        const response = await apiFrom(h, '10.0.1.1', undefined, url);
        expectProblem(response, 401, 'api_key_missing');
        expect(response.headers['www-authenticate']).toBe(`Bearer realm="airkey", ${METADATA(h)}`);
      }
      const basic = await h.app.inject({
        method: 'GET',
        url: '/api/v1/whoami',
        headers: { authorization: 'Basic dXNlcjpwYXNz' },
        remoteAddress: '10.0.1.1',
      });
      expectProblem(basic, 401, 'api_key_missing');
    });
  });

  describe('401 api_key_invalid', () => {
    it('rejects malformed, unknown and deleted keys alike, with WWW-Authenticate', async () => {
      const admin = await h.signedIn();
      const { secret, api_key } = await h.createKey(admin);
      expect((await h.api(secret, '/api/v1/whoami')).statusCode).toBe(200);
      expect((await admin.request('DELETE', `/backoffice/api/api-keys/${api_key.id}`)).statusCode).toBe(204);
      const bad = [
        'ask_short',
        'not-a-key',
        `${secret}x`,
        secret.slice(0, -1),
        `ASK_${secret.slice(4)}`,
        unknownKey(),
        secret,
      ];
      for (const key of bad) {
        const response = await apiFrom(h, '10.0.2.1', key, '/api/v1/whoami');
        const body = expectProblem(response, 401, 'api_key_invalid');
        expect(response.headers['www-authenticate']).toBe(
          `Bearer realm="airkey", error="invalid_token", ${METADATA(h)}`,
        );
        expect(body.detail).not.toContain(key);
      }
    });
  });
});
