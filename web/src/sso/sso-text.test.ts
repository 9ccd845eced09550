import { describe, expect, it } from 'vitest';
import { draftOf, inputOf, ssoReasonText, ssoStartUrl } from './sso-text.ts';

describe('single sign-on on the page', () => {
  it('starts with the organisation’s slug, or with a work e-mail', () => {
    expect(ssoStartUrl(' Fjord ', '/backoffice/settings/users')).toBe(
      '/backoffice/api/sso/start?org=fjord&next=%2Fbackoffice%2Fsettings%2Fusers',
    );
    expect(ssoStartUrl('ada@fjord.example', '/backoffice')).toBe(
      '/backoffice/api/sso/start?email=ada%40fjord.example&next=%2Fbackoffice',
    );
  });

  it('says why a sign-in was refused, for the reasons the server gives only', () => {
    expect(ssoReasonText('sso_domain_not_allowed')).toMatch(/domain/);
    expect(ssoReasonText('session_expired')).toBeUndefined();
    expect(ssoReasonText('toString')).toBeUndefined();
  });

  it('keeps the stored secret unless a new one is typed, and reads the role map a line each', () => {
    const draft = draftOf({
      issuer: 'https://login.example.com',
      client_id: 'airkey',
      client_secret_set: true,
      allowed_domains: ['a.example', 'b.example'],
      default_roles: ['crew'],
      role_claim: 'groups',
      role_map: { admins: ['system_administrator'] },
      create_users: true,
    });
    expect(draft.role_map).toBe('admins: system_administrator');
    const input = inputOf({ ...draft, role_map: 'admins: system_administrator\nops team: operations, crew' });
    expect(input).not.toHaveProperty('client_secret');
    expect(input.allowed_domains).toEqual(['a.example', 'b.example']);
    expect(input.role_map).toEqual({ admins: ['system_administrator'], 'ops team': ['operations', 'crew'] });
    expect(inputOf({ ...draft, client_secret: 's3cret' }).client_secret).toBe('s3cret');
  });
});
