import { describe, expect, it } from 'vitest';
import { flowRefusal } from '../../../src/sso/flow-checks.ts';
import { checkIssuer } from '../../../src/sso/issuer-rules.ts';
import { safeNext } from '../../../src/sso/safe-next.ts';
import { domainOf, rolesFromClaims } from '../../../src/sso/sso-roles.ts';

const RULES = { roleClaim: 'groups', roleMap: { admins: ['system_administrator'], ops: ['operations', 'crew'] } };

describe('single sign-on rules', () => {
  it('maps the role claim’s values, keeps roles when the claim is absent, and drops them when none maps', () => {
    expect(rolesFromClaims({ groups: ['ops', 'admins', 'other'] }, RULES)).toEqual([
      'crew',
      'operations',
      'system_administrator',
    ]);
    expect(rolesFromClaims({ groups: 'ops' }, RULES)).toEqual(['crew', 'operations']);
    expect(rolesFromClaims({ groups: ['other'] }, RULES)).toEqual([]);
    expect(rolesFromClaims({}, RULES)).toBeUndefined();
    expect(rolesFromClaims({ groups: ['admins'] }, { ...RULES, roleClaim: null })).toBeUndefined();
    // A claim value named like an object's own property maps to nothing.
    expect(rolesFromClaims({ groups: ['constructor', '__proto__'] }, RULES)).toEqual([]);
  });

  it('reads the domain of an e-mail, lower-cased', () => {
    expect(domainOf('Ada@Fjord.Example')).toBe('fjord.example');
    expect(domainOf('no-domain')).toBeUndefined();
    expect(domainOf('@fjord.example')).toBeUndefined();
  });

  it('keeps a next that is a path of this server and drops anything that leaves it', () => {
    expect(safeNext('/backoffice/users?x=1#top')).toBe('/backoffice/users?x=1#top');
    for (const next of ['https://evil.test/', '//evil.test', '/\\evil.test', '/\tevil', 'javascript:x', '', null]) {
      expect(safeNext(next)).toBeNull();
    }
  });

  it('wants an https issuer at a public address unless SSO_ALLOW_PRIVATE=1', () => {
    expect(checkIssuer('https://login.example.com/tenant/v2.0', false)).toBe('https://login.example.com/tenant/v2.0');
    for (const issuer of [
      'http://login.example.com',
      'https://127.0.0.1',
      'https://[::1]',
      'https://192.168.1.2',
      'https://localhost',
      'https://u:p@login.example.com',
      'https://login.example.com/?a=1',
      'ftp://x',
    ]) {
      expect(() => checkIssuer(issuer, false), issuer).toThrow();
    }
    expect(checkIssuer('http://127.0.0.1:8080', true)).toBe('http://127.0.0.1:8080');
  });

  it('answers a flow once, before it expires, in the browser that started it', () => {
    const flow = { expiresAt: new Date(10_000), browserDigest: 'b' };
    expect(flowRefusal({ replayed: false, flow }, 'b', 9_999)).toBeUndefined();
    expect(flowRefusal({ replayed: true, flow }, 'b', 9_999)?.detail).toEqual({ why: 'replayed' });
    expect(flowRefusal({ replayed: false, flow }, 'b', 10_000)?.detail).toEqual({ why: 'expired' });
    expect(flowRefusal({ replayed: false, flow }, 'c', 9_999)?.detail).toEqual({ why: 'another_browser' });
    expect(flowRefusal({ replayed: false, flow }, undefined, 9_999)?.reason).toBe('sso_state_invalid');
  });
});
