import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyView, KeyList } from '../../../src/keys/key-schemas.ts';
import { mcpRoutes } from '../../../src/mcp/mcp-routes.ts';
import type { Usage } from '../../../src/usage/usage-schemas.ts';
import { createKeyWithIps, mcpFrom, whoamiFrom } from '../../support/allowlist-kit.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { expectProblem, unknownKey } from '../../support/problems.ts';
import { rateLimitFieldsOf } from '../../support/rate-limit-kit.ts';

const START = '2026-11-22T12:00:30Z';

/** docs/keys.md (IP allowlists): a valid key outside its list is 403 api_key_ip_not_allowed, before any rate limit, on /api/v1 and /mcp. */
describe('requests from outside a key’s allowed_ips', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ now: START, app: { plugins: [mcpRoutes] } });
  });
  afterAll(async () => h.close());

  it('accepts IPv4 and IPv6 clients inside the list and refuses the rest with 403 naming the address seen', async () => {
    const admin = await h.signedIn();
    const { secret } = await createKeyWithIps(admin, ['192.0.2.0/24', '2001:db8::/32', '203.0.113.7']);
    const statuses = async (peers: string[]) =>
      Promise.all(peers.map(async (peer) => (await whoamiFrom(h, secret, peer)).statusCode));
    expect(await statuses(['192.0.2.1', '192.0.2.255', '2001:db8:1::5', '203.0.113.7', '::ffff:192.0.2.9'])).toEqual([
      200, 200, 200, 200, 200,
    ]);
    expect(await statuses(['192.0.3.0', '2001:db9::1', '203.0.113.8', '::ffff:203.0.113.9', '::1'])).toEqual([
      403, 403, 403, 403, 403,
    ]);
    const refused = await whoamiFrom(h, secret, '::ffff:198.51.100.23');
    const problem = expectProblem(refused, 403, 'api_key_ip_not_allowed');
    expect(problem.detail).toBe(
      "This API key may not be used from 198.51.100.23: it is outside the key's allowed_ips.",
    );
    expect(problem.type).toBe('https://airkey.dev/problems/api_key_ip_not_allowed');
    expect(refused.headers['www-authenticate']).toBeUndefined();
    expect(refused.body).not.toContain(secret);
  });

  it('gives an MCP client from outside the list an HTTP 403, not a tool error', async () => {
    const admin = await h.signedIn();
    const { secret } = await createKeyWithIps(admin, ['192.0.2.0/24']);
    expect((await mcpFrom(h, secret, '192.0.2.10')).statusCode).toBe(200);
    const refused = await mcpFrom(h, secret, '198.51.100.1');
    const problem = expectProblem(refused, 403, 'api_key_ip_not_allowed');
    expect(problem.detail).toContain('198.51.100.1');
    expect(refused.body).not.toContain('jsonrpc');
  });

  it('spends none of the rate limit on a refused address: the allowed client still gets every request', async () => {
    const admin = await h.signedIn();
    const { secret } = await createKeyWithIps(admin, ['192.0.2.1'], { rate_limit: { requests: 2, window: '1m' } });
    for (let i = 0; i < 5; i++) {
      const refused = await whoamiFrom(h, secret, '198.51.100.1');
      expectProblem(refused, 403, 'api_key_ip_not_allowed');
      expect(refused.headers['retry-after']).toBeUndefined();
    }
    const inside = [await whoamiFrom(h, secret, '192.0.2.1'), await whoamiFrom(h, secret, '192.0.2.1')];
    expect(inside.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(rateLimitFieldsOf(inside[1]!.headers)?.current).toMatchObject({ r: 0 });
    expectProblem(await whoamiFrom(h, secret, '192.0.2.1'), 429, 'rate_limited');
    // Still refused for its address, not for the spent limit.
    expectProblem(await whoamiFrom(h, secret, '198.51.100.1'), 403, 'api_key_ip_not_allowed');
  });

  it('counts refusals as ip_refused, never as ok or rejected, and records the last address refused', async () => {
    h.clock.set(START);
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithIps(admin, ['192.0.2.0/24']);
    await whoamiFrom(h, secret, '192.0.2.5');
    await whoamiFrom(h, secret, '198.51.100.1');
    h.clock.advance(1_000);
    await whoamiFrom(h, secret, '2001:db8::9');
    await h.services.usage.counter.flush();
    await h.services.keys.lastUse.flush();
    const usage = (await admin.request('GET', `/backoffice/api/api-keys/${api_key.id}/usage`)).json<Usage>();
    expect(usage.total).toEqual({ ok: 1, rejected: 0, rate_limited: 0, ip_refused: 2, quota_exceeded: 0 });
    const tenant = (await admin.request('GET', '/backoffice/api/usage')).json<Usage>();
    expect(tenant.total).toEqual({ ok: 1, rejected: 0, rate_limited: 0, ip_refused: 2, quota_exceeded: 0 });
    const listed = (await admin.request('GET', '/backoffice/api/api-keys')).json<KeyList>();
    expect(listed.data[0]).toMatchObject<Partial<ApiKeyView>>({
      last_refused_ip: '2001:db8::9',
      last_refused_at: '2026-11-22T12:00:31.000Z',
      // A refusal is no use of the key.
      last_used_at: '2026-11-22T12:00:30.000Z',
    });
  });

  it('does not count address refusals as failed key checks: the client is not throttled for them', async () => {
    const admin = await h.signedIn();
    const { secret } = await createKeyWithIps(admin, ['192.0.2.1']);
    // More than the 20 failures a minute that block a client guessing keys.
    for (let i = 0; i < 25; i++) expect((await whoamiFrom(h, secret, '198.51.100.200')).statusCode).toBe(403);
    const guess = await h.apiWith(unknownKey('Q'), '/api/v1/whoami', { client: '198.51.100.200' });
    expectProblem(guess, 401, 'api_key_invalid');
  });

  it('refuses at once when the list changes, on this instance (the cached facts are dropped)', async () => {
    const admin = await h.signedIn();
    const { api_key, secret } = await createKeyWithIps(admin, null);
    expect((await whoamiFrom(h, secret, '198.51.100.1')).statusCode).toBe(200);
    const url = `/backoffice/api/api-keys/${api_key.id}`;
    expect((await admin.request('PATCH', url, { allowed_ips: ['192.0.2.0/24'] })).statusCode).toBe(200);
    expectProblem(await whoamiFrom(h, secret, '198.51.100.1'), 403, 'api_key_ip_not_allowed');
    expect((await admin.request('PATCH', url, { allowed_ips: null })).statusCode).toBe(200);
    expect((await whoamiFrom(h, secret, '198.51.100.1')).statusCode).toBe(200);
  });
});

/** TRUSTED_PROXIES through the app (the real-socket cases are in test/scale/trusted-proxies.test.ts). */
describe('allowed_ips behind a trusted proxy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ config: { trustedProxies: ['10.0.0.0/8'] } });
  });
  afterAll(async () => h.close());

  it('judges the client the trusted proxy names, never a leftmost entry the client wrote itself', async () => {
    const admin = await h.signedIn();
    const { secret } = await createKeyWithIps(admin, ['192.0.2.1']);
    expect((await whoamiFrom(h, secret, '10.0.0.1', '192.0.2.1')).statusCode).toBe(200);
    const spoofed = await whoamiFrom(h, secret, '10.0.0.1', '192.0.2.1, 198.51.100.66');
    expect(expectProblem(spoofed, 403, 'api_key_ip_not_allowed').detail).toContain('198.51.100.66');
    // An untrusted peer's header is ignored: the peer itself is the client.
    const untrusted = await whoamiFrom(h, secret, '198.51.100.7', '192.0.2.1');
    expect(expectProblem(untrusted, 403, 'api_key_ip_not_allowed').detail).toContain(' 198.51.100.7:');
  });
});
