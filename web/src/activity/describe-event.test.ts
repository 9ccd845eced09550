import { describe, expect, it } from 'vitest';
import type { AuditEvent } from './activity-api.ts';
import { actorOf, describeEvent } from './describe-event.ts';

const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
  id: '1',
  at: '2026-11-22T12:00:00.000Z',
  actor: { type: 'user', id: 'u1', email: 'ops@demo.test' },
  action: 'api_key.created',
  target: { type: 'api_key', id: 'k1', name: 'Crew sync' },
  detail: {},
  ...overrides,
});

describe('audit events in words', () => {
  it('names the key and its hint', () => {
    expect(describeEvent(event({ detail: { hint: 'ask_…Xy9Z', expires_at: '2027-01-01' } }))).toBe(
      'Created API key “Crew sync” (ask_…Xy9Z), expiring 2027-01-01',
    );
    expect(describeEvent(event({ action: 'api_key.disabled', detail: { hint: 'ask_…Xy9Z' } }))).toBe(
      'Disabled API key “Crew sync” (ask_…Xy9Z)',
    );
  });

  it('says why the system disabled a key as unused, and names a key policy change', () => {
    const swept = event({
      action: 'api_key.disabled',
      actor: { type: 'system', id: null, email: null },
      detail: { hint: 'ask_…Xy9Z', reason: 'unused', disable_unused_after_days: 90 },
    });
    expect(describeEvent(swept)).toBe('Disabled API key “Crew sync” (ask_…Xy9Z): unused for 90 days');
    expect(actorOf(swept)).toBe('System');
    const policy = event({ action: 'tenant.key_policy_changed', target: { type: 'tenant', id: 't1', name: 'Demo' } });
    expect(describeEvent(policy)).toBe('Changed the key policy');
  });

  it('says where a key may be used from after its allowlist changed', () => {
    const changed = (after: unknown) =>
      describeEvent(event({ action: 'api_key.allowed_ips_changed', detail: { hint: 'ask_…Xy9Z', after } }));
    expect(changed(['192.0.2.0/24', '2001:db8::/32'])).toBe(
      'Limited API key “Crew sync” (ask_…Xy9Z) to 2 addresses or ranges',
    );
    expect(changed(['192.0.2.1'])).toBe('Limited API key “Crew sync” (ask_…Xy9Z) to 1 address or range');
    expect(changed(null)).toBe('Limited API key “Crew sync” (ask_…Xy9Z) to any address');
  });

  it('says when a key never expires', () => {
    expect(describeEvent(event({ detail: { expires_at: null } }))).toBe('Created API key “Crew sync”, never expiring');
  });

  it('lists new roles by their names', () => {
    const changed = event({
      action: 'user.roles_changed',
      target: { type: 'user', id: 'u2', name: 'a@b.test' },
      detail: { from: [], to: ['operations', 'crew'] },
    });
    expect(describeEvent(changed)).toBe('Changed the roles of “a@b.test” (Operations, Crew)');
  });

  it('attributes expiry to the system', () => {
    const expired = event({ action: 'api_key.expired', actor: { type: 'system', id: null, email: null } });
    expect(actorOf(expired)).toBe('System');
    expect(describeEvent(expired)).toBe('API key “Crew sync” expired');
  });

  it('falls back to the raw action for one it does not know', () => {
    expect(describeEvent(event({ action: 'tenant.renamed' }))).toBe('tenant.renamed');
  });

  it('names a quota set, removed and reset', () => {
    const quota = (after: unknown) =>
      describeEvent(event({ action: 'api_key.quota_changed', detail: { hint: 'ask_…Xy9Z', before: null, after } }));
    expect(quota({ requests: 10000, period: 'month' })).toBe(
      'Set the quota of API key “Crew sync” (ask_…Xy9Z) to 10,000 requests a month',
    );
    expect(quota({ requests: 50, period: 'total' })).toBe(
      'Set the quota of API key “Crew sync” (ask_…Xy9Z) to 50 requests in total',
    );
    expect(quota(null)).toBe('Removed the quota of API key “Crew sync” (ask_…Xy9Z)');
    expect(describeEvent(event({ action: 'api_key.quota_reset', detail: { hint: 'ask_…Xy9Z' } }))).toBe(
      'Reset the quota of API key “Crew sync” (ask_…Xy9Z)',
    );
  });

  it('tells what happened to an app connected with OAuth, and why the system revoked one', () => {
    const app = { type: 'oauth_client' as const, id: 'https://claude.ai/client', name: 'Claude' };
    const mcp = 'https://airkey.example/mcp';
    expect(describeEvent(event({ action: 'oauth.app_approved', target: app, detail: { resource: mcp } }))).toBe(
      'Connected app “Claude” on the MCP server',
    );
    expect(describeEvent(event({ action: 'oauth.app_denied', target: app, detail: { reason: 'denied' } }))).toBe(
      'Denied app “Claude”',
    );
    const revoked = event({
      action: 'oauth.grant_revoked',
      target: app,
      detail: { by: 'person', user: { id: 'u2', email: 'crew@demo.test' } },
    });
    expect(describeEvent(revoked)).toBe('Revoked app “Claude” of crew@demo.test');
    const replay = event({
      action: 'oauth.grant_revoked',
      actor: { type: 'system', id: null, email: null },
      target: app,
      detail: { by: 'refresh_token_replay', user: { id: 'u1', email: 'ops@demo.test' } },
    });
    expect(describeEvent(replay)).toBe(
      'Revoked app “Claude” of ops@demo.test: a refresh token was used twice (possibly stolen)',
    );
    expect(describeEvent(event({ action: 'oauth.client_registered', target: app }))).toBe(
      'App “Claude” registered itself',
    );
    const document = { ...app, id: 'https://claude.ai/oauth/mcp-client.json' };
    expect(
      describeEvent(event({ action: 'oauth.client_registered', target: document, detail: { by_document: true } })),
    ).toBe('App “Claude” introduced itself with its document on claude.ai');
  });
});
