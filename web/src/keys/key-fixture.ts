import type { ApiKey } from './keys-api.ts';

/** A plain enabled key for unit tests, with the fields a test cares about overridden. */
export function keyFixture(overrides: Partial<ApiKey>): ApiKey {
  return {
    id: 'k1',
    name: 'Crew sync',
    hint: 'ask_…Xy9Z',
    created_at: '2026-11-01T10:00:00.000Z',
    created_by: { id: 'u1', email: 'admin@demo.test' },
    expires_at: null,
    expires_at_time: null,
    retires_at: null,
    enabled: true,
    status: 'enabled',
    disabled_reason: null,
    last_used_at: null,
    rate_limit: null,
    allowed_ips: null,
    last_refused_ip: null,
    last_refused_at: null,
    quota: null,
    ...overrides,
  };
}
