import { describe, expect, it } from 'vitest';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import { mcpCall } from '../../support/mcp-inject.ts';
import { json, useHarness } from '../../support/use.ts';
import { START } from '../../support/manual-clock.ts';
import { apiFrom, expectProblem } from '../../support/problems.ts';

/** docs/api.md (errors), through the real HTTP app. */
describe('problem responses (docs/api.md (errors))', () => {
  const h = useHarness({ now: START, rewindClock: true, app: { plugins: [mcpRoutes] } });

  describe('401 api_key_disabled and api_key_expired', () => {
    it('rejects a disabled key', async () => {
      const admin = await h.signedIn();
      const { secret, api_key } = await h.createKey(admin);
      await admin.request('PATCH', `/backoffice/api/api-keys/${api_key.id}`, { enabled: false });
      const refused = await apiFrom(h, '10.0.3.1', secret, '/api/v1/whoami');
      expectProblem(refused, 401, 'api_key_disabled');
      expect(refused.headers['www-authenticate']).toBe(
        `Bearer realm="airkey", error="invalid_token", resource_metadata="${h.config.publicUrl}/.well-known/oauth-protected-resource/api/v1"`,
      );
    });

    it('rejects a key from 00:00:00 UTC of its expiry date, enabled or not', async () => {
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin, { expires_at: '2026-11-23' });
      const disabled = await h.createKey(admin, { name: 'disabled', expires_at: '2026-11-23' });
      await admin.request('PATCH', `/backoffice/api/api-keys/${disabled.api_key.id}`, { enabled: false });
      h.clock.set('2026-11-22T23:59:59.999Z');
      expect((await h.api(secret, '/api/v1/whoami')).statusCode).toBe(200);
      h.clock.set('2026-11-23T00:00:00.000Z');
      const expired = await apiFrom(h, '10.0.3.2', secret, '/api/v1/whoami');
      expectProblem(expired, 401, 'api_key_expired');
      expect(expired.headers['www-authenticate']).toBe(
        `Bearer realm="airkey", error="invalid_token", resource_metadata="${h.config.publicUrl}/.well-known/oauth-protected-resource/api/v1"`,
      );
      expectProblem(await apiFrom(h, '10.0.3.2', disabled.secret, '/api/v1/whoami'), 401, 'api_key_expired');
      // The old session has lived its 12 hours by now: sign in again.
      const later = await h.signIn(admin.email);
      const listed = json<{ data: Array<{ status: string; expires_at_time: string }> }>(
        await later.request('GET', '/backoffice/api/api-keys'),
      ).data;
      expect(listed.map((k) => [k.status, k.expires_at_time])).toEqual([
        ['expired', '2026-11-23T00:00:00.000Z'],
        ['expired', '2026-11-23T00:00:00.000Z'],
      ]);
    });

    it('refuses an expired key on MCP with 401 api_key_expired problem+json, before any JSON-RPC', async () => {
      const admin = await h.signedIn();
      const { secret } = await h.createKey(admin, { name: 'expiring agent', expires_at: '2026-11-23' });
      expect((await mcpCall(h, secret, 'tools/call', { name: 'whoami', arguments: {} })).statusCode).toBe(200);
      h.clock.set('2026-11-23T00:00:00Z');
      for (const method of ['initialize', 'tools/list', 'tools/call']) {
        const params = method === 'tools/call' ? { name: 'whoami', arguments: {} } : {};
        const response = await mcpCall(h, secret, method, params);
        expectProblem(response, 401, 'api_key_expired');
        expect(response.body).not.toMatch(/jsonrpc/);
      }
    });
  });
});
