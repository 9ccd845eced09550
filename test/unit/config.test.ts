import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('reads the documented defaults from an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      demo: true,
      maxKeysPerTenant: 1000,
      trustedProxies: [],
      revocationWaitMs: 2000,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('refuses settings that cannot work, each with a one-line reason', () => {
    const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
      [{ PORT: 'eighty' }, /PORT/],
      [{ MAX_KEYS_PER_TENANT: '0' }, /MAX_KEYS_PER_TENANT/],
      [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
      [{ REVOCATION_WAIT_MS: '50' }, /REVOCATION_WAIT_MS/],
      [{ AIRKEY_ADMIN_EMAIL: 'bad' }, /AIRKEY_ADMIN_EMAIL/],
      [{ AIRKEY_ADMIN_PASSWORD: 'short' }, /AIRKEY_ADMIN_PASSWORD/],
      [{ TRUSTED_PROXIES: '10.0.0.1/8' }, /TRUSTED_PROXIES: "10.0.0.1\/8" has host bits set/],
      [{ TRUSTED_PROXIES: '10.0.0.1, proxy.internal' }, /TRUSTED_PROXIES: "proxy.internal" is not/],
      [{ TRUST_PROXY_HOPS: '1' }, /TRUSTED_PROXIES/],
    ];
    for (const [env, reason] of cases) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(reason);
    }
    expect(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.0/8 ,::FFFF:192.0.2.1, 2001:DB8::/32,' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.0.2.1',
      '2001:db8::/32',
    ]);
    expect(
      loadConfig({ AIRKEY_ADMIN_EMAIL: 'Ops@Example.test', AIRKEY_ADMIN_PASSWORD: 'long-enough-1', AIRKEY_DEMO: '0' })
        .demo,
    ).toBe(false);
  });
});
